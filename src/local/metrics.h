// metrics.h: the local engine's counters (the prefix engine, the checkpoint writer and the
// server count into one), rendered for strata serve's GET /metrics in the Prometheus text format
// (version 0.0.4): requests by API and status, prompt tokens cached (live or restored) /
// restored from the store / prefilled, generated tokens, checkpoint hits / misses / rebuilds /
// writes, partial restores (a longer checkpoint cut back, or left for prefill and why), store
// bytes, sequences busy and requests waiting, the engine's decode calls (all, and those batching 2+
// sequences), tokens decoded and prefix tokens shared between sequences, and a time-to-first-token
// histogram.
// Thread-safe.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>

namespace strata::serve {

struct PoolGauges {
  int sequences = 0, busy = 0, waiting = 0;
  uint64_t store_bytes = 0;
  size_t indexed_checkpoints = 0;
  uint64_t decode_calls = 0, multi_sequence_decodes = 0, copied_tokens = 0;  // the engine's
  uint64_t decoded_tokens = 0;  // the engine's: prompt and generated tokens through llama_decode
};

class Metrics {
 public:
  void CountRequest(const std::string& api, int status);
  void CountPrompt(size_t cached, size_t restored, size_t prefilled);
  void CountGenerated(size_t tokens) { generated_ += tokens; }
  void CountCheckpointHit() { ++hits_; }
  void CountCheckpointMiss() { ++misses_; }
  void CountCheckpointRebuild() { ++rebuilds_; }
  void CountCheckpointWrite(uint64_t bytes);
  // A longer stored checkpoint than the shared part: "restored", "cost" or "memory"
  // (PhaseTimes::partial).
  void CountPartialRestore(const std::string& outcome);
  void ObserveFirstToken(double ms);

  std::string Render(const PoolGauges& gauges) const;

  // Histogram bucket bounds, milliseconds.
  static constexpr std::array<double, 12> kFirstTokenBucketsMs = {
      5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 30000};

 private:
  mutable std::mutex mu_;
  std::map<std::pair<std::string, int>, uint64_t> requests_;
  std::map<std::string, uint64_t> partial_;  // by outcome
  std::array<uint64_t, kFirstTokenBucketsMs.size()> ttft_buckets_{};
  uint64_t ttft_count_ = 0;
  double ttft_sum_ms_ = 0;
  std::atomic<uint64_t> cached_{0}, restored_{0}, prefilled_{0}, generated_{0};
  std::atomic<uint64_t> hits_{0}, misses_{0}, rebuilds_{0}, writes_{0}, written_bytes_{0};
};

}  // namespace strata::serve
