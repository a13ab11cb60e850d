// anthropic_messages.cc: the Anthropic Messages codec (codec.h), all of it but what `strata
// serve` needs llama.cpp for (anthropic_messages_serve.cc: request parsing, replies): the request
// strata renders, the canonical prompt explain and replay compare, the conversation a recorded
// body holds, and the usage members the API reports.
//
// Rendering: prefix order is tools -> system -> messages; cache_control breakpoints close system
// block 1 (tools + stable system text), system block 2, and the new input's last content block, so
// every cut sits on a stable/volatile boundary. Consecutive non-assistant messages (user text,
// tool results, context-update notices) share one user message, as the API wants tool results
// right after the assistant turn that asked for them.
#include <optional>

#include "prompt/canonical_json.h"
#include "render/render_internal.h"
#include "strata/discover.h"
#include "wire/codec.h"

namespace strata::wire {
namespace {

using nlohmann::json;
using namespace render_internal;  // the renderers' shared pieces

void AppendBlock(const Message& m, std::string* out) {
  switch (m.role) {
    case Role::kUser:
    case Role::kContextUpdate:
      AppendQuoted("{\"type\":\"text\",\"text\":", m.text, "}", out);
      return;
    case Role::kToolResult:
      AppendQuoted("{\"type\":\"tool_result\",\"tool_use_id\":", m.tool_call_id,
                   ",\"content\":", out);
      AppendJsonString(m.text, out);
      if (m.is_error) *out += ",\"is_error\":true";
      *out += "}";
      return;
    case Role::kAssistant:
      return;  // not a user-side block
  }
}

void AppendAssistant(const Message& m, std::string* out) {
  *out += "{\"role\":\"assistant\",\"content\":[";
  bool first = true;
  if (!m.text.empty() || m.tool_calls.empty()) {
    AppendQuoted("{\"type\":\"text\",\"text\":", m.text, "}", out);
    first = false;
  }
  for (const auto& call : m.tool_calls) {
    if (!first) *out += ",";
    first = false;
    AppendQuoted("{\"type\":\"tool_use\",\"id\":", call.id, ",\"name\":", out);
    AppendJsonString(call.name, out);
    *out += ",\"input\":";
    AppendCanonicalJsonText(call.arguments_json, out);
    *out += "}";
  }
  *out += "]}";
}

class AnthropicRenderer : public Renderer {
 public:
  Provider provider() const override { return Provider::kAnthropic; }
  std::string_view separator() const override { return ","; }

  void RenderHead(const PromptHead& head, const RenderOptions& options,
                  RenderedPart* out) const override {
    std::string& b = out->bytes;
    b += "{\"model\":";
    AppendJsonString(options.model, &b);
    b += ",\"max_tokens\":" + std::to_string(options.max_tokens);
    if (!head.tools.empty()) {
      b += ",\"tools\":[";
      for (size_t i = 0; i < head.tools.size(); ++i) {
        if (i) b += ",";
        size_t begin = b.size();
        b += CanonicalToolJson(head.tools[i]);
        out->spans.push_back(
            Span("tools", Volatility::kStatic, head.tools[i].name, begin, b.size()));
      }
      b += "]";
    }
    bool system_open = false;
    size_t index = 0;
    for (const auto* block : {&head.block1, &head.block2}) {
      if (JoinParts(*block).empty()) continue;
      b += system_open ? "," : ",\"system\":[";
      system_open = true;
      b += "{\"type\":\"text\",\"text\":\"";
      AppendParts(*block, /*escape=*/true, out);
      b += "\"";
      AppendCacheControl(index++, options.long_ttl_breakpoints,
                         block == &head.block1 ? "system-block-1" : "system-block-2", out);
      b += "}";
    }
    if (system_open) b += "]";
    b += ",\"messages\":[";
    out->has_items = false;
  }

