// usage_chain.h (private): one cache chain's requests as `strata usage` reads them from any log
// format, and their accounting: cost at list prices and drops with their causes (replay.h).
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "strata/replay.h"
#include "transcripts/transcript.h"

namespace strata {

// One request of a chain, whatever the log format.
struct LogRequest {
  std::string time;  // RFC 3339
  double time_s = 0, sent_s = 0, done_s = 0;
  std::string model;
  std::string request_id;  // "" when the log has none
  RecordedUsage usage;
  size_t output_tokens = 0;
  size_t write_1h_tokens = 0;
  bool after_compaction = false;  // the log shows a compaction since the previous request
};

// The requests of `transcript` that recorded usage, in order (a compaction marks the next one).
std::vector<LogRequest> RequestsOf(const Transcript& transcript);

struct ChainContext {
  bool automatic = false;  // OpenAI-style automatic caching (Codex), else breakpoints
  double since_s = 0;      // requests before it are not counted (they still set the baseline)
  std::set<std::string>* seen_ids = nullptr;  // request ids counted already (resumed sessions)
  std::string provider;  // the log's provider (Transcript::provider): prices an unknown model
  // Model ids not in the price table, with the price they were given (the caller warns once
  // each: their costs are a guess). May be null.
  std::map<std::string, ModelPrice>* unpriced = nullptr;
};

// The chain's counted requests with costs and drops, adding them to `totals`, and to `days`
// (date -> totals) and `models` (first use order) of the session.
UsageChain AccountChain(const std::string& label, const std::vector<LogRequest>& requests,
                        const ChainContext& context, UsageTotals* totals,
                        std::vector<DayUsage>* days, std::vector<std::string>* models);

// The UTC date (YYYY-MM-DD) of `time_s`.
std::string DateOf(double time_s);

}  // namespace strata
