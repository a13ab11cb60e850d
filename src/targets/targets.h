// targets.h: the table of coding clients strata compiles instruction files for.
//
// Each entry records where the client documents that it reads project instructions, the file
// format it expects there, and any documented size limit (each entry's source_note names the
// client's documentation). The table is constant data, in a fixed order; a repository picks its
// targets by id in strata.toml.
#pragma once

#include <array>
#include <span>
#include <string>
#include <string_view>

namespace strata {

enum class TargetFormat {
  kMarkdown,      // plain markdown
  kCursorMdc,     // .mdc with frontmatter: description, globs, alwaysApply
  kWindsurfRule,  // markdown with frontmatter: trigger: always_on
  kKiroSteering,  // markdown with frontmatter: inclusion: always
  kContinueRule,  // markdown with frontmatter: name, alwaysApply: true
  kAugmentRule,   // markdown with frontmatter: type: always_apply
};

struct ClientTarget {
  std::string_view id;  // stable name used in strata.toml and --target, e.g. "claude-code"
  std::string_view display_name;  // the name a `## <Client>` section uses, e.g. "Claude Code"
  std::array<std::string_view, 4> aliases;  // other accepted section names, e.g. "Claude"; the
                                            // unused ones are empty
  std::string_view path;                    // relative to the repository root, '/' separated
  TargetFormat format = TargetFormat::kMarkdown;
  size_t max_chars = 0;          // documented limit in Unicode characters; 0 when none
  std::string_view source_note;  // where the path, format and limit are documented
};

// Every known client, in the fixed order compile visits and reports them.
std::span<const ClientTarget> AllTargets();

// The target with `id`, or nullptr.
const ClientTarget* FindTarget(std::string_view id);

// The id of the target whose display name, alias or id equals `heading` ignoring ASCII case and
// surrounding blanks, or "" when none does.
std::string MatchClientHeading(std::string_view heading);

// "claude-code, cursor, ..." for error messages that list the valid ids.
std::string ValidTargetIds();

}  // namespace strata
