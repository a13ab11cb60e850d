// openai_chat_serve.cc: the OpenAI Chat Completions codec's strata serve half (serve_codec.h): the
// request parser and the reply writer; the rest of the codec is openai_chat.cc.
//
// Replies: a `chat.completion` object, or
// `chat.completion.chunk` SSE events (role first, then content / tool_calls deltas, a final chunk
// with finish_reason, a usage chunk when stream_options.include_usage, then `data: [DONE]`).
#include <fmt/format.h>

#include <algorithm>

#include "wire/request_json.h"
#include "wire/request_members.h"
#include "wire/serve_codec.h"

namespace strata::serve {
namespace {

using nlohmann::json;

ApiResult<ToolCall> ParseToolCall(const json& value, const std::string& path) {
  JsonObjectReader r(value, path, {}, JsonStrictness::kLenient);
  STRATA_API_TRY(r.ExpectObject("a tool call"));
  ToolCall call;
  STRATA_API_TRY(r.String("id", &call.id));
  const json* fn = r.Raw("function");
  if (fn == nullptr || !fn->is_object()) return BadRequest(path + ".function", "must be an object");
  JsonObjectReader f(*fn, path + ".function", {}, JsonStrictness::kLenient);
  STRATA_API_TRY(f.RequiredString("name", &call.name));
  std::string arguments = "{}";
  STRATA_API_TRY(f.String("arguments", &arguments));
  call.arguments_json = ArgumentsObject(arguments).dump();
  return call;
}

ApiResult<bool> ParseMessage(const json& value, const std::string& path, ServeRequest* out) {
  JsonObjectReader r(value, path, {}, JsonStrictness::kLenient);
  STRATA_API_TRY(r.ExpectObject("a message"));
  std::string role;
  STRATA_API_TRY(r.RequiredString("role", &role));
  const json* content = r.Raw("content");
  auto text = TextContent(content, path + ".content");
  if (!text) return tl::unexpected(text.error());
  Message m;
  m.text = std::move(*text);
  if (role == "system" || role == "developer") {
    AddSystemText(std::move(m.text), out);
    return true;
  } else if (role == "user") {
    m.role = Role::kUser;
  } else if (role == "assistant") {
    m.role = Role::kAssistant;
    // llama-server's member for the reasoning of an earlier turn (what it answers with).
    std::string reasoning;
    STRATA_API_TRY(r.String("reasoning_content", &reasoning));
    if (!reasoning.empty()) out->reasoning[out->messages.size()] = std::move(reasoning);
    STRATA_API_TRY_ASSIGN(const json* calls, r.Array("tool_calls"));
    for (size_t i = 0; calls != nullptr && i < calls->size(); ++i) {
      auto call = ParseToolCall((*calls)[i], r.PathOf("tool_calls", i));
      if (!call) return tl::unexpected(call.error());
      m.tool_calls.push_back(std::move(*call));
    }
  } else if (role == "tool") {
    m.role = Role::kToolResult;
    STRATA_API_TRY(r.RequiredString("tool_call_id", &m.tool_call_id));
  } else {
    return BadRequest(path + ".role", "must be one of system, developer, user, assistant, tool");
  }
  out->messages.push_back(std::move(m));
  return true;
}

// response_format (OpenAI: the schema under json_schema.schema), or llama-server's json_schema
// (a schema) or grammar (GBNF).
ApiResult<bool> ReadStructuredOutput(JsonObjectReader& r, ServeRequest* out) {
  if (const json* format = r.Raw("response_format"); format != nullptr && !format->is_null()) {
    const json* schema = nullptr;
    if (format->is_object() && format->contains("json_schema") &&
        (*format)["json_schema"].is_object() && (*format)["json_schema"].contains("schema"))
      schema = &(*format)["json_schema"]["schema"];
    if (format->is_object() && format->contains("schema")) schema = &(*format)["schema"];
    if (auto ok = ReadOutputFormat(*format, "response_format", schema, out); !ok) return ok;
  }
  if (const json* schema = r.Raw("json_schema"); schema != nullptr && !schema->is_null()) {
    if (auto ok = SchemaGrammar(*schema, "json_schema", out); !ok) return ok;
  }
  return ReadGrammar(r, out);
}

ApiResult<ToolDefinition> ParseTool(const json& value, const std::string& path) {
  JsonObjectReader r(value, path, {}, JsonStrictness::kLenient);
  STRATA_API_TRY(r.ExpectObject("a tool"));
  const json* fn = r.Raw("function");
  if (fn == nullptr || !fn->is_object()) return BadRequest(path + ".function", "must be an object");
  JsonObjectReader f(*fn, path + ".function", {}, JsonStrictness::kLenient);
  return ToolFields(f, "parameters");
}

// logprobs / top_logprobs (OpenAI: top_logprobs 0-20, only with logprobs true), or llama-server's
// n_probs (N > 0: the log probabilities with the N likeliest candidates).
ApiResult<bool> ReadLogprobs(JsonObjectReader& r, ServeRequest* out) {
  if (Given(r, "logprobs")) STRATA_API_TRY(r.Bool("logprobs", &out->logprobs));
  int64_t top = -1;
  if (Given(r, "top_logprobs")) STRATA_API_TRY(r.Int("top_logprobs", &top, 0, 20));
  if (top >= 0 && !out->logprobs) return BadRequest("top_logprobs", "requires logprobs to be true");
  int64_t n_probs = 0;
  if (Given(r, "n_probs")) STRATA_API_TRY(r.Int("n_probs", &n_probs, 0, 1 << 20));
  if (out->logprobs) {
    out->top_logprobs = static_cast<int>(std::max<int64_t>(top, 0));
  } else if (n_probs > 0) {
    out->logprobs = true;
    out->top_logprobs = static_cast<int>(n_probs);
  }
  return true;
}

bool IsTextOnly(const json& v) { return v == json::array({"text"}); }

using enum MemberRule;
// OpenAI's create-chat-completion members, then llama-server's own (tools/server/README.md);
// the sampling members are SamplingMembers() (docs/serve.md has the table).
constexpr MemberSpec kMembers[] = {
    {"messages", kHonoured},
    {"model", kHonoured},
    {"tools", kHonoured},
    {"tool_choice", kHonoured},
    {"stream", kHonoured},
    {"stream_options", kHonoured},
    {"max_completion_tokens", kHonoured},
    {"max_tokens", kHonoured},
    {"stop", kHonoured},
    {"n", kRefused, "one choice is generated per request (n must be 1)", IsOne},
    {"logprobs", kHonoured},
    {"top_logprobs", kHonoured},
    {"n_probs", kHonoured},
    {"return_progress", kHonoured},  // llama-server's
    {"response_format", kHonoured},
    {"json_schema", kHonoured},
    {"grammar", kHonoured},
    {"logit_bias", kRefused, "logit biases are not supported by strata serve"},
    {"audio", kRefused, "audio output is not supported (text models only)"},
    {"modalities", kRefused, "only text output is supported (modalities must be [\"text\"])",
     IsTextOnly},
    {"prediction", kRefused, "predicted outputs are not supported by strata serve"},
    {"web_search_options", kRefused, "web search is not available on a local server"},
    {"functions", kRefused, "the deprecated functions member is not supported: send tools"},
    {"function_call", kRefused,
     "the deprecated function_call member is not supported: send "
     "tool_choice"},
    {"parallel_tool_calls", kNoEffect,
     "a reply holds the tool calls the model writes; false does not limit them to one"},
    {"cache_prompt", kRefused, "every prompt prefix is reused; it cannot be turned off", IsTrue},
    {"metadata", kNoEffect, "stored-completion tags: this server stores no completions"},
    {"store", kNoEffect, "this server stores no completions"},
    {"user", kNoEffect, "an end-user id for the provider's abuse monitoring"},
    {"safety_identifier", kNoEffect, "an end-user id for the provider's abuse monitoring"},
    {"service_tier", kNoEffect, "there is one tier"},
    {"prompt_cache_key", kNoEffect,
     "every prefix is matched by its tokens, whatever the key (docs/serve.md)"},
    {"reasoning_budget_tokens", kHonoured},
    {"thinking_budget_tokens", kHonoured},
    {"reasoning_effort", kHonoured},
    {"verbosity", kNoEffect, "a hint OpenAI's models read; local templates do not"},
};

}  // namespace

ApiResult<ServeRequest> ParseChatCompletions(const json& body) {
  ServeRequest out;
  out.api = Api::kOpenAiChat;
  if (auto ok =
          CheckMembers(body, {kMembers, SamplingMembers()}, "Chat Completions", &out.no_effect);
      !ok)
    return tl::unexpected(ok.error());
  JsonObjectReader r(body, "", {}, JsonStrictness::kLenient);
  STRATA_API_TRY(r.String("model", &out.model));
  STRATA_API_TRY_ASSIGN(const json* messages, r.Array("messages"));
  if (messages == nullptr || messages->empty())
    return BadRequest("messages", "is required (a non-empty array)");
  for (size_t i = 0; i < messages->size(); ++i) {
    auto ok = ParseMessage((*messages)[i], r.PathOf("messages", i), &out);
    if (!ok) return tl::unexpected(ok.error());
  }
  STRATA_API_TRY_ASSIGN(const json* tools, r.Array("tools"));
  for (size_t i = 0; tools != nullptr && i < tools->size(); ++i) {
    auto tool = ParseTool((*tools)[i], r.PathOf("tools", i));
    if (!tool) return tl::unexpected(tool.error());
    out.tools.push_back(std::move(*tool));
  }
  if (const json* choice = r.Raw("tool_choice")) out.tool_choice = ToolChoiceOf(*choice);
  STRATA_API_TRY(r.Bool("stream", &out.stream));
  if (const json* so = r.Raw("stream_options"); so != nullptr && so->is_object())
    out.include_usage = so->value("include_usage", false);
  STRATA_API_TRY(ReadSampling(r, "max_completion_tokens", "max_tokens", &out));
  if (auto ok = ReadStructuredOutput(r, &out); !ok) return tl::unexpected(ok.error());
  if (auto ok = ReadLogprobs(r, &out); !ok) return tl::unexpected(ok.error());
  STRATA_API_TRY(r.Bool("return_progress", &out.return_progress));
  if (const json* effort = r.Raw("reasoning_effort")) {
    if (auto ok = ReadReasoningEffort(*effort, "reasoning_effort", &out); !ok)
      return tl::unexpected(ok.error());
  }
  // llama-server's per-request reasoning budget (-1: the server's --reasoning-budget).
  for (const char* name : {"thinking_budget_tokens", "reasoning_budget_tokens"}) {
    int64_t budget = -1;
    if (Given(r, name)) STRATA_API_TRY(r.Int(name, &budget, -1, INT32_MAX));
    if (budget >= 0) out.reasoning_budget = static_cast<int>(budget);
  }
  return out;
}

namespace {

// ---- Replies ----

const char* FinishName(FinishReason reason) {
  switch (reason) {
    case FinishReason::kLength:
      return "length";
    case FinishReason::kToolCalls:
      return "tool_calls";
    case FinishReason::kStop:
      break;
  }
  return "stop";
}

json UsageJson(const Usage& u) {
  return {{"prompt_tokens", u.prompt_tokens},
          {"completion_tokens", u.completion_tokens},
          {"total_tokens", u.prompt_tokens + u.completion_tokens},
          {"prompt_tokens_details", {{"cached_tokens", u.cached_tokens}}}};
}

class ChatWriter : public ReplyWriter {
 public:
  explicit ChatWriter(ResponseMeta meta) : meta_(std::move(meta)) {}

