// prefill_progress.cc: the log lines and progress events of one prefill (see prefill_progress.h).
#include "serve/prefill_progress.h"

#include <fmt/format.h>

namespace strata::serve {

PrefillProgress::PrefillProgress(std::string api, int seq, int log_after_ms,
                                 std::function<void(std::string_view)> log,
                                 std::function<void(const PromptProgress&)> emit)
    : api_(std::move(api)),
      seq_(seq),
      log_after_ms_(log_after_ms),
      log_(std::move(log)),
      emit_(std::move(emit)) {}

void PrefillProgress::Report(size_t processed, size_t total) {
  if (!started_) {
    started_ = true;
    start_ = Clock::now();
    cache_ = last_ = processed;
    if (emit_) emit_({total, cache_, processed, 0});
    return;
  }
  if (processed <= last_) return;  // no step of this prompt
  last_ = processed;
  const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start_).count();
  if (emit_) emit_({total, cache_, processed, static_cast<int64_t>(ms)});
  if (!log_ || log_after_ms_ < 0 || ms < log_after_ms_) return;
  const size_t decoded = processed - cache_;
  log_(
      fmt::format("serve: prefill api={} seq={} done={}/{} ({}%) rate={:.1f} tok/s "
                  "elapsed_ms={:.0f}",
                  api_, seq_, processed, total, total == 0 ? 100 : processed * 100 / total,
                  ms > 0 ? 1e3 * static_cast<double>(decoded) / ms : 0.0, ms));
}

}  // namespace strata::serve
