// codex_rollout.cc: the Codex rollout reader (codex_rollout.h).
#include "transcripts/codex_rollout.h"

#include <array>
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

// An object member as a lenient reader (ChildObject).
Result<std::optional<JsonObjectReader>> Child(JsonObjectReader& r, std::string_view key) {
  return ChildObject(r, key, kLenient);
}

class CodexReader {
 public:
  CodexReader() {
    t_.format = "codex";
    t_.provider = "openai";  // Codex's default model_provider
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
    if (type == "compacted") return Compacted(p, time);
    if (type == "turn_context") return TurnContext(p, time);
    if (type == "event_msg" && kind == "task_started") started_ = true;
    if (type == "event_msg" && kind == "user_message") return EventUserMessage(p, time);
    if (type == "event_msg" && kind == "token_count") return TokenCount(p, time);
    if (type != "response_item") return {};
    if (kind == "message") return Message(p, time);
    if (kind == "function_call" || kind == "custom_tool_call") return Call(p, kind, time);
    if (kind == "function_call_output" || kind == "custom_tool_call_output") return Output(p, time);
    return {};  // reasoning items are encrypted: not replayed
  }

  Transcript Finish() {
    Close();
    // Every context event carries what the whole rollout showed (tools, instructions), each with
    // the model in force from it on.
    for (auto& e : t_.events) {
      if (e.kind != TranscriptEventKind::kContext) continue;
      std::string model = e.context.model;
      e.context = ctx_;
      e.context.model = std::move(model);
    }
    return std::move(t_);
  }

 private:
  void Close() {
    if (open_) AppendEvent(&t_, std::move(*open_));
    open_.reset();
    if (pending_context_) t_.events.push_back(std::move(*pending_context_));
    pending_context_.reset();
  }

  // A turn_context sets the model of the requests after it (Codex's /model switches it between
  // turns): the first names the model of the rollout's context, a later different one is a model
  // change (a context event at its time; after the open request when one is still answering).
  Status TurnContext(JsonObjectReader& p, const std::string& time) {
    if (ctx_.cwd.empty()) STRATA_TRY(p.String("cwd", &ctx_.cwd));
    std::string model;
    STRATA_TRY(p.String("model", &model));
    if (model.empty() || model == model_) return {};
    const bool first = model_.empty();
    model_ = model;
    if (first) {
      ctx_.model = model;
      t_.events.front().context.model = model;
      return {};
    }
    TranscriptEvent e = MakeEvent(TranscriptEventKind::kContext, time);
    e.context.model = std::move(model);
    if (open_) {
      pending_context_ = std::move(e);
    } else {
      t_.events.push_back(std::move(e));
    }
    return {};
  }

  TranscriptEvent& Open(const std::string& time) {
    if (!open_) {
      awaiting_usage_.reset();
      open_ = MakeEvent(TranscriptEventKind::kAssistant, time);
      open_->sent_s = last_input_s_;  // the prompt or tool output it answers
    }
    return *open_;
  }

  Status SessionMeta(JsonObjectReader& p, const std::string& time) {
    STRATA_TRY(p.String("cwd", &ctx_.cwd));
    STRATA_TRY(p.String("model_provider", &t_.provider));
    if (t_.provider.empty()) t_.provider = "openai";
    STRATA_TRY_ASSIGN(auto base, Child(p, "base_instructions"));
    if (base) {
      std::string text;
      STRATA_TRY(base->String("text", &text));
      STRATA_TRY_ASSIGN(ctx_.persona, redactions_.Expand(text, p.where()));
    }
    STRATA_TRY(DynamicTools(p));
    TranscriptEvent& context = t_.events.front();
    if (context.time.empty()) {
      context = MakeEvent(TranscriptEventKind::kContext, time);
      context.context.model = ctx_.model;
    }
    return {};
  }

  // session_meta.dynamic_tools (Codex Desktop): tools the app offers beside the built-in ones.
  Status DynamicTools(JsonObjectReader& p) {
    STRATA_TRY_ASSIGN(const json* tools, p.Array("dynamic_tools"));
    for (size_t i = 0; tools != nullptr && i < tools->size(); ++i) {
      JsonObjectReader t((*tools)[i], p.PathOf("dynamic_tools", i), p.where(), kLenient);
      STRATA_TRY(t.ExpectObject("a tool definition"));
      ToolDefinition tool;
      STRATA_TRY(t.String("name", &tool.name));
      STRATA_TRY(t.String("description", &tool.description));
      for (const char* key : {"input_schema", "inputSchema", "parameters"}) {
        if (const json* schema = t.Raw(key); schema != nullptr && schema->is_object()) {
          tool.input_schema_json = schema->dump();
          break;
        }
      }
      if (tools_seen_.insert(tool.name).second) ctx_.tools.push_back(std::move(tool));
    }
    return {};
  }

