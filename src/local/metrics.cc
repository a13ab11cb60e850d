// metrics.cc: counters and their Prometheus text rendering (see metrics.h). Metric names carry
// the strata_ prefix; counters end in _total, the histogram in _bucket / _sum / _count.
#include "local/metrics.h"

#include <fmt/format.h>

namespace strata::serve {
namespace {

void Counter(std::string* out, const char* name, const char* help, uint64_t value) {
  *out += fmt::format("# HELP {0} {1}\n# TYPE {0} counter\n{0} {2}\n", name, help, value);
}

void Gauge(std::string* out, const char* name, const char* help, uint64_t value) {
  *out += fmt::format("# HELP {0} {1}\n# TYPE {0} gauge\n{0} {2}\n", name, help, value);
}

}  // namespace

void Metrics::CountRequest(const std::string& api, int status) {
  std::lock_guard lock(mu_);
  ++requests_[{api, status}];
}

void Metrics::CountPrompt(size_t cached, size_t restored, size_t prefilled) {
  cached_ += cached;
  restored_ += restored;
  prefilled_ += prefilled;
}

void Metrics::CountCheckpointWrite(uint64_t bytes) {
  ++writes_;
  written_bytes_ += bytes;
}

void Metrics::CountPartialRestore(const std::string& outcome) {
  std::lock_guard lock(mu_);
  ++partial_[outcome];
}

void Metrics::ObserveFirstToken(double ms) {
  std::lock_guard lock(mu_);
  for (size_t i = 0; i < kFirstTokenBucketsMs.size(); ++i) {
    if (ms <= kFirstTokenBucketsMs[i]) ++ttft_buckets_[i];
  }
  ++ttft_count_;
  ttft_sum_ms_ += ms;
}

std::string Metrics::Render(const PoolGauges& g) const {
  std::string out;
  {
    std::lock_guard lock(mu_);
    out +=
        "# HELP strata_requests_total Requests by API and HTTP status.\n"
        "# TYPE strata_requests_total counter\n";
    for (const auto& [key, n] : requests_)
      out += fmt::format("strata_requests_total{{api=\"{}\",status=\"{}\"}} {}\n", key.first,
                         key.second, n);
    out +=
        "# HELP strata_partial_restores_total Requests whose best reuse was a stored checkpoint "
        "longer than the shared part, by outcome: restored (loaded and cut back), cost "
        "(prefilling the shared part is cheaper), memory (the model's memory cannot drop a tail).\n"
        "# TYPE strata_partial_restores_total counter\n";
    for (const char* outcome : {"restored", "cost", "memory"}) {
      auto it = partial_.find(outcome);
      out += fmt::format("strata_partial_restores_total{{outcome=\"{}\"}} {}\n", outcome,
                         it == partial_.end() ? 0 : it->second);
    }
    out +=
        "# HELP strata_time_to_first_token_seconds From request to first generated token.\n"
        "# TYPE strata_time_to_first_token_seconds histogram\n";
    for (size_t i = 0; i < kFirstTokenBucketsMs.size(); ++i)
      out += fmt::format("strata_time_to_first_token_seconds_bucket{{le=\"{}\"}} {}\n",
                         kFirstTokenBucketsMs[i] / 1000, ttft_buckets_[i]);
    out +=
        fmt::format("strata_time_to_first_token_seconds_bucket{{le=\"+Inf\"}} {}\n", ttft_count_);
    out += fmt::format("strata_time_to_first_token_seconds_sum {}\n", ttft_sum_ms_ / 1000);
    out += fmt::format("strata_time_to_first_token_seconds_count {}\n", ttft_count_);
  }
  Counter(&out, "strata_prompt_tokens_cached_total",
          "Prompt tokens not prefilled: reused from a live sequence or restored from the store.",
          cached_);
  Counter(&out, "strata_prompt_tokens_restored_total",
          "Prompt tokens restored from checkpoint files of the store.", restored_);
  Counter(&out, "strata_prompt_tokens_prefilled_total", "Prompt tokens decoded.", prefilled_);
  Counter(&out, "strata_generated_tokens_total", "Tokens generated.", generated_);
  Counter(&out, "strata_checkpoint_hits_total", "Requests that restored a checkpoint file.", hits_);
  Counter(&out, "strata_checkpoint_misses_total",
          "Requests that found neither a live prefix nor a checkpoint.", misses_);
  Counter(&out, "strata_checkpoint_rebuilds_total",
          "Checkpoint files refused by verification (deleted, rebuilt later).", rebuilds_);
  Counter(&out, "strata_checkpoint_writes_total", "Checkpoint files written.", writes_);
  Counter(&out, "strata_checkpoint_written_bytes_total", "Bytes of checkpoint files written.",
          written_bytes_);
  Gauge(&out, "strata_store_bytes", "Bytes of checkpoint files in the store.", g.store_bytes);
  Gauge(&out, "strata_index_checkpoints", "Checkpoints in the prefix index.",
        g.indexed_checkpoints);
  Gauge(&out, "strata_sequences", "Live llama.cpp sequences (--parallel).", g.sequences);
  Gauge(&out, "strata_sequences_busy", "Sequences serving a request.", g.busy);
  Gauge(&out, "strata_queue_waiting", "Requests waiting for a sequence.", g.waiting);
  Counter(&out, "strata_decode_calls_total", "llama_decode calls of the engine.", g.decode_calls);
  Counter(&out, "strata_decode_multi_sequence_total",
          "llama_decode calls carrying tokens of two or more sequences.", g.multi_sequence_decodes);
  Counter(&out, "strata_decoded_tokens_total",
          "Tokens put through llama_decode (prompt and generated).", g.decoded_tokens);
  Counter(&out, "strata_prompt_tokens_shared_total",
          "Prompt tokens copied from another live sequence's KV cache (not prefilled).",
          g.copied_tokens);
  return out;
}

}  // namespace strata::serve
