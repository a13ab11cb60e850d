// mcp_server.cc: the JSON-RPC 2.0 dispatch of `strata mcp` (see strata/mcp.h): one message per
// line in, one response per request out.
#include "strata/mcp.h"

#include <istream>
#include <nlohmann/json.hpp>
#include <ostream>

namespace strata {

using nlohmann::json;

namespace {

constexpr const char* kProtocolVersions[] = {"2025-06-18", "2025-03-26", "2024-11-05"};

json RpcError(const json& id, int code, const std::string& message) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}};
}

json Reply(const json& id, json result) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

json Initialize(const json& params, const McpServerInfo& info) {
  std::string version = kProtocolVersions[0];
  if (params.is_object() && params.contains("protocolVersion") &&
      params["protocolVersion"].is_string()) {
    for (const char* known : kProtocolVersions) {
      if (params["protocolVersion"] == known) version = known;
    }
  }
  json result = {{"protocolVersion", version},
                 {"capabilities", {{"tools", {{"listChanged", false}}}}},
                 {"serverInfo", {{"name", info.name}, {"version", info.version}}}};
  if (!info.instructions.empty()) result["instructions"] = info.instructions;
  return result;
}

// The tool's schema as a value; one that is not a JSON object: null.
json ParsedSchema(const McpTool& tool) {
  json schema = json::parse(tool.input_schema_json, nullptr, false);
  return schema.is_object() ? schema : json();
}

// The schema tools/list shows (mcp.h: {"type":"object"} for one that is not a JSON object).
json SchemaOf(const McpTool& tool) {
  json schema = ParsedSchema(tool);
  return schema.is_null() ? json{{"type", "object"}} : schema;
}

json ListTools(const std::vector<McpTool>& tools) {
  json list = json::array();
  for (const auto& tool : tools) {
    list.push_back(
        {{"name", tool.name}, {"description", tool.description}, {"inputSchema", SchemaOf(tool)}});
  }
  return {{"tools", list}};
}

bool HasType(const json& value, const std::string& type, const json& property) {
  if (type == "string") return value.is_string();
  if (type == "boolean") return value.is_boolean();
  if (type == "integer") return value.is_number_integer();
  if (type == "number") return value.is_number();
  if (type == "object") return value.is_object();
  if (type == "array") {
    if (!value.is_array()) return false;
    const std::string item = property.value("/items/type"_json_pointer, std::string());
    for (const auto& v : value) {
      if (!item.empty() && !HasType(v, item, json::object())) return false;
    }
    return true;
  }
  return true;
}

std::string CheckArguments(const json& arguments, const json& schema) {
  if (!arguments.is_object()) return "arguments must be a JSON object";
  const json properties = schema.value("properties", json::object());
  for (const auto& required : schema.value("required", json::array())) {
    if (!arguments.contains(required.get<std::string>())) {
      return "missing required property '" + required.get<std::string>() + "'";
    }
  }
  for (const auto& [key, value] : arguments.items()) {
    if (!properties.contains(key)) {
      return "unknown property '" + key + "'; valid: " + [&properties] {
        std::string names;
        for (const auto& [k, v] : properties.items()) names += (names.empty() ? "" : ", ") + k;
        return names;
      }();
    }
    const json& property = properties[key];
    const std::string type = property.value("type", std::string());
    if (!HasType(value, type, property)) {
      return "property '" + key + "' must be of type " + type +
             (type == "array" ? " of " + property.value("/items/type"_json_pointer, std::string())
                              : std::string());
    }
  }
  return "";
}

// The tools/call result of a run: structuredContent and its text, or isError with the message.
json ToolResult(const Result<std::string>& result) {
  json value = result ? json::parse(*result, nullptr, false) : json();
  if (!result || value.is_discarded()) {
    std::string message =
        result ? "the tool's result is not JSON text: " + *result : result.error().message;
    return {{"content", {{{"type", "text"}, {"text", message}}}}, {"isError", true}};
  }
  return {{"content", {{{"type", "text"}, {"text", value.dump(2)}}}},
          {"structuredContent", value},
          {"isError", false}};
}

json CallTool(const json& id, const json& params, const std::vector<McpTool>& tools) {
  if (!params.is_object() || !params.contains("name") || !params["name"].is_string()) {
    return RpcError(id, -32602, "tools/call needs params.name (a tool name from tools/list)");
  }
  const std::string name = params["name"];
  for (const auto& tool : tools) {
    if (tool.name != name) continue;
    json schema = ParsedSchema(tool);
    if (schema.is_null()) {
      return RpcError(id, -32603,
                      "tool '" + name +
                          "' has an input schema that is not a JSON "
                          "object; the server's tool definition needs fixing");
    }
    json arguments = params.value("arguments", json::object());
    if (std::string bad = CheckArguments(arguments, schema); !bad.empty()) {
      return RpcError(id, -32602, "invalid arguments for tool '" + name + "': " + bad);
    }
    return Reply(id, ToolResult(tool.run(arguments.dump())));
  }
  return RpcError(id, -32602, "unknown tool '" + name + "'; tools/list names the tools");
}

}  // namespace

std::string CheckMcpArguments(const std::string& arguments_json, const std::string& schema_json) {
  json schema = json::parse(schema_json, nullptr, false);
  return CheckArguments(json::parse(arguments_json, nullptr, false),
                        schema.is_object() ? schema : json::object());
}

std::string HandleMcpMessage(const std::string& line, const std::vector<McpTool>& tools,
                             const McpServerInfo& info) {
  json message = json::parse(line, nullptr, false);
  if (message.is_discarded()) return RpcError(nullptr, -32700, "parse error: not JSON").dump();
  if (!message.is_object() || message.value("jsonrpc", std::string()) != "2.0" ||
      !message.contains("method") || !message["method"].is_string()) {
    return RpcError(message.is_object() ? message.value("id", json()) : json(), -32600,
                    "invalid request: a JSON-RPC 2.0 object with a method is expected")
        .dump();
  }
  if (!message.contains("id")) return "";  // a notification: no response
  const json id = message["id"];
  const std::string method = message["method"];
  const json params = message.value("params", json::object());
  if (method == "initialize") return Reply(id, Initialize(params, info)).dump();
  if (method == "ping") return Reply(id, json::object()).dump();
  if (method == "tools/list") return Reply(id, ListTools(tools)).dump();
  if (method == "tools/call") return CallTool(id, params, tools).dump();
  return RpcError(id, -32601, "method not found: " + method).dump();
}

size_t RunMcpServer(std::istream& in, std::ostream& out, const std::vector<McpTool>& tools,
                    const McpServerInfo& info) {
  size_t answered = 0;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line == "\r") continue;
    std::string response = HandleMcpMessage(line, tools, info);
    if (response.empty()) continue;
    out << response << '\n' << std::flush;
    ++answered;
  }
  return answered;
}

}  // namespace strata
