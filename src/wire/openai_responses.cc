// openai_responses.cc: the OpenAI Responses codec (codec.h), all of it but what `strata serve`
// needs llama.cpp for (openai_responses_serve.cc: request parsing, replies): the request strata
// renders, the canonical prompt explain and replay compare, the conversation a recorded body
// holds, and the usage members the API reports.
//
// Rendering: like Chat Completions it carries no cache directive; the conversation is the `input`
// item list: system blocks and notices as system messages, assistant text as output_text, tool
// calls and results as function_call and function_call_output items.
#include "prompt/canonical_json.h"
#include "render/render_internal.h"
#include "wire/codec.h"
#include "wire/openai_shared.h"

namespace strata::wire {
namespace {

using nlohmann::json;
using namespace render_internal;  // the renderers' shared pieces

// Responses: input items with input_text parts, flat function tools.
constexpr OpenAiShape kResponsesShape = {
    false, ",\"input\":[", "{\"role\":\"system\",\"content\":[{\"type\":\"input_text\",\"text\":\"",
    "\"}]}", "{\"type\":\"input_text\",\"text\":"};

void AppendSystem(std::string_view text, std::string* out) {
  AppendQuoted("{\"role\":\"system\",\"content\":[{\"type\":\"input_text\",\"text\":", text, "}]}",
               out);
}

// Appends the items of one message, comma-separated, preceded by a comma when `*preceded`.
void AppendItems(const Message& m, bool* preceded, std::string* out) {
  auto sep = [&] {
    if (*preceded) *out += ",";
    *preceded = true;
  };
  switch (m.role) {
    case Role::kUser:
      sep();
      AppendQuoted("{\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":", m.text,
                   "}]}", out);
      return;
    case Role::kContextUpdate:
      sep();
      AppendSystem(m.text, out);
      return;
    case Role::kToolResult:
      sep();
      AppendQuoted("{\"type\":\"function_call_output\",\"call_id\":", m.tool_call_id,
                   ",\"output\":", out);
      AppendJsonString(m.text, out);
      *out += "}";
      return;
    case Role::kAssistant:
      if (!m.text.empty() || m.tool_calls.empty()) {
        sep();
        AppendQuoted("{\"role\":\"assistant\",\"content\":[{\"type\":\"output_text\",\"text\":",
                     m.text, "}]}", out);
      }
      for (const auto& call : m.tool_calls) {
        sep();
        AppendQuoted("{\"type\":\"function_call\",\"call_id\":", call.id, ",\"name\":", out);
        AppendJsonString(call.name, out);
        *out += ",\"arguments\":";
        AppendJsonString(CanonicalArguments(call), out);
        *out += "}";
      }
      return;
  }
}

class OpenAiResponsesRenderer : public Renderer {
 public:
  Provider provider() const override { return Provider::kOpenAiResponses; }
  std::string_view separator() const override { return ","; }

  void RenderHead(const PromptHead& head, const RenderOptions& options,
                  RenderedPart* out) const override {
    AppendOpenAiHead(head, options, kResponsesShape, out);
  }

  void AppendHistory(std::span<const Message> messages, bool preceded,
                     std::string* out) const override {
    for (const auto& m : messages) AppendItems(m, &preceded, out);
  }

