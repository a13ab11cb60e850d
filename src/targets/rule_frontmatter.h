// rule_frontmatter.h: the frontmatter of a path-scoped rule in each client's own rule form, for a
// rule on any globs (a `.strata/rules/NAME.md` source), and of a rule the agent applies when its
// description matches (Cursor `alwaysApply: false` without globs, Windsurf `model_decision`).
// The glob keys are those of the nested-source forms (scoped_rules.h, docs/targets.md).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "targets/scoped_rules.h"

namespace strata {

// The frontmatter a kGlobRule file of `form` opens with for `globs` (at least one):
//   claude-code `paths:` list; cursor `description`, `globs: a,b`, `alwaysApply: false`;
//   copilot `applyTo: "a,b"`; windsurf `trigger: glob`, `globs: a,b`; kiro `inclusion:
//   fileMatch`, `fileMatchPattern` (a string, or a list for several); continue `name`, `globs`,
//   `alwaysApply: false`. `description` names the rule where the form has a field for it.
std::string GlobRuleFrontmatter(const ScopedForm& form, const std::vector<std::string>& globs,
                                std::string_view description);

// The frontmatter of a rule applied by description only, or "" when the client has no such form:
//   cursor `description`, empty `globs`, `alwaysApply: false`; windsurf `trigger: model_decision`.
std::string RequestedRuleFrontmatter(const ScopedForm& form, std::string_view description);

}  // namespace strata
