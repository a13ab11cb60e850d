// prefill_progress.h: how a long prefill shows while it runs. Once a request's prefill has run
// longer than ServeOptions::progress_log_after_ms (1 s by default), each decode step that took
// some of its prompt logs one line,
//   serve: prefill api=completion seq=0 done=1536/4096 (37%) rate=812.4 tok/s elapsed_ms=1890
// (prompt tokens in the sequence, reused included, of the prompt's; the rate counts the tokens
// decoded since the prefill began); and a streamed request that asked for llama-server's
// return_progress gets its prompt_progress event ({"total", "cache", "processed", "time_ms"}) at
// the start (processed = cache) and after every step, as llama-server sends them.
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <string_view>

#include "wire/reply_writer.h"  // PromptProgress

namespace strata::serve {

class PrefillProgress {
 public:
  // `log` (may be empty) takes the lines; `emit` (may be empty) the events; log_after_ms < 0:
  // no lines.
  PrefillProgress(std::string api, int seq, int log_after_ms,
                  std::function<void(std::string_view)> log,
                  std::function<void(const PromptProgress&)> emit);

  // `processed` prompt tokens of `total` are in the sequence. The first call gives what is reused
  // (nothing decoded yet); each later one follows a decode step.
  void Report(size_t processed, size_t total);

 private:
  using Clock = std::chrono::steady_clock;
  std::string api_;
  int seq_;
  int log_after_ms_;
  std::function<void(std::string_view)> log_;
  std::function<void(const PromptProgress&)> emit_;
  bool started_ = false;
  Clock::time_point start_;
  size_t cache_ = 0, last_ = 0;
};

}  // namespace strata::serve
