// replay.cc: rebuilds each request of a transcript with a layout (layout.h), tokenizes it block by
// block (tokenize/request_tokens.h) and runs it through a cache model (replay.h,
// transcript_replay.h). The report's formatting is replay_format.cc.
#include <memory>
#include <set>

#include "base/common_prefix.h"
#include "cache_model/cache_model.h"
#include "replay/layout.h"
#include "replay/transcript_replay.h"
#include "tokenize/request_tokens.h"

namespace strata {
namespace {

Provider RenderProviderFor(CacheModelKind kind) {
  switch (kind) {
    case CacheModelKind::kAnthropic:
      return Provider::kAnthropic;
    case CacheModelKind::kOpenAi:
      return Provider::kOpenAiResponses;
    case CacheModelKind::kDeepSeek:
      return Provider::kOpenAiChat;
    case CacheModelKind::kBlockHash:
    case CacheModelKind::kRadix:
      return Provider::kChatTemplate;
  }
  return Provider::kAnthropic;
}

// One replay: the layout, the cache model and what carries from one request to the next.
class ReplayRun {
 public:
  ReplayRun(const Tokenizer& tokenizer, const ReplayOptions& options)
      : options_(options),
        provider_(RenderProviderFor(options.cache.kind)),
        chatml_(MakeChatMlTemplate()),
        model_(MakeCacheModel(options.cache)),
        pieces_(tokenizer) {}

  Status Start(const Transcript& transcript, const Tokenizer& tokenizer) {
    STRATA_TRY_ASSIGN(layout_, MakeLayout(options_.layout, {provider_, chatml_.get(),
                                                            options_.long_ttl_breakpoints}));
    report_.transcript_format = transcript.format;
    report_.layout = ReplayLayoutName(options_.layout);
    report_.provider = CacheModelName(options_.cache.kind);
    report_.rules = model_->Describe();
    report_.tokenizer = tokenizer.name();
    return {};
  }

  Status Event(const TranscriptEvent& e) {
    if (!e.time.empty() && e.time_s >= now_s_) {
      now_ = e.time;
      now_s_ = e.time_s;
    }
    switch (e.kind) {
      case TranscriptEventKind::kContext:
        ctx_ = e.context;
        if (!options_.model.empty()) ctx_.model = options_.model;
        return {};
      case TranscriptEventKind::kUser:
        STRATA_TRY(AnswerOpenCalls());
        return layout_->BeginTurn(ctx_, e.message);
      case TranscriptEventKind::kToolResult:
        if (!open_calls_.erase(e.message.tool_call_id)) return {};  // answers no open call
        return layout_->Append(e.message);
      case TranscriptEventKind::kAssistant:
        STRATA_TRY(AnswerOpenCalls());
        STRATA_TRY(Request(e));
        STRATA_TRY(layout_->Append(e.message));
        for (const auto& c : e.message.tool_calls) open_calls_.insert(c.id);
        return {};
    }
    return {};
  }

  ReplayReport Finish() {
    Total();
    report_.bytes_tokenized = pieces_.bytes_tokenized();
    return std::move(report_);
  }

 private:
  // The pairing rule: a tool call the log never answered before the next user message or request
  // gets the result "(no result recorded)", so every request is a valid conversation.
  Status AnswerOpenCalls() {
    for (const auto& id : open_calls_) {
      STRATA_TRY(layout_->Append({Role::kToolResult, "(no result recorded)", {}, id, false}));
    }
    open_calls_.clear();
    return {};
  }

