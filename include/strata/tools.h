// tools.h: tool definitions and their stable order (SPEC.md §4, "Deterministic serialization").
//
// The tool list sits at the very top of a provider's cache prefix, so it must serialize to the same
// bytes whatever order the tool servers registered in, after a reconnect, and whatever key order a
// schema arrived with. A definition is serialized canonically (canonical_json.h); the list is
// either sorted by name or kept in first-registration order, frozen for the session.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace strata {

struct ToolDefinition {
  std::string name;                                        // unique within a session; the sort key
  std::string description;                                 // UTF-8
  nlohmann::json input_schema = nlohmann::json::object();  // JSON Schema of the arguments
};

enum class ToolOrder {
  kSorted,        // by name (byte order): independent of registration order altogether
  kRegistration,  // first time each name was registered; re-registering keeps the old position
};

// The canonical JSON of one definition: {"description":..,"input_schema":..,"name":..}. Two
// definitions are the same tool surface exactly when these bytes are equal.
std::string CanonicalToolJson(const ToolDefinition& tool);

// Remembers the order in which tool names were first registered in a session. Not thread-safe.
class ToolRegistry {
 public:
  explicit ToolRegistry(ToolOrder order = ToolOrder::kSorted) : order_(order) {}
  // Records any names of `tools` not seen before, in the order given.
  void Register(const std::vector<ToolDefinition>& tools);
  // `tools` in the configured order (duplicates by name: the last definition wins).
  std::vector<ToolDefinition> Ordered(const std::vector<ToolDefinition>& tools) const;
  ToolOrder order() const { return order_; }

 private:
  ToolOrder order_;
  std::map<std::string, size_t> first_seen_;  // name -> registration rank
};

}  // namespace strata
