// codex_rollout.cc: the Codex rollout reader (codex_rollout.h).
#include "transcripts/codex_rollout.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "base/json_reader.h"
#include "transcripts/json_lines.h"
#include "transcripts/redaction.h"

namespace strata {
namespace {

using nlohmann::json;

constexpr JsonStrictness kLenient = JsonStrictness::kLenient;

// The object member `key` of `r` as a reader; nullopt when absent or null (Codex writes
// "info": null before the first request). Errors when present with another type.
Result<std::optional<JsonObjectReader>> Child(JsonObjectReader& r, std::string_view key) {
  const json* v = r.Raw(key);
  if (v == nullptr || v->is_null()) return std::nullopt;
  if (!v->is_object()) return r.Fail(key, "must be an object");
  return std::optional<JsonObjectReader>(std::in_place, *v, r.PathOf(key), r.where(), kLenient);
}

class CodexReader {
 public:
  CodexReader() {
    t_.format = "codex";
    t_.events.push_back(MakeEvent(TranscriptEventKind::kContext, ""));
  }

  Status Line(const JsonLine& line) {
    JsonObjectReader r(line.value, "", line.where, kLenient);
    std::string type, time;
    STRATA_TRY(r.String("type", &type));
    STRATA_TRY(r.String("timestamp", &time));
    STRATA_TRY_ASSIGN(auto payload, Child(r, "payload"));
    if (!payload) return {};
    JsonObjectReader& p = *payload;
    std::string kind;
    STRATA_TRY(p.String("type", &kind));
    if (type == "session_meta") return SessionMeta(p, time);
    if (type == "turn_context") {
      if (ctx_.model.empty()) STRATA_TRY(p.String("model", &ctx_.model));
      if (ctx_.cwd.empty()) STRATA_TRY(p.String("cwd", &ctx_.cwd));
      return {};
    }
    if (type == "event_msg" && kind == "task_started") started_ = true;
    if (type == "event_msg" && kind == "token_count") return TokenCount(p);
    if (type != "response_item") return {};
    if (kind == "message") return Message(p, time);
    if (kind == "function_call" || kind == "custom_tool_call") return Call(p, kind, time);
    if (kind == "function_call_output" || kind == "custom_tool_call_output") return Output(p, time);
    return {};  // reasoning items are encrypted: not replayed
  }

  Transcript Finish() {
    Close();
    t_.events.front().context = ctx_;
    return std::move(t_);
  }

 private:
  void Close() {
    if (open_) AppendEvent(&t_, std::move(*open_));
    open_.reset();
  }

  TranscriptEvent& Open(const std::string& time) {
    if (!open_) open_ = MakeEvent(TranscriptEventKind::kAssistant, time);
    return *open_;
  }

  Status SessionMeta(JsonObjectReader& p, const std::string& time) {
    STRATA_TRY(p.String("cwd", &ctx_.cwd));
    STRATA_TRY_ASSIGN(auto base, Child(p, "base_instructions"));
    if (base) {
      std::string text;
      STRATA_TRY(base->String("text", &text));
      ctx_.persona = ExpandRedactions(text);
    }
    TranscriptEvent& context = t_.events.front();
    if (context.time.empty()) context = MakeEvent(TranscriptEventKind::kContext, time);
    return {};
  }

  // One request ends at the first token_count whose running total changed.
  Status TokenCount(JsonObjectReader& p) {
    STRATA_TRY_ASSIGN(auto info, Child(p, "info"));
    if (!info || !open_) return {};
    int64_t total_tokens = 0;
    STRATA_TRY_ASSIGN(auto total, Child(*info, "total_token_usage"));
    if (total) STRATA_TRY(total->Int("total_tokens", &total_tokens, 0, kMaxTokenCount));
    if (total_tokens == last_total_) return {};  // a repeated snapshot
    last_total_ = total_tokens;
    STRATA_TRY_ASSIGN(
        auto last,
        ReadTokenCounts(*info, "last_token_usage",
                        {"input_tokens", "cached_input_tokens", "output_tokens"}, kLenient));
    if (last) open_->recorded = RecordedUsage{(*last)[0], (*last)[1], 0};
    Close();
    return {};
  }

  Status Message(JsonObjectReader& p, const std::string& time) {
    std::string role, text;
    STRATA_TRY(p.String("role", &role));
    STRATA_TRY_ASSIGN(const json* content, p.Array("content"));
    for (size_t i = 0; content != nullptr && i < content->size(); ++i) {
      JsonObjectReader part((*content)[i], p.PathOf("content", i), p.where(), kLenient);
      std::string piece;
      STRATA_TRY(part.String("text", &piece));
      if (!text.empty()) text += "\n";
      text += ExpandRedactions(piece);
    }
    if (role == "assistant") {
      TranscriptEvent& e = Open(time);
      if (!e.message.text.empty()) e.message.text += "\n\n";
      e.message.text += text;
    } else if (!started_ && role == "developer") {
      ctx_.rules.push_back(text);  // permissions and collaboration instructions
    } else if (!started_) {
      // Project docs and environment context come before the first task starts.
      ctx_.instructions.push_back(
          {"codex:context-" + std::to_string(ctx_.instructions.size()), text});
    } else {
      Close();
      AppendEvent(&t_, MakeEvent(TranscriptEventKind::kUser, time, text));
    }
    return {};
  }

  Status Call(JsonObjectReader& p, const std::string& kind, const std::string& time) {
    ToolCall call{"", "", json::object()};
    std::string args;
    STRATA_TRY(p.String("name", &call.name));
    STRATA_TRY(p.String("call_id", &call.id));
    STRATA_TRY(p.String(kind == "function_call" ? "arguments" : "input", &args));
    if (tools_seen_.insert(call.name).second) ctx_.tools.push_back({call.name, "", json::object()});
    args = ExpandRedactions(args);
    json parsed = json::parse(args, nullptr, false);
    call.arguments = parsed.is_object() ? parsed : json{{"input", args}};
    Open(time).message.tool_calls.push_back(std::move(call));
    return {};
  }

  Status Output(JsonObjectReader& p, const std::string& time) {
    Close();
    TranscriptEvent e = MakeEvent(TranscriptEventKind::kToolResult, time);
    STRATA_TRY(p.String("call_id", &e.message.tool_call_id));
    const json* out = p.Raw("output");
    std::string text = out == nullptr     ? "null"
                       : out->is_string() ? out->get<std::string>()
                                          : out->dump();
    e.message.text = ExpandRedactions(text);
    AppendEvent(&t_, std::move(e));
    return {};
  }

  Transcript t_;
  ContextInputs ctx_;
  std::set<std::string> tools_seen_;
  bool started_ = false;  // the first real user message has been seen
  std::optional<TranscriptEvent> open_;
  int64_t last_total_ = 0;
};

}  // namespace

Result<Transcript> ImportCodexRollout(std::string_view jsonl, std::string_view path) {
  return ReadJsonLines(jsonl, path, CodexReader());
}

}  // namespace strata
