// anthropic_messages_serve.cc: the Anthropic Messages codec's strata serve half (serve_codec.h):
// the request parser and the reply writer; the rest of the codec is anthropic_messages.cc.
//
// Parsing: a user message's tool_result blocks become kToolResult messages (in block order,
// before the message's text); an assistant message's tool_use blocks become its tool calls and
// its thinking blocks its reasoning (redacted_thinking blocks are dropped: encrypted).
//
// Replies: a `message` object, or the SSE grammar Claude
// Code reads: message_start (usage with input and cache counts), per content block
// content_block_start / content_block_delta (text_delta, thinking_delta then one signature_delta
// with an empty signature, input_json_delta) / content_block_stop, then message_delta (stop_reason,
// output usage) and message_stop. Usage: cache_read_input_tokens = tokens reused (live or
// restored), cache_creation_input_tokens = tokens prefilled into a checkpoint written for this
// request, input_tokens = the rest.
#include <fmt/format.h>

#include "wire/request_json.h"
#include "wire/request_members.h"
#include "wire/serve_codec.h"

namespace strata::serve {
namespace {

using nlohmann::json;

// The text of a tool_result's content: a string or text blocks (other blocks are skipped).
std::string ToolResultText(const json& content) {
  if (content.is_string()) return content.get<std::string>();
  std::string out;
  if (!content.is_array()) return out;
  for (const json& b : content) {
    if (b.is_object() && b.value("type", "") == "text" && b.contains("text") &&
        b["text"].is_string()) {
      if (!out.empty()) out += "\n";
      out += b["text"].get<std::string>();
    }
  }
  return out;
}

// One content block of message `m` (its text, a tool call, or a tool result appended to `out`).
ApiResult<bool> AddBlock(const json& block, const std::string& path, Message* m,
                         std::string* reasoning, std::vector<Message>* results) {
  if (!block.is_object() || !block.contains("type") || !block["type"].is_string())
    return BadRequest(path, "must be a content block with a string 'type'");
  const std::string type = block["type"].get<std::string>();
  JsonObjectReader r(block, path, {}, JsonStrictness::kLenient);
  if (type == "text") {
    std::string text;
    STRATA_API_TRY(r.RequiredString("text", &text));
    if (!m->text.empty()) m->text += "\n\n";
    m->text += text;
  } else if (type == "tool_use") {
    ToolCall call;
    STRATA_API_TRY(r.RequiredString("id", &call.id));
    STRATA_API_TRY(r.RequiredString("name", &call.name));
    const json* input = r.Raw("input");
    if (input != nullptr && !input->is_object())
      return BadRequest(path + ".input", "must be an object");
    if (input != nullptr) call.arguments_json = input->dump();
    m->tool_calls.push_back(std::move(call));
  } else if (type == "tool_result") {
    Message result;
    result.role = Role::kToolResult;
    STRATA_API_TRY(r.RequiredString("tool_use_id", &result.tool_call_id));
    if (const json* c = r.Raw("content")) result.text = ToolResultText(*c);
    STRATA_API_TRY(r.Bool("is_error", &result.is_error));
    results->push_back(std::move(result));
  } else if (type == "thinking") {
    // The model's earlier thinking, sent back as Claude Code keeps it: the message's reasoning,
    // which the chat template renders or drops (its signature is ours, empty, and not checked).
    std::string thinking;
    STRATA_API_TRY(r.String("thinking", &thinking));
    if (!reasoning->empty() && !thinking.empty()) *reasoning += "\n\n";
    *reasoning += thinking;
  } else if (type != "redacted_thinking") {  // encrypted by Anthropic: nothing to render
    return BadRequest(path + ".type", fmt::format("'{}' blocks are not supported", type));
  }
  return true;
}

ApiResult<bool> AddMessage(const json& value, const std::string& path, ServeRequest* out) {
  JsonObjectReader r(value, path, {}, JsonStrictness::kLenient);
  STRATA_API_TRY(r.ExpectObject("a message"));
  std::string role;
  STRATA_API_TRY(r.RequiredString("role", &role));
  const json* content = r.Raw("content");
  if (role == "system") {
    auto text = TextContent(content, path + ".content", "\n\n");
    if (!text) return tl::unexpected(text.error());
    AddSystemText(std::move(*text), out);
    return true;
  }
  if (role != "user" && role != "assistant")
    return BadRequest(path + ".role", "must be one of user, assistant, system");
  Message m;
  m.role = role == "user" ? Role::kUser : Role::kAssistant;
  std::vector<Message> results;
  std::string reasoning;
  if (content == nullptr || content->is_string()) {
    m.text = content != nullptr ? content->get<std::string>() : "";
  } else if (content->is_array()) {
    for (size_t i = 0; i < content->size(); ++i) {
      auto ok =
          AddBlock((*content)[i], fmt::format("{}.content[{}]", path, i), &m, &reasoning, &results);
      if (!ok) return tl::unexpected(ok.error());
    }
  } else {
    return BadRequest(path + ".content", "must be a string or an array of content blocks");
  }
  for (Message& result : results) out->messages.push_back(std::move(result));
  if (!m.text.empty() || !m.tool_calls.empty() || !reasoning.empty() || results.empty()) {
    if (!reasoning.empty()) out->reasoning[out->messages.size()] = std::move(reasoning);
    out->messages.push_back(std::move(m));
  }
  return true;
}

// `system` without the client registry's varying text at its start (strata/discover.h: Claude
// Code's billing block, a system[0] text block or the first line of a string), stored in `kept`
// when anything is left out; the entry's name is added to `left_out`.
const json* WithoutVaryingText(const json& system, const ClientTextOptions& options, json* kept,
                               std::vector<std::string>* left_out) {
  const json* first = &system;
  if (system.is_array()) {
    if (system.empty() || !system[0].is_object() || system[0].value("type", "") != "text") {
      return &system;
    }
    first = system[0].contains("text") ? &system[0]["text"] : nullptr;
  }
  if (first == nullptr || !first->is_string()) return &system;
  const ClientTextResult r = LeaveOutVaryingText(first->get_ref<const std::string&>(), options);
  if (r.left_out == nullptr) return &system;
  left_out->push_back(
      fmt::format("system[0]:{}/{}", ClientName(r.left_out->client), r.left_out->id));
  if (system.is_string()) {
    *kept = std::string(r.text);
  } else {
    *kept = system;
    if (r.text.empty()) {
      kept->erase(0);
    } else {
      (*kept)[0]["text"] = std::string(r.text);
    }
  }
  return kept;
}

ApiResult<bool> AddTools(JsonObjectReader& r, ServeRequest* out) {
  STRATA_API_TRY_ASSIGN(const json* tools, r.Array("tools"));
  for (size_t i = 0; tools != nullptr && i < tools->size(); ++i) {
    JsonObjectReader t((*tools)[i], r.PathOf("tools", i), {}, JsonStrictness::kLenient);
    STRATA_API_TRY(t.ExpectObject("a tool"));
    auto tool = ToolFields(t, "input_schema");
    if (!tool) return tl::unexpected(tool.error());
    out->tools.push_back(std::move(*tool));
  }
  return true;
}

// `output_config`: its `format` ({"type": "json_schema", "schema": ...}) as the grammar; `effort`
// has no effect; other members are refused.
ApiResult<bool> ReadOutputConfig(const json& config, ServeRequest* out) {
  if (!config.is_object()) return BadRequest("output_config", "must be an object");
  for (const auto& [key, value] : config.items()) {
    if (key == "format" && !value.is_null()) {
      const json* schema =
          value.is_object() && value.contains("schema") ? &value["schema"] : nullptr;
      if (auto ok = ReadOutputFormat(value, "output_config.format", schema, out); !ok) return ok;
    } else if (key != "effort" && key != "format") {
      return BadRequest("output_config." + key,
                        "is not a member strata serve knows (format, effort)");
    }
  }
  return true;
}

// `thinking`, as llama-server maps it onto its budget: {"type": "enabled", "budget_tokens": N}
// bounds this reply's thinking by N tokens (the server's --reasoning-budget still applies when
// smaller); {"type": "disabled"} renders the template with thinking off, where it has a switch;
// {"type": "adaptive"} leaves the thinking to the model. Other types are refused.
ApiResult<bool> ReadThinking(const json& thinking, ServeRequest* out) {
  JsonObjectReader t(thinking, "thinking", {}, JsonStrictness::kLenient);
  STRATA_API_TRY(t.ExpectObject("the thinking configuration"));
  std::string type;
  STRATA_API_TRY(t.RequiredString("type", &type));
  if (type == "disabled") {
    out->enable_thinking = false;
    return true;
  }
  if (type == "adaptive") return true;
  if (type != "enabled")
    return BadRequest("thinking.type", "must be one of enabled, disabled, adaptive");
  if (!Given(t, "budget_tokens"))
    return BadRequest("thinking.budget_tokens", "is required when thinking is enabled");
  int64_t budget = 0;
  STRATA_API_TRY(t.Int("budget_tokens", &budget, 0, INT32_MAX));
  out->thinking_budget = static_cast<int>(budget);
  return true;
}

using enum MemberRule;
// Anthropic's create-message members; the sampling members are
// SamplingMembers() (docs/serve.md has the table).
constexpr MemberSpec kMembers[] = {
    {"model", kHonoured},
    {"messages", kHonoured},
    {"system", kHonoured},
    {"max_tokens", kHonoured},
    {"tools", kHonoured},
    {"tool_choice", kHonoured},
    {"stream", kHonoured},
    {"stop_sequences", kHonoured},
    {"output_config", kHonoured},
    {"grammar", kHonoured},  // llama-server's GBNF, as on its chat endpoint
    {"container", kRefused, "code-execution containers are not available on a local server"},
    {"mcp_servers", kRefused, "this server connects to no MCP servers (the client runs tools)"},
    {"thinking", kHonoured},
    {"return_progress", kHonoured},  // llama-server's; streamed as ping events (docs/serve.md)
    {"context_management", kNoEffect,
     "thinking blocks sent back go to the chat template, which drops the ones it does not "
     "render; nothing is cleared beyond that"},
    {"metadata", kNoEffect, "an end-user id for the provider's abuse monitoring"},
    {"service_tier", kNoEffect, "there is one tier"},
    // Claude Code 2.1.328 sends it in interactive sessions (a dangerous_tool_use classifier
    // context); the client keeps asking for its own permissions either way.
    {"safeguards", kNoEffect, "Anthropic's server-side tool-use classifiers; none runs here"},
};

}  // namespace

ApiResult<ServeRequest> ParseMessages(const json& body, bool count_tokens,
                                      const ClientTextOptions& client_text) {
  ServeRequest out;
  out.api = Api::kAnthropicMessages;
  if (auto ok = CheckMembers(body, {kMembers, SamplingMembers()}, "Messages", &out.no_effect); !ok)
    return tl::unexpected(ok.error());
  JsonObjectReader r(body, "", {}, JsonStrictness::kLenient);
  STRATA_API_TRY(r.String("model", &out.model));
  if (const json* system = r.Raw("system")) {
    json kept;
    system = WithoutVaryingText(*system, client_text, &kept, &out.left_out);
    auto text = TextContent(*system, "system", "\n\n");
    if (!text) return tl::unexpected(text.error());
    out.system = std::move(*text);
  }
  STRATA_API_TRY_ASSIGN(const json* messages, r.Array("messages"));
  if (messages == nullptr || messages->empty())
    return BadRequest("messages", "is required (a non-empty array)");
  for (size_t i = 0; i < messages->size(); ++i) {
    auto ok = AddMessage((*messages)[i], r.PathOf("messages", i), &out);
    if (!ok) return tl::unexpected(ok.error());
  }
  if (auto ok = AddTools(r, &out); !ok) return tl::unexpected(ok.error());
  if (const json* choice = r.Raw("tool_choice")) out.tool_choice = ToolChoiceOf(*choice);
  STRATA_API_TRY(r.Bool("stream", &out.stream));
  STRATA_API_TRY(ReadSampling(r, "max_tokens", "", &out));
  if (const json* config = r.Raw("output_config"); config != nullptr && !config->is_null()) {
    if (auto ok = ReadOutputConfig(*config, &out); !ok) return tl::unexpected(ok.error());
  }
  if (auto ok = ReadGrammar(r, &out); !ok) return tl::unexpected(ok.error());
  if (const json* thinking = r.Raw("thinking"); thinking != nullptr && !thinking->is_null()) {
    if (auto ok = ReadThinking(*thinking, &out); !ok) return tl::unexpected(ok.error());
  }
  STRATA_API_TRY(r.Bool("return_progress", &out.return_progress));
  if (!count_tokens && out.max_tokens == 0)
    return BadRequest("max_tokens", "is required (a positive integer)");
  return out;
}

namespace {

// ---- Replies ----

const char* StopReason(const FinishedReply& r) {
  // Claude Code takes max_tokens as its own max_tokens reached: it asks the model to resume three
  // times, then ends the run with "exceeded the N output token maximum". An answer the server's
  // -n cut (the request's limit was larger) is reported as the end of the turn (docs/serve.md).
  if (r.finish == FinishReason::kLength) return r.server_capped ? "end_turn" : "max_tokens";
  if (r.finish == FinishReason::kToolCalls) return "tool_use";
  return r.stop_sequence.empty() ? "end_turn" : "stop_sequence";
}

json InputUsage(const Usage& u) {
  const size_t created = u.stored_tokens > u.cached_tokens ? u.stored_tokens - u.cached_tokens : 0;
  return {{"input_tokens", u.prompt_tokens - u.cached_tokens - created},
          {"cache_read_input_tokens", u.cached_tokens},
          {"cache_creation_input_tokens", created},
          {"output_tokens", u.completion_tokens}};
}

class MessagesWriter : public ReplyWriter {
 public:
  explicit MessagesWriter(ResponseMeta meta) : meta_(std::move(meta)) {}

