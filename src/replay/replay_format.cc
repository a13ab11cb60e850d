// replay_format.cc: the replay report as a per-turn table, as JSON, and two reports side by side
// (replay.h).
#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "strata/replay.h"

namespace strata {

namespace {

// The drops by cause: "compaction 1 (120000 tokens lost), concurrent 14 (...)"; "" when none.
std::string DropsLine(const ReplayTotals& T) {
  std::string out;
  for (size_t c = 0; c < kDropCauseCount; ++c) {
    const DropTotal& d = T.drops[c];
    if (d.count == 0) continue;
    out += fmt::format("{}{} {} ({} tokens lost)", out.empty() ? "" : ", ",
                       DropCauseName(DropCause(c)), d.count, d.lost_tokens);
  }
  return out;
}

// The modelled-vs-recorded lines under a table, and the drops by cause.
std::string RecordedSummary(const ReplayTotals& T) {
  std::string out;
  if (T.has_recorded) {
    out += fmt::format(
        "cache read: modelled {}, recorded {}; mean error {:.1f}% over {} the provider cached",
        T.cache_read_tokens, T.recorded.cache_read_tokens, 100 * T.mean_read_error,
        T.cached_requests == 1 ? std::string("the 1 request")
                               : fmt::format("all {} requests", T.cached_requests));
    if (T.unpredicted_drops > 0) {
      out += fmt::format(" ({:.1f}% without the {} the log cannot predict)",
                         100 * T.mean_read_error_predictable,
                         T.unpredicted_drops == 1 ? std::string("drop")
                                                  : fmt::format("{} drops", T.unpredicted_drops));
    }
    out += "\n";
    out += fmt::format("recorded prompt cost ${:.4f}; ${:.4f} of it lost to cache drops\n",
                       T.recorded_cost, T.lost_cost);
  }
  if (std::string drops = DropsLine(T); !drops.empty()) out += "drops: " + drops + "\n";
  return out;
}

// The line naming the stand-in for an unlogged prefix, when one was added.
std::string PrefixFillLine(const ReplayReport& r) {
  std::string out;
  if (r.prefix_fill_tokens > 0) {
    out += fmt::format(
        "prefix: the log omits part of the prompt (system prompt, tools): stand-in tools of {} "
        "tokens, the first request's recorded input less its modelled one, fill it "
        "(--no-fill-prefix: none)\n",
        r.prefix_fill_tokens);
  }
  if (r.prefix_warm_tokens > 0) {
    out += fmt::format(
        "prefix: {} tokens of the first request were cached before the log starts (its recorded "
        "cache read)\n",
        r.prefix_warm_tokens);
  }
  return out;
}

}  // namespace

std::string FormatReplayTable(const ReplayReport& r) {
  std::string out = fmt::format("replay: {} transcript, layout {}, provider {}\n",
                                r.transcript_format, r.layout, r.provider);
  out += "rules: " + r.rules + "\n";
  out += "prices: " + r.prices + "\n";
  out += "tokenizer: " + r.tokenizer + "\n";
  for (const auto& w : r.warnings) out += "warning: " + w + "\n";
  out += PrefixFillLine(r);
  bool rec = r.totals.has_recorded;
  out += fmt::format("{:>5} {:>9} {:>9} {:>9} {:>9} {:>6} {:>10}", "turn", "input", "read", "write",
                     "uncached", "hit", "cost");
  if (rec)
    out +=
        fmt::format("   {:>9} {:>9} {:>9} {:>6}", "rec.input", "rec.read", "rec.write", "rec.hit");
  out += "\n";
  auto row = [&](const std::string& label, size_t in, size_t read, size_t write, size_t unc,
                 double cost, const std::optional<RecordedUsage>& recorded) {
    double hit = 100.0 * HitRatio(read, in);
    std::string line = fmt::format("{:>5} {:>9} {:>9} {:>9} {:>9} {:>5.1f}% {:>10.4f}", label, in,
                                   read, write, unc, hit, cost);
    if (rec && recorded) {
      double rhit = 100.0 * recorded->HitRatio();
      line += fmt::format("   {:>9} {:>9} {:>9} {:>5.1f}%", recorded->input_tokens,
                          recorded->cache_read_tokens, recorded->cache_write_tokens, rhit);
    }
    return line + "\n";
  };
  for (const auto& t : r.turns) {
    std::string line =
        row(std::to_string(t.index), t.usage.input_tokens, t.usage.cache_read_tokens,
            t.usage.cache_write_tokens, t.usage.uncached_tokens, t.usage.cost, t.recorded);
    if (t.drop) {
      line.pop_back();
      line +=
          fmt::format("   drop: {} {}, {} of {} tokens lost ({})\n", DropCauseName(t.drop->cause),
                      t.drop->predicted ? "(predicted)" : "(not predicted)", t.drop->lost_tokens,
                      t.drop->held_tokens, t.drop->detail);
    }
    out += line;
  }
  const auto& T = r.totals;
  std::optional<RecordedUsage> rt;
  if (T.has_recorded) rt = T.recorded;
  out += row("total", T.input_tokens, T.cache_read_tokens, T.cache_write_tokens, T.uncached_tokens,
             T.cost, rt);
  out += fmt::format("hit ratio {:.1f}% (ideal {:.1f}%: all but each request's new tokens)\n",
                     100 * T.hit_ratio, 100 * T.ideal_hit_ratio);
  out += RecordedSummary(T);
  return out;
}

namespace {
nlohmann::json UsageJson(size_t in, size_t read, size_t write, size_t unc, double cost) {
  return {
      {"input_tokens", in},     {"cache_read_tokens", read},       {"cache_write_tokens", write},
      {"uncached_tokens", unc}, {"hit_ratio", HitRatio(read, in)}, {"cost", cost}};
}
nlohmann::json RecordedJson(const RecordedUsage& u) {
  return {{"input_tokens", u.input_tokens},
          {"cache_read_tokens", u.cache_read_tokens},
          {"cache_write_tokens", u.cache_write_tokens},
          {"hit_ratio", u.HitRatio()}};
}
}  // namespace

std::string FormatReplayJson(const ReplayReport& r) {
  nlohmann::json j;
  j["transcript_format"] = r.transcript_format;
  j["layout"] = r.layout;
  j["provider"] = r.provider;
  j["rules"] = r.rules;
  j["prices"] = r.prices;
  j["tokenizer"] = r.tokenizer;
  if (r.prefix_fill_tokens > 0) j["prefix_fill_tokens"] = r.prefix_fill_tokens;
  if (r.prefix_warm_tokens > 0) j["prefix_warm_tokens"] = r.prefix_warm_tokens;
  j["turns"] = nlohmann::json::array();
  for (const auto& t : r.turns) {
    auto u = UsageJson(t.usage.input_tokens, t.usage.cache_read_tokens, t.usage.cache_write_tokens,
                       t.usage.uncached_tokens, t.usage.cost);
    u["turn"] = t.index;
    u["time"] = t.time;
    u["cache_write_1h_tokens"] = t.usage.cache_write_1h_tokens;
    u["ideal_read_tokens"] = t.ideal_read_tokens;
    if (!t.usage.notes.empty()) u["notes"] = t.usage.notes;
    if (t.recorded) u["recorded"] = RecordedJson(*t.recorded);
    if (t.drop) {
      const CacheDrop& d = *t.drop;
      u["drop"] = {{"cause", DropCauseName(d.cause)},
                   {"predicted", d.predicted},
                   {"recorded", d.recorded},
                   {"held_tokens", d.held_tokens},
                   {"read_tokens", d.read_tokens},
                   {"lost_tokens", d.lost_tokens},
                   {"detail", d.detail}};
    }
    j["turns"].push_back(std::move(u));
  }
  const auto& T = r.totals;
  auto totals = UsageJson(T.input_tokens, T.cache_read_tokens, T.cache_write_tokens,
                          T.uncached_tokens, T.cost);
  totals["ideal_read_tokens"] = T.ideal_read_tokens;
  totals["ideal_hit_ratio"] = T.ideal_hit_ratio;
  if (T.has_recorded) {
    totals["recorded"] = RecordedJson(T.recorded);
    totals["mean_read_error"] = T.mean_read_error;
    totals["cached_requests"] = T.cached_requests;
    totals["mean_read_error_predictable"] = T.mean_read_error_predictable;
    totals["unpredicted_drops"] = T.unpredicted_drops;
    totals["recorded_cost"] = T.recorded_cost;
    totals["lost_cost"] = T.lost_cost;
  }
  nlohmann::json drops = nlohmann::json::object();
  for (size_t c = 0; c < kDropCauseCount; ++c) {
    if (T.drops[c].count == 0) continue;
    drops[DropCauseName(DropCause(c))] = {{"count", T.drops[c].count},
                                          {"lost_tokens", T.drops[c].lost_tokens}};
  }
  totals["drops"] = std::move(drops);
  j["totals"] = std::move(totals);
  if (!r.warnings.empty()) j["warnings"] = r.warnings;
  return j.dump(2) + "\n";
}

std::string FormatReplayComparison(const ReplayReport& a, const ReplayReport& b) {
  std::string out = fmt::format("replay: {} transcript, provider {}\nrules: {}\ntokenizer: {}\n",
                                a.transcript_format, a.provider, a.rules, a.tokenizer);
  out += PrefixFillLine(a);
  out += fmt::format("{:>5} | {:^32} | {:^32}\n", "", a.layout, b.layout);
  out += fmt::format("{:>5} | {:>9} {:>9} {:>6} {:>6} | {:>9} {:>9} {:>6} {:>6}\n", "turn", "input",
                     "read", "hit", "cost", "input", "read", "hit", "cost");
  auto cell = [](size_t in, size_t read, double cost) {
    return fmt::format("{:>9} {:>9} {:>5.1f}% {:>6.3f}", in, read, 100.0 * HitRatio(read, in),
                       cost);
  };
  size_t n = std::max(a.turns.size(), b.turns.size());
  for (size_t i = 0; i < n; ++i) {
    std::string left = i < a.turns.size()
                           ? cell(a.turns[i].usage.input_tokens, a.turns[i].usage.cache_read_tokens,
                                  a.turns[i].usage.cost)
                           : std::string(32, ' ');
    std::string right = i < b.turns.size()
                            ? cell(b.turns[i].usage.input_tokens,
                                   b.turns[i].usage.cache_read_tokens, b.turns[i].usage.cost)
                            : "";
    out += fmt::format("{:>5} | {} | {}\n", i + 1, left, right);
  }
  out += fmt::format("{:>5} | {} | {}\n", "total",
                     cell(a.totals.input_tokens, a.totals.cache_read_tokens, a.totals.cost),
                     cell(b.totals.input_tokens, b.totals.cache_read_tokens, b.totals.cost));
  if (a.totals.has_recorded) {
    out += fmt::format(
        "recorded by the provider: input {}, cache read {}, cache write {}, hit {:.1f}%\n",
        a.totals.recorded.input_tokens, a.totals.recorded.cache_read_tokens,
        a.totals.recorded.cache_write_tokens, 100 * a.totals.recorded_hit_ratio);
    out += a.layout + " " + RecordedSummary(a.totals);
  }
  out += fmt::format("{} vs {}: hit ratio {:.1f}% vs {:.1f}%, cost {:.4f} vs {:.4f}\n", a.layout,
                     b.layout, 100 * a.totals.hit_ratio, 100 * b.totals.hit_ratio, a.totals.cost,
                     b.totals.cost);
  return out;
}

}  // namespace strata
