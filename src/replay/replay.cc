// replay.cc: rebuilds each request of a transcript with a layout (layout.h), tokenizes it block by
// block (tokenize/request_tokens.h) and runs it through a cache model (replay.h,
// transcript_replay.h). The report's formatting is replay_format.cc. Each step works on what a
// request adds to the previous one: the layout writes over the previous request's bytes
// (request_text.h), the tokenizer keeps the tokens of the pieces both share, and the cache model
// is told how many leading tokens are the previous request's; ReplayPath::kFromScratch does each
// request whole, the check that the shortcuts change no figure.
#include <algorithm>
#include <memory>

#include "base/common_prefix.h"
#include "base/time.h"
#include "cache_model/cache_model.h"
#include "replay/layout.h"
#include "replay/prefix_fill.h"
#include "replay/transcript_replay.h"
#include "tokenize/request_tokens.h"
#include "transcripts/canonical_prompt.h"
#include "transcripts/recorded_requests.h"

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
  ReplayRun(const Tokenizer& tokenizer, const ReplayOptions& options, ReplayPath path)
      : options_(options),
        incremental_(path == ReplayPath::kIncremental),
        provider_(RenderProviderFor(options.cache.kind)),
        chatml_(MakeChatMlTemplate()),
        model_(MakeCacheModel(options.cache)),
        pieces_(tokenizer) {}

  Status Start(const Transcript& transcript, const Tokenizer& tokenizer) {
    if (options_.layout == ReplayLayout::kRecorded) {
      return MakeError(ErrorKind::kInvalidArgument,
                       "--layout recorded replays the requests a `strata record` file holds "
                       "(--format recorded); a " +
                           transcript.format +
                           " log records no request bodies: use --layout strata (with "
                           "--prefix-from REQUEST.json for the client's tools and system)");
    }
    STRATA_TRY_ASSIGN(layout_, MakeLayout(options_.layout, LayoutOptionsFor()));
    return Describe(transcript.format, tokenizer);
  }

  // The recorded layout: no layout object, the requests come canonicalized from the file.
  Status StartRecorded(const Tokenizer& tokenizer) { return Describe("recorded", tokenizer); }

  Status Describe(const std::string& format, const Tokenizer& tokenizer) {
    report_.transcript_format = format;
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
      case TranscriptEventKind::kCompaction:
        return Compact(e.message.text);
      case TranscriptEventKind::kToolResult: {
        // Answers no open call: dropped. Calls without ids are answered in order.
        auto it = std::find(open_calls_.begin(), open_calls_.end(), e.message.tool_call_id);
        if (it == open_calls_.end()) return {};
        open_calls_.erase(it);
        return layout_->Append(e.message);
      }
      case TranscriptEventKind::kAssistant:
        STRATA_TRY(AnswerOpenCalls());
        STRATA_TRY(Request(e));
        STRATA_TRY(layout_->Append(e.message));
        for (const auto& c : e.message.tool_calls) open_calls_.push_back(c.id);
        return {};
    }
    return {};
  }

  ReplayReport Finish() {
    Total();
    report_.bytes_tokenized = pieces_.bytes_tokenized();
    return std::move(report_);
  }

  // The pairing rule: a tool call the log never answered before the next user message or request
  // gets the result "(no result recorded)", so every request is a valid conversation.
  Status AnswerOpenCalls() {
    for (const auto& id : open_calls_) {
      STRATA_TRY(layout_->Append({Role::kToolResult, "(no result recorded)", {}, id, false}));
    }
    open_calls_.clear();
    return {};
  }

  // A compaction: a fresh conversation, opened by the summary.
  Status Compact(const std::string& summary) {
    open_calls_.clear();
    STRATA_TRY_ASSIGN(layout_, MakeLayout(options_.layout, LayoutOptionsFor()));
    return layout_->BeginTurn(ctx_, {Role::kUser, summary, {}, "", false});
  }

  // One recorded request, replayed as the client sent it (its canonical prompt).
  Status Recorded(RecordedRequest&& r) {
    if (r.started_ms > 0 && double(r.started_ms) / 1000.0 >= now_s_) {
      now_s_ = double(r.started_ms) / 1000.0;
      now_ = FormatRfc3339Millis(r.started_ms);
    }
    STRATA_TRY_ASSIGN(CanonicalPrompt c, CanonicalizeRequest(r.body, r.api, r.where));
    ctx_.model = options_.model.empty() ? c.model : options_.model;
    text_.Set(c.bytes);
    return Account({c.Spans(), c.Breakpoints()}, r.usage);
  }

 private:
  LayoutOptions LayoutOptionsFor() const {
    return {provider_, chatml_.get(), options_.long_ttl_breakpoints, incremental_};
  }

  // Rebuilds, tokenizes and accounts the request answered by `e`.
  Status Request(const TranscriptEvent& e) {
    STRATA_TRY_ASSIGN(RebuiltRequest b, layout_->Render(ctx_, now_, &text_));
    return Account(b, e.recorded);
  }

  // Tokenizes and accounts the request in text_ (spans and breakpoints `b`); `recorded` is the
  // provider's usage for it.
  Status Account(const RebuiltRequest& b, const std::optional<RecordedUsage>& recorded) {
    const std::string_view bytes = text_.bytes();
    if (options_.on_request) {
      options_.on_request(report_.turns.size() + 1, bytes, b.spans, b.breakpoints);
    }
    size_t shared_tokens = 0;
    STRATA_TRY_ASSIGN(TokenizedRequest tokens, TokenizeRequest(b, &shared_tokens));
    CacheRequest req;
    req.tokens = tokens.ids;
    req.known_prefix = incremental_ ? shared_tokens : 0;
    req.time_s = now_s_;
    req.model = ctx_.model;
    req.block_ends = std::move(tokens.cut_tokens);  // moved back after Process
    if (provider_ == Provider::kAnthropic) {
      for (const auto& bp : b.breakpoints) {
        req.breakpoints.push_back({tokens.TokensAt(bp.offset), bp.ttl});
      }
    }
    if (report_.turns.empty()) Warm(req);
    TurnReport turn;
    turn.index = report_.turns.size() + 1;
    turn.time = now_;
    turn.usage = model_->Process(req);
    tokens.cut_tokens = std::move(req.block_ends);
    turn.ideal_read_tokens = shared_tokens;
    turn.recorded = recorded;
    turn.recorded_drop = RecordedDrop(turn, recorded);
    report_.request_bytes += bytes.size();
    report_.turns.push_back(std::move(turn));
    if (recorded) prev_recorded_ = recorded;
    prev_input_ = tokens.ids.size();
    prev_tokens_ = std::move(tokens);
    for (const auto& bp : b.breakpoints) {  // kept sorted and unique
      auto at = std::lower_bound(prev_breakpoints_.begin(), prev_breakpoints_.end(), bp.offset);
      if (at == prev_breakpoints_.end() || *at != bp.offset)
        prev_breakpoints_.insert(at, bp.offset);
    }
    return {};
  }

  // The request's tokens, cut where StructuralCuts cuts it (earlier breakpoints inside the prefix
  // shared with the previous request stay cuts: cached blocks), and in `shared_tokens` how many
  // leading tokens it shares with the previous request. Only what follows the shared bytes is
  // scanned for block starts and tokenized; the pieces before it keep the previous request's
  // tokens, so a replay costs time in the new bytes, not in the whole conversation per request.
  Result<TokenizedRequest> TokenizeRequest(const RebuiltRequest& b, size_t* shared_tokens) {
    const std::string_view bytes = text_.bytes();
    const size_t shared = text_.shared();
    std::erase_if(prev_breakpoints_, [&](size_t off) { return off > shared; });
    if (!incremental_) {
      std::vector<size_t> cuts = StructuralCuts(bytes, b.spans, b.breakpoints, prev_breakpoints_);
      STRATA_TRY_ASSIGN(TokenizedRequest tokens, pieces_.Tokenize(bytes, cuts));
      *shared_tokens = CommonPrefixLength(std::span<const TokenId>(prev_tokens_.ids),
                                          std::span<const TokenId>(tokens.ids));
      return tokens;
    }
    size_t from = shared >= kBlockStartSpan ? shared - kBlockStartSpan + 1 : 0;
    starts_.resize(
        size_t(std::lower_bound(starts_.begin(), starts_.end(), from) - starts_.begin()));
    std::vector<size_t> fresh = BlockStarts(bytes, from);
    starts_.insert(starts_.end(), fresh.begin(), fresh.end());
    size_t known_cuts = 0;
    std::vector<size_t> cuts = CutsAfter(b, from, &known_cuts);
    // The tokens shared with the previous request: the pieces kept from it, then the rest compared.
    PieceTokenizer::Reuse reuse;
    STRATA_TRY_ASSIGN(TokenizedRequest tokens,
                      pieces_.TokenizeAfter(std::move(prev_tokens_), prev_cuts_, shared, bytes,
                                            cuts, &reuse, known_cuts));
    std::span<const TokenId> tail(tokens.ids);
    *shared_tokens =
        reuse.kept + CommonPrefixLength(std::span<const TokenId>(reuse.dropped),
                                        tail.subspan(std::min(reuse.kept, tail.size())));
    prev_tokens_ = {};
    prev_cuts_ = std::move(cuts);
    return tokens;
  }

  // The cuts of the request in text_: MergeCuts of its block starts (starts_), spans, breakpoints
  // and the earlier breakpoints kept, computed from `lo` on only. Below lo (at most `from`, and
  // before the first span boundary or breakpoint that differs from the previous request's) every
  // source of a cut is the previous request's, so the cuts are its cuts; `*known` says how many.
  std::vector<size_t> CutsAfter(const RebuiltRequest& b, size_t from, size_t* known) {
    const size_t size = text_.bytes().size();
    std::vector<size_t> marks = MergeCuts({}, size, b.spans, b.breakpoints);
    size_t lo = from;
    auto [p, n] = std::mismatch(prev_marks_.begin(), prev_marks_.end(), marks.begin(), marks.end());
    if (p != prev_marks_.end()) lo = std::min(lo, *p);
    if (n != marks.end()) lo = std::min(lo, *n);
    auto from_lo = [&](const std::vector<size_t>& v) {
      return std::vector<size_t>(std::lower_bound(v.begin(), v.end(), lo), v.end());
    };
    std::vector<size_t> tail =
        MergeCuts(from_lo(starts_), size, b.spans, b.breakpoints, from_lo(prev_breakpoints_));
    std::erase_if(tail, [&](size_t c) { return c < lo; });
    *known =
        size_t(std::lower_bound(prev_cuts_.begin(), prev_cuts_.end(), lo) - prev_cuts_.begin());
    std::vector<size_t> cuts;
    cuts.reserve(*known + tail.size());
    cuts.assign(prev_cuts_.begin(), prev_cuts_.begin() + std::ptrdiff_t(*known));
    cuts.insert(cuts.end(), tail.begin(), tail.end());
    prev_marks_ = std::move(marks);
    return cuts;
  }

  // ReplayOptions::warm_prefix_tokens: an earlier request holding the first request's prefix.
  void Warm(const CacheRequest& first) {
    size_t warm = std::min(options_.warm_prefix_tokens, first.tokens.size());
    if (warm == 0) return;
    CacheRequest seed = first;
    if (options_.cache.kind == CacheModelKind::kAnthropic) {
      size_t at = 0;  // the last point at or below `warm` the first request can read an entry at
      for (size_t end : first.block_ends) at = end <= warm ? std::max(at, end) : at;
      for (const auto& bp : first.breakpoints)
        at = bp.tokens <= warm ? std::max(at, bp.tokens) : at;
      warm = at;
      if (warm == 0) return;
      seed.breakpoints = {{warm, CacheTtl::k1h}};
      std::erase_if(seed.block_ends, [&](size_t e) { return e > warm; });
    }
    seed.tokens = first.tokens.first(warm);
    seed.time_s = first.time_s - 1;
    model_->Process(seed);
    report_.prefix_warm_tokens = warm;
  }

  // TurnReport::recorded_drop's rule.
  bool RecordedDrop(const TurnReport& turn, const std::optional<RecordedUsage>& recorded) const {
    if (!recorded || !prev_recorded_ || prev_input_ == 0) return false;
    size_t held = prev_recorded_->cache_read_tokens + prev_recorded_->cache_write_tokens;
    bool intact = turn.ideal_read_tokens * 10 >= prev_input_ * 9;
    return intact && held > 0 && recorded->cache_read_tokens * 2 < held;
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
        t.recorded_drops += turn.recorded_drop;
        if (size_t rec = turn.recorded->cache_read_tokens; rec > 0) {
          size_t model = turn.usage.cache_read_tokens;
          t.mean_read_error += double(model > rec ? model - rec : rec - model) / double(rec);
          ++t.cached_requests;
        }
      }
    }
    t.hit_ratio = HitRatio(t.cache_read_tokens, t.input_tokens);
    t.ideal_hit_ratio = HitRatio(t.ideal_read_tokens, t.input_tokens);
    t.recorded_hit_ratio = t.recorded.HitRatio();
    if (t.cached_requests > 0) t.mean_read_error /= double(t.cached_requests);
  }

  const ReplayOptions& options_;
  const bool incremental_;  // ReplayPath::kIncremental
  const Provider provider_;
  std::unique_ptr<ChatTemplate> chatml_;
  std::unique_ptr<CacheModel> model_;
  PieceTokenizer pieces_;
  std::unique_ptr<Layout> layout_;
  ReplayReport report_;
  ContextInputs ctx_;
  std::string now_ = "1970-01-01T00:00:00Z";
  double now_s_ = 0;
  std::vector<std::string> open_calls_;   // calls of the last assistant message without a result
  RequestText text_;                      // the request, written over the previous one
  std::vector<size_t> prev_breakpoints_;  // breakpoints of earlier requests in the shared prefix
  std::vector<size_t> starts_;            // block starts of the previous request (BlockStarts)
  std::vector<size_t> prev_cuts_;         // its cuts
  std::vector<size_t> prev_marks_;        // its span boundaries and breakpoints (MergeCuts)
  TokenizedRequest prev_tokens_;          // its tokens
  size_t prev_input_ = 0;                 // tokens of the previous request
  std::optional<RecordedUsage> prev_recorded_;  // the last recorded usage
};

}  // namespace

