// openai_responses_serve.cc: the OpenAI Responses codec's strata serve half (serve_codec.h): the
// request parser and the reply writer; the rest of the codec is openai_responses.cc.
//
// Replies: a `response` object, or the SSE events Codex
// reads: response.created, response.in_progress (repeated with prompt_progress for
// return_progress, as llama-server sends it), per output item response.output_item.added,
// then for reasoning response.reasoning_text.delta / .done, for a message
// response.content_part.added / response.output_text.delta / response.output_text.done /
// response.content_part.done, for a function call response.function_call_arguments.delta / .done,
// then response.output_item.done; finally response.completed (status "completed", or "incomplete"
// at max_output_tokens) with usage incl. input_tokens_details.cached_tokens. Every event carries
// its type and a sequence_number.
#include <fmt/format.h>

#include <algorithm>

#include "wire/request_json.h"
#include "wire/request_members.h"
#include "wire/serve_codec.h"

namespace strata::serve {
namespace {

using nlohmann::json;

ApiResult<bool> AddMessageItem(JsonObjectReader& r, const std::string& path, ServeRequest* out) {
  std::string role;
  STRATA_API_TRY(r.RequiredString("role", &role));
  const json* content = r.Raw("content");
  auto text = TextContent(content, path + ".content", "\n\n");
  if (!text) return tl::unexpected(text.error());
  if (role == "system" || role == "developer") {
    AddSystemText(std::move(*text), out);
    return true;
  }
  if (role != "user" && role != "assistant")
    return BadRequest(path + ".role", "must be one of system, developer, user, assistant");
  // An assistant message after a reasoning item of the same turn joins its message.
  if (role == "assistant" && !out->messages.empty() &&
      out->messages.back().role == Role::kAssistant && out->messages.back().text.empty() &&
      out->messages.back().tool_calls.empty()) {
    out->messages.back().text = std::move(*text);
    return true;
  }
  Message m;
  m.role = role == "user" ? Role::kUser : Role::kAssistant;
  m.text = std::move(*text);
  out->messages.push_back(std::move(m));
  return true;
}

// A reasoning item: the model's earlier reasoning (its `content` reasoning_text parts, as this
// server and llama-server write them) becomes the reasoning of the assistant turn it belongs to
// (the items after it: message, function calls), for the chat template to render or drop. One
// without content (OpenAI's encrypted or summary-only items) adds nothing.
ApiResult<bool> AddReasoningItem(JsonObjectReader& r, const std::string& path, ServeRequest* out) {
  const json* content = r.Raw("content");
  if (content != nullptr && content->is_null()) content = nullptr;
  if (content != nullptr && !content->is_array())
    return BadRequest(path + ".content", "must be an array of reasoning_text parts");
  std::string reasoning;
  for (size_t i = 0; content != nullptr && i < content->size(); ++i) {
    const json& part = (*content)[i];
    if (!part.is_object() || !part.contains("text") || !part["text"].is_string())
      return BadRequest(fmt::format("{}.content[{}].text", path, i), "must be a string");
    if (!reasoning.empty()) reasoning += "\n\n";
    reasoning += part["text"].get<std::string>();
  }
  if (reasoning.empty()) return true;
  if (out->messages.empty() || out->messages.back().role != Role::kAssistant) {
    Message m;
    m.role = Role::kAssistant;
    out->messages.push_back(std::move(m));
  }
  std::string& into = out->reasoning[out->messages.size() - 1];
  into += (into.empty() ? "" : "\n\n") + reasoning;
  return true;
}

ApiResult<bool> AddFunctionCall(JsonObjectReader& r, ServeRequest* out) {
  ToolCall call;
  STRATA_API_TRY(r.RequiredString("call_id", &call.id));
  STRATA_API_TRY(r.RequiredString("name", &call.name));
  std::string arguments = "{}";
  STRATA_API_TRY(r.String("arguments", &arguments));
  call.arguments_json = ArgumentsObject(arguments).dump();
  // Consecutive assistant items (text, then function calls) form one assistant message.
  if (out->messages.empty() || out->messages.back().role != Role::kAssistant) {
    Message m;
    m.role = Role::kAssistant;
    out->messages.push_back(std::move(m));
  }
  out->messages.back().tool_calls.push_back(std::move(call));
  return true;
}

ApiResult<bool> AddItem(const json& item, const std::string& path, ServeRequest* out) {
  JsonObjectReader r(item, path, {}, JsonStrictness::kLenient);
  STRATA_API_TRY(r.ExpectObject("an input item"));
  std::string type = "message";
  STRATA_API_TRY(r.String("type", &type));
  if (type == "message") return AddMessageItem(r, path, out);
  if (type == "function_call") return AddFunctionCall(r, out);
  if (type == "function_call_output") {
    Message result;
    result.role = Role::kToolResult;
    STRATA_API_TRY(r.RequiredString("call_id", &result.tool_call_id));
    const json* output = r.Raw("output");
    auto text = TextContent(output, path + ".output");
    if (!text) return tl::unexpected(text.error());
    result.text = std::move(*text);
    out->messages.push_back(std::move(result));
    return true;
  }
  if (type == "reasoning") return AddReasoningItem(r, path, out);
  return BadRequest(path + ".type", fmt::format("'{}' items are not supported", type));
}

ApiResult<bool> AddTools(JsonObjectReader& r, ServeRequest* out) {
  STRATA_API_TRY_ASSIGN(const json* tools, r.Array("tools"));
  for (size_t i = 0; tools != nullptr && i < tools->size(); ++i) {
    JsonObjectReader t((*tools)[i], r.PathOf("tools", i), {}, JsonStrictness::kLenient);
    STRATA_API_TRY(t.ExpectObject("a tool"));
    std::string type = "function";
    STRATA_API_TRY(t.String("type", &type));
    if (type != "function") {
      // Built-in and namespace tools are not offered to the model; the request says so.
      std::string name;
      STRATA_API_TRY(t.String("name", &name));
      out->ignored_tools.push_back(name.empty() ? type : type + ":" + name);
      continue;
    }
    auto tool = ToolFields(t, "parameters");
    if (!tool) return tl::unexpected(tool.error());
    out->tools.push_back(std::move(*tool));
  }
  return true;
}

// `text`: its `format` (text, json_object, json_schema with the schema beside the type) as the
// grammar; `verbosity` has no effect; other members are refused.
ApiResult<bool> ReadText(const json& text, ServeRequest* out) {
  if (!text.is_object()) return BadRequest("text", "must be an object");
  for (const auto& [key, value] : text.items()) {
    if (key == "format" && !value.is_null()) {
      const json* schema =
          value.is_object() && value.contains("schema") ? &value["schema"] : nullptr;
      if (auto ok = ReadOutputFormat(value, "text.format", schema, out); !ok) return ok;
    } else if (key != "verbosity" && key != "format") {
      return BadRequest("text." + key, "is not a member strata serve knows (format, verbosity)");
    }
  }
  return true;
}
// `include`: message.output_text.logprobs is honoured (with `top_logprobs`, 0-20, candidates per
// token, as OpenAI documents); the other values name output this server never produces
// (encrypted reasoning, tool sources, images), so they have no effect and are named in
// ServeRequest::no_effect as `include:<value>`.
ApiResult<bool> ReadLogprobs(JsonObjectReader& r, ServeRequest* out) {
  std::vector<std::string> include;
  if (Given(r, "include")) STRATA_API_TRY(r.StringArray("include", &include));
  for (const std::string& value : include) {
    if (value == "message.output_text.logprobs") {
      out->logprobs = true;
    } else {
      out->no_effect.push_back("include:" + value);
    }
  }
  int64_t top = -1;
  if (Given(r, "top_logprobs")) STRATA_API_TRY(r.Int("top_logprobs", &top, 0, 20));
  if (top > 0 && !out->logprobs)
    return BadRequest("top_logprobs",
                      "log probabilities are returned only when include holds "
                      "\"message.output_text.logprobs\"");
  out->top_logprobs = static_cast<int>(std::max<int64_t>(top, 0));
  return true;
}

// `reasoning`: its `effort` as llama-server reads it (ReadReasoningEffort); `summary` and the
// older `generate_summary` ask for a summary of the reasoning, which local templates do not write
// (no effect, named as `reasoning.summary`); other members are refused.
ApiResult<bool> ReadReasoning(JsonObjectReader& r, ServeRequest* out) {
  const json* reasoning = r.Raw("reasoning");
  if (reasoning == nullptr || reasoning->is_null()) return true;
  if (!reasoning->is_object()) return BadRequest("reasoning", "must be an object");
  for (const auto& [key, value] : reasoning->items()) {
    if (key == "effort") {
      if (auto ok = ReadReasoningEffort(value, "reasoning.effort", out); !ok) return ok;
    } else if (key == "summary" || key == "generate_summary") {
      if (!value.is_null()) out->no_effect.push_back("reasoning." + key);
    } else {
      return BadRequest("reasoning." + key,
                        "is not a member strata serve knows (effort, summary, generate_summary)");
    }
  }
  return true;
}

bool IsDisabled(const json& v) { return v == "disabled"; }
bool IsEmptyString(const json& v) { return v == ""; }

using enum MemberRule;
// OpenAI's create-response members; the sampling members are
// SamplingMembers() (docs/serve.md has the table).
constexpr MemberSpec kMembers[] = {
    {"model", kHonoured},
    {"input", kHonoured},
    {"instructions", kHonoured},
    {"tools", kHonoured},
    {"tool_choice", kHonoured},
    {"stream", kHonoured},
    {"max_output_tokens", kHonoured},
    {"stop", kHonoured},
    {"grammar", kHonoured},          // llama-server's GBNF, as on its chat endpoint
    {"return_progress", kHonoured},  // llama-server's: response.in_progress events
    {"previous_response_id", kRefused, "this server keeps no responses (send the whole input)",
     IsEmptyString},
    {"conversation", kRefused, "this server keeps no conversations (send the whole input)"},
    {"background", kRefused, "responses run in the foreground (background must be false)", IsFalse},
    {"prompt", kRefused, "stored prompt templates are not available on a local server"},
    {"text", kHonoured},
    {"top_logprobs", kHonoured},
    {"max_tool_calls", kRefused, "the number of tool calls is not bounded by this server"},
    {"truncation", kRefused,
     "the input is never truncated: a prompt over the context is refused (413)", IsDisabled},
    {"parallel_tool_calls", kNoEffect,
     "a reply holds the tool calls the model writes; false does not limit them to one"},
    {"reasoning", kHonoured},
    {"include", kHonoured},
    {"metadata", kNoEffect, "tags of stored responses: this server stores none"},
    {"client_metadata", kNoEffect, "tags for the provider's logs"},
    {"store", kNoEffect, "this server stores no responses"},
    {"user", kNoEffect, "an end-user id for the provider's abuse monitoring"},
    {"safety_identifier", kNoEffect, "an end-user id for the provider's abuse monitoring"},
    {"service_tier", kNoEffect, "there is one tier"},
    {"prompt_cache_key", kNoEffect,
     "every prefix is matched by its tokens, whatever the key (docs/serve.md)"},
    {"stream_options", kNoEffect, "its only option, include_obfuscation, pads events"},
};

}  // namespace

ApiResult<ServeRequest> ParseResponses(const json& body) {
  ServeRequest out;
  out.api = Api::kOpenAiResponses;
  if (auto ok = CheckMembers(body, {kMembers, SamplingMembers()}, "Responses", &out.no_effect); !ok)
    return tl::unexpected(ok.error());
  JsonObjectReader r(body, "", {}, JsonStrictness::kLenient);
  STRATA_API_TRY(r.String("model", &out.model));
  STRATA_API_TRY(r.String("instructions", &out.system));
  const json* input = r.Raw("input");
  if (input == nullptr) return BadRequest("input", "is required (a string or an array of items)");
  if (input->is_string()) {
    Message m;
    m.text = input->get<std::string>();
    out.messages.push_back(std::move(m));
  } else if (input->is_array()) {
    for (size_t i = 0; i < input->size(); ++i) {
      auto ok = AddItem((*input)[i], r.PathOf("input", i), &out);
      if (!ok) return tl::unexpected(ok.error());
    }
  } else {
    return BadRequest("input", "must be a string or an array of items");
  }
  if (out.messages.empty()) return BadRequest("input", "holds no message");
  if (auto ok = AddTools(r, &out); !ok) return tl::unexpected(ok.error());
  if (const json* choice = r.Raw("tool_choice")) out.tool_choice = ToolChoiceOf(*choice);
  STRATA_API_TRY(r.Bool("stream", &out.stream));
  STRATA_API_TRY(r.Bool("return_progress", &out.return_progress));
  STRATA_API_TRY(ReadSampling(r, "max_output_tokens", "", &out));
  if (const json* text = r.Raw("text"); text != nullptr && !text->is_null()) {
    if (auto ok = ReadText(*text, &out); !ok) return tl::unexpected(ok.error());
  }
  if (auto ok = ReadLogprobs(r, &out); !ok) return tl::unexpected(ok.error());
  if (auto ok = ReadGrammar(r, &out); !ok) return tl::unexpected(ok.error());
  if (auto ok = ReadReasoning(r, &out); !ok) return tl::unexpected(ok.error());
  return out;
}

namespace {

// ---- Replies ----

json UsageJson(const Usage& u) {
  return {{"input_tokens", u.prompt_tokens},
          {"input_tokens_details", {{"cached_tokens", u.cached_tokens}}},
          {"output_tokens", u.completion_tokens},
          {"output_tokens_details", {{"reasoning_tokens", u.reasoning_tokens}}},
          {"total_tokens", u.prompt_tokens + u.completion_tokens}};
}

// An output_text part; `logprobs` (null: not asked for) its tokens' log probabilities.
json TextPart(const std::string& text, const json& logprobs) {
  json part{{"type", "output_text"}, {"text", text}, {"annotations", json::array()}};
  if (!logprobs.is_null()) part["logprobs"] = logprobs;
  return part;
}

json MessageItem(const std::string& id, const std::string& text, const char* status,
                 const json& logprobs = nullptr) {
  return {{"id", id},
          {"type", "message"},
          {"role", "assistant"},
          {"status", status},
          {"content", json::array({TextPart(text, logprobs)})}};
}

// A Responses logprob: {token, logprob, bytes, top_logprobs: [{token, logprob, bytes}]} (OpenAI's
// shape has no id; LogprobJson's is dropped).
json ResponsesLogprobs(const std::vector<TokenLogprob>& entries) {
  json out = LogprobsJson(entries);
  for (json& e : out) {
    e.erase("id");
    for (json& t : e["top_logprobs"]) t.erase("id");
  }
  return out;
}

// A reasoning item (llama-server's shape): the reply's thinking as one reasoning_text part; no
// summary and no encrypted content (a local model's reasoning is sent in the clear).
json ReasoningItem(const std::string& id, const std::string& text, const char* status) {
  json content = json::array();
  if (!text.empty()) content.push_back({{"type", "reasoning_text"}, {"text", text}});
  return {{"id", id},
          {"type", "reasoning"},
          {"status", status},
          {"summary", json::array()},
          {"content", std::move(content)},
          {"encrypted_content", ""}};
}

json CallItem(const std::string& id, const TemplateToolCall& c, const char* status) {
  return {{"id", id},        {"type", "function_call"}, {"status", status},
          {"call_id", c.id}, {"name", c.name},          {"arguments", c.arguments}};
}

class ResponsesWriter : public ReplyWriter {
 public:
  explicit ResponsesWriter(ResponseMeta meta) : meta_(std::move(meta)) {}