  // A compaction: the conversation so far is replaced by the summary, after the user messages of
  // the replacement history when the rollout gives one.
  Status Compacted(JsonObjectReader& p, const std::string& time) {
    Close();
    awaiting_usage_.reset();
    std::string summary, text;
    STRATA_TRY(p.String("message", &summary));
    STRATA_TRY_ASSIGN(const json* history, p.Array("replacement_history"));
    for (size_t i = 0; history != nullptr && i < history->size(); ++i) {
      JsonObjectReader item((*history)[i], p.PathOf("replacement_history", i), p.where(), kLenient);
      std::string role;
      STRATA_TRY(item.String("role", &role));
      if (role != "user") continue;
      STRATA_TRY_ASSIGN(std::string part, ContentText(item));
      if (!text.empty()) text += "\n\n";
      text += part;
    }
    STRATA_TRY_ASSIGN(summary, redactions_.Expand(summary, p.where()));
    if (!summary.empty()) text += (text.empty() ? "" : "\n\n") + summary;
    TranscriptEvent e = MakeEvent(TranscriptEventKind::kCompaction, time, std::move(text));
    t_.events.push_back(std::move(e));
    user_texts_.clear();
    return {};
  }

  // event_msg user_message: the user's prompt as Codex Desktop logs it (the CLI logs the same text
  // as a response_item message too; a text already taken from either is not added twice).
  Status EventUserMessage(JsonObjectReader& p, const std::string& time) {
    std::string text;
    STRATA_TRY(p.String("message", &text));
    STRATA_TRY_ASSIGN(text, redactions_.Expand(text, p.where()));
    started_ = true;
    return UserMessage(std::move(text), time);
  }

  Status UserMessage(std::string text, const std::string& time) {
    if (text.empty() || !user_texts_.insert(text).second) return {};
    last_input_s_ = ParseRfc3339Seconds(time).value_or(last_input_s_);
    Close();
    awaiting_usage_.reset();
    AppendEvent(&t_, MakeEvent(TranscriptEventKind::kUser, time, std::move(text)));
    return {};
  }

  // The text parts of the content of message `m`, joined by newlines.
  Result<std::string> ContentText(JsonObjectReader& m) {
    std::string text;
    STRATA_TRY_ASSIGN(const json* content, m.Array("content"));
    for (size_t i = 0; content != nullptr && i < content->size(); ++i) {
      JsonObjectReader part((*content)[i], m.PathOf("content", i), m.where(), kLenient);
      std::string piece;
      STRATA_TRY(part.String("text", &piece));
      STRATA_TRY_ASSIGN(std::string expanded, redactions_.Expand(piece, m.where()));
      if (!text.empty()) text += "\n";
      text += expanded;
    }
    return text;
  }

