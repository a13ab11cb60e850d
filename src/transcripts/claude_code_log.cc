// claude_code_log.cc: the Claude Code session log reader (claude_code_log.h).
#include "transcripts/claude_code_log.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <unordered_map>

#include "base/json_reader.h"
#include "transcripts/json_lines.h"

namespace strata {
namespace {

using nlohmann::json;

constexpr JsonStrictness kLenient = JsonStrictness::kLenient;

// The model of the assistant lines Claude Code writes itself, without a request.
constexpr std::string_view kSyntheticModel = "<synthetic>";

// The text of `key` in each object of the array `parts` whose "type" is "text", joined by `glue`.
Result<std::string> JoinTextParts(const json& parts, const std::string& path, const Location& where,
                                  std::string_view glue) {
  std::string text;
  for (size_t i = 0; i < parts.size(); ++i) {
    JsonObjectReader part(parts[i], path + "[" + std::to_string(i) + "]", where, kLenient);
    std::string type, piece;
    STRATA_TRY(part.String("type", &type));
    if (type != "text") continue;
    STRATA_TRY(part.String("text", &piece));
    if (!text.empty()) text += glue;
    text += piece;
  }
  return text;
}

class ClaudeCodeReader {
 public:
  // `sidechain`: read the lines marked isSidechain (a subagent's own file, where every line is)
  // instead of the main conversation's.
  explicit ClaudeCodeReader(bool sidechain) : sidechain_(sidechain) {
    t_.format = "claude-code";
    t_.provider = "anthropic";
    ctx_.persona = "You are Claude Code, an interactive coding agent.";  // the log omits it
  }

  Status Line(const JsonLine& line) {
    JsonObjectReader r(line.value, "", line.where, kLenient);
    std::string type;
    STRATA_TRY(r.String("type", &type));
    if (type != "user" && type != "assistant" && type != "system") return {};  // progress...
    bool sidechain = false;
    STRATA_TRY(r.Bool("isSidechain", &sidechain));
    if (sidechain != sidechain_) return {};
    std::string time, uuid, parent;
    STRATA_TRY(r.String("timestamp", &time));
    STRATA_TRY(r.String("uuid", &uuid));
    if (const json* p = r.Raw("parentUuid"); p != nullptr && p->is_string()) {
      parent = p->get<std::string>();  // null on a conversation's first line
    }
    const double time_s = ParseRfc3339Seconds(time).value_or(0);
    if (!uuid.empty() && time_s > 0) line_times_[uuid] = time_s;
    if (type == "system") return System(r, time);
    const json* message = r.Raw("message");
    if (message == nullptr) return {};
    JsonObjectReader m(*message, "message", line.where, kLenient);
    STRATA_TRY(m.ExpectObject("the API message"));
    if (!context_emitted_) {
      STRATA_TRY(r.String("cwd", &ctx_.cwd));
      EmitContext(time);
    }
    if (type == "assistant") {
      // Claude Code's own lines ("model": "<synthetic>": an API error, "No response
      // requested."): no request was made, so none is counted and the model does not change.
      std::string model;
      STRATA_TRY(m.String("model", &model));
      if (model == kSyntheticModel) return {};
      STRATA_TRY(Assistant(r, m, time, SentAt(parent)));
      if (open_ && time_s > 0) open_->done_s = std::max(open_->done_s, time_s);
      return {};
    }
    if (time_s > 0) last_other_s_ = time_s;
    bool summary = false;
    STRATA_TRY(r.Bool("isCompactSummary", &summary));
    if (summary && awaiting_summary_) return Summary(m);
    awaiting_summary_ = false;
    return User(m, time);
  }

  Transcript Finish() {
    Flush();
    return std::move(t_);
  }

 private:
  void EmitContext(const std::string& time) {
    TranscriptEvent e = MakeEvent(TranscriptEventKind::kContext, time);
    e.context = ctx_;
    t_.events.push_back(std::move(e));
    context_emitted_ = true;
  }

  // When a request whose first line has parent `parent` was sent: the parent line's time (the
  // tool result or prompt it answers), else the last user line's; 0 when the log gives neither.
  double SentAt(const std::string& parent) const {
    if (auto it = line_times_.find(parent); it != line_times_.end()) return it->second;
    return last_other_s_;
  }

  // A system line: `compact_boundary` ends the conversation so far (Claude Code's compaction);
  // the summary user line that follows (isCompactSummary) opens the new one.
  Status System(JsonObjectReader& r, const std::string& time) {
    std::string subtype;
    STRATA_TRY(r.String("subtype", &subtype));
    if (subtype != "compact_boundary") return {};
    Flush();
    t_.events.push_back(MakeEvent(TranscriptEventKind::kCompaction, time));
    awaiting_summary_ = true;
    return {};
  }

