// rule_scope.cc: reading paths / applyTo / alwaysApply from a rule file's frontmatter.
#include "discover/rule_scope.h"

#include "io/file_io.h"
#include "markdown/frontmatter.h"

namespace strata::discover {

namespace fs = std::filesystem;

RuleScope ScopeOfRule(const fs::path& file, std::string_view text) {
  RuleScope scope;
  size_t length = FrontmatterLength(text);
  if (length == 0) return scope;
  std::string_view front = text.substr(0, length);
  std::vector<std::string> paths = FrontmatterValues(front, "paths");
  if (!paths.empty()) return {true, "paths", paths};
  std::vector<std::string> apply_to = FrontmatterValues(front, "applyTo");
  if (!apply_to.empty()) {
    for (const auto& p : apply_to) {
      if (p == "**" || p == "**/*" || p == "*") return scope;
    }
    return {true, "applyTo", apply_to};
  }
  if (file.extension() == ".mdc") {
    std::vector<std::string> always = FrontmatterValues(front, "alwaysApply");
    if (!always.empty() && always.front() == "true") return scope;
    return {true, "globs", FrontmatterValues(front, "globs")};
  }
  return scope;
}

bool IsConditionalRule(const fs::path& file, const SourceLoader& loader,
                       std::vector<Diagnostic>* diagnostics) {
  Result<std::string> bytes = ReadFileBytes(file, loader.options().max_read_bytes);
  if (!bytes || !bytes->starts_with("---")) return false;
  std::string text;
  for (char c : *bytes) {
    if (c != '\r') text.push_back(c);
  }
  RuleScope scope = ScopeOfRule(file, text);
  if (!scope.conditional) return false;
  std::string list;
  for (const auto& p : scope.patterns) list += (list.empty() ? "" : ", ") + p;
  diagnostics->push_back({Severity::kNote,
                          "conditional-rule",
                          "applies only while the agent works on matching files (" + scope.key +
                              ": " + (list.empty() ? "none; requested by description" : list) +
                              "); not part of the prefix",
                          {loader.Display(file)}});
  return true;
}

}  // namespace strata::discover
