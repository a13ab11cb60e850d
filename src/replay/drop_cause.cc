// drop_cause.cc: a drop and its cause from the log's evidence (drop_cause.h).
#include "replay/drop_cause.h"

#include <fmt/format.h>

#include <algorithm>

#include "base/enum_names.h"

namespace strata {
namespace {

constexpr EnumName<DropCause> kCauseNames[] = {
    {DropCause::kCompaction, "compaction"},          {DropCause::kTtlExpiry, "ttl-expiry"},
    {DropCause::kToolsChange, "tools-change"},       {DropCause::kSystemChange, "system-change"},
    {DropCause::kMessagesChange, "messages-change"}, {DropCause::kModelChange, "model-change"},
    {DropCause::kConcurrent, "concurrent"},          {DropCause::kUnexplained, "unexplained"},
};

// The fall from `held` to `read` is a drop: beyond 2% of held and one granule.
bool Falls(size_t held, size_t read, size_t granule) { return read + held / 50 + granule < held; }

// What a recorded request left cached: its read + write; an automatic cache reports no write,
// so the longest prefix of its input the rule caches.
size_t Held(const RecordedUsage& u, const DropEvidence& e) {
  return e.automatic ? AutomaticCachedTokens(u.input_tokens, e.minimum, e.granule)
                     : u.cache_read_tokens + u.cache_write_tokens;
}

}  // namespace

size_t AutomaticCachedTokens(size_t input, size_t minimum, size_t granule) {
  minimum = std::max<size_t>(minimum, 1);
  granule = std::max<size_t>(granule, 1);
  return input < minimum ? 0 : minimum + (input - minimum) / granule * granule;
}

size_t HeldTokens(const CacheUsage& prev) {
  return prev.cache_read_tokens + prev.cache_write_tokens;
}

DropCause ChangeCauseOfLayer(std::string_view layer) {
  auto starts = [&](std::string_view p) { return layer.rfind(p, 0) == 0; };
  if (starts("tools")) return DropCause::kToolsChange;
  if (starts("history") || starts("input") || starts("epoch") || starts("tail") ||
      starts("messages") || layer.empty()) {
    return DropCause::kMessagesChange;
  }
  return DropCause::kSystemChange;  // persona, rules, environment, instructions, system[..] ...
}

namespace {

// The cause of a drop the model predicted, from the log's evidence.
void PredictedCause(const DropEvidence& e, CacheDrop* d) {
  const size_t model_held = HeldTokens(e.model_prev);
  if (e.compaction) {
    d->cause = DropCause::kCompaction;
    d->detail = "the conversation was compacted: a new prefix";
  } else if (!e.model_id_prev.empty() && !e.model_id.empty() && e.model_id != e.model_id_prev) {
    d->cause = DropCause::kModelChange;
    d->detail = e.model_id_prev + " -> " + e.model_id;
  } else if (e.modelled && Falls(model_held, e.shared_tokens, e.granule)) {
    d->cause = ChangeCauseOfLayer(e.changed_layer);
    d->detail = fmt::format("prompt changed at token {} of {} cached ({})", e.shared_tokens,
                            model_held, e.changed_layer.empty() ? "messages" : e.changed_layer);
  } else if (e.ttl_s > 0 && e.gap_s >= e.ttl_s) {
    d->cause = DropCause::kTtlExpiry;
    d->detail = "gap " + FormatDuration(e.gap_s) + " > TTL " + FormatDuration(e.ttl_s);
  } else {
    d->cause = DropCause::kUnexplained;
    d->detail = "the cache model reads less, the log shows no reason";
  }
}

}  // namespace

const char* DropCauseName(DropCause cause) { return NameOf(kCauseNames, cause).data(); }

std::string FormatDuration(double s) {
  if (s < 60) return fmt::format("{:.1f}s", s);
  auto total = static_cast<long long>(s + 0.5);
  if (total < 3600) return fmt::format("{}m {:02}s", total / 60, total % 60);
  return fmt::format("{}h {:02}m", total / 3600, total % 3600 / 60);
}

std::optional<CacheDrop> FindDrop(const DropEvidence& e) {
  const size_t model_held = HeldTokens(e.model_prev);
  const bool changed_model =
      !e.model_id_prev.empty() && !e.model_id.empty() && e.model_id != e.model_id_prev;
  // A compaction or a model change in the log explains a drop even when the cache model's rebuilt
  // prompt kept more than the harness's did (Codex's compacted history keeps the user messages).
  const bool predicted = e.compaction || changed_model ||
                         (e.modelled ? Falls(model_held, e.model.cache_read_tokens, e.granule)
                                     : e.ttl_s > 0 && e.gap_s >= e.ttl_s);
  CacheDrop d;
  if (!e.modelled && !(e.recorded && e.recorded_prev)) return std::nullopt;
  if (e.recorded && e.recorded_prev) {
    d.recorded = true;
    d.held_tokens = Held(*e.recorded_prev, e);
    d.read_tokens = e.recorded->cache_read_tokens;
  } else {
    d.held_tokens = model_held;
    d.read_tokens = e.model.cache_read_tokens;
  }
  if (d.held_tokens == 0 || !Falls(d.held_tokens, d.read_tokens, e.granule)) return std::nullopt;
  d.lost_tokens = d.held_tokens - d.read_tokens;
  d.predicted = predicted;
  if (predicted) {
    PredictedCause(e, &d);
  } else if (e.sent_s > 0 && e.prev_done_s > 0 && e.sent_s < e.prev_done_s) {
    d.cause = DropCause::kConcurrent;
    d.detail = "sent " + FormatDuration(e.prev_done_s - e.sent_s) +
               " before the previous answer completed";
  } else {
    d.cause = DropCause::kUnexplained;
    d.detail = "the provider read less; the modelled prefix is intact";
  }
  return d;
}

}  // namespace strata