  // The compaction summary: the text of the compaction event just emitted.
  Status Summary(JsonObjectReader& m) {
    awaiting_summary_ = false;
    const json* content = m.Raw("content");
    std::string text;
    if (content != nullptr && content->is_string()) {
      text = content->get<std::string>();
    } else if (content != nullptr && content->is_array()) {
      STRATA_TRY_ASSIGN(text, JoinTextParts(*content, m.PathOf("content"), m.where(), "\n\n"));
    }
    t_.events.back().message.text = std::move(text);
    return {};
  }

  // Closes the open request and appends the tool results that followed it.
  void Flush() {
    if (open_) AppendEvent(&t_, std::move(*open_));
    open_.reset();
    open_request_.clear();
    for (auto& r : pending_results_) AppendEvent(&t_, std::move(r));
    pending_results_.clear();
  }

  Status Assistant(JsonObjectReader& r, JsonObjectReader& m, const std::string& time,
                   double sent_s) {
    std::string request, model;
    STRATA_TRY(r.String("requestId", &request));
    if (request.empty()) STRATA_TRY(m.String("id", &request));
    // A new API response; lines without a request id or message id are each their own.
    if (!open_ || request.empty() || request != open_request_) {
      Flush();
      STRATA_TRY(m.String("model", &model));
      if (!model.empty() && model != ctx_.model) {
        ctx_.model = model;
        EmitContext(time);
      }
      open_ = MakeEvent(TranscriptEventKind::kAssistant, time);
      open_->sent_s = sent_s;
      open_->request_id = request;
      open_request_ = request;
      awaiting_summary_ = false;
    }
    STRATA_TRY(Usage(m));
    STRATA_TRY_ASSIGN(const json* content, m.Array("content"));
    if (content == nullptr) return {};
    for (size_t i = 0; i < content->size(); ++i) {
      JsonObjectReader block((*content)[i], m.PathOf("content", i), m.where(), kLenient);
      STRATA_TRY(AssistantBlock(block));
    }
    return {};
  }

  // message.usage: the prompt Anthropic billed is input + cache read + cache creation. A count
  // that is not an integer from 0 to kMaxTokenCount (negative, a string, a fraction, 1e30) refuses
  // the line's usage with a warning naming the line and the member; the log is still read.
  Status Usage(JsonObjectReader& m) {
    auto read_usage = [&]() -> Status {
      STRATA_TRY_ASSIGN(auto counts, ReadTokenCounts(m, "usage",
                                                     {"input_tokens", "cache_read_input_tokens",
                                                      "cache_creation_input_tokens"},
                                                     kLenient));
      if (!counts) return {};
      auto [in, read, write] = *counts;
      STRATA_TRY_ASSIGN(auto usage, ChildObject(m, "usage", kLenient));
      STRATA_TRY_ASSIGN(size_t output, ReadTokenCount(*usage, "output_tokens"));
      size_t write_1h = 0;
      STRATA_TRY_ASSIGN(auto creation, ChildObject(*usage, "cache_creation", kLenient));
      if (creation) {
        STRATA_TRY_ASSIGN(write_1h, ReadTokenCount(*creation, "ephemeral_1h_input_tokens"));
      }
      open_->recorded = RecordedUsage{in + read + write, read, write};
      open_->output_tokens = output;
      open_->recorded_write_1h = write_1h;
      return {};
    };
    if (Status s = read_usage(); !s) t_.warnings.push_back(RefusedUsageWarning(s.error()));
    return {};
  }

  Status AssistantBlock(JsonObjectReader& block) {
    std::string type;
    STRATA_TRY(block.String("type", &type));
    if (type == "text") {
      std::string text;
      STRATA_TRY(block.String("text", &text));
      if (!open_->message.text.empty()) open_->message.text += "\n\n";
      open_->message.text += text;
    } else if (type == "tool_use") {
      ToolCall call;
      STRATA_TRY(block.String("id", &call.id));
      STRATA_TRY(block.String("name", &call.name));
      if (const json* input = block.Raw("input")) call.arguments_json = input->dump();
      OfferTool(call.name);
      open_->message.tool_calls.push_back(std::move(call));
    }
    return {};  // thinking blocks are not replayed (their signatures are opaque)
  }

