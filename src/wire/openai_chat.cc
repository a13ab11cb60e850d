// openai_chat.cc: the OpenAI Chat Completions codec (codec.h), all of it but what `strata serve`
// needs llama.cpp for (openai_chat_serve.cc: request parsing, replies): the request strata
// renders, the canonical prompt explain and replay compare, the conversation a recorded body
// holds, and the usage members the API reports.
//
// Rendering: no cache directive exists in this API (caching is automatic by prefix), so none is
// written; the optional prompt_cache_key sits before the tools so it never moves the prefix. The
// two system blocks are two system messages; a context-update notice is a system message at its
// place in the conversation.
#include "prompt/canonical_json.h"
#include "render/render_internal.h"
#include "wire/codec.h"
#include "wire/openai_shared.h"

namespace strata::wire {
namespace {

using nlohmann::json;
using namespace render_internal;  // the renderers' shared pieces

// Chat Completions: messages with string content, tools nested under "function".
constexpr OpenAiShape kChatShape = {true, ",\"messages\":[", "{\"role\":\"system\",\"content\":\"",
                                    "\"}", "{\"type\":\"text\",\"text\":"};

void AppendMessage(const Message& m, std::string* out) {
  switch (m.role) {
    case Role::kUser:
      AppendQuoted("{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":", m.text, "}]}",
                   out);
      return;
    case Role::kContextUpdate:
      AppendQuoted("{\"role\":\"system\",\"content\":", m.text, "}", out);
      return;
    case Role::kToolResult:
      AppendQuoted("{\"role\":\"tool\",\"tool_call_id\":", m.tool_call_id, ",\"content\":", out);
      AppendJsonString(m.text, out);
      *out += "}";
      return;
    case Role::kAssistant:
      *out += "{\"role\":\"assistant\",\"content\":";
      if (m.text.empty() && !m.tool_calls.empty()) {
        *out += "null";
      } else {
        AppendJsonString(m.text, out);
      }
      if (!m.tool_calls.empty()) {
        *out += ",\"tool_calls\":[";
        for (size_t i = 0; i < m.tool_calls.size(); ++i) {
          if (i) *out += ",";
          AppendQuoted("{\"id\":", m.tool_calls[i].id,
                       ",\"type\":\"function\",\"function\":{\"name\":", out);
          AppendJsonString(m.tool_calls[i].name, out);
          *out += ",\"arguments\":";
          AppendJsonString(CanonicalArguments(m.tool_calls[i]), out);
          *out += "}}";
        }
        *out += "]";
      }
      *out += "}";
      return;
  }
}

class OpenAiChatRenderer : public Renderer {
 public:
  Provider provider() const override { return Provider::kOpenAiChat; }
  std::string_view separator() const override { return ","; }

  void RenderHead(const PromptHead& head, const RenderOptions& options,
                  RenderedPart* out) const override {
    AppendOpenAiHead(head, options, kChatShape, out);
  }

  void AppendHistory(std::span<const Message> messages, bool preceded,
                     std::string* out) const override {
    for (const auto& m : messages) {
      if (preceded) *out += ",";
      preceded = true;
      AppendMessage(m, out);
    }
  }

  void RenderTail(std::span<const Message> new_input, bool preceded, std::string_view tail,
                  const RenderOptions&, size_t, RenderedPart* out) const override {
    std::string& b = out->bytes;
    for (size_t i = 0; i < new_input.size(); ++i) {
      if (preceded) b += ",";
      preceded = true;
      size_t begin = b.size();
      AppendMessage(new_input[i], &b);
      bool notice = new_input[i].role == Role::kContextUpdate;
      out->spans.push_back(
          Span(notice ? "epoch" : "input", Volatility::kTurn, "", begin, b.size()));
    }
    AppendOpenAiTail(new_input, preceded, tail, kChatShape, out);
  }
};

// ---- Canonical prompt ----

