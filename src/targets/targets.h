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
  // Instruction files the client loads by itself besides `path`, relative to the repository root
  // (AGENTS.md, CLAUDE.md, .claude/CLAUDE.md; unused entries empty). A source at one of these
  // paths reaches the client as it is, so a compiled copy beside it would load the same text
  // twice. docs/targets.md, "Clients that read the source themselves", cites each.
  std::array<std::string_view, 3> reads_too{};
  std::string_view reads_too_note{};  // the doc (and, where it says, the version) for reads_too
  // A documented byte limit past which the client cuts the file (it loads only the first
  // `max_bytes` bytes); 0 when none. Unlike max_chars the file is still written, with a warning.
  size_t max_bytes = 0;
  std::string_view max_bytes_note{};  // the setting or doc that sets max_bytes
  // The same for a limit in Unicode characters (Copilot code review reads the first 4,000).
  size_t cut_chars = 0;
  std::string_view cut_chars_note{};
};

// Codex's default `project_doc_max_bytes`: it loads at most this many bytes of AGENTS.md files
// (all project files together, root first). The codex target's max_bytes and discovery's codex
// profile both use this one value (developers.openai.com/codex/guides/agents-md).
inline constexpr size_t kCodexProjectDocMaxBytes = size_t{32} * 1024;

// True when `target` loads the file at `source` (relative to the root, '/' separated) by itself:
// `source` is its path or one of its reads_too.
bool ReadsItself(const ClientTarget& target, std::string_view source);

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
