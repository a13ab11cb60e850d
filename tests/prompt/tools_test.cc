// tools_test.cc: a tool definition serializes to one canonical form, and the tool order is sorted
// by name or frozen at first registration, whatever order the servers report them in.
#include <gtest/gtest.h>

#include "strata/prompt.h"

namespace strata {
namespace {

ToolDefinition Tool(std::string name) { return {std::move(name), "d", "{}"}; }

std::vector<std::string> Names(const std::vector<ToolDefinition>& tools) {
  std::vector<std::string> names;
  for (const auto& t : tools) names.push_back(t.name);
  return names;
}

TEST(ToolsTest, CanonicalFormSortsMembersAndSchemaKeys) {
  ToolDefinition t{"read", "Read a file",
                   R"({"type": "object", "properties": {"b": 1.0, "a": 2}})"};
  EXPECT_EQ(CanonicalToolJson(t),
            R"({"description":"Read a file","input_schema":{"properties":{"a":2,"b":1},)"
            R"("type":"object"},"name":"read"})");
}

// JSON text fields (prompt.h): "" and null mean {}; text that is not JSON is written as a JSON
// string, never dropped.
TEST(ToolsTest, SchemaTextEmptyNullOrNotJson) {
  EXPECT_EQ(CanonicalToolJson({"t", "d", ""}),
            R"({"description":"d","input_schema":{},"name":"t"})");
  EXPECT_EQ(CanonicalToolJson({"t", "d", " null "}),
            R"({"description":"d","input_schema":{},"name":"t"})");
  EXPECT_EQ(CanonicalToolJson({"t", "d", "{type: 1}"}),
            R"({"description":"d","input_schema":"{type: 1}","name":"t"})");
}

TEST(ToolsTest, CanonicalJsonTextSortsAndRespells) {
  EXPECT_EQ(CanonicalJsonText(R"( {"b": [1.0, -0.0], "a": "x"} )", "t"), R"({"a":"x","b":[1,0]})");
  EXPECT_EQ(CanonicalJsonText("", "t"), "{}");
  auto bad = CanonicalJsonText("{\n  \"a\": }", "tool 'read' input_schema_json");
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().kind, ErrorKind::kParse);
  EXPECT_EQ(bad.error().where.path, "tool 'read' input_schema_json");
  EXPECT_EQ(bad.error().where.line, 2);
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