  std::string Start(const Usage&) override {
    if (created_) return "";  // a progress event opened the stream
    created_ = true;
    std::string out = Event("response.created", {{"response", InProgress()}});
    return out + Event("response.in_progress", {{"response", InProgress()}});
  }

  // llama-server's progress event: response.in_progress with prompt_progress beside the response;
  // the first one follows response.created (and Start then sends neither again).
  std::string Progress(const PromptProgress& p) override {
    std::string out;
    if (!created_) out = Event("response.created", {{"response", InProgress()}});
    created_ = true;
    return out + Event("response.in_progress",
                       {{"response", InProgress()}, {"prompt_progress", ProgressJson(p)}});
  }

  std::string Delta(const ReplyDelta& d) override {
    std::string out;
    if (!d.reasoning.empty()) {
      if (kind_ != "reasoning") {
        out += CloseItem();
        kind_ = "reasoning";
        text_.clear();
        item_id_ = fmt::format("rs_{}_{}", meta_.id, index_);
        out +=
            Event("response.output_item.added",
                  {{"output_index", index_}, {"item", ReasoningItem(item_id_, "", "in_progress")}});
      }
      text_ += d.reasoning;
      out += Event("response.reasoning_text.delta", {{"item_id", item_id_},
                                                     {"output_index", index_},
                                                     {"content_index", 0},
                                                     {"delta", d.reasoning}});
    }
    if (!d.content.empty() || (meta_.logprobs && !d.logprobs.empty() && kind_ == "message")) {
      if (kind_ != "message") out += OpenMessage();
      text_ += d.content;
      json event{{"item_id", item_id_},
                 {"output_index", index_},
                 {"content_index", 0},
                 {"delta", d.content}};
      if (meta_.logprobs) {
        event["logprobs"] = ResponsesLogprobs(d.logprobs);
        logprobs_.insert(logprobs_.end(), d.logprobs.begin(), d.logprobs.end());
      }
      out += Event("response.output_text.delta", event);
    }
    if (d.tool_index >= 0) {
      if (!d.tool_name.empty() || kind_ != "function_call") {
        out += CloseItem();
        call_ = {d.tool_id, d.tool_name, ""};
        kind_ = "function_call";
        item_id_ = fmt::format("fc_{}_{}", meta_.id, index_);
        out +=
            Event("response.output_item.added",
                  {{"output_index", index_}, {"item", CallItem(item_id_, call_, "in_progress")}});
      }
      call_.arguments += d.tool_arguments;
      if (!d.tool_arguments.empty())
        out +=
            Event("response.function_call_arguments.delta",
                  {{"item_id", item_id_}, {"output_index", index_}, {"delta", d.tool_arguments}});
    }
    return out;
  }

