// scoped_rules.cc: the table of path-scoped forms (docs/targets.md, "Path-scoped rules", names
// each client's documentation) and their frontmatter.
#include "targets/scoped_rules.h"

#include <filesystem>

namespace strata {

namespace {

constexpr ScopedForm kForms[] = {
    {"claude-code", ScopeKind::kGlobRule, ".claude/rules", ".md"},
    {"cursor", ScopeKind::kGlobRule, ".cursor/rules", ".mdc"},
    {"copilot", ScopeKind::kGlobRule, ".github/instructions", ".instructions.md"},
    {"windsurf", ScopeKind::kGlobRule, ".windsurf/rules", ".md"},
    {"kiro", ScopeKind::kGlobRule, ".kiro/steering", ".md"},
    {"continue", ScopeKind::kGlobRule, ".continue/rules", ".md"},
    {"gemini-cli", ScopeKind::kNestedFile, "", ""},
    {"warp", ScopeKind::kNestedFile, "", ""},
    {"qwen-code", ScopeKind::kNestedFile, "", ""},
    {"cline", ScopeKind::kNoteRule, ".clinerules", ".md"},
    {"amazon-q", ScopeKind::kNoteRule, ".amazonq/rules", ".md"},
    {"roo-code", ScopeKind::kNoteRule, ".roo/rules", ".md"},
    {"kilo-code", ScopeKind::kNoteRule, ".kilocode/rules", ".md"},
    {"augment", ScopeKind::kNoteRule, ".augment/rules", ".md"},
    {"trae", ScopeKind::kNoteRule, ".trae/rules", ".md"},
    {"jetbrains-ai", ScopeKind::kNoteRule, ".aiassistant/rules", ".md"},
    {"antigravity", ScopeKind::kNoteRule, ".agents/rules", ".md"},
    {"grok", ScopeKind::kNoteRule, ".grok/rules", ".md"},
    {"bob", ScopeKind::kNoteRule, ".bob/rules", ".md"},
    {"zoo-code", ScopeKind::kNoteRule, ".roo/rules", ".md"},
};

}  // namespace

const ScopedForm* FindScopedForm(std::string_view id) {
  for (const auto& form : kForms) {
    if (form.id == id) return &form;
  }
  return nullptr;
}

std::string ScopedRuleName(std::string_view subdir) {
  std::string name(subdir);
  for (char& c : name) {
    if (c == '/') c = '-';
  }
  return name;
}

std::string ScopedPath(const ScopedForm& form, const ClientTarget& target,
                       std::string_view subdir) {
  if (form.kind == ScopeKind::kNestedFile) {
    return std::string(subdir) + "/" +
           std::filesystem::path(target.path).filename().generic_string();
  }
  return std::string(form.dir) + "/" + ScopedRuleName(subdir) + std::string(form.ext);
}

std::string ScopedFrontmatter(const ScopedForm& form, std::string_view subdir,
                              std::string_view source_name) {
  if (form.kind != ScopeKind::kGlobRule) return "";
  const std::string glob = std::string(subdir) + "/**";
  const std::string quoted = "\"" + glob + "\"";
  const std::string about =
      "Instructions for " + std::string(subdir) + "/ compiled from " + std::string(source_name);
  if (form.id == "claude-code") return "---\npaths:\n  - " + quoted + "\n---\n";
  if (form.id == "cursor") {
    return "---\ndescription: " + about + "\nglobs: " + glob + "\nalwaysApply: false\n---\n";
  }
  if (form.id == "copilot") return "---\napplyTo: " + quoted + "\n---\n";
  if (form.id == "windsurf") return "---\ntrigger: glob\nglobs: " + glob + "\n---\n";
  if (form.id == "kiro")
    return "---\ninclusion: fileMatch\nfileMatchPattern: " + quoted + "\n---\n";
  return "---\nname: " + about + "\nglobs: " + quoted + "\nalwaysApply: false\n---\n";  // continue
}

}  // namespace strata
