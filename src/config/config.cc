// config.cc: strata.toml parsing with toml++. Debian builds toml++ with exceptions, so a parse
// error is caught here and becomes an Error value.
#include "config/config.h"
#include "config/mcp_servers.h"
#include "config/toml_guard.h"

#include <toml++/toml.h>

#include <algorithm>

#include "io/file_io.h"
#include "targets/targets.h"
#include "text/text.h"

namespace strata {

namespace fs = std::filesystem;

namespace {

Location Where(const fs::path& path, const toml::node& node) {
  const auto& source = node.source();
  return {path.string(), static_cast<int>(source.begin.line),
          static_cast<int>(source.begin.column)};
}

bool ValidBlockName(std::string_view name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
  });
}

Result<toml::table> ParseToml(std::string_view text, const fs::path& path) {
  // toml++ 3.3.0 (Debian 12) asserts or reaches an unreachable branch on some bytes TOML forbids
  // anyway, and on some non-ASCII characters (toml_guard.h): the first are refused with the place,
  // the others reach toml++ as escapes.
  STRATA_TRY_ASSIGN(const std::string ascii, AsciiTomlText(text, path.string()));
  try {
    return toml::parse(ascii, path.string());
  } catch (const toml::parse_error& err) {
    return MakeError(ErrorKind::kParse, std::string(err.description()),
                     {path.string(), static_cast<int>(err.source().begin.line),
                      static_cast<int>(err.source().begin.column)});
  }
}

Status CheckTopLevelKeys(const toml::table& table, const fs::path& path) {
  for (const auto& [key, value] : table) {
    if (key != "source" && key != "targets" && key != "blocks" && key != "gitignore" &&
        key != "mcp" && key != "imports") {
      return MakeError(
          ErrorKind::kInvalidArgument,
          "unknown key '" + std::string(key.str()) +
              "' in strata.toml; valid keys: source, targets, blocks, imports, gitignore, mcp",
          Where(path, value));
    }
  }
  return {};
}

Result<std::string> ParseSource(const toml::node& node, const fs::path& path) {
  auto value = node.value<std::string>();
  if (!value || value->empty()) {
    return MakeError(ErrorKind::kInvalidArgument,
                     "`source` must be a non-empty string path, e.g. source = \"AGENTS.md\"",
                     Where(path, node));
  }
  return *value;
}

// The ids of `targets = [...]`, checked, in table order with duplicates dropped: the output never
// depends on how the list was written.
Result<std::vector<std::string>> ParseTargets(const toml::node& node, const fs::path& path) {
  const toml::array* array = node.as_array();
  if (array == nullptr) {
    return MakeError(ErrorKind::kInvalidArgument,
                     "`targets` must be an array of target ids, e.g. targets = [\"claude-code\"]",
                     Where(path, node));
  }
  std::vector<std::string> wanted;
  for (const toml::node& item : *array) {
    auto id = item.value<std::string>();
    if (!id || FindTarget(*id) == nullptr) {
      return MakeError(ErrorKind::kInvalidArgument,
                       "unknown target " + (id ? "'" + *id + "'" : std::string("(not a string)")) +
                           "; valid targets: " + ValidTargetIds(),
                       Where(path, item));
    }
    wanted.push_back(*id);
  }
  if (wanted.empty()) {
    return MakeError(ErrorKind::kInvalidArgument,
                     "`targets` is empty, so nothing would be compiled: list at least one of " +
                         ValidTargetIds() + " (or remove the key for all of them)",
                     Where(path, node));
  }
  std::vector<std::string> ids;
  for (const auto& target : AllTargets()) {
    if (std::find(wanted.begin(), wanted.end(), target.id) != wanted.end()) {
      ids.emplace_back(target.id);
    }
  }
  return ids;
}

// Checks that a [blocks.NAME] entry holds only `text` and `file`, both strings.
Status CheckBlockKeys(const std::string& name, const toml::table& entry, const fs::path& path) {
  for (const auto& [member, member_value] : entry) {
    if ((member != "text" && member != "file") || !member_value.is_string()) {
      return MakeError(
          ErrorKind::kInvalidArgument,
          "[blocks." + name + "] " + std::string(member.str()) +
              (member == "text" || member == "file" ? " must be a string"
                                                    : " is not a block key; use `text` or `file`"),
          Where(path, member_value));
    }
  }
  return {};
}

// The bytes of a block's `file`, opened below the root.
Result<std::string> ReadBlockFile(const std::string& name, const std::string& file,
                                  const Location& where, const fs::path& root,
                                  const OutsideRootAccess& access) {
  auto bytes = ReadFileContained(root, file, access, size_t{4} * 1024 * 1024);
  if (!bytes) {
    Error e = bytes.error();
    const std::string what = "[blocks." + name + "] file = \"" + file + "\"";
    e.message =
        e.kind == ErrorKind::kConflict ? OutsideRootMessage(what, root) : what + ": " + e.message;
    e.where = where;
    return tl::unexpected(e);
  }
  return std::move(*bytes);
}