  // The last event names the response's status, as OpenAI's streams do: response.incomplete for
  // a reply cut by its token limit (the response as Body writes it: status "incomplete",
  // incomplete_details), response.completed otherwise. One exception: a reply cut by the server's
  // own cap (-n) below the request's limit ends with response.completed (the same response,
  // status "incomplete"), as llama-server ends every stream: Codex CLI, which sends no limit,
  // fails its run on response.incomplete ("Incomplete response returned, reason:
  // max_output_tokens"; tests/serve/realclient, realclient.codex), where it takes the capped
  // answer as the end of the turn otherwise.
  std::string Finish(const FinishedReply& reply) override {
    std::string out = CloseItem();
    json r = Body(reply);
    const bool incomplete = r["status"] == "incomplete" && !reply.server_capped;
    return out +
           Event(incomplete ? "response.incomplete" : "response.completed", {{"response", r}});
  }

  json Body(const FinishedReply& reply) override {
    json output = json::array();
    if (!reply.reply.reasoning.empty())
      output.push_back(ReasoningItem(fmt::format("rs_{}_{}", meta_.id, output.size()),
                                     reply.reply.reasoning, "completed"));
    if (!reply.reply.content.empty() || reply.reply.tool_calls.empty())
      output.push_back(MessageItem(fmt::format("msg_{}_{}", meta_.id, output.size()),
                                   reply.reply.content, "completed",
                                   MessageLogprobs(reply.logprobs)));
    for (const TemplateToolCall& call : reply.reply.tool_calls)
      output.push_back(
          CallItem(fmt::format("fc_{}_{}", meta_.id, output.size()), call, "completed"));
    json r = Response(reply.finish == FinishReason::kLength ? "incomplete" : "completed", output);
    if (reply.finish == FinishReason::kLength)
      r["incomplete_details"] = {{"reason", "max_output_tokens"}};
    r["usage"] = UsageJson(reply.usage);
    return r;
  }