  void AppendHistory(std::span<const Message> messages, bool preceded,
                     std::string* out) const override {
    size_t i = 0;
    while (i < messages.size()) {
      if (preceded) *out += ",";
      preceded = true;
      if (messages[i].role == Role::kAssistant) {
        AppendAssistant(messages[i], out);
        ++i;
        continue;
      }
      *out += "{\"role\":\"user\",\"content\":[";
      bool first = true;
      for (; i < messages.size() && messages[i].role != Role::kAssistant; ++i) {
        if (!first) *out += ",";
        first = false;
        AppendBlock(messages[i], out);
      }
      *out += "]}";
    }
  }

  void RenderTail(std::span<const Message> new_input, bool preceded, std::string_view tail,
                  const RenderOptions& options, size_t breakpoints_before,
                  RenderedPart* out) const override {
    std::string& b = out->bytes;
    if (!new_input.empty() || !tail.empty()) {
      if (preceded) b += ",";
      b += "{\"role\":\"user\",\"content\":[";
      for (size_t i = 0; i < new_input.size(); ++i) {
        if (i) b += ",";
        size_t begin = b.size();
        AppendBlock(new_input[i], &b);
        bool notice = new_input[i].role == Role::kContextUpdate;
        if (i + 1 == new_input.size()) {
          b.pop_back();  // reopen the last block for its cache_control member
          out->spans.push_back(
              Span(notice ? "epoch" : "input", Volatility::kTurn, "", begin, b.size()));
          AppendCacheControl(breakpoints_before, options.long_ttl_breakpoints, "input", out);
          b += "}";
        } else {
          out->spans.push_back(
              Span(notice ? "epoch" : "input", Volatility::kTurn, "", begin, b.size()));
        }
      }
      if (!tail.empty()) {
        if (!new_input.empty()) b += ",";
        b += "{\"type\":\"text\",\"text\":";
        size_t begin = b.size();
        AppendJsonString(tail, &b);
        out->spans.push_back(Span("tail", Volatility::kTurn, "", begin, b.size()));
        b += "}";
      }
      b += "]}";
    }
    b += "]}";
  }
};

// ---- Canonical prompt ----

// Tools, then system (without the billing block), then messages: Anthropic's cache order.
Status Canonicalize(const json& body, CanonicalWriter& w) {
  STRATA_TRY(w.JsonArray(body, "tools", "tool"));
  if (auto it = body.find("system"); it != body.end() && !it->is_null()) {
    if (it->is_string()) {
      std::string_view text = LeaveOutVaryingText(it->get_ref<const std::string&>()).text;
      if (!text.empty()) w.Add("system[0]", "system text", text);
    } else if (it->is_array()) {
      for (size_t i = 0; i < it->size(); ++i) {
        const json& block = (*it)[i];
        if (i == 0 && block.is_object() && block.value("type", "text") == "text" &&
            block.contains("text") && block["text"].is_string()) {
          // Claude Code's billing block is not prompt text (strata/discover.h).
          const ClientTextResult r =
              LeaveOutVaryingText(block["text"].get_ref<const std::string&>());
          if (r.left_out != nullptr) {
            const json* cc = block.contains("cache_control") ? &block["cache_control"] : nullptr;
            if (!r.text.empty() || cc != nullptr) w.Add("system[0]", "system text", r.text, cc);
            continue;
          }
        }
        STRATA_TRY(w.Block(block, "system[" + std::to_string(i) + "]", "system"));
      }
    } else {
      return w.Fail("system", "must be a string or an array of text blocks");
    }
  }
  STRATA_TRY_ASSIGN(const json* messages, w.MessagesOf(body, "messages"));
  for (size_t i = 0; messages != nullptr && i < messages->size(); ++i) {
    std::string path = "messages[" + std::to_string(i) + "]";
    STRATA_TRY_ASSIGN(std::string role, w.RoleOf((*messages)[i], path));
    auto c = (*messages)[i].find("content");
    if (c == (*messages)[i].end()) return w.Fail(path, "has no \"content\"");
    STRATA_TRY(w.Content(*c, path + ".content", role, "text"));
  }
  return {};
}

// The billing block at the start of an Anthropic body's system[0], and its line.
struct BillingLine {
  std::string line;
  const VaryingText* entry = nullptr;
};
std::optional<BillingLine> BillingHeaderOf(const json& body) {
  if (!body.is_object()) return std::nullopt;
  auto it = body.find("system");
  if (it == body.end()) return std::nullopt;
  const json* text = nullptr;
  if (it->is_string()) text = &*it;
  if (it->is_array() && !it->empty() && (*it)[0].is_object() && (*it)[0].contains("text"))
    text = &(*it)[0]["text"];
  if (text == nullptr || !text->is_string()) return std::nullopt;
  const std::string& t = text->get_ref<const std::string&>();
  auto h = ParseBillingHeader(t);
  if (!h) return std::nullopt;
  return BillingLine{t.substr(0, h->length), h->entry};
}

void LeftOutDifferences(const json& a, const json& b, std::vector<std::string>* out) {
  auto ha = BillingHeaderOf(a), hb = BillingHeaderOf(b);
  if (ha.has_value() != hb.has_value() || (ha && hb && ha->line != hb->line)) {
    const VaryingText* entry = (hb ? hb : ha)->entry;
    out->push_back(std::string("system[0]:") + ClientName(entry->client) + "/" +
                   std::string(entry->id));
  }
}

// ---- Recorded bodies ----

RecordedMessage FromMessage(const json& m) {
  RecordedMessage c{StringMember(m, "role"), "", {}, {}};
  const json content = m.value("content", json());
  if (!content.is_array()) {
    c.text = TextOf(content);
    return c;
  }
  for (const auto& b : content) {
    if (!b.is_object()) continue;
    std::string type = StringMember(b, "type");
    if (type == "text") {
      if (!c.text.empty()) c.text += "\n\n";
      c.text += StringMember(b, "text");
    } else if (type == "tool_use") {
      c.calls.push_back(
          {StringMember(b, "id"), StringMember(b, "name"), ArgumentsOf(b.value("input", json()))});
    } else if (type == "tool_result") {
      c.results.push_back(ToolResultMessage(StringMember(b, "tool_use_id"),
                                            TextOf(b.value("content", json())),
                                            b.value("is_error", false)));
    }
  }
  return c;
}

std::vector<RecordedMessage> RecordedMessages(const json& body) {
  return EachRecorded(body.value("messages", json::array()), FromMessage);
}

std::string SystemText(const json& body) { return TextOf(body.value("system", json())); }

std::unique_ptr<Renderer> MakeRenderer() { return std::make_unique<AnthropicRenderer>(); }

constexpr const char* kPromptMembers[] = {"messages", "system", "tools"};
// message_start carries message.usage; each message_delta updates it.
constexpr UsageEvent kUsageEvents[] = {{"message_start", "message", false},
                                       {"message_delta", "", true}};
const UsageField kDocumentedUsage[] = {
    {"input_tokens", {}},
    {"output_tokens", {}},
    {"cache_creation_input_tokens", {}},
    {"cache_read_input_tokens", {}},
    {"cache_creation", {"ephemeral_5m_input_tokens", "ephemeral_1h_input_tokens"}}};

}  // namespace

const WireCodec kAnthropicMessagesCodec = {
    .api = RequestApi::kAnthropicMessages,
    .name = "anthropic-messages",
    .path_suffix = "/messages",
    .provider = Provider::kAnthropic,
    .provider_name = "anthropic",
    .explicit_breakpoints = true,
    .make_renderer = MakeRenderer,
    .canonicalize = Canonicalize,
    .left_out_differences = LeftOutDifferences,
    .recorded_messages = RecordedMessages,
    .system_text = SystemText,
    .usage_counts = {"input_tokens", "", "cache_read_input_tokens", "cache_creation_input_tokens",
                     true},
    .usage_events = kUsageEvents,
    .documented_usage = kDocumentedUsage,
    .prompt_members = kPromptMembers,
};

}  // namespace strata::wire
