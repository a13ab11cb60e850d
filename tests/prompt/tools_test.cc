// tools_test.cc: a tool definition serializes to one canonical form, and the tool order is sorted
// by name or frozen at first registration, whatever order the servers report them in.
#include <gtest/gtest.h>

#include "strata/prompt.h"

namespace strata {
namespace {

ToolDefinition Tool(std::string name) { return {std::move(name), "d", nlohmann::json::object()}; }

std::vector<std::string> Names(const std::vector<ToolDefinition>& tools) {
  std::vector<std::string> names;
  for (const auto& t : tools) names.push_back(t.name);
  return names;
}

TEST(ToolsTest, CanonicalFormSortsMembersAndSchemaKeys) {
  ToolDefinition t{
      "read", "Read a file",
      nlohmann::json::parse(R"({"type": "object", "properties": {"b": 1.0, "a": 2}})")};
  EXPECT_EQ(CanonicalToolJson(t),
            R"({"description":"Read a file","input_schema":{"properties":{"a":2,"b":1},)"
            R"("type":"object"},"name":"read"})");
}

TEST(ToolsTest, SortedOrderIgnoresRegistrationAndLastDefinitionWins) {
  ToolRegistry registry(ToolOrder::kSorted);
  registry.Register({Tool("write"), Tool("read")});
  std::vector<ToolDefinition> tools = {Tool("write"), Tool("read"), Tool("edit"), Tool("read")};
  tools.back().description = "second";
  auto ordered = registry.Ordered(tools);
  EXPECT_EQ(Names(ordered), (std::vector<std::string>{"edit", "read", "write"}));
  EXPECT_EQ(ordered[1].description, "second");
}

TEST(ToolsTest, RegistrationOrderIsFrozenAtFirstSightAndNewNamesFollow) {
  ToolRegistry registry(ToolOrder::kRegistration);
  registry.Register({Tool("write"), Tool("read")});
  registry.Register({Tool("read"), Tool("write")});  // a reconnect in another order
  EXPECT_EQ(Names(registry.Ordered({Tool("read"), Tool("zip"), Tool("apply"), Tool("write")})),
            (std::vector<std::string>{"write", "read", "apply", "zip"}));
}

}  // namespace
}  // namespace strata
