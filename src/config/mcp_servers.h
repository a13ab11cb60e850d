// mcp_servers.h: the [mcp] table of strata.toml (config.h, McpServer).
#pragma once

#include <toml++/toml.h>

#include <filesystem>
#include <vector>

#include "config/config.h"

namespace strata {

// Each [mcp.NAME] (NAME of letters, digits, - or _) has exactly one of `command` (a string, with
// optional `args`, an array of strings, and `env`, a table of strings) or `url` (a string).
// Sorted by name. Errors: kInvalidArgument naming the entry and key, at its line.
Result<std::vector<McpServer>> ParseMcpServers(const toml::node& node,
                                               const std::filesystem::path& path);

}  // namespace strata