  std::string Start(const Usage&) override {
    return Chunk(json{{"role", "assistant"}, {"content", ""}}, nullptr);
  }

  // llama-server's progress chunk: the role delta with its content null, and prompt_progress.
  std::string Progress(const PromptProgress& p) override {
    json chunk = Base("chat.completion.chunk");
    chunk["choices"] = json::array({{{"index", 0},
                                     {"delta", {{"role", "assistant"}, {"content", nullptr}}},
                                     {"logprobs", nullptr},
                                     {"finish_reason", nullptr}}});
    chunk["prompt_progress"] = ProgressJson(p);
    return SseEvent("", chunk);
  }

  std::string Delta(const ReplyDelta& d) override {
    json delta = json::object();
    if (!d.content.empty()) delta["content"] = d.content;
    if (!d.reasoning.empty()) delta["reasoning_content"] = d.reasoning;
    if (d.tool_index >= 0) {
      json call{{"index", d.tool_index}, {"function", {{"arguments", d.tool_arguments}}}};
      if (!d.tool_name.empty()) {
        call["id"] = d.tool_id;
        call["type"] = "function";
        call["function"]["name"] = d.tool_name;
      }
      delta["tool_calls"] = json::array({call});
    }
    if (delta.empty() && d.logprobs.empty()) return "";
    return Chunk(delta, nullptr, &d.logprobs);
  }