  // One request ends at the first token_count whose running total changed (its answer completed
  // at `time`). A count that is not an integer from 0 to kMaxTokenCount refuses the line (a
  // warning naming it and the member; the request stays open for the next token_count). Codex
  // 0.171 writes the token_count of an answer that calls a tool after the tool's output
  // (function_call, function_call_output, token_count): the count then goes to that answer,
  // closed by the output without usage (awaiting_usage_), whose completion is its last item.
  Status TokenCount(JsonObjectReader& p, const std::string& time) {
    STRATA_TRY_ASSIGN(auto info, Child(p, "info"));
    TranscriptEvent* answer = open_             ? &*open_
                              : awaiting_usage_ ? &t_.events[*awaiting_usage_]
                                                : nullptr;
    if (!info) return {};
    int64_t total_tokens = 0;
    std::optional<std::array<size_t, 3>> last;
    auto read_counts = [&]() -> Status {
      STRATA_TRY_ASSIGN(auto total, Child(*info, "total_token_usage"));
      if (total) STRATA_TRY(total->Int("total_tokens", &total_tokens, 0, kMaxTokenCount));
      STRATA_TRY_ASSIGN(
          last,
          ReadTokenCounts(*info, "last_token_usage",
                          {"input_tokens", "cached_input_tokens", "output_tokens"}, kLenient));
      return {};
    };
    if (Status s = read_counts(); !s) {
      t_.warnings.push_back(RefusedUsageWarning(s.error()));
      return {};
    }
    if (total_tokens == last_total_) return {};  // a repeated snapshot
    if (answer == nullptr) {
      // Usage for a response the log holds no item of (reasoning only, or a turn cut short):
      // nothing to replay, so said rather than dropped without a word (once per snapshot; the
      // running total is left for the answer a later item may still open).
      if (last && (*last)[0] + (*last)[2] > 0 && total_tokens != orphan_total_) {
        orphan_total_ = total_tokens;
        t_.warnings.push_back(p.where().path + ":" + std::to_string(p.where().line) +
                              ": a token_count of " + std::to_string((*last)[0]) +
                              " input tokens for a response with no answer item before it "
                              "(reasoning only, or a turn cut short): not counted");
      }
      return {};
    }
    last_total_ = total_tokens;
    if (last) {
      answer->recorded = RecordedUsage{(*last)[0], (*last)[1], 0};
      answer->output_tokens = (*last)[2];
    }
    awaiting_usage_.reset();
    if (!open_) return {};
    open_->done_s = ParseRfc3339Seconds(time).value_or(0);
    Close();
    user_texts_.clear();
    return {};
  }

  Status Message(JsonObjectReader& p, const std::string& time) {
    std::string role;
    STRATA_TRY(p.String("role", &role));
    STRATA_TRY_ASSIGN(std::string text, ContentText(p));
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
      return UserMessage(std::move(text), time);
    }
    return {};
  }

  Status Call(JsonObjectReader& p, const std::string& kind, const std::string& time) {
    ToolCall call;
    std::string args;
    STRATA_TRY(p.String("name", &call.name));
    STRATA_TRY(p.String("call_id", &call.id));
    STRATA_TRY(p.String(kind == "function_call" ? "arguments" : "input", &args));
    if (tools_seen_.insert(call.name).second) ctx_.tools.push_back({call.name, "", "{}"});
    STRATA_TRY_ASSIGN(args, redactions_.Expand(args, p.where()));
    json parsed = json::parse(args, nullptr, false);
    call.arguments_json = parsed.is_object() ? parsed.dump() : json{{"input", args}}.dump();
    Open(time).message.tool_calls.push_back(std::move(call));
    return {};
  }

  Status Output(JsonObjectReader& p, const std::string& time) {
    // The answer that called the tool, closed here; its token_count may follow (TokenCount).
    if (open_ && !open_->recorded) awaiting_usage_ = t_.events.size();
    Close();
    TranscriptEvent e = MakeEvent(TranscriptEventKind::kToolResult, time);
    if (e.time_s > 0) last_input_s_ = e.time_s;
    STRATA_TRY(p.String("call_id", &e.message.tool_call_id));
    const json* out = p.Raw("output");
    std::string text = out == nullptr     ? "null"
                       : out->is_string() ? out->get<std::string>()
                                          : out->dump();
    STRATA_TRY_ASSIGN(e.message.text, redactions_.Expand(text, p.where()));
    AppendEvent(&t_, std::move(e));
    return {};
  }

  Transcript t_;
  ContextInputs ctx_;  // the rollout's context (its model: the first turn_context's)
  std::string model_;  // the model in force (the last turn_context's)
  std::optional<TranscriptEvent> pending_context_;  // a model change after the open request
  std::set<std::string> tools_seen_;
  bool started_ = false;  // the first real user message has been seen
  std::optional<TranscriptEvent> open_;
  // The index in t_.events of the answer a tool output closed before its token_count came.
  std::optional<size_t> awaiting_usage_;
  int64_t last_total_ = 0;
  int64_t orphan_total_ = -1;  // the running total last warned of as having no answer
  RedactionExpander redactions_;
  std::set<std::string> user_texts_;  // user texts taken since the last request
  double last_input_s_ = 0;           // the time of the last user message or tool output
};

}  // namespace

Result<Transcript> ImportCodexRollout(std::string_view jsonl, std::string_view path) {
  return ReadJsonLines(jsonl, path, CodexReader());
}

}  // namespace strata