Result<ReplayReport> Replay(const Transcript& transcript, const Tokenizer& tokenizer,
                            const ReplayOptions& options, ReplayPath path) {
  if (options.fill_unlogged_prefix && options.layout != ReplayLayout::kRecorded) {
    Transcript filled = transcript;
    STRATA_TRY_ASSIGN(size_t fill, FillUnloggedPrefix(&filled, tokenizer, options));
    ReplayOptions o = options;
    o.fill_unlogged_prefix = false;
    for (const auto& e : filled.events) {
      if (e.kind != TranscriptEventKind::kAssistant) continue;
      if (e.recorded && o.warm_prefix_tokens == 0)
        o.warm_prefix_tokens = e.recorded->cache_read_tokens;
      break;
    }
    STRATA_TRY_ASSIGN(ReplayReport report, Replay(filled, tokenizer, o, path));
    report.prefix_fill_tokens = fill;
    return report;
  }
  ReplayRun run(tokenizer, options, path);
  STRATA_TRY(run.Start(transcript, tokenizer));
  for (const TranscriptEvent& e : transcript.events) STRATA_TRY(run.Event(e));
  ReplayReport report = run.Finish();
  report.warnings = transcript.warnings;
  return report;
}

Result<ReplayReport> ReplayRecorded(std::string_view log, std::string_view path,
                                    const Tokenizer& tokenizer, const ReplayOptions& options) {
  ReplayRun run(tokenizer, options, ReplayPath::kIncremental);
  STRATA_TRY(run.StartRecorded(tokenizer));
  std::vector<std::string> warnings;
  STRATA_TRY_ASSIGN(
      size_t n,
      ReadRecordedRequests(
          log, path, [&](RecordedRequest&& r) { return run.Recorded(std::move(r)); }, &warnings));
  if (n == 0) {
    return MakeError(ErrorKind::kInvalidArgument,
                     "no recorded requests: the file holds no line (see docs/replay.md, "
                     "\"Recorded requests\")",
                     {std::string(path)});
  }
  ReplayReport report = run.Finish();
  report.warnings = std::move(warnings);
  return report;
}

Result<ReplayReport> ReplayLog(std::string_view log, std::string_view path, TranscriptFormat format,
                               const Tokenizer& tokenizer, const ReplayOptions& options) {
  if (format == TranscriptFormat::kRecorded && options.layout == ReplayLayout::kRecorded) {
    return ReplayRecorded(log, path, tokenizer, options);
  }
  STRATA_TRY_ASSIGN(Transcript transcript, ParseTranscript(log, path, format, options.instance));
  STRATA_TRY(ExpectRequests(transcript, path));
  return Replay(transcript, tokenizer, options);
}

}  // namespace strata