  std::string Finish(const FinishedReply& reply) override {
    std::string out = Chunk(json::object(), FinishName(reply.finish));
    if (meta_.include_usage) {
      json chunk = Base("chat.completion.chunk");
      chunk["choices"] = json::array();
      chunk["usage"] = UsageJson(reply.usage);
      out += SseEvent("", chunk);
    }
    return out + "data: [DONE]\n\n";
  }

  json Body(const FinishedReply& reply) override {
    json message{{"role", "assistant"}, {"content", reply.reply.content}};
    if (!reply.reply.reasoning.empty()) message["reasoning_content"] = reply.reply.reasoning;
    if (!reply.reply.tool_calls.empty()) {
      json calls = json::array();
      for (const TemplateToolCall& c : reply.reply.tool_calls) {
        calls.push_back({{"id", c.id},
                         {"type", "function"},
                         {"function", {{"name", c.name}, {"arguments", c.arguments}}}});
      }
      message["tool_calls"] = calls;
      if (reply.reply.content.empty()) message["content"] = nullptr;
    }
    json body = Base("chat.completion");
    body["choices"] = json::array({{{"index", 0},
                                    {"message", message},
                                    {"logprobs", LogprobsOf(&reply.logprobs)},
                                    {"finish_reason", FinishName(reply.finish)}}});
    body["usage"] = UsageJson(reply.usage);
    return body;
  }

