// client_settings.cc: the few settings of Codex's config.toml and gemini-cli's settings.json that
// change which instruction files those clients load (ClientSettings in strata/discover.h).
#include <toml++/toml.h>
#include <nlohmann/json.hpp>

#include "io/file_io.h"
#include "strata/discover.h"

namespace strata {

namespace fs = std::filesystem;

namespace {

constexpr size_t kMaxSettingsBytes = size_t{1} << 20;

Error KeyError(const fs::path& file, std::string_view key, std::string_view expected, int line) {
  return Error{ErrorKind::kParse,
               "'" + std::string(key) + "' must be " + std::string(expected) +
                   "; fix it or strata's profile cannot follow this client's setting",
               {file.string(), line, 0}};
}

Result<std::vector<std::string>> TomlStrings(const toml::node& node, const fs::path& file,
                                             std::string_view key) {
  const int line = static_cast<int>(node.source().begin.line);
  const toml::array* array = node.as_array();
  if (array == nullptr) return tl::unexpected(KeyError(file, key, "a list of strings", line));
  std::vector<std::string> out;
  for (const toml::node& item : *array) {
    std::optional<std::string> value = item.value<std::string>();
    if (!value) return tl::unexpected(KeyError(file, key, "a list of strings", line));
    out.push_back(*value);
  }
  return out;
}

Status ReadCodexConfig(const fs::path& file, ClientSettings* out) {
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) return {};
  STRATA_TRY_ASSIGN(std::string text, ReadFileBytes(file, kMaxSettingsBytes));
  toml::table table;
  try {
    table = toml::parse(text, file.string());
  } catch (const toml::parse_error& err) {
    return MakeError(ErrorKind::kParse, std::string(err.description()),
                     {file.string(), static_cast<int>(err.source().begin.line),
                      static_cast<int>(err.source().begin.column)});
  }
  if (const toml::node* node = table.get("project_doc_fallback_filenames")) {
    STRATA_TRY_ASSIGN(out->codex_fallback_names,
                      TomlStrings(*node, file, "project_doc_fallback_filenames"));
  }
  if (const toml::node* node = table.get("project_root_markers")) {
    STRATA_TRY_ASSIGN(std::vector<std::string> markers,
                      TomlStrings(*node, file, "project_root_markers"));
    out->codex_root_markers = std::move(markers);
  }
  if (const toml::node* node = table.get("project_doc_max_bytes")) {
    std::optional<int64_t> value = node->value<int64_t>();
    if (!value || *value < 0) {
      return tl::unexpected(KeyError(file, "project_doc_max_bytes", "a whole number >= 0",
                                     static_cast<int>(node->source().begin.line)));
    }
    out->codex_max_bytes = static_cast<size_t>(*value);
  }
  return {};
}

Result<std::vector<std::string>> JsonStrings(const nlohmann::json& value, const fs::path& file,
                                             std::string_view key, bool allow_string) {
  if (allow_string && value.is_string()) return std::vector<std::string>{value.get<std::string>()};
  std::string expected = allow_string ? "a string or a list of strings" : "a list of strings";
  if (!value.is_array()) return tl::unexpected(KeyError(file, key, expected, 0));
  std::vector<std::string> out;
  for (const auto& item : value) {
    if (!item.is_string()) return tl::unexpected(KeyError(file, key, expected, 0));
    out.push_back(item.get<std::string>());
  }
  return out;
}

// One settings.json: `context.fileName` (or the older top-level `contextFileName`) and
// `context.memoryBoundaryMarkers`; a later file's value replaces an earlier one's.
Status ReadGeminiSettings(const fs::path& file, ClientSettings* out) {
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) return {};
  STRATA_TRY_ASSIGN(std::string text, ReadFileBytes(file, kMaxSettingsBytes));
  nlohmann::json json = nlohmann::json::parse(text, nullptr, false, true);  // comments allowed
  if (json.is_discarded() || !json.is_object()) {
    return MakeError(ErrorKind::kParse, "not a JSON object (gemini-cli settings)", {file.string()});
  }
  const nlohmann::json* context =
      json.contains("context") && json["context"].is_object() ? &json["context"] : nullptr;
  if (context != nullptr && context->contains("fileName")) {
    STRATA_TRY_ASSIGN(out->gemini_context_file_names,
                      JsonStrings((*context)["fileName"], file, "context.fileName", true));
  } else if (json.contains("contextFileName")) {
    STRATA_TRY_ASSIGN(out->gemini_context_file_names,
                      JsonStrings(json["contextFileName"], file, "contextFileName", true));
  }
  if (context != nullptr && context->contains("memoryBoundaryMarkers")) {
    STRATA_TRY_ASSIGN(std::vector<std::string> markers,
                      JsonStrings((*context)["memoryBoundaryMarkers"], file,
                                  "context.memoryBoundaryMarkers", false));
    out->gemini_boundary_markers = std::move(markers);
  }
  return {};
}

}  // namespace

Result<ClientSettings> ReadClientSettings(Client client, const fs::path& working_dir,
                                          const fs::path& home, const fs::path& codex_home) {
  ClientSettings settings;
  if (client == Client::kCodex && !codex_home.empty()) {
    STRATA_TRY(ReadCodexConfig(codex_home / "config.toml", &settings));
  }
  if (client == Client::kGeminiCli) {
    if (!home.empty()) STRATA_TRY(ReadGeminiSettings(home / ".gemini/settings.json", &settings));
    STRATA_TRY(ReadGeminiSettings(working_dir / ".gemini/settings.json", &settings));
  }
  return settings;
}

}  // namespace strata
