// explain_log.cc: explain on two consecutive requests of a session log, rebuilt by replay
// (replay.h: ExplainLogRequest, ExplainLogFile; the log settled as ReplayFile settles it). The
// requests, the compaction between them and any drop come from one replay of the log: the same
// readers and the same drop rules as `strata replay`.
#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>

#include "cache_model/cache_model.h"
#include "replay/drop_cause.h"
#include "replay/replay_run.h"
#include "strata/replay.h"

namespace strata {
namespace {

// A drop cause the bytes of two requests cannot show: it names the cause over the byte diff.
bool CauseOutsideTheBytes(DropCause cause) {
  return cause == DropCause::kTtlExpiry || cause == DropCause::kModelChange ||
         cause == DropCause::kConcurrent || cause == DropCause::kUnexplained;
}

// The smallest prompt `cache` caches for the model request `a` (rendered JSON) names.
size_t MinimumFor(const CacheModelOptions& cache, std::string_view a) {
  if (cache.kind != CacheModelKind::kAnthropic) return CacheMinimumTokens(cache);
  if (cache.minimum_tokens > 0) return cache.minimum_tokens;
  auto j = nlohmann::json::parse(a, nullptr, false);
  std::string model;
  if (j.is_object() && j.contains("model") && j["model"].is_string()) model = j["model"];
  return AnthropicMinimumCacheableTokens(model);
}

}  // namespace

Result<Explanation> ExplainLogRequest(std::string_view log, std::string_view path,
                                      TranscriptFormat format, size_t n, const Tokenizer& tokenizer,
                                      const ReplayOptions& options) {
  if (n < 2) {
    return MakeError(ErrorKind::kInvalidArgument,
                     "--request must be 2 or more: request N is explained against request N-1",
                     {std::string(path)});
  }
  std::optional<ExplainInput> a, b;
  ReplayOptions o = options;
  o.on_request = [&](size_t i, std::string_view bytes, const LayerMap& layers,
                     const std::vector<Breakpoint>& bps) {
    if (i == n - 1) a = ExplainInput{std::string(bytes), layers, bps, "", ""};
    if (i == n) b = ExplainInput{std::string(bytes), layers, bps, "", ""};
    if (options.on_request) options.on_request(i, bytes, layers, bps);
  };
  STRATA_TRY_ASSIGN(ReplayReport report, ReplayLog(log, path, format, tokenizer, o));
  if (!a || !b) {
    return MakeError(ErrorKind::kInvalidArgument,
                     "the log holds " + std::to_string(report.turns.size()) +
                         " requests: --request must be between 2 and " +
                         std::to_string(report.turns.size()),
                     {std::string(path)});
  }
  STRATA_TRY_ASSIGN(Explanation e, Explain(*a, *b, tokenizer));
  e.request = n;
  const TurnReport& turn = report.turns[n - 1];
  const TurnReport& prev = report.turns[n - 2];
  // The cached, read and lost tokens and the drop are replay's own (its cache model ran over the
  // whole log, expiry included), so explain and replay tell one story.
  e.provider = report.provider;
  e.minimum_tokens = MinimumFor(options.cache, a->bytes);
  e.drop = turn.drop.has_value();
  e.drop_recorded = e.drop && turn.drop->recorded;
  e.cached_tokens = e.drop ? turn.drop->held_tokens : HeldTokens(prev.usage);
  e.read_tokens = e.drop ? turn.drop->read_tokens : turn.usage.cache_read_tokens;
  e.lost_cached_tokens = e.cached_tokens - std::min(e.cached_tokens, e.read_tokens);
  if (turn.after_compaction) {
    e.compaction = true;
    e.cause = DropCauseName(DropCause::kCompaction);
    e.cause_detail = "the conversation was compacted: B starts a new prefix opened by the summary";
    if (!e.drop) e.lost_cached_tokens = 0;  // replay's figure: what A left that B cannot read
  } else if (!turn.drop) {
    e.cause.clear();  // the bytes differ, but nothing A left cached is lost
  } else if (CauseOutsideTheBytes(turn.drop->cause) || e.cause.empty()) {
    e.cause = DropCauseName(turn.drop->cause);
    e.cause_detail = turn.drop->detail;
  } else {
    e.cause_detail = turn.drop->detail;  // a prompt change: the bytes name its block
  }
  return e;
}

Result<Explanation> ExplainLogFile(const ReplayFileOptions& run, size_t n,
                                   const TokenizerLoader& load_tokenizer) {
  STRATA_TRY_ASSIGN(SettledLog settled, SettleLog(run, /*stream_recorded=*/false));
  STRATA_TRY_ASSIGN(auto tokenizer, load_tokenizer(settled.tokenizer_model));
  return ExplainLogRequest(settled.log, settled.label, settled.format, n, *tokenizer,
                           settled.options);
}

}  // namespace strata
