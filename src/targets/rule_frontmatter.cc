// rule_frontmatter.cc: glob and description frontmatter per client rule form (see the header).
#include "targets/rule_frontmatter.h"

namespace strata {

namespace {

std::string Joined(const std::vector<std::string>& globs) {
  std::string out;
  for (const auto& g : globs) out += (out.empty() ? "" : ",") + g;
  return out;
}

// `"a"` for one glob, `["a", "b"]` for several (the forms that take a YAML string or list).
std::string StringOrList(const std::vector<std::string>& globs) {
  if (globs.size() == 1) return "\"" + globs.front() + "\"";
  std::string out = "[";
  for (const auto& g : globs) out += (out.size() > 1 ? ", \"" : "\"") + g + "\"";
  return out + "]";
}

}  // namespace

std::string GlobRuleFrontmatter(const ScopedForm& form, const std::vector<std::string>& globs,
                                std::string_view description) {
  const std::string about(description);
  if (form.id == "claude-code") {
    std::string out = "---\npaths:\n";
    for (const auto& g : globs) out += "  - \"" + g + "\"\n";
    return out + "---\n";
  }
  if (form.id == "cursor") {
    return "---\ndescription: " + about + "\nglobs: " + Joined(globs) +
           "\nalwaysApply: false\n---\n";
  }
  if (form.id == "copilot") return "---\napplyTo: \"" + Joined(globs) + "\"\n---\n";
  if (form.id == "windsurf") return "---\ntrigger: glob\nglobs: " + Joined(globs) + "\n---\n";
  if (form.id == "kiro") {
    return "---\ninclusion: fileMatch\nfileMatchPattern: " + StringOrList(globs) + "\n---\n";
  }
  return "---\nname: " + about + "\nglobs: " + StringOrList(globs) +
         "\nalwaysApply: false\n---\n";  // continue
}

std::string RequestedRuleFrontmatter(const ScopedForm& form, std::string_view description) {
  if (form.id == "cursor") {
    return "---\ndescription: " + std::string(description) + "\nglobs:\nalwaysApply: false\n---\n";
  }
  if (form.id == "windsurf") {
    return "---\ntrigger: model_decision\ndescription: " + std::string(description) + "\n---\n";
  }
  return "";
}

}  // namespace strata
