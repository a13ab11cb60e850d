// rule_scope.cc: reading paths / applyTo / alwaysApply from a rule file's frontmatter.
#include "discover/rule_scope.h"

#include "discover/path_glob.h"
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

fs::path RuleBase(const fs::path& file, const fs::path& project_root) {
  for (fs::path dir = file.parent_path(); dir.has_relative_path(); dir = dir.parent_path()) {
    const std::string name = dir.filename().string();
    if (name == ".claude" || name == ".github" || name == ".cursor") return dir.parent_path();
  }
  return project_root;
}

namespace {

// The first touched path that `scope` applies to, relative to `base` ("" when none does).
std::string FirstMatch(const RuleScope& scope, const fs::path& base, const SourceLoader& loader) {
  const std::vector<std::string> patterns = SplitPatternList(scope.patterns);
  for (const fs::path& touched : loader.options().touched_paths) {
    fs::path absolute = touched.is_absolute() ? touched : loader.working_dir() / touched;
    std::error_code ec;
    absolute = fs::weakly_canonical(absolute, ec).lexically_normal();
    std::string relative = absolute.lexically_relative(base).generic_string();
    if (relative.empty() || relative == "." || relative.starts_with("..")) continue;
    for (const std::string& pattern : patterns) {
      if (MatchPathGlob(pattern, relative)) return relative;
    }
  }
  return {};
}

}  // namespace

RuleDecision DecideRule(const fs::path& file, SourceLoader* loader,
                        std::vector<Diagnostic>* diagnostics) {
  Result<std::string> bytes = ReadFileBytes(file, loader->options().max_read_bytes);
  if (!bytes || !bytes->starts_with("---")) return {};
  std::string text;
  for (char c : *bytes) {
    if (c != '\r') text.push_back(c);
  }
  RuleScope scope = ScopeOfRule(file, text);
  if (!scope.conditional) return {};
  std::string list;
  for (const auto& p : scope.patterns) list += (list.empty() ? "" : ", ") + p;
  const std::string display = loader->Display(file);
  const fs::path base = RuleBase(file, loader->project_root());
  std::string matched = FirstMatch(scope, base, *loader);
  std::string shown = matched.empty() ? "" : loader->Display(base / matched);
  loader->RecordConditional({display, scope.key, scope.patterns, shown});
  if (matched.empty()) {
    diagnostics->push_back({Severity::kNote,
                            "conditional-rule",
                            "applies only while the agent works on matching files (" + scope.key +
                                ": " + (list.empty() ? "none; requested by description" : list) +
                                "); not part of the prefix",
                            {display}});
    return {true, {}};
  }
  diagnostics->push_back({Severity::kNote,
                          "conditional-rule-applied",
                          "loaded for " + shown + ", which matches " + scope.key + ": " + list,
                          {display}});
  return {false, scope.key + ": " + list + " (" + shown + ")"};
}

}  // namespace strata::discover
