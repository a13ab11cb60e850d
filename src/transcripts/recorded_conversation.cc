// recorded_conversation.cc: ImportRecorded (recorded_requests.h): the conversation the requests
// of a `strata record` file hold, as a Transcript, so it can be replayed with strata's layout
// beside the recorded one. Messages are compared after conversion (text, calls, results), so a
// content string and a one-block array are the same message.
#include <algorithm>
#include <optional>

#include "base/json_reader.h"
#include "base/time.h"
#include "transcripts/recorded_requests.h"
#include "wire/canonical_prompt.h"
#include "wire/codec.h"

namespace strata {
namespace {

using nlohmann::json;

using ConvMessage = wire::RecordedMessage;

std::vector<ConvMessage> MessagesOf(const RecordedRequest& r) {
  std::vector<ConvMessage> out = wire::CodecFor(r.api).recorded_messages(r.body);
  std::erase_if(out, [](const ConvMessage& m) { return m.role.empty(); });
  return out;
}

// The tools, system text and model of a request as harness context.
ContextInputs ContextOf(const RecordedRequest& r) {
  ContextInputs ctx;
  const json& b = r.body;
  ctx.model = wire::StringMember(b, "model");
  ctx.tools = wire::RecordedTools(b);
  ctx.persona = wire::CodecFor(r.api).system_text(b);
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