 private:
  json Response(const char* status, json output) const {
    return {{"id", meta_.id},
            {"object", "response"},
            {"created_at", meta_.created},
            {"status", status},
            {"model", meta_.model},
            {"output", std::move(output)},
            {"store", false},
            {"error", nullptr},
            {"incomplete_details", nullptr},
            {"parallel_tool_calls", false}};
  }
  json InProgress() const {
    json r = Response("in_progress", json::array());
    r["usage"] = nullptr;
    return r;
  }
  json MessageLogprobs(const std::vector<TokenLogprob>& entries) const {
    return meta_.logprobs ? ResponsesLogprobs(entries) : json();
  }
  std::string Event(const char* type, json data) {
    data["type"] = type;
    data["sequence_number"] = sequence_++;
    return SseEvent(type, data);
  }
  std::string OpenMessage() {
    std::string out = CloseItem();
    kind_ = "message";
    text_.clear();
    logprobs_.clear();
    item_id_ = fmt::format("msg_{}_{}", meta_.id, index_);
    json item = MessageItem(item_id_, "", "in_progress");
    item["content"] = json::array();
    out += Event("response.output_item.added", {{"output_index", index_}, {"item", item}});
    out += Event("response.content_part.added",
                 {{"item_id", item_id_},
                  {"output_index", index_},
                  {"content_index", 0},
                  {"part", TextPart("", meta_.logprobs ? json::array() : json())}});
    return out;
  }
  std::string CloseItem() {
    std::string out;
    if (kind_ == "message") {
      const json logprobs = MessageLogprobs(logprobs_);
      json part = TextPart(text_, logprobs);
      json done{
          {"item_id", item_id_}, {"output_index", index_}, {"content_index", 0}, {"text", text_}};
      if (!logprobs.is_null()) done["logprobs"] = logprobs;
      out += Event("response.output_text.done", done);
      out += Event(
          "response.content_part.done",
          {{"item_id", item_id_}, {"output_index", index_}, {"content_index", 0}, {"part", part}});
      out += Event("response.output_item.done",
                   {{"output_index", index_},
                    {"item", MessageItem(item_id_, text_, "completed", logprobs)}});
    } else if (kind_ == "reasoning") {
      out += Event(
          "response.reasoning_text.done",
          {{"item_id", item_id_}, {"output_index", index_}, {"content_index", 0}, {"text", text_}});
      out +=
          Event("response.output_item.done",
                {{"output_index", index_}, {"item", ReasoningItem(item_id_, text_, "completed")}});
    } else if (kind_ == "function_call") {
      out +=
          Event("response.function_call_arguments.done",
                {{"item_id", item_id_}, {"output_index", index_}, {"arguments", call_.arguments}});
      out += Event("response.output_item.done",
                   {{"output_index", index_}, {"item", CallItem(item_id_, call_, "completed")}});
    }
    if (!kind_.empty()) ++index_;
    kind_.clear();
    return out;
  }

