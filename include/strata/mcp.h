// mcp.h: a Model Context Protocol server over stdio (`strata mcp`).
//
// The transport is MCP's stdio transport: one JSON-RPC 2.0 message per line (UTF-8, no embedded
// newline) on `in`, each response one line on `out`; nothing else is written to `out`. The server
// answers `initialize` (protocol version: the client's when it is one this server knows, else
// the newest it knows, "2025-06-18"; capabilities: tools), `ping`, `tools/list` and `tools/call`,
// ignores notifications (`notifications/initialized`, `notifications/cancelled`), and returns the
// JSON-RPC errors -32700 (parse error), -32600 (invalid request), -32601 (unknown method) and
// -32602 (unknown tool, or arguments that do not match the tool's input schema: a missing
// required property, an unknown property, or a value of the wrong JSON type) and -32603 (a tool
// whose input schema is not a JSON object). Schemas, arguments and results cross this API as JSON
// text (UTF-8 strings), so a tool needs no particular JSON library. A tool that runs
// and fails returns a result with `isError: true` and the message as text.
#pragma once

#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "strata/status.h"

namespace STRATA_EXPORT strata {

struct McpTool {
  std::string name;         // e.g. "audit"
  std::string description;  // one paragraph for the model
  // JSON text of a JSON Schema object: type "object", properties, required, additionalProperties
  // false. Text that is not a JSON object is listed as {"type":"object"}, and every call of the
  // tool is answered with the JSON-RPC error -32603 naming the tool.
  std::string input_schema_json;
  // Runs the tool on `arguments_json`, the JSON text (compact) of an object already checked
  // against the schema. Returns the JSON text of the result, given to the client as
  // structuredContent and as its text (indented by 2); an error, or a result that is not JSON
  // text, becomes `isError: true` with the message as text.
  std::function<Result<std::string>(const std::string& arguments_json)> run;
};

struct McpServerInfo {
  std::string name = "strata";
  std::string version;
  std::string instructions;  // optional: how the tools fit together
};

// Serves until `in` ends. Returns the number of requests answered.
size_t RunMcpServer(std::istream& in, std::ostream& out, const std::vector<McpTool>& tools,
                    const McpServerInfo& info);

// The JSON-RPC response to one message line (empty for a notification), for tests and embedding.
std::string HandleMcpMessage(const std::string& line, const std::vector<McpTool>& tools,
                             const McpServerInfo& info);

// The -32602 message for `arguments_json` against `schema_json` (both JSON text; "" when they
// match): the checks listed above, one level deep (properties of type string, boolean, integer,
// number, array of strings, object); arguments that are not JSON text are refused as not an
// object.
std::string CheckMcpArguments(const std::string& arguments_json, const std::string& schema_json);

}  // namespace strata
