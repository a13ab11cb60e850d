// rule_scope.h: rule files whose frontmatter limits them to some paths.
//
// Claude Code's `.claude/rules/*.md` with `paths:`, Copilot's `*.instructions.md` with `applyTo:`
// and Cursor's `.mdc` rules without `alwaysApply: true` apply only while the agent works on a
// matching file: they are not part of the cached prefix. Discovery skips them with a
// `conditional-rule` note naming the patterns.
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

// Reads the frontmatter of `file`; true with a `conditional-rule` note when it is conditional.
bool IsConditionalRule(const std::filesystem::path& file, const SourceLoader& loader,
                       std::vector<Diagnostic>* diagnostics);

}  // namespace strata::discover