  ResponseMeta meta_;
  std::string kind_;  // "reasoning", "message", "function_call" or "" (no open item)
  std::string item_id_, text_;
  std::vector<TokenLogprob> logprobs_;  // the open message's, when asked for
  TemplateToolCall call_;
  int index_ = 0;
  int sequence_ = 0;
  bool created_ = false;  // response.created was sent
};

}  // namespace

std::unique_ptr<ReplyWriter> MakeResponsesWriter(const ResponseMeta& meta) {
  return std::make_unique<ResponsesWriter>(meta);
}

namespace {

ApiResult<ServeRequest> Parse(const json& body, const ClientTextOptions&) {
  return ParseResponses(body);
}

// OpenAI's error body: {"error": {message, type, param, code}}.
json ErrorBodyOf(const ApiError& error) {
  json e{{"message", error.message}, {"type", error.type}, {"code", nullptr}};
  e["param"] = error.param.empty() ? json() : json(error.param);
  return {{"error", e}};
}

constexpr const char* kRoutes[] = {"/v1/responses"};

}  // namespace

const ServeCodec kResponsesServeCodec = {
    .api = Api::kOpenAiResponses,
    .name = "responses",
    .id_prefix = "resp",
    .routes = kRoutes,
    .parse = Parse,
    .make_writer = MakeResponsesWriter,
    .error_body = ErrorBodyOf,
};

}  // namespace strata::serve
