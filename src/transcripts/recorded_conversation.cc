// recorded_conversation.cc: ImportRecorded (recorded_requests.h): the conversation the requests
// of a `strata record` file hold, as a Transcript, so it can be replayed with strata's layout
// beside the recorded one. Messages are compared after conversion (text, calls, results), so a
// content string and a one-block array are the same message.
#include <algorithm>
#include <optional>

#include "base/json_reader.h"
#include "base/time.h"
#include "transcripts/canonical_prompt.h"
#include "transcripts/recorded_requests.h"

namespace strata {
namespace {

using nlohmann::json;

struct ConvMessage {
  std::string role;  // "user", "assistant" (system and developer messages count as user text)
  std::string text;
  std::vector<ToolCall> calls;
  std::vector<Message> results;  // tool results (Role::kToolResult)
  bool operator==(const ConvMessage& o) const {
    if (role != o.role || text != o.text || calls.size() != o.calls.size() ||
        results.size() != o.results.size())
      return false;
    for (size_t i = 0; i < calls.size(); ++i) {
      if (calls[i].id != o.calls[i].id || calls[i].name != o.calls[i].name) return false;
    }
    for (size_t i = 0; i < results.size(); ++i) {
      if (results[i].tool_call_id != o.results[i].tool_call_id ||
          results[i].text != o.results[i].text)
        return false;
    }
    return true;
  }
};

std::string Str(const json& o, const char* key) {
  auto it = o.find(key);
  return it != o.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// The text parts of `content` (a string or an array of parts), joined by blank lines.
std::string TextOf(const json& content) {
  if (content.is_string()) return content.get<std::string>();
  std::string out;
  if (!content.is_array()) return out;
  for (const auto& part : content) {
    if (!part.is_object() || !part.contains("text") || !part["text"].is_string()) continue;
    if (!out.empty()) out += "\n\n";
    out += part["text"].get<std::string>();
  }
  return out;
}

json ArgumentsOf(const json& v) {
  if (v.is_object()) return v;
  if (v.is_string()) {
    json parsed = json::parse(v.get<std::string>(), nullptr, false);
    return parsed.is_object() ? parsed : json{{"input", v}};
  }
  return json::object();
}

Message ToolResultMessage(std::string id, std::string text, bool is_error) {
  return {Role::kToolResult, std::move(text), {}, std::move(id), is_error};
}

ConvMessage FromAnthropic(const json& m) {
  ConvMessage c{Str(m, "role"), "", {}, {}};
  const json content = m.value("content", json());
  if (!content.is_array()) {
    c.text = TextOf(content);
    return c;
  }
  for (const auto& b : content) {
    if (!b.is_object()) continue;
    std::string type = Str(b, "type");
    if (type == "text") {
      if (!c.text.empty()) c.text += "\n\n";
      c.text += Str(b, "text");
    } else if (type == "tool_use") {
      c.calls.push_back({Str(b, "id"), Str(b, "name"), ArgumentsOf(b.value("input", json()))});
    } else if (type == "tool_result") {
      c.results.push_back(ToolResultMessage(
          Str(b, "tool_use_id"), TextOf(b.value("content", json())), b.value("is_error", false)));
    }
  }
  return c;
}

ConvMessage FromChat(const json& m) {
  ConvMessage c{Str(m, "role"), TextOf(m.value("content", json())), {}, {}};
  if (c.role == "tool") {
    c.results.push_back(ToolResultMessage(Str(m, "tool_call_id"), c.text, false));
    c.role = "user";
    c.text.clear();
  }
  for (const auto& call : m.value("tool_calls", json::array())) {
    if (!call.is_object()) continue;
    json fn = call.value("function", json::object());
    c.calls.push_back(
        {Str(call, "id"), Str(fn, "name"), ArgumentsOf(fn.value("arguments", json()))});
  }
  return c;
}

ConvMessage FromResponsesItem(const json& item) {
  std::string type = item.value("type", "message");
  if (type == "message") return {Str(item, "role"), TextOf(item.value("content", json())), {}, {}};
  ConvMessage c{"assistant", "", {}, {}};
  if (type == "function_call" || type == "custom_tool_call") {
    const char* args = type == "function_call" ? "arguments" : "input";
    c.calls.push_back(
        {Str(item, "call_id"), Str(item, "name"), ArgumentsOf(item.value(args, json()))});
  } else if (type == "function_call_output" || type == "custom_tool_call_output") {
    c.role = "user";
    const json out = item.value("output", json());
    c.results.push_back(ToolResultMessage(
        Str(item, "call_id"), out.is_string() ? out.get<std::string>() : out.dump(), false));
  } else {
    c.role = "";  // reasoning and other items: not replayed
  }
  return c;
}

std::vector<ConvMessage> MessagesOf(const RecordedRequest& r) {
  std::vector<ConvMessage> out;
  const json& b = r.body;
  if (r.api == RequestApi::kOpenAiResponses) {
    const json input = b.value("input", json::array());
    if (input.is_string()) return {{"user", input.get<std::string>(), {}, {}}};
    for (const auto& item : input) {
      if (item.is_object()) out.push_back(FromResponsesItem(item));
    }
  } else {
    for (const auto& m : b.value("messages", json::array())) {
      if (!m.is_object()) continue;
      out.push_back(r.api == RequestApi::kAnthropicMessages ? FromAnthropic(m) : FromChat(m));
    }
  }
  std::erase_if(out, [](const ConvMessage& m) { return m.role.empty(); });
  return out;
}

// The tools, system text and model of a request as harness context.
ContextInputs ContextOf(const RecordedRequest& r) {
  ContextInputs ctx;
  const json& b = r.body;
  ctx.model = Str(b, "model");
  for (const auto& t : b.value("tools", json::array())) {
    if (!t.is_object()) continue;
    const json fn = t.contains("function") ? t["function"] : t;
    json schema = fn.value("input_schema", fn.value("parameters", json::object()));
    ctx.tools.push_back(
        {Str(fn, "name"), Str(fn, "description"), schema.is_object() ? schema : json::object()});
  }
  ctx.persona = r.api == RequestApi::kOpenAiResponses ? Str(b, "instructions")
                                                      : TextOf(b.value("system", json()));
  if (r.api == RequestApi::kOpenAiChat) {
    for (const auto& m : b.value("messages", json::array())) {
      std::string role = m.is_object() ? Str(m, "role") : "";
      if (role != "system" && role != "developer") break;
      if (!ctx.persona.empty()) ctx.persona += "\n\n";
      ctx.persona += TextOf(m.value("content", json()));
    }
  }
  return ctx;
}

class RecordedImporter {
 public:
  RecordedImporter() { t_.format = "recorded"; }

  Status Add(RecordedRequest&& r) {
    std::string time = r.started_ms > 0 ? FormatRfc3339Millis(r.started_ms) : std::string();
    ContextInputs ctx = ContextOf(r);
    if (!ctx_ || ctx.model != ctx_->model || ctx.persona != ctx_->persona ||
        ctx.tools.size() != ctx_->tools.size()) {
      TranscriptEvent e = MakeEvent(TranscriptEventKind::kContext, time);
      e.context = ctx;
      ctx_ = ctx;
      t_.events.push_back(std::move(e));
    }
    std::vector<ConvMessage> messages = MessagesOf(r);
    size_t common = 0;
    while (common < seen_.size() && common < messages.size() && seen_[common] == messages[common])
      ++common;
    for (size_t i = common; i < messages.size(); ++i) Emit(messages[i], time);
    if (pending_) AppendEvent(&t_, std::move(*pending_));  // the answer is not in the file
    pending_ = MakeEvent(TranscriptEventKind::kAssistant, time);
    pending_->recorded = r.usage;
    seen_ = std::move(messages);
    return {};
  }

  Transcript Finish() {
    if (pending_) AppendEvent(&t_, std::move(*pending_));
    return std::move(t_);
  }

 private:
  void Emit(const ConvMessage& m, const std::string& time) {
    if (m.role == "assistant") {
      TranscriptEvent e =
          pending_ ? std::move(*pending_) : MakeEvent(TranscriptEventKind::kAssistant, time);
      pending_.reset();
      e.message.text = m.text;
      e.message.tool_calls = m.calls;
      AppendEvent(&t_, std::move(e));
      return;
    }
    if (pending_ && (!m.text.empty() || !m.results.empty())) {
      AppendEvent(&t_, std::move(*pending_));  // a request whose answer the log lacks
      pending_.reset();
    }
    for (const auto& result : m.results) {
      TranscriptEvent e = MakeEvent(TranscriptEventKind::kToolResult, time);
      e.message = result;
      AppendEvent(&t_, std::move(e));
    }
    if (!m.text.empty()) AppendEvent(&t_, MakeEvent(TranscriptEventKind::kUser, time, m.text));
  }

  Transcript t_;
  std::optional<ContextInputs> ctx_;
  std::vector<ConvMessage> seen_;           // the messages of the previous request
  std::optional<TranscriptEvent> pending_;  // the previous request, waiting for its answer
};

}  // namespace

Result<ContextInputs> PrefixFromRequest(std::string_view text, std::string_view path) {
  std::optional<RecordedRequest> first;
  auto body = ParseJson(text, path);
  if (body && body->is_object() && !body->contains("api")) {
    first.emplace();
    first->where = {std::string(path)};
    first->api = GuessRequestApi(*body);
    first->body = std::move(*body);
  } else {
    STRATA_TRY(ReadRecordedRequests(
        text, path,
        [&](RecordedRequest&& r) -> Status {
          if (!first) first = std::move(r);
          return {};
        },
        nullptr));
  }
  if (!first) {
    return MakeError(ErrorKind::kParse,
                     "--prefix-from needs a request body (JSON) or a `strata record` file",
                     {std::string(path)});
  }
  return ContextOf(*first);
}

void ApplyPrefix(Transcript* t, const ContextInputs& prefix) {
  for (auto& e : t->events) {
    if (e.kind != TranscriptEventKind::kContext) continue;
    std::vector<ToolDefinition> tools = prefix.tools;
    for (const auto& own : e.context.tools) {
      bool known = std::any_of(tools.begin(), tools.end(),
                               [&](const ToolDefinition& d) { return d.name == own.name; });
      if (!known) tools.push_back(own);
    }
    e.context.tools = std::move(tools);
    e.context.persona = prefix.persona;
  }
}

Result<Transcript> ImportRecorded(std::string_view text, std::string_view path) {
  RecordedImporter importer;
  std::vector<std::string> warnings;
  STRATA_TRY(ReadRecordedRequests(
      text, path, [&](RecordedRequest&& r) { return importer.Add(std::move(r)); }, &warnings));
  Transcript t = importer.Finish();
  t.warnings = std::move(warnings);
  return t;
}

}  // namespace strata