  void RenderTail(std::span<const Message> new_input, bool preceded, std::string_view tail,
                  const RenderOptions&, size_t, RenderedPart* out) const override {
    std::string& b = out->bytes;
    for (const auto& m : new_input) {
      size_t begin = b.size() + (preceded ? 1 : 0);
      AppendItems(m, &preceded, &b);
      out->spans.push_back(Span(m.role == Role::kContextUpdate ? "epoch" : "input",
                                Volatility::kTurn, "", begin, b.size()));
    }
    AppendOpenAiTail(new_input, preceded, tail, kResponsesShape, out);
  }
};

// ---- Canonical prompt ----

// A Responses input item: a message's content parts, any other item as one JSON block.
Status ResponsesItem(const json& item, const std::string& path, CanonicalWriter& w) {
  if (!item.is_object()) return w.Fail(path, "must be an object (an input item)");
  std::string type = item.value("type", "message");
  if (type != "message") {
    w.Add(path, "item " + type, WithoutCacheControl(item).dump());
    return {};
  }
  STRATA_TRY_ASSIGN(std::string role, w.RoleOf(item, path));
  auto c = item.find("content");
  if (c == item.end()) return w.Fail(path, "has no \"content\"");
  return w.Content(*c, path + ".content", role, role == "assistant" ? "output_text" : "input_text");
}

Status Canonicalize(const json& body, CanonicalWriter& w) {
  STRATA_TRY(w.JsonArray(body, "tools", "tool"));
  if (auto t = body.find("text"); t != body.end() && t->is_object() && t->contains("format")) {
    w.Add("text.format", "format", (*t)["format"].dump());
  }
  if (auto it = body.find("instructions"); it != body.end() && !it->is_null()) {
    if (!it->is_string()) return w.Fail("instructions", "must be a string");
    w.Add("instructions", "developer text", it->get_ref<const std::string&>());
  }
  auto input = body.find("input");
  if (input == body.end() || input->is_null()) return {};
  if (input->is_string()) {
    w.Add("input[0].content[0]", "user input_text", input->get_ref<const std::string&>());
    return {};
  }
  if (!input->is_array()) return w.Fail("input", "must be a string or an array of input items");
  for (size_t i = 0; i < input->size(); ++i) {
    STRATA_TRY(ResponsesItem((*input)[i], "input[" + std::to_string(i) + "]", w));
  }
  return {};
}

// ---- Recorded bodies ----

RecordedMessage FromItem(const json& item) {
  std::string type = item.value("type", "message");
  if (type == "message")
    return {StringMember(item, "role"), TextOf(item.value("content", json())), {}, {}};
  RecordedMessage c{"assistant", "", {}, {}};
  if (type == "function_call" || type == "custom_tool_call") {
    const char* args = type == "function_call" ? "arguments" : "input";
    c.calls.push_back({StringMember(item, "call_id"), StringMember(item, "name"),
                       ArgumentsOf(item.value(args, json()))});
  } else if (type == "function_call_output" || type == "custom_tool_call_output") {
    c.role = "user";
    const json out = item.value("output", json());
    c.results.push_back(ToolResultMessage(StringMember(item, "call_id"),
                                          out.is_string() ? out.get<std::string>() : out.dump(),
                                          false));
  } else {
    c.role = "";  // reasoning and other items: not replayed
  }
  return c;
}

std::vector<RecordedMessage> RecordedMessages(const json& body) {
  const json input = body.value("input", json::array());
  if (input.is_string()) return {{"user", input.get<std::string>(), {}, {}}};
  return EachRecorded(input, FromItem);
}

std::string SystemText(const json& body) { return StringMember(body, "instructions"); }

std::unique_ptr<Renderer> MakeRenderer() { return std::make_unique<OpenAiResponsesRenderer>(); }

constexpr const char* kPromptMembers[] = {"input", "instructions", "text", "tools"};
// response.completed; response.incomplete and response.failed carry usage too.
constexpr UsageEvent kUsageEvents[] = {{"", "response", false}};
const UsageField kDocumentedUsage[] = {{"input_tokens", {}},
                                       {"output_tokens", {}},
                                       {"total_tokens", {}},
                                       {"input_tokens_details", {"cached_tokens"}},
                                       {"output_tokens_details", {"reasoning_tokens"}}};

}  // namespace

const WireCodec kOpenAiResponsesCodec = {
    .api = RequestApi::kOpenAiResponses,
    .name = "openai-responses",
    .path_suffix = "/responses",
    .provider = Provider::kOpenAiResponses,
    .provider_name = "openai-responses",
    .explicit_breakpoints = false,
    .make_renderer = MakeRenderer,
    .canonicalize = Canonicalize,
    .recorded_messages = RecordedMessages,
    .system_text = SystemText,
    .usage_counts = {"input_tokens", "input_tokens_details", "cached_tokens", "", false},
    .usage_events = kUsageEvents,
    .documented_usage = kDocumentedUsage,
    .prompt_members = kPromptMembers,
};

}  // namespace strata::wire
