// config.cc: strata.toml parsing with toml++. Debian builds toml++ with exceptions, so a parse
// error is caught here and becomes an Error value.
#include "strata/config.h"

#include <toml++/toml.h>
#include <algorithm>

#include "strata/file_io.h"
#include "strata/targets.h"
#include "strata/text.h"

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

}  // namespace

Result<ProjectConfig> ParseProjectConfig(std::string_view text, const fs::path& path,
                                         const fs::path& root) {
  toml::table table;
  try {
    table = toml::parse(text, path.string());
  } catch (const toml::parse_error& err) {
    return MakeError(ErrorKind::kParse, std::string(err.description()),
                     {path.string(), static_cast<int>(err.source().begin.line),
                      static_cast<int>(err.source().begin.column)});
  }
  ProjectConfig config;

  for (const auto& [key, value] : table) {
    if (key != "source" && key != "targets" && key != "blocks") {
      return MakeError(ErrorKind::kInvalidArgument,
                       "unknown key '" + std::string(key.str()) +
                           "' in strata.toml; valid keys: source, targets, blocks",
                       Where(path, value));
    }
  }

  if (const toml::node* node = table.get("source")) {
    auto value = node->value<std::string>();
    if (!value || value->empty()) {
      return MakeError(ErrorKind::kInvalidArgument,
                       "`source` must be a non-empty string path, e.g. source = \"AGENTS.md\"",
                       Where(path, *node));
    }
    config.source = *value;
  }

  if (const toml::node* node = table.get("targets")) {
    const toml::array* array = node->as_array();
    if (array == nullptr) {
      return MakeError(ErrorKind::kInvalidArgument,
                       "`targets` must be an array of target ids, e.g. targets = [\"claude-code\"]",
                       Where(path, *node));
    }
    std::vector<std::string> wanted;
    for (const toml::node& item : *array) {
      auto id = item.value<std::string>();
      if (!id || FindTarget(*id) == nullptr) {
        return MakeError(ErrorKind::kInvalidArgument,
                         "unknown target " +
                             (id ? "'" + *id + "'" : std::string("(not a string)")) +
                             "; valid targets: " + ValidTargetIds(),
                         Where(path, item));
      }
      wanted.push_back(*id);
    }
    if (wanted.empty()) {
      return MakeError(ErrorKind::kInvalidArgument,
                       "`targets` is empty, so nothing would be compiled: list at least one of " +
                           ValidTargetIds() + " (or remove the key for all of them)",
                       Where(path, *node));
    }
    // Table order, duplicates dropped: the output never depends on how the list was written.
    for (const auto& target : AllTargets()) {
      if (std::find(wanted.begin(), wanted.end(), target.id) != wanted.end()) {
        config.targets.emplace_back(target.id);
      }
    }
  } else {
    for (const auto& target : AllTargets()) config.targets.emplace_back(target.id);
  }

  if (const toml::node* node = table.get("blocks")) {
    const toml::table* blocks = node->as_table();
    if (blocks == nullptr) {
      return MakeError(ErrorKind::kInvalidArgument,
                       "`blocks` must be a table of [blocks.NAME] entries", Where(path, *node));
    }
    for (const auto& [key, value] : *blocks) {  // toml++ tables are ordered by key
      std::string name(key.str());
      const toml::table* entry = value.as_table();
      if (!ValidBlockName(name) || entry == nullptr) {
        return MakeError(ErrorKind::kInvalidArgument,
                         "[blocks." + name + "] must be a table named with letters, digits, - or _",
                         Where(path, value));
      }
      for (const auto& [member, member_value] : *entry) {
        if ((member != "text" && member != "file") || !member_value.is_string()) {
          return MakeError(ErrorKind::kInvalidArgument,
                           "[blocks." + name + "] " + std::string(member.str()) +
                               (member == "text" || member == "file"
                                    ? " must be a string"
                                    : " is not a block key; use `text` or `file`"),
                           Where(path, member_value));
        }
      }
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
        auto bytes = ReadFileBytes(root / *file);
        if (!bytes) {
          Error e = bytes.error();
          e.message = "[blocks." + name + "] file: " + e.message;
          e.where = Where(path, value);
          return tl::unexpected(e);
        }
        raw = std::move(*bytes);
        label = (root / *file).string();
      } else {
        raw = *text;
      }
      auto clean = CleanText(raw, label);
      if (!clean) return tl::unexpected(clean.error());
      std::string body = std::move(clean->text);
      while (!body.empty() && body.back() == '\n') body.pop_back();
      if (!body.empty()) body.push_back('\n');
      config.blocks.push_back({name, std::move(body)});
    }
  }
  return config;
}

Result<ProjectConfig> LoadProjectConfig(const fs::path& root) {
  fs::path path = (root / "strata.toml").lexically_normal();
  auto bytes = ReadFileBytes(path);
  if (!bytes) {
    if (bytes.error().kind == ErrorKind::kNotFound) {
      return ParseProjectConfig("", path, root);
    }
    return tl::unexpected(bytes.error());
  }
  return ParseProjectConfig(*bytes, path, root);
}

}  // namespace strata
