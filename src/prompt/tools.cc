// tools.cc: canonical tool definitions and the session's frozen tool order, so that the tools
// bytes do not move when servers reconnect or re-register in another order.
#include <algorithm>

#include "prompt/canonical_json.h"
#include "strata/prompt.h"

namespace strata {

std::string CanonicalToolJson(const ToolDefinition& tool) {
  std::string out = "{\"description\":";
  AppendJsonString(tool.description, &out);
  out += ",\"input_schema\":";
  AppendCanonicalJsonText(tool.input_schema_json, &out);
  out += ",\"name\":";
  AppendJsonString(tool.name, &out);
  out += "}";
  return out;
}

void ToolRegistry::Register(const std::vector<ToolDefinition>& tools) {
  for (const auto& tool : tools) first_seen_.emplace(tool.name, first_seen_.size());
}

std::vector<ToolDefinition> ToolRegistry::Ordered(const std::vector<ToolDefinition>& tools) const {
  std::map<std::string, const ToolDefinition*> by_name;
  for (const auto& tool : tools) by_name[tool.name] = &tool;
  std::vector<ToolDefinition> out;
  out.reserve(by_name.size());
  for (const auto& [name, tool] : by_name) out.push_back(*tool);
  if (order_ == ToolOrder::kRegistration) {
    auto rank = [&](const std::string& name) {
      auto it = first_seen_.find(name);
      return it == first_seen_.end() ? first_seen_.size() : it->second;
    };
    // Stable: unregistered names keep their name order after the registered ones.
    std::stable_sort(out.begin(), out.end(),
                     [&](const auto& a, const auto& b) { return rank(a.name) < rank(b.name); });
  }
  return out;
}

}  // namespace strata
