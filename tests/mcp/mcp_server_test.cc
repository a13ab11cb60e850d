// mcp_server_test.cc: the JSON-RPC 2.0 dispatch of the MCP server: initialize, tools/list,
// tools/call, argument checks, errors and notifications.
#include "strata/mcp.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

namespace strata {
namespace {

using nlohmann::json;

// Schemas, arguments and results are JSON text (mcp.h): the tool sees the arguments as sent,
// compact, and answers with text.
std::vector<McpTool> EchoTools() {
  const std::string schema =
      R"({"type":"object","properties":{"word":{"type":"string"},)"
      R"("ids":{"type":"array","items":{"type":"string"}}},"required":["word"],)"
      R"("additionalProperties":false})";
  return {{"echo", "Echoes a word.", schema,
           [](const std::string& args) -> Result<std::string> {
             if (args == R"({"word":"fail"})") return MakeError(ErrorKind::kInvalidArgument, "no");
             if (args == R"({"word":"text"})") return std::string("plain words");
             return R"({"echoed": )" + args + "}";
           }},
          {"broken", "A tool whose schema is not JSON.", "{type: object}",
           [](const std::string&) -> Result<std::string> { return std::string("{}"); }}};
}

json Call(const std::string& line) {
  return json::parse(HandleMcpMessage(line, EchoTools(), McpServerInfo{"strata", "0.1.0", ""}));
}

TEST(McpServerTest, InitializeNegotiatesAKnownVersionAndAdvertisesTools) {
  json r = Call(
      R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26"}})");
  EXPECT_EQ(r["id"], 1);
  EXPECT_EQ(r["result"]["protocolVersion"], "2025-03-26");
  EXPECT_EQ(r["result"]["serverInfo"]["name"], "strata");
  EXPECT_TRUE(r["result"]["capabilities"].contains("tools"));
  json unknown = Call(
      R"({"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"1999-01-01"}})");
  EXPECT_EQ(unknown["result"]["protocolVersion"], "2025-06-18");
}

TEST(McpServerTest, ListAndCall) {
  json list = Call(R"({"jsonrpc":"2.0","id":"a","method":"tools/list"})");
  ASSERT_EQ(list["result"]["tools"].size(), 2u);
  EXPECT_EQ(list["result"]["tools"][0]["inputSchema"]["required"][0], "word");
  json call = Call(
      R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"word":"hi","ids":["x"]}}})");
  EXPECT_EQ(call["result"]["isError"], false);
  // The tool received {"ids":["x"],"word":"hi"} as compact JSON text and echoed it back.
  EXPECT_EQ(call["result"]["structuredContent"],
            json::parse(R"({"echoed":{"ids":["x"],"word":"hi"}})"));
  EXPECT_EQ(
      call["result"]["content"][0]["text"],
      "{\n  \"echoed\": {\n    \"ids\": [\n      \"x\"\n    ],\n    \"word\": \"hi\"\n  }\n}");
  json failed = Call(
      R"({"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo","arguments":{"word":"fail"}}})");
  EXPECT_EQ(failed["result"]["isError"], true);
  EXPECT_EQ(failed["result"]["content"][0]["text"], "no");
}

TEST(McpServerTest, ResultThatIsNotJsonTextIsAToolError) {
  json call = Call(
      R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"word":"text"}}})");
  EXPECT_EQ(call["result"]["isError"], true);
  EXPECT_EQ(call["result"]["content"][0]["text"],
            "the tool's result is not JSON text: plain words");
}

TEST(McpServerTest, SchemaThatIsNotJsonIsListedAsAnObjectAndItsCallsFail) {
  json list = Call(R"({"jsonrpc":"2.0","id":"a","method":"tools/list"})");
  EXPECT_EQ(list["result"]["tools"][1]["inputSchema"], json::parse(R"({"type":"object"})"));
  json call = Call(R"({"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"broken"}})");
  EXPECT_EQ(call["error"]["code"], -32603);
  EXPECT_NE(call["error"]["message"].get<std::string>().find("tool 'broken'"), std::string::npos);
}

TEST(McpServerTest, CheckMcpArgumentsTakesJsonText) {
  const std::string schema = R"({"properties":{"n":{"type":"integer"}},"required":["n"]})";
  EXPECT_EQ(CheckMcpArguments(R"({"n": 3})", schema), "");
  EXPECT_EQ(CheckMcpArguments("{}", schema), "missing required property 'n'");
  EXPECT_EQ(CheckMcpArguments("[1]", schema), "arguments must be a JSON object");
  EXPECT_EQ(CheckMcpArguments("not json", schema), "arguments must be a JSON object");
}

TEST(McpServerTest, BadArgumentsAndRequestsAreJsonRpcErrors) {
  auto code = [](const std::string& line) { return Call(line)["error"]["code"].get<int>(); };
  EXPECT_EQ(
      code(
          R"({"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{}}})"),
      -32602);
  EXPECT_EQ(
      code(
          R"({"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"echo","arguments":{"word":1}}})"),
      -32602);
  EXPECT_EQ(
      code(
          R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"word":"x","more":1}}})"),
      -32602);
  EXPECT_EQ(
      code(
          R"({"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"echo","arguments":{"word":"x","ids":[1]}}})"),
      -32602);
  EXPECT_EQ(code(R"({"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"nope"}})"),
            -32602);
  EXPECT_EQ(code(R"({"jsonrpc":"2.0","id":10,"method":"resources/list"})"), -32601);
  EXPECT_EQ(code("not json"), -32700);
  EXPECT_EQ(code(R"({"id":11,"method":"ping"})"), -32600);
}

TEST(McpServerTest, NotificationsGetNoResponseAndTheLoopAnswersEachRequest) {
  EXPECT_EQ(HandleMcpMessage(R"({"jsonrpc":"2.0","method":"notifications/initialized"})",
                             EchoTools(), McpServerInfo{}),
            "");
  std::istringstream in(
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n"
      "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"
      "\n"
      "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}\n");
  std::ostringstream out;
  EXPECT_EQ(RunMcpServer(in, out, EchoTools(), McpServerInfo{}), 2u);
  EXPECT_EQ(out.str(),
            "{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":{}}\n"
            "{\"id\":2,\"jsonrpc\":\"2.0\",\"result\":{}}\n");
}

}  // namespace
}  // namespace strata
