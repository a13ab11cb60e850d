// rule_scope.h: rule files whose frontmatter limits them to some paths.
//
// Claude Code's `.claude/rules/*.md` with `paths:`, Copilot's `*.instructions.md` with `applyTo:`
// and Cursor's `.mdc` rules without `alwaysApply: true` apply only while the agent works on a
// matching file: they are not part of the cached prefix. Discovery skips them with a
// `conditional-rule` note naming the patterns, unless one of DiscoverOptions::touched_paths
// matches them (path_glob.h), and records each one (Discovery::conditional_rules).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "discover/source_loader.h"
#include "strata/status.h"

namespace strata::discover {

struct RuleScope {
  bool conditional = false;
  std::string key;                    // the frontmatter key that decided: paths, applyTo, globs
  std::vector<std::string> patterns;  // the globs it applies to (may be empty for Cursor)
};

// The scope declared by `text` (the whole file, LF line endings) found at `file`.
RuleScope ScopeOfRule(const std::filesystem::path& file, std::string_view text);

// The directory a rule's patterns are relative to: the parent of the nearest `.claude`,
// `.github` or `.cursor` directory holding `file`, else `project_root`.
std::filesystem::path RuleBase(const std::filesystem::path& file,
                               const std::filesystem::path& project_root);

struct RuleDecision {
  bool skip = false;      // conditional, and no touched path matches
  std::string condition;  // conditional and applied: Source::condition
};

// Reads the frontmatter of `file`. Conditional: records it with the loader and either skips it (a
// `conditional-rule` note) or applies it for the first touched path that matches (a
// `conditional-rule-applied` note).
RuleDecision DecideRule(const std::filesystem::path& file, SourceLoader* loader,
                        std::vector<Diagnostic>* diagnostics);

}  // namespace strata::discover