  std::string Start(const Usage& prompt) override {
    json message = Message(json::array(), prompt);
    message["stop_reason"] = nullptr;
    message["stop_sequence"] = nullptr;
    return SseEvent("message_start", {{"type", "message_start"}, {"message", message}});
  }

  // A prompt progress event (return_progress, strata's extension of this API): a `ping`, the event
  // Anthropic's streams may carry anywhere and every client skips, with llama-server's
  // prompt_progress. Sent while the prompt is prefilled: the first before message_start.
  std::string Progress(const PromptProgress& p) override {
    return SseEvent("ping", {{"type", "ping"}, {"prompt_progress", ProgressJson(p)}});
  }

  std::string Delta(const ReplyDelta& d) override {
    std::string out;
    if (!d.reasoning.empty()) {
      out += Open("thinking", {{"type", "thinking"}, {"thinking", ""}});
      out += BlockDelta({{"type", "thinking_delta"}, {"thinking", d.reasoning}});
    }
    if (!d.content.empty()) {
      out += Open("text", {{"type", "text"}, {"text", ""}});
      out += BlockDelta({{"type", "text_delta"}, {"text", d.content}});
    }
    if (d.tool_index >= 0) {
      if (!d.tool_name.empty() || open_ != "tool_use") {
        out += Close();
        out += Open("tool_use", {{"type", "tool_use"},
                                 {"id", d.tool_id},
                                 {"name", d.tool_name},
                                 {"input", json::object()}});
      }
      if (!d.tool_arguments.empty())
        out += BlockDelta({{"type", "input_json_delta"}, {"partial_json", d.tool_arguments}});
    }
    return out;
  }

