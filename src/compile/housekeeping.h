// housekeeping.h: what a compile does beside the target files themselves: the Aider `read:`
// entry and the .gitignore block (companion files strata merges into but does not own), generated
// files no configured target produces any more (orphans), and the unified diff `--verify --diff`
// prints.
#pragma once

#include <filesystem>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "compile/check_target.h"
#include "config/config.h"
#include "strata/compile.h"

namespace strata {

using FileWrites = std::vector<std::pair<std::filesystem::path, std::string>>;

struct CompanionSettings {
  bool gitignore = false;
  const std::vector<McpServer>& mcp_servers;
};

// Adds to report->companions (and, when options.write and a file changes, to *writes): the
// .aider.conf.yml `read:` entry when the aider target was compiled, each compiled client's MCP
// settings file with strata.toml's [mcp] servers set in it (.mcp.json, .cursor/mcp.json,
// .vscode/mcp.json, .gemini/settings.json; other servers and keys kept), and the .gitignore
// block when `gitignore` is set. Verify marks a companion that would change stale (or missing)
// and clears report->ok. Errors: an existing companion that cannot be read.
Status PlanCompanions(const TargetCheck& check, const CompanionSettings& settings,
                      CompileReport* report, FileWrites* writes);

// The .gitignore text with strata's block (between `# BEGIN strata generated files` and
// `# END strata generated files`) listing `paths` (each as "/path"), replacing an existing block
// or appended after the user's lines; everything outside the block is kept byte for byte.
std::string MergeGitignoreBlock(std::string_view existing, const std::vector<std::string>& paths);

// Generated files (strata's header, naming `source_name`) at a table path or in a table path's
// directory that are not in `owned`; each reported in report->orphans as orphaned (verify),
// removed-to-be (compile: status kRemoved, deleted by RemoveOrphans) or conflict when its digest
// no longer matches and !options.force. A file without the header is never listed. Verify clears
// report->ok when any is listed.
Status FindOrphans(const TargetCheck& check, const std::string& source_name,
                   const std::set<std::string>& owned, CompileReport* report);

// The id of an orphan that is an MCP server entry rather than a file (report->orphans).
inline constexpr std::string_view kMcpOrphanId = "mcp";

// strata.toml's [mcp] servers left in the MCP settings file of a client that is no longer
// compiled (.mcp.json, .cursor/mcp.json, .vscode/mcp.json, .gemini/settings.json): an entry is
// strata's only when its name is an [mcp] server and its value is exactly what compile writes for
// that client, so a server the user added or edited is never touched. Each such file is one
// orphan (id kMcpOrphanId, detail naming the servers): verify reports it orphaned (report->ok
// cleared); compile reports it removed and adds the file without those entries (every other
// key kept) to *writes. Errors: an existing settings file that cannot be read.
Status FindMcpOrphans(const TargetCheck& check, CompileReport* report, FileWrites* writes);

// Deletes every orphan with status kRemoved (through a descriptor of its directory below the
// root; a path that changed into anything but a regular file is left alone). Errors: kIo naming
// the file.
Status RemoveOrphans(const TargetCheck& check, const CompileReport& report);

// A unified diff from `before` to `after` (3 lines of context), headed `--- a/path`, `+++ b/path`.
std::string UnifiedDiff(std::string_view before, std::string_view after, std::string_view path);

}  // namespace strata
