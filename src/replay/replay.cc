// replay.cc: rebuilds each request of a transcript with a layout (layout.h), tokenizes it block by
// block (tokenize/request_tokens.h) and runs it through a cache model (replay.h,
// transcript_replay.h). The report's formatting is replay_format.cc. Each step works on what a
// request adds to the previous one: the layout writes over the previous request's bytes
// (request_text.h), the tokenizer keeps the tokens of the pieces both share, and the cache model
// is told how many leading tokens are the previous request's; ReplayPath::kFromScratch does each
// request whole, the check that the shortcuts change no figure.
#include <fmt/format.h>
#include <algorithm>
#include <memory>

#include "base/common_prefix.h"
#include "base/time.h"
#include "cache_model/cache_model.h"
#include "replay/drop_cause.h"
#include "replay/layout.h"
#include "replay/prefix_fill.h"
#include "replay/transcript_replay.h"
#include "tokenize/request_tokens.h"
#include "transcripts/recorded_requests.h"
#include "wire/canonical_prompt.h"
#include "wire/codec.h"

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
    const Pricing& p = model_->pricing();
    report_.prices = fmt::format(
        "input ${:.2f}/MTok, cache read {:g}x, write {:g}x (5 min) / {:g}x (1 h): {}",
        p.input_per_mtok, p.read_multiplier, p.write_5m_multiplier, p.write_1h_multiplier,
        options_.price_source.empty()
            ? "the " + std::string(CacheModelName(options_.cache.kind)) + " default"
            : options_.price_source);
    report_.tokenizer = tokenizer.name();
    return {};
  }

  // `e` is consumed: its message moves into the layout.
  Status Event(TranscriptEvent&& e) {
    if (!e.time.empty() && e.time_s >= now_s_) {
      now_ = e.time;
      now_s_ = e.time_s;
    }
    switch (e.kind) {
      case TranscriptEventKind::kContext:
        ctx_ = std::move(e.context);
        if (!options_.model.empty()) ctx_.model = options_.model;
        return {};
      case TranscriptEventKind::kUser:
        STRATA_TRY(AnswerOpenCalls());
        return layout_->BeginTurn(ctx_, std::move(e.message));
      case TranscriptEventKind::kCompaction:
        return Compact(e.message.text);
      case TranscriptEventKind::kToolResult: {
        // Answers no open call: dropped. Calls without ids are answered in order.
        auto it = std::find(open_calls_.begin(), open_calls_.end(), e.message.tool_call_id);
        if (it == open_calls_.end()) return {};
        open_calls_.erase(it);
        return layout_->Append(std::move(e.message));
      }
      case TranscriptEventKind::kAssistant:
        STRATA_TRY(AnswerOpenCalls());
        STRATA_TRY(Request(e));
        for (const auto& c : e.message.tool_calls) open_calls_.push_back(c.id);
        return layout_->Append(std::move(e.message));
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
    compacted_ = true;
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
    double sent = double(r.started_ms) / 1000.0;
    return Account({c.Spans(), c.Breakpoints()}, r.usage, sent,
                   r.started_ms > 0 ? sent + double(r.total_ms) / 1000.0 : 0);
  }

 private:
  LayoutOptions LayoutOptionsFor() const {
    return {provider_, chatml_.get(), options_.long_ttl_breakpoints, incremental_};
  }

  // Rebuilds, tokenizes and accounts the request answered by `e`.
  Status Request(const TranscriptEvent& e) {
    STRATA_TRY_ASSIGN(RebuiltRequest b, layout_->Render(ctx_, now_, &text_));
    return Account(b, e.recorded, e.sent_s, e.done_s > 0 ? e.done_s : e.time_s,
                   e.recorded_write_1h);
  }

  // Tokenizes and accounts the request in text_ (spans and breakpoints `b`); `recorded` is the
  // provider's usage for it (`recorded_write_1h` of its cache write were 1 h entries); `sent_s`
  // and `done_s` when it was sent and its answer completed.
  Status Account(const RebuiltRequest& b, const std::optional<RecordedUsage>& recorded,
                 double sent_s, double done_s, size_t recorded_write_1h = 0) {
    const std::string_view bytes = text_.bytes();
    if (options_.on_request) {
      options_.on_request(report_.turns.size() + 1, bytes, b.spans, b.breakpoints);
    }
    size_t shared_tokens = 0;
    std::vector<TokenId> prev_tail;
    STRATA_TRY_ASSIGN(TokenizedRequest tokens, TokenizeRequest(b, &shared_tokens, &prev_tail));
    CacheRequest req;
    req.tokens = tokens.ids;
    req.known_prefix = incremental_ ? shared_tokens : 0;
    req.previous_tail = prev_tail;
    // Exact, but for a first request after Warm's seed (which it was not compared with).
    req.known_prefix_exact =
        incremental_ && (!report_.turns.empty() || options_.warm_prefix_tokens == 0);
    req.time_s = now_s_;
    req.model = ctx_.model;
    req.block_ends = std::move(tokens.cut_tokens);  // moved back after Process
    // Explicit breakpoints (Anthropic's cache_control) count; automatic caches have none.
    if (const wire::WireCodec* codec = wire::CodecOfProvider(provider_);
        codec != nullptr && codec->explicit_breakpoints) {
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
    if (recorded)
      turn.recorded_write_1h = std::min(recorded_write_1h, recorded->cache_write_tokens);
    turn.after_compaction = compacted_;
    if (!report_.turns.empty()) turn.drop = FindDrop(Evidence(turn, b, sent_s));
    report_.request_bytes += bytes.size();
    prev_ = Previous{turn.usage, recorded, ctx_.model, now_s_, done_s, TtlOf(b)};
    compacted_ = false;
    report_.turns.push_back(std::move(turn));
    prev_tokens_ = std::move(tokens);
    for (const auto& bp : b.breakpoints) {  // kept sorted and unique
      auto at = std::lower_bound(prev_breakpoints_.begin(), prev_breakpoints_.end(), bp.offset);
      if (at == prev_breakpoints_.end() || *at != bp.offset)
        prev_breakpoints_.insert(at, bp.offset);
    }
    return {};
  }

  // The request's tokens, cut where StructuralCuts cuts it (earlier breakpoints inside the prefix
  // shared with the previous request stay cuts: cached blocks), in `shared_tokens` how many
  // leading tokens it shares with the previous request, and in `prev_tail` the previous
  // request's tokens after those (incremental only: CacheRequest::previous_tail). Only what follows
  // the shared bytes is scanned for block starts and tokenized; the pieces before it keep the
  // previous request's tokens, so a replay costs time in the new bytes, not in the whole
  // conversation per request.
  Result<TokenizedRequest> TokenizeRequest(const RebuiltRequest& b, size_t* shared_tokens,
                                           std::vector<TokenId>* prev_tail) {
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
    reuse.dropped.erase(reuse.dropped.begin(),
                        reuse.dropped.begin() + std::ptrdiff_t(*shared_tokens - reuse.kept));
    *prev_tail = std::move(reuse.dropped);
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

  // What the log and the model say about the request `turn` against the previous one.
  DropEvidence Evidence(const TurnReport& turn, const RebuiltRequest& b, double sent_s) const {
    DropEvidence e;
    e.model_prev = prev_.usage;
    e.model = turn.usage;
    e.shared_tokens = turn.ideal_read_tokens;
    e.recorded_prev = prev_.recorded;
    e.recorded = turn.recorded;
    e.automatic = options_.cache.kind != CacheModelKind::kAnthropic;
    e.granule = Granule();
    e.minimum = Minimum();
    e.compaction = compacted_;
    e.model_id_prev = prev_.model;
    e.model_id = ctx_.model;
    e.gap_s = prev_.time_s > 0 && now_s_ > 0 ? now_s_ - prev_.time_s : 0;
    e.ttl_s = prev_.ttl_s;
    e.sent_s = sent_s;
    e.prev_done_s = prev_.done_s;
    const size_t at = text_.shared();
    for (const auto& span : b.spans) {
      if (span.begin <= at && at < span.end) e.changed_layer = span.layer;
    }
    return e;
  }

  size_t Granule() const { return CacheGranuleTokens(options_.cache); }
  size_t Minimum() const { return CacheMinimumTokens(options_.cache); }

  // The shortest life of the entries request `b` left: its breakpoints' TTLs (anthropic), the
  // retention (automatic caches); 0: no expiry.
  double TtlOf(const RebuiltRequest& b) const {
    const double r = options_.cache.retention_s;
    switch (options_.cache.kind) {
      case CacheModelKind::kAnthropic: {
        double ttl = 0;
        for (const auto& bp : b.breakpoints) {
          double t = bp.ttl == CacheTtl::k1h ? 3600.0 : 300.0;
          ttl = ttl == 0 ? t : std::min(ttl, t);
        }
        return ttl;
      }
      case CacheModelKind::kOpenAi:
        return r < 0 ? 600 : r;
      case CacheModelKind::kDeepSeek:
        return r < 0 ? 3600 : r;
      default:
        return r < 0 ? 0 : r;
    }
  }

  void Total() {
    ReplayTotals& t = report_.totals;
    size_t predictable = 0, lost = 0;
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
        t.recorded_write_1h += turn.recorded_write_1h;
        if (size_t rec = turn.recorded->cache_read_tokens; rec > 0) {
          size_t model = turn.usage.cache_read_tokens;
          double err = double(model > rec ? model - rec : rec - model) / double(rec);
          t.mean_read_error += err;
          ++t.cached_requests;
          if (!turn.drop || turn.drop->predicted) {
            t.mean_read_error_predictable += err;
            ++predictable;
          }
        }
      }
      if (turn.drop) {
        DropTotal& d = t.drops[size_t(turn.drop->cause)];
        ++d.count;
        d.lost_tokens += turn.drop->lost_tokens;
        t.unpredicted_drops += !turn.drop->predicted;
        lost += turn.drop->lost_tokens;
      }
    }
    const Pricing& p = model_->pricing();
    const auto& R = t.recorded;
    const double w = options_.cache.kind == CacheModelKind::kAnthropic ? p.write_5m_multiplier : 1;
    t.recorded_cost = (double(R.input_tokens - R.cache_read_tokens - R.cache_write_tokens) +
                       double(R.cache_read_tokens) * p.read_multiplier +
                       double(R.cache_write_tokens - t.recorded_write_1h) * p.write_5m_multiplier +
                       double(t.recorded_write_1h) * p.write_1h_multiplier) *
                      p.input_per_mtok / 1e6;
    t.lost_cost = double(lost) * (w - p.read_multiplier) * p.input_per_mtok / 1e6;
    if (predictable > 0) t.mean_read_error_predictable /= double(predictable);
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
  // The previous request, for FindDrop.
  struct Previous {
    CacheUsage usage;
    std::optional<RecordedUsage> recorded;
    std::string model;
    double time_s = 0, done_s = 0, ttl_s = 0;
  };
  Previous prev_;
  bool compacted_ = false;  // a compaction since the previous request
};

// The replay of `transcript` as it is (ReplayOptions::fill_unlogged_prefix already applied);
// `owned`: its events may be consumed (their messages move into the layout, not copied).
Result<ReplayReport> RunReplay(const Transcript& transcript, const Tokenizer& tokenizer,
                               const ReplayOptions& options, ReplayPath path,
                               Transcript* owned = nullptr) {
  // A log that recorded 1 h cache writes (Claude Code's ephemeral_1h_input_tokens) had 1 h
  // breakpoints: modelled so unless --long-ttl says otherwise.
  if (options.long_ttl_breakpoints == 0 && options.cache.kind == CacheModelKind::kAnthropic &&
      std::any_of(transcript.events.begin(), transcript.events.end(),
                  [](const TranscriptEvent& e) { return e.recorded_write_1h > 0; })) {
    ReplayOptions o = options;
    o.long_ttl_breakpoints = int(options.cache.max_breakpoints);
    return RunReplay(transcript, tokenizer, o, path, owned);
  }
  ReplayRun run(tokenizer, options, path);
  STRATA_TRY(run.Start(transcript, tokenizer));
  for (size_t i = 0; i < transcript.events.size(); ++i) {
    STRATA_TRY(run.Event(owned != nullptr ? std::move(owned->events[i])
                                          : TranscriptEvent(transcript.events[i])));
  }
  ReplayReport report = run.Finish();
  report.warnings = transcript.warnings;
  return report;
}

// Fills the unlogged prefix of `transcript` in place (no copy of a log's messages) and replays it.
Result<ReplayReport> FillAndReplay(Transcript* transcript, const Tokenizer& tokenizer,
                                   const ReplayOptions& options, ReplayPath path) {
  STRATA_TRY_ASSIGN(size_t fill, FillUnloggedPrefix(transcript, tokenizer, options));
  ReplayOptions o = options;
  o.fill_unlogged_prefix = false;
  for (const auto& e : transcript->events) {
    if (e.kind != TranscriptEventKind::kAssistant) continue;
    if (e.recorded && o.warm_prefix_tokens == 0)
      o.warm_prefix_tokens = e.recorded->cache_read_tokens;
    break;
  }
  STRATA_TRY_ASSIGN(ReplayReport report, RunReplay(*transcript, tokenizer, o, path, transcript));
  report.prefix_fill_tokens = fill;
  return report;
}

bool Fills(const ReplayOptions& options) {
  return options.fill_unlogged_prefix && options.layout != ReplayLayout::kRecorded;
}

}  // namespace

Result<ReplayReport> Replay(const Transcript& transcript, const Tokenizer& tokenizer,
                            const ReplayOptions& options, ReplayPath path) {
  if (!Fills(options)) return RunReplay(transcript, tokenizer, options, path);
  Transcript filled = transcript;
  return FillAndReplay(&filled, tokenizer, options, path);
}

Result<ReplayReport> Replay(Transcript&& transcript, const Tokenizer& tokenizer,
                            const ReplayOptions& options, ReplayPath path) {
  if (!Fills(options)) return RunReplay(transcript, tokenizer, options, path, &transcript);
  return FillAndReplay(&transcript, tokenizer, options, path);
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
  return Replay(std::move(transcript), tokenizer, options);
}

}  // namespace strata