  // Rebuilds, tokenizes and accounts the request answered by `e`.
  Status Request(const TranscriptEvent& e) {
    STRATA_TRY_ASSIGN(RebuiltRequest b, layout_->Render(ctx_, now_));
    if (options_.on_request) {
      options_.on_request(report_.turns.size() + 1, b.bytes, b.spans, b.breakpoints);
    }
    // Earlier breakpoints inside the shared prefix stay token boundaries (cached blocks).
    size_t shared = CommonPrefixLength(prev_bytes_, b.bytes);
    std::erase_if(prev_breakpoints_, [&](size_t off) { return off > shared; });
    auto cuts = StructuralCuts(b.bytes, b.spans, b.breakpoints, prev_breakpoints_);
    STRATA_TRY_ASSIGN(TokenizedRequest tokens, pieces_.Tokenize(b.bytes, cuts));
    CacheRequest req;
    req.tokens = tokens.ids;
    req.time_s = now_s_;
    req.model = ctx_.model;
    req.block_ends = tokens.cut_tokens;
    if (provider_ == Provider::kAnthropic) {
      for (const auto& bp : b.breakpoints) {
        req.breakpoints.push_back({tokens.TokensAt(bp.offset), bp.ttl});
      }
    }
    TurnReport turn;
    turn.index = report_.turns.size() + 1;
    turn.time = now_;
    turn.usage = model_->Process(req);
    turn.ideal_read_tokens = CommonPrefixLength(std::span<const TokenId>(prev_ids_),
                                                std::span<const TokenId>(tokens.ids));
    turn.recorded = e.recorded;
    report_.request_bytes += b.bytes.size();
    report_.turns.push_back(std::move(turn));
    prev_ids_ = std::move(tokens.ids);
    prev_bytes_ = std::move(b.bytes);
    for (const auto& bp : b.breakpoints) prev_breakpoints_.push_back(bp.offset);
    return {};
  }

  void Total() {
    ReplayTotals& t = report_.totals;
    for (const auto& turn : report_.turns) {
      t.input_tokens += turn.usage.input_tokens;
      t.cache_read_tokens += turn.usage.cache_read_tokens;
      t.cache_write_tokens += turn.usage.cache_write_tokens;
      t.uncached_tokens += turn.usage.uncached_tokens;
      t.ideal_read_tokens += turn.ideal_read_tokens;
      t.cost += turn.usage.cost;
      if (turn.recorded) {
        t.has_recorded = true;
        t.recorded.input_tokens += turn.recorded->input_tokens;
        t.recorded.cache_read_tokens += turn.recorded->cache_read_tokens;
        t.recorded.cache_write_tokens += turn.recorded->cache_write_tokens;
      }
    }
    t.hit_ratio = HitRatio(t.cache_read_tokens, t.input_tokens);
    t.ideal_hit_ratio = HitRatio(t.ideal_read_tokens, t.input_tokens);
    t.recorded_hit_ratio = t.recorded.HitRatio();
  }

  const ReplayOptions& options_;
  const Provider provider_;
  std::unique_ptr<ChatTemplate> chatml_;
  std::unique_ptr<CacheModel> model_;
  PieceTokenizer pieces_;
  std::unique_ptr<Layout> layout_;
  ReplayReport report_;
  ContextInputs ctx_;
  std::string now_ = "1970-01-01T00:00:00Z";
  double now_s_ = 0;
  std::set<std::string> open_calls_;      // calls of the last assistant message without a result
  std::string prev_bytes_;                // the previous request
  std::vector<size_t> prev_breakpoints_;  // breakpoints of earlier requests in the shared prefix
  std::vector<TokenId> prev_ids_;
};

}  // namespace

Result<ReplayReport> Replay(const Transcript& transcript, const Tokenizer& tokenizer,
                            const ReplayOptions& options) {
  ReplayRun run(tokenizer, options);
  STRATA_TRY(run.Start(transcript, tokenizer));
  for (const TranscriptEvent& e : transcript.events) STRATA_TRY(run.Event(e));
  return run.Finish();
}

Result<ReplayReport> ReplayLog(std::string_view log, std::string_view path, TranscriptFormat format,
                               const Tokenizer& tokenizer, const ReplayOptions& options) {
  STRATA_TRY_ASSIGN(Transcript transcript, ParseTranscript(log, path, format));
  STRATA_TRY(ExpectRequests(transcript, path));
  return Replay(transcript, tokenizer, options);
}

}  // namespace strata