 private:
  json Base(const char* object) const {
    return {{"id", meta_.id},
            {"object", object},
            {"created", meta_.created},
            {"model", meta_.model},
            {"system_fingerprint", "strata"}};
  }
  // The choice's logprobs: {"content": [...]} when the request asked for them, else null.
  json LogprobsOf(const std::vector<TokenLogprob>* entries) const {
    if (!meta_.logprobs || entries == nullptr) return nullptr;
    return {{"content", LogprobsJson(*entries)}};
  }
  std::string Chunk(json delta, const char* finish,
                    const std::vector<TokenLogprob>* logprobs = nullptr) const {
    json chunk = Base("chat.completion.chunk");
    json choice{{"index", 0}, {"delta", std::move(delta)}, {"logprobs", LogprobsOf(logprobs)}};
    choice["finish_reason"] = finish == nullptr ? json() : json(finish);
    chunk["choices"] = json::array({choice});
    return SseEvent("", chunk);
  }

  ResponseMeta meta_;
};

}  // namespace

std::unique_ptr<ReplyWriter> MakeChatCompletionsWriter(const ResponseMeta& meta) {
  return std::make_unique<ChatWriter>(meta);
}

namespace {

ApiResult<ServeRequest> Parse(const json& body, const ClientTextOptions&) {
  return ParseChatCompletions(body);
}

// OpenAI's error body: {"error": {message, type, param, code}}.
json ErrorBodyOf(const ApiError& error) {
  json e{{"message", error.message}, {"type", error.type}, {"code", nullptr}};
  e["param"] = error.param.empty() ? json() : json(error.param);
  return {{"error", e}};
}

constexpr const char* kRoutes[] = {"/v1/chat/completions", "/chat/completions"};

}  // namespace

const ServeCodec kChatCompletionsServeCodec = {
    .api = Api::kOpenAiChat,
    .name = "chat.completions",
    .id_prefix = "chatcmpl",
    .routes = kRoutes,
    .parse = Parse,
    .make_writer = MakeChatCompletionsWriter,
    .error_body = ErrorBodyOf,
};

}  // namespace strata::serve
