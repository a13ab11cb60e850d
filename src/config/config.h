// config.h: a repository's strata.toml, the settings `strata compile` and `strata audit` read.
//
//   source  = "AGENTS.md"                 # the banded instruction source, relative to the root
//   targets = ["claude-code", "cursor"]   # target ids (targets.h); all targets when unset
//   [blocks.register]                     # a generated block spliced into the config band
//   text = "..."                          #   its text, or
//   file = "docs/register.md"             #   a file (relative to the root) holding it
//   [imports]                             # how `@path` imports resolve (compile and discover)
//   allow_outside_root = false            #   follow imports that leave the project root
//   allowed_dirs = ["../shared"]          #   directories outside the root imports may reach
//   max_depth = 5                         #   import depth limit
//   gitignore = true                      # list every generated file in a .gitignore block
//   [mcp.docs]                            # an MCP server written to each client's MCP config
//   command = "npx"                       #   stdio: command, args, env; or url = "https://..."
//
// A block's file is opened through a descriptor of the root (io/contained_open.h): one that
// resolves outside the root (`/etc/hostname`, `../../x`, a symlink out) is refused unless the
// OutsideRootAccess allows it (`strata compile --allow-outside-root`, `--allow-dir DIR`).
//
// A missing strata.toml means the defaults. Any other top-level key, any key of a block other
// than `text` and `file`, and any key of [imports] other than the three above, is an error that
// names the key and the valid ones.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "io/contained_open.h"
#include "strata/status.h"

namespace strata {

struct GeneratedBlock {
  std::string name;  // [A-Za-z0-9_-]+, unique
  std::string text;  // UTF-8, LF line endings, ends with '\n' unless empty
};

// The [imports] table; unset keys keep the defaults of ImportOptions (strata/discover.h).
struct ImportSettings {
  bool allow_outside_root = false;
  std::vector<std::filesystem::path> allowed_dirs;  // absolute (relative entries joined to root)
  int max_depth = -1;                               // -1: not set
};

// An [mcp.NAME] entry: a stdio server (`command`, `args`, `env`) or a remote one (`url`).
struct McpServer {
  std::string name;                                      // [A-Za-z0-9_-]+
  std::string command;                                   // stdio: the executable
  std::vector<std::string> args;                         // stdio: its arguments
  std::vector<std::pair<std::string, std::string>> env;  // stdio: sorted by name
  std::string url;                                       // remote (streamable HTTP)
};

struct ProjectConfig {
  std::string source = "AGENTS.md";
  std::vector<std::string> targets;    // known ids in table order; every target when unset
  std::vector<GeneratedBlock> blocks;  // sorted by name
  ImportSettings imports;
  bool gitignore = false;  // `gitignore = true`: compile keeps a .gitignore block of its outputs
  std::vector<McpServer> mcp_servers;  // [mcp.NAME] entries, sorted by name
};

// Parses strata.toml text. `path` labels errors; `root` resolves `file =` entries.
// Errors: kParse with the TOML line and column; kInvalidArgument for an unknown key, an unknown
// target (the message lists the valid ids), an empty `targets`, a wrong value type, a bad block
// name, or a block with neither or both of text/file;
// kNotFound when a block's file is missing; kConflict when it resolves outside the root (the
// message names --allow-outside-root and --allow-dir).
Result<ProjectConfig> ParseProjectConfig(std::string_view toml, const std::filesystem::path& path,
                                         const std::filesystem::path& root,
                                         const OutsideRootAccess& access = {});

// Reads root/strata.toml (contained below the root), or returns the defaults when there is none.
Result<ProjectConfig> LoadProjectConfig(const std::filesystem::path& root,
                                        const OutsideRootAccess& access = {});

}  // namespace strata
