// rule_sources.h: path-scoped rules kept as sources of their own, `.strata/rules/NAME.md`, each
// opening with frontmatter that says where it applies, compiled to every client's own scoped form
// (targets/rule_frontmatter.h, docs/targets.md "Path-scoped rules: rule sources"):
//
//   ---
//   paths:                      # globs, relative to the root (a list, or `paths: a, b`)
//     - "packages/frontend/**/*.vue"
//   clients: [cursor, copilot]  # optional: target ids; default every selected target
//   description: Vue rules      # optional: the rule's description where a client keeps one
//   ---
//
// A rule without `paths` is applied by the agent when its description matches; only clients with
// such a form get it (Cursor, Windsurf). `strata adopt --from` writes these from `.mdc` globs,
// Copilot `applyTo` and Claude Code `paths`.
#pragma once

#include <string>
#include <vector>

#include "compile/check_target.h"
#include "compile/compiled_source.h"

namespace strata {

// The directory rule sources are read from, relative to the root.
inline constexpr std::string_view kRuleSourceDir = ".strata/rules";

// Every regular `*.md` file directly in root/.strata/rules, sorted by name, read and cleaned like
// the root source (imports inlined, frontmatter dropped from the text). Errors (each naming the
// file and line): an unknown frontmatter key, an unknown client id, a rule with neither paths nor
// a description, a file that cannot be read or is not clean UTF-8.
Result<std::vector<RuleSource>> LoadRuleSources(const TargetCheck& check,
                                                std::vector<Diagnostic>* diagnostics);

// The file of `rule` for `target` (its path in *path), or "" when the client has no form for it.
std::string RenderRule(const ClientTarget& target, const RuleSource& rule, std::string* path);

// Renders and checks every rule for every selected target it is for, appending to report->targets
// and *outputs (same order). Clients a rule names that have no form for it get one note.
Status RenderRules(const TargetCheck& check, const CompiledSource& compiled, CompileReport* report,
                   std::vector<std::string>* outputs);

}  // namespace strata