  std::string Finish(const FinishedReply& reply) override {
    std::string out = Close();
    json usage = InputUsage(reply.usage);
    out += SseEvent(
        "message_delta",
        {{"type", "message_delta"},
         {"delta", {{"stop_reason", StopReason(reply)}, {"stop_sequence", StopSequence(reply)}}},
         {"usage", usage}});
    return out + SseEvent("message_stop", {{"type", "message_stop"}});
  }

  json Body(const FinishedReply& reply) override {
    json content = json::array();
    if (!reply.reply.reasoning.empty())
      content.push_back(
          {{"type", "thinking"}, {"thinking", reply.reply.reasoning}, {"signature", ""}});
    if (!reply.reply.content.empty())
      content.push_back({{"type", "text"}, {"text", reply.reply.content}});
    for (const TemplateToolCall& c : reply.reply.tool_calls) {
      content.push_back({{"type", "tool_use"},
                         {"id", c.id},
                         {"name", c.name},
                         {"input", ArgumentsObject(c.arguments)}});
    }
    json message = Message(content, reply.usage);
    message["stop_reason"] = StopReason(reply);
    message["stop_sequence"] = StopSequence(reply);
    return message;
  }

 private:
  static json StopSequence(const FinishedReply& r) {
    return r.stop_sequence.empty() ? json() : json(r.stop_sequence);
  }
  json Message(json content, const Usage& usage) const {
    return {{"id", meta_.id},
            {"type", "message"},
            {"role", "assistant"},
            {"model", meta_.model},
            {"content", std::move(content)},
            {"usage", InputUsage(usage)}};
  }
  // Opens a block of `kind` unless one is open (closing a block of another kind first).
  std::string Open(const std::string& kind, const json& block) {
    if (open_ == kind && kind != "tool_use") return "";
    std::string out = Close();
    open_ = kind;
    return out +
           SseEvent("content_block_start",
                    {{"type", "content_block_start"}, {"index", index_}, {"content_block", block}});
  }
  std::string BlockDelta(const json& delta) const {
    return SseEvent("content_block_delta",
                    {{"type", "content_block_delta"}, {"index", index_}, {"delta", delta}});
  }
  std::string Close() {
    if (open_.empty()) return "";
    std::string out;
    // Anthropic ends a thinking block with its signature_delta; a local model's is empty (as
    // llama-server's), and the client sends it back unchecked.
    if (open_ == "thinking") out = BlockDelta({{"type", "signature_delta"}, {"signature", ""}});
    out += SseEvent("content_block_stop", {{"type", "content_block_stop"}, {"index", index_}});
    open_.clear();
    ++index_;
    return out;
  }

  ResponseMeta meta_;
  std::string open_;  // kind of the open block, "" when none
  int index_ = 0;
};

}  // namespace

std::unique_ptr<ReplyWriter> MakeMessagesWriter(const ResponseMeta& meta) {
  return std::make_unique<MessagesWriter>(meta);
}

namespace {

ApiResult<ServeRequest> Parse(const json& body, const ClientTextOptions& client_text) {
  return ParseMessages(body, /*count_tokens=*/false, client_text);
}

json ErrorBodyOf(const ApiError& error) {
  return {{"type", "error"}, {"error", {{"type", error.type}, {"message", error.message}}}};
}

constexpr const char* kRoutes[] = {"/v1/messages"};

}  // namespace

const ServeCodec kMessagesServeCodec = {
    .api = Api::kAnthropicMessages,
    .name = "messages",
    .id_prefix = "msg",
    .routes = kRoutes,
    .parse = Parse,
    .make_writer = MakeMessagesWriter,
    .error_body = ErrorBodyOf,
};

}  // namespace strata::serve
