// mcp_servers.cc: parses strata.toml's [mcp.NAME] entries (the MCP servers compile writes into
// each client's MCP configuration).
#include "config/mcp_servers.h"

#include <algorithm>

namespace strata {

namespace fs = std::filesystem;

namespace {

Status Bad(const std::string& message, const fs::path& path, const toml::node& node) {
  const auto& source = node.source();
  return MakeError(
      ErrorKind::kInvalidArgument, message,
      {path.string(), static_cast<int>(source.begin.line), static_cast<int>(source.begin.column)});
}

bool ValidName(std::string_view name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
  });
}

Status ReadStringArray(const toml::node& node, const std::string& what, const fs::path& path,
                       std::vector<std::string>* out) {
  const toml::array* array = node.as_array();
  if (array == nullptr) return Bad(what + " must be an array of strings", path, node);
  for (const toml::node& item : *array) {
    auto value = item.value<std::string>();
    if (!item.is_string() || !value) return Bad(what + " must hold only strings", path, item);
    out->push_back(*value);
  }
  return {};
}

Result<McpServer> ParseServer(const std::string& name, const toml::node& node,
                              const fs::path& path) {
  const std::string entry = "[mcp." + name + "]";
  const toml::table* table = node.as_table();
  if (!ValidName(name) || table == nullptr) {
    STRATA_TRY(Bad(entry + " must be a table named with letters, digits, - or _", path, node));
  }
  McpServer server;
  server.name = name;
  for (const auto& [key, value] : *table) {
    const std::string k(key.str());
    if ((k == "command" || k == "url") && value.is_string()) {
      (k == "command" ? server.command : server.url) = *value.value<std::string>();
    } else if (k == "args") {
      STRATA_TRY(ReadStringArray(value, entry + " args", path, &server.args));
    } else if (k == "env" && value.is_table()) {
      for (const auto& [var, text] : *value.as_table()) {
        if (!text.is_string()) STRATA_TRY(Bad(entry + " env values must be strings", path, text));
        server.env.emplace_back(std::string(var.str()), *text.value<std::string>());
      }
    } else {
      STRATA_TRY(
          Bad(entry + " " + k +
                  ": not a server key of the right type; use command "
                  "(string), args (array of strings), env (table of strings) or url (string)",
              path, value));
    }
  }
  if (server.command.empty() == server.url.empty()) {
    STRATA_TRY(Bad(entry + " needs exactly one of `command` or `url`", path, node));
  }
  return server;
}

}  // namespace

Result<std::vector<McpServer>> ParseMcpServers(const toml::node& node, const fs::path& path) {
  const toml::table* table = node.as_table();
  if (table == nullptr) {
    STRATA_TRY(Bad("`mcp` must be a table of [mcp.NAME] server entries", path, node));
  }
  std::vector<McpServer> out;
  for (const auto& [key, value] : *table) {  // toml++ tables are ordered by key
    STRATA_TRY_ASSIGN(McpServer server, ParseServer(std::string(key.str()), value, path));
    out.push_back(std::move(server));
  }
  return out;
}

}  // namespace strata
