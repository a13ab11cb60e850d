// drop_cause.h (private): finding a cache drop at one request and its cause from the log's
// evidence (replay.h, DropCause; docs/replay.md, "Drops and their causes").
//
// A drop is a request that read less than the previous request left cached, by more than 2% of
// that and one cache granule. What it left cached is what the cache could serve after it: the
// cache model's read + write (its own account, the minimum and granule applied), or on the
// recorded figures read + write (breakpoints) or, for an automatic cache that reports no writes,
// the longest prefix of its input the rule caches (`minimum` + k * `granule` tokens; nothing
// below the minimum: OpenAI's 1024). A request after one that cached nothing drops nothing. It is
// measured on the provider's recorded figures when this request and the previous one recorded
// usage, else on the cache model's. The cause, first that applies:
//   predicted (the log shows a compaction or another model id, or the model's read fell too):
//   compaction since the previous request; another model id; the prompt changed before the previously cached point (the change's layer names tools,
//   system or messages); the time since the previous request reaches the shortest TTL of its
//   entries; else unexplained;
//   not predicted: the request was sent before the previous answer completed (concurrent); else
//   unexplained.
#pragma once

#include <optional>
#include <string>

#include "strata/replay.h"

namespace strata {

struct DropEvidence {
  // false: no cache model ran (`strata usage` reads figures and times only); a drop is then
  // predicted when the log shows a compaction, a model change or a gap beyond the TTL, and the
  // model figures and shared_tokens are not read.
  bool modelled = true;
  // The cache model's figures for the previous request and this one, and the tokens both prompts
  // share (their common prefix).
  CacheUsage model_prev, model;
  size_t shared_tokens = 0;
  // The provider's figures, when the log recorded them.
  std::optional<RecordedUsage> recorded_prev, recorded;
  bool automatic = false;  // an automatic cache (no recorded writes), not breakpoints
  size_t granule = 1;      // the cache's unit in tokens (openai 128, deepseek 64, anthropic 1)
  // An automatic cache's smallest cached prompt (openai 1024, deepseek 64, block-hash a block,
  // radix 1): a recorded previous input below it left nothing cached.
  size_t minimum = 1;
  bool compaction = false;  // a compaction came between the two requests
  std::string model_id_prev, model_id;
  double gap_s = 0;           // seconds between the two requests (0: unknown)
  double ttl_s = 0;           // the shortest TTL of the previous request's entries (0: none)
  std::string changed_layer;  // the layer (or block path) holding the first byte that differs
  double sent_s = 0;          // when this request was sent (0: unknown)
  double prev_done_s = 0;     // when the previous answer completed (0: unknown)
};

// The drop at the request `e` describes, or nullopt.
std::optional<CacheDrop> FindDrop(const DropEvidence& e);

// The tokens an automatic cache holds after a prompt of `input` tokens: the longest
// `minimum` + k * `granule` at or below it, 0 below `minimum` (granular_cache.h's rule).
size_t AutomaticCachedTokens(size_t input, size_t minimum, size_t granule);

// The tokens request `prev` left cached for the next one (FindDrop's "held"): the cache model's
// read + write.
size_t HeldTokens(const CacheUsage& prev);

// The cause class of a prompt change first found in `layer`: a strata layer name ("tools",
// "persona", "history", ...) or a canonical block path or member ("tools[3]", "system",
// "messages[4].content[0]", "instructions", "input"): tools, system or messages change.
DropCause ChangeCauseOfLayer(std::string_view layer);

// "1m 05s", "2h 03m", "7.5s": a duration for a report.
std::string FormatDuration(double seconds);

}  // namespace strata
