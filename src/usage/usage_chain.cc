// usage_chain.cc: a chain's requests, costs and drops (usage_chain.h).
#include "usage/usage_chain.h"

#include <algorithm>

#include "base/time.h"
#include "cache_model/cache_model.h"
#include "replay/drop_cause.h"

namespace strata {

std::string DateOf(double time_s) {
  if (time_s <= 0) return "unknown";
  return FormatRfc3339Millis(static_cast<int64_t>(time_s * 1000)).substr(0, 10);
}

double UsageTotals::HitRatio() const { return strata::HitRatio(cache_read_tokens, input_tokens); }

size_t UsageTotals::LostTokens() const {
  size_t n = 0;
  for (const auto& d : drops) n += d.lost_tokens;
  return n;
}

void UsageTotals::Add(const UsageTotals& o) {
  requests += o.requests;
  input_tokens += o.input_tokens;
  cache_read_tokens += o.cache_read_tokens;
  cache_write_tokens += o.cache_write_tokens;
  output_tokens += o.output_tokens;
  cost += o.cost;
  lost_cost += o.lost_cost;
  for (size_t c = 0; c < kDropCauseCount; ++c) {
    drops[c].count += o.drops[c].count;
    drops[c].lost_tokens += o.drops[c].lost_tokens;
  }
}

std::vector<LogRequest> RequestsOf(const Transcript& t) {
  std::vector<LogRequest> out;
  std::string model;
  bool compacted = false;
  for (const auto& e : t.events) {
    switch (e.kind) {
      case TranscriptEventKind::kContext:
        if (!e.context.model.empty()) model = e.context.model;
        break;
      case TranscriptEventKind::kCompaction:
        compacted = true;
        break;
      case TranscriptEventKind::kAssistant: {
        if (!e.recorded) break;
        LogRequest r;
        r.time = e.time;
        r.time_s = e.time_s;
        r.sent_s = e.sent_s;
        r.done_s = e.done_s > 0 ? e.done_s : e.time_s;
        r.model = model;
        r.request_id = e.request_id;
        r.usage = *e.recorded;
        r.output_tokens = e.output_tokens;
        r.write_1h_tokens = e.recorded_write_1h;
        r.after_compaction = compacted;
        compacted = false;
        out.push_back(std::move(r));
        break;
      }
      default:
        break;
    }
  }
  return out;
}

namespace {

// Codex logs: OpenAI's automatic cache (its minimum and granule, as the cache model uses them).
CacheModelOptions OpenAiCache() {
  CacheModelOptions o;
  o.kind = CacheModelKind::kOpenAi;
  return o;
}

double Cost(const LogRequest& r, const ModelPrice& p) {
  const RecordedUsage& u = r.usage;
  size_t write_1h = std::min(r.write_1h_tokens, u.cache_write_tokens);
  double uncached =
      double(u.input_tokens - std::min(u.input_tokens, u.cache_read_tokens + u.cache_write_tokens));
  return (uncached * p.input + double(u.cache_read_tokens) * p.input * p.read_multiplier +
          double(u.cache_write_tokens - write_1h) * p.input * p.write_5m_multiplier +
          double(write_1h) * p.input * p.write_1h_multiplier + double(r.output_tokens) * p.output) /
         1e6;
}

DayUsage& Day(std::vector<DayUsage>* days, const std::string& date) {
  auto it =
      std::find_if(days->begin(), days->end(), [&](const DayUsage& d) { return d.date == date; });
  if (it != days->end()) return *it;
  days->push_back({date, {}});
  return days->back();
}

}  // namespace

UsageChain AccountChain(const std::string& label, const std::vector<LogRequest>& requests,
                        const ChainContext& ctx, UsageTotals* totals, std::vector<DayUsage>* days,
                        std::vector<std::string>* models) {
  UsageChain chain;
  chain.label = label;
  const LogRequest* prev = nullptr;
  double ttl_s = ctx.automatic ? 600 : 300;  // the life of the entries the chain last wrote
  for (const LogRequest& r : requests) {
    std::optional<CacheDrop> drop;
    if (prev != nullptr) {
      DropEvidence e;
      e.modelled = false;
      e.recorded_prev = prev->usage;
      e.recorded = r.usage;
      e.automatic = ctx.automatic;
      e.granule = ctx.automatic ? CacheGranuleTokens(OpenAiCache()) : 1;
      e.minimum = ctx.automatic ? CacheMinimumTokens(OpenAiCache()) : 1;
      e.compaction = r.after_compaction;
      e.model_id_prev = prev->model;
      e.model_id = r.model;
      e.gap_s = prev->time_s > 0 && r.time_s > 0 ? r.time_s - prev->time_s : 0;
      e.ttl_s = ttl_s;
      e.sent_s = r.sent_s;
      e.prev_done_s = prev->done_s;
      drop = FindDrop(e);
    }
    if (!ctx.automatic && r.usage.cache_write_tokens > 0) {
      ttl_s = r.write_1h_tokens > 0 ? 3600 : 300;
    }
    prev = &r;
    const bool repeated = ctx.seen_ids != nullptr && !r.request_id.empty() &&
                          !ctx.seen_ids->insert(r.request_id).second;
    if (repeated || r.time_s < ctx.since_s) continue;
    const ModelPrice price = PriceForModel(r.model, ctx.provider);
    if (!price.known && !r.model.empty() && ctx.unpriced != nullptr) {
      ctx.unpriced->try_emplace(r.model, price);
    }
    UsageRequest u;
    u.time = r.time;
    u.usage = r.usage;
    u.output_tokens = r.output_tokens;
    u.cost = Cost(r, price);
    u.drop = drop;
    UsageTotals one;
    one.requests = 1;
    one.input_tokens = r.usage.input_tokens;
    one.cache_read_tokens = r.usage.cache_read_tokens;
    one.cache_write_tokens = r.usage.cache_write_tokens;
    one.output_tokens = r.output_tokens;
    one.cost = u.cost;
    if (drop) {
      DropTotal& d = one.drops[size_t(drop->cause)];
      d.count = 1;
      d.lost_tokens = drop->lost_tokens;
      const double again = ctx.automatic ? 1.0 : price.write_5m_multiplier;
      one.lost_cost =
          double(drop->lost_tokens) * price.input * (again - price.read_multiplier) / 1e6;
    }
    totals->Add(one);
    Day(days, DateOf(r.time_s)).totals.Add(one);
    if (!r.model.empty() && std::find(models->begin(), models->end(), r.model) == models->end()) {
      models->push_back(r.model);
    }
    chain.requests.push_back(std::move(u));
  }
  return chain;
}

}  // namespace strata
