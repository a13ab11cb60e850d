// scoped_rules.h: how each client takes instructions meant only for part of a repository (a
// nested AGENTS.md in `tests/`): a rule file whose frontmatter names a glob (Cursor `globs`,
// Claude Code `paths:`, Copilot `applyTo`, Windsurf `trigger: glob`, Kiro `fileMatch`, Continue
// `globs`), the client's own file name in that directory for clients that read nested files
// (Gemini CLI, Warp, Qwen Code), or, for clients with a rules directory but no glob, a rule file
// whose first line says which files it is for. A client missing from the table has no such form.
#pragma once

#include <string>
#include <string_view>

#include "targets/targets.h"

namespace strata {

enum class ScopeKind {
  kGlobRule,    // <dir>/<name><ext> with a glob in its frontmatter
  kNestedFile,  // <subdir>/<file name of the target's path>
  kNoteRule,    // <dir>/<name><ext>, always applied, opening with a line naming the directory
};

struct ScopedForm {
  std::string_view id;  // target id
  ScopeKind kind = ScopeKind::kGlobRule;
  std::string_view dir;  // rules directory (kGlobRule, kNoteRule)
  std::string_view ext;  // file name suffix after the rule name
};

// The scoped form of target `id`, or nullptr when the client has none.
const ScopedForm* FindScopedForm(std::string_view id);

// The rule name for directory `subdir` ("packages/api" -> "packages-api").
std::string ScopedRuleName(std::string_view subdir);

// Where the rule for `subdir` (relative to the root, '/' separated, no trailing slash) goes.
std::string ScopedPath(const ScopedForm& form, const ClientTarget& target, std::string_view subdir);

// The frontmatter a kGlobRule file opens with for `subdir` (glob `subdir/**`); "" for the other
// kinds (they keep the target's own frontmatter).
std::string ScopedFrontmatter(const ScopedForm& form, std::string_view subdir,
                              std::string_view source_name);

}  // namespace strata