// A Chat Completions message: its content, then its other members as one block.
Status ChatMessage(const json& m, const std::string& path, CanonicalWriter& w) {
  STRATA_TRY_ASSIGN(std::string role, w.RoleOf(m, path));
  if (auto c = m.find("content"); c != m.end() && !c->is_null()) {
    STRATA_TRY(w.Content(*c, path + ".content", role, "text"));
  }
  json rest = json::object();
  for (auto it = m.begin(); it != m.end(); ++it) {
    if (it.key() != "role" && it.key() != "content")
      rest[it.key()] = WithoutCacheControl(it.value());
  }
  if (!rest.empty()) w.Add(path + ".calls", role + " calls", rest.dump());
  return {};
}

Status Canonicalize(const json& body, CanonicalWriter& w) {
  STRATA_TRY(w.JsonArray(body, "tools", "tool"));
  STRATA_TRY(w.JsonArray(body, "functions", "function"));
  if (auto it = body.find("response_format"); it != body.end() && !it->is_null()) {
    w.Add("response_format", "format", it->dump());
  }
  STRATA_TRY_ASSIGN(const json* messages, w.MessagesOf(body, "messages"));
  for (size_t i = 0; messages != nullptr && i < messages->size(); ++i) {
    STRATA_TRY(ChatMessage((*messages)[i], "messages[" + std::to_string(i) + "]", w));
  }
  return {};
}

// ---- Recorded bodies ----

RecordedMessage FromMessage(const json& m) {
  RecordedMessage c{StringMember(m, "role"), TextOf(m.value("content", json())), {}, {}};
  if (c.role == "tool") {
    c.results.push_back(ToolResultMessage(StringMember(m, "tool_call_id"), c.text, false));
    c.role = "user";
    c.text.clear();
  }
  for (const auto& call : m.value("tool_calls", json::array())) {
    if (!call.is_object()) continue;
    json fn = call.value("function", json::object());
    c.calls.push_back({StringMember(call, "id"), StringMember(fn, "name"),
                       ArgumentsOf(fn.value("arguments", json()))});
  }
  return c;
}

std::vector<RecordedMessage> RecordedMessages(const json& body) {
  return EachRecorded(body.value("messages", json::array()), FromMessage);
}

// `system` (not a Chat member, but read as before) and the leading system/developer messages.
std::string SystemText(const json& body) {
  std::string persona = TextOf(body.value("system", json()));
  for (const auto& m : body.value("messages", json::array())) {
    std::string role = m.is_object() ? StringMember(m, "role") : "";
    if (role != "system" && role != "developer") break;
    if (!persona.empty()) persona += "\n\n";
    persona += TextOf(m.value("content", json()));
  }
  return persona;
}

std::unique_ptr<Renderer> MakeRenderer() { return std::make_unique<OpenAiChatRenderer>(); }

constexpr const char* kPromptMembers[] = {"functions", "messages", "response_format", "tools"};
// The chunk that carries `usage` (the last, with stream_options.include_usage).
constexpr UsageEvent kUsageEvents[] = {{"", "", false}};
const UsageField kDocumentedUsage[] = {
    {"prompt_tokens", {}},
    {"completion_tokens", {}},
    {"total_tokens", {}},
    {"prompt_tokens_details", {"cached_tokens", "audio_tokens"}},
    {"completion_tokens_details",
     {"reasoning_tokens", "audio_tokens", "accepted_prediction_tokens",
      "rejected_prediction_tokens"}}};

}  // namespace

const WireCodec kOpenAiChatCodec = {
    .api = RequestApi::kOpenAiChat,
    .name = "openai-chat",
    .path_suffix = "/chat/completions",
    .provider = Provider::kOpenAiChat,
    .provider_name = "openai-chat",
    .explicit_breakpoints = false,
    .make_renderer = MakeRenderer,
    .canonicalize = Canonicalize,
    .recorded_messages = RecordedMessages,
    .system_text = SystemText,
    .usage_counts = {"prompt_tokens", "prompt_tokens_details", "cached_tokens", "", false},
    .usage_events = kUsageEvents,
    .documented_usage = kDocumentedUsage,
    .prompt_members = kPromptMembers,
};

}  // namespace strata::wire