  // A tool first seen in a tool_use was offered all along: the tool surface is fixed from the
  // first request (the log does not record the definitions themselves).
  void OfferTool(const std::string& name) {
    if (!tools_seen_.insert(name).second) return;
    ctx_.tools.push_back({name, "", "{}"});
    for (auto& e : t_.events) {
      if (e.kind == TranscriptEventKind::kContext) e.context.tools = ctx_.tools;
    }
  }

  Status User(JsonObjectReader& m, const std::string& time) {
    const json* content = m.Raw("content");
    if (content == nullptr) return {};  // nothing said
    if (content->is_string()) return UserText(content->get<std::string>(), time);
    if (!content->is_array()) return m.Fail("content", "must be a string or an array of blocks");
    std::string text;
    for (size_t i = 0; i < content->size(); ++i) {
      JsonObjectReader block((*content)[i], m.PathOf("content", i), m.where(), kLenient);
      std::string type, piece;
      STRATA_TRY(block.String("type", &type));
      if (type == "tool_result") {
        STRATA_TRY(ToolResult(block, time));
      } else if (type == "text") {
        STRATA_TRY(block.String("text", &piece));
        if (!text.empty()) text += "\n\n";
        text += piece;
      }
    }
    if (text.empty()) return {};
    return UserText(std::move(text), time);
  }

  Status UserText(std::string text, const std::string& time) {
    Flush();
    AppendEvent(&t_, MakeEvent(TranscriptEventKind::kUser, time, std::move(text)));
    return {};
  }

  Status ToolResult(JsonObjectReader& block, const std::string& time) {
    TranscriptEvent e = MakeEvent(TranscriptEventKind::kToolResult, time);
    STRATA_TRY(block.String("tool_use_id", &e.message.tool_call_id));
    STRATA_TRY(block.Bool("is_error", &e.message.is_error));
    if (const json* c = block.Raw("content"); c != nullptr && c->is_string()) {
      e.message.text = c->get<std::string>();
    } else if (c != nullptr && c->is_array()) {
      STRATA_TRY_ASSIGN(e.message.text,
                        JoinTextParts(*c, block.PathOf("content"), block.where(), "\n"));
    }
    pending_results_.push_back(std::move(e));
    return {};
  }

  const bool sidechain_;
  Transcript t_;
  ContextInputs ctx_;
  bool context_emitted_ = false;
  std::set<std::string> tools_seen_;
  std::optional<TranscriptEvent> open_;  // the assistant message of the current requestId
  std::string open_request_;
  std::vector<TranscriptEvent> pending_results_;        // results logged while the request was open
  std::unordered_map<std::string, double> line_times_;  // uuid -> time, for parent links
  double last_other_s_ = 0;                             // the time of the last user line
  bool awaiting_summary_ = false;  // a compact_boundary was the last line that counted
};

// Feeds each line to a main and a sidechain reader.
class BothChainsReader {
 public:
  Status Line(const JsonLine& line) {
    if (session_id_.empty()) {
      auto it = line.value.find("sessionId");
      if (it != line.value.end() && it->is_string()) session_id_ = it->get<std::string>();
    }
    STRATA_TRY(main_.Line(line));
    return side_.Line(line);
  }
  const std::string& session_id() const { return session_id_; }
  Transcript Finish() {
    side_result_ = side_.Finish();
    return main_.Finish();
  }
  Transcript TakeSidechain() { return std::move(side_result_); }

 private:
  ClaudeCodeReader main_{false}, side_{true};
  Transcript side_result_;
  std::string session_id_;
};

}  // namespace

Result<ClaudeCodeChains> ImportClaudeCodeChains(std::string_view jsonl, std::string_view path) {
  BothChainsReader reader;
  std::vector<std::string> warnings;
  size_t skipped = 0;
  STRATA_TRY(ForEachJsonLine(
      jsonl, path, [&](JsonLine&& line) { return reader.Line(line); }, &warnings, &skipped));
  ClaudeCodeChains out;
  out.main = reader.Finish();
  out.sidechain = reader.TakeSidechain();
  out.session_id = reader.session_id();
  out.main.warnings.insert(out.main.warnings.end(), warnings.begin(), warnings.end());
  out.main.skipped_lines += skipped;
  return out;
}

Result<Transcript> ImportClaudeCode(std::string_view jsonl, std::string_view path) {
  STRATA_TRY_ASSIGN(Transcript main, ReadJsonLines(jsonl, path, ClaudeCodeReader(false)));
  if (main.RequestCount() > 0) return main;
  // A subagent's file (every line isSidechain: true): its own conversation.
  STRATA_TRY_ASSIGN(Transcript side, ReadJsonLines(jsonl, path, ClaudeCodeReader(true)));
  return side.RequestCount() > 0 ? side : main;
}

}  // namespace strata