// One [blocks.NAME] entry: its text (inline or read from `file`), cleaned, ending in one newline.
Result<GeneratedBlock> ParseBlock(const std::string& name, const toml::node& value,
                                  const fs::path& path, const fs::path& root,
                                  const OutsideRootAccess& access) {
  const toml::table* entry = value.as_table();
  if (!ValidBlockName(name) || entry == nullptr) {
    return MakeError(ErrorKind::kInvalidArgument,
                     "[blocks." + name + "] must be a table named with letters, digits, - or _",
                     Where(path, value));
  }
  STRATA_TRY(CheckBlockKeys(name, *entry, path));
  auto text = (*entry)["text"].value<std::string>();
  auto file = (*entry)["file"].value<std::string>();
  if (text.has_value() == file.has_value()) {
    return MakeError(ErrorKind::kInvalidArgument,
                     "[blocks." + name + "] needs exactly one of `text` or `file`",
                     Where(path, value));
  }
  std::string raw;
  std::string label = path.string();
  if (file) {
    STRATA_TRY_ASSIGN(raw, ReadBlockFile(name, *file, Where(path, value), root, access));
    label = (root / *file).string();
  } else {
    raw = *text;
  }
  STRATA_TRY_ASSIGN(CleanedText clean, CleanText(raw, label));
  std::string body = std::move(clean.text);
  while (!body.empty() && body.back() == '\n') body.pop_back();
  if (!body.empty()) body.push_back('\n');
  return GeneratedBlock{name, std::move(body)};
}

Result<std::vector<GeneratedBlock>> ParseBlocks(const toml::node& node, const fs::path& path,
                                                const fs::path& root,
                                                const OutsideRootAccess& access) {
  const toml::table* blocks = node.as_table();
  if (blocks == nullptr) {
    return MakeError(ErrorKind::kInvalidArgument,
                     "`blocks` must be a table of [blocks.NAME] entries", Where(path, node));
  }
  std::vector<GeneratedBlock> out;
  for (const auto& [key, value] : *blocks) {  // toml++ tables are ordered by key
    STRATA_TRY_ASSIGN(GeneratedBlock block,
                      ParseBlock(std::string(key.str()), value, path, root, access));
    out.push_back(std::move(block));
  }
  return out;
}

tl::unexpected<Error> ImportKeyError(std::string_view what, const toml::node& node,
                                     const fs::path& path) {
  return MakeError(ErrorKind::kInvalidArgument, "[imports] " + std::string(what),
                   Where(path, node));
}

// [imports]: allow_outside_root (bool), allowed_dirs (array of strings), max_depth (int >= 0).
Result<ImportSettings> ParseImports(const toml::node& node, const fs::path& path,
                                    const fs::path& root) {
  const toml::table* table = node.as_table();
  if (table == nullptr) return ImportKeyError("must be a table", node, path);
  ImportSettings out;
  for (const auto& [key, value] : *table) {
    if (key == "allow_outside_root") {
      auto flag = value.value<bool>();
      if (!flag) return ImportKeyError("allow_outside_root must be true or false", value, path);
      out.allow_outside_root = *flag;
    } else if (key == "max_depth") {
      auto depth = value.value<int64_t>();
      if (!depth || *depth < 0 || *depth > 100) {
        return ImportKeyError("max_depth must be an integer from 0 to 100", value, path);
      }
      out.max_depth = static_cast<int>(*depth);
    } else if (key == "allowed_dirs") {
      const toml::array* dirs = value.as_array();
      if (dirs == nullptr)
        return ImportKeyError("allowed_dirs must be an array of paths", value, path);
      for (const toml::node& item : *dirs) {
        auto dir = item.value<std::string>();
        if (!dir || dir->empty())
          return ImportKeyError("allowed_dirs entries must be paths", item, path);
        out.allowed_dirs.push_back((root / *dir).lexically_normal());
      }
    } else {
      return ImportKeyError("has no key '" + std::string(key.str()) +
                                "'; valid keys: allow_outside_root, allowed_dirs, max_depth",
                            value, path);
    }
  }
  return out;
}

}  // namespace

Result<ProjectConfig> ParseProjectConfig(std::string_view text, const fs::path& path,
                                         const fs::path& root, const OutsideRootAccess& access) {
  STRATA_TRY_ASSIGN(toml::table table, ParseToml(text, path));
  STRATA_TRY(CheckTopLevelKeys(table, path));
  ProjectConfig config;
  if (const toml::node* node = table.get("source")) {
    STRATA_TRY_ASSIGN(config.source, ParseSource(*node, path));
  }
  if (const toml::node* node = table.get("targets")) {
    STRATA_TRY_ASSIGN(config.targets, ParseTargets(*node, path));
  } else {
    for (const auto& target : AllTargets()) config.targets.emplace_back(target.id);
  }
  if (const toml::node* node = table.get("blocks")) {
    STRATA_TRY_ASSIGN(config.blocks, ParseBlocks(*node, path, root, access));
  }
  if (const toml::node* node = table.get("imports")) {
    STRATA_TRY_ASSIGN(config.imports, ParseImports(*node, path, fs::absolute(root)));
  }
  if (const toml::node* node = table.get("gitignore")) {
    auto value = node->value<bool>();
    if (!value || !node->is_boolean()) {
      return MakeError(ErrorKind::kInvalidArgument, "`gitignore` must be true or false",
                       Where(path, *node));
    }
    config.gitignore = *value;
  }
  if (const toml::node* node = table.get("mcp")) {
    STRATA_TRY_ASSIGN(config.mcp_servers, ParseMcpServers(*node, path));
  }
  return config;
}

Result<ProjectConfig> LoadProjectConfig(const fs::path& root, const OutsideRootAccess& access) {
  fs::path path = (root / "strata.toml").lexically_normal();
  auto bytes = ReadFileContained(root, "strata.toml", access, size_t{1} * 1024 * 1024);
  if (!bytes && bytes.error().kind == ErrorKind::kNotFound) {
    return ParseProjectConfig("", path, root, access);
  }
  if (!bytes) return tl::unexpected(bytes.error());
  return ParseProjectConfig(*bytes, path, root, access);
}

}  // namespace strata
