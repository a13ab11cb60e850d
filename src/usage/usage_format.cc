// usage_format.cc: the usage report as a table and as JSON (replay.h).
#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "strata/replay.h"

namespace strata {
namespace {

// "compaction 3 (120000), concurrent 14 (80200)": drops by cause with the tokens they lost.
std::string Causes(const UsageTotals& t) {
  std::string out;
  for (size_t c = 0; c < kDropCauseCount; ++c) {
    if (t.drops[c].count == 0) continue;
    out += fmt::format("{}{} {} ({})", out.empty() ? "" : ", ", DropCauseName(DropCause(c)),
                       t.drops[c].count, t.drops[c].lost_tokens);
  }
  return out.empty() ? "-" : out;
}

std::string Row(const std::string& label, const UsageTotals& t) {
  return fmt::format("{:<38} {:>7} {:>12} {:>12} {:>11} {:>10} {:>6.1f}% {:>10.2f} {:>8.2f}  {}\n",
                     label, t.requests, t.input_tokens, t.cache_read_tokens, t.cache_write_tokens,
                     t.output_tokens, 100 * t.HitRatio(), t.cost, t.lost_cost, Causes(t));
}

std::string Header(const std::string& first) {
  return fmt::format("{:<38} {:>7} {:>12} {:>12} {:>11} {:>10} {:>7} {:>10} {:>8}  {}\n", first,
                     "requests", "input", "cache read", "cache write", "output", "hit", "cost $",
                     "lost $", "drops by cause (tokens lost)");
}

// The shortest prefix of each session's id, 24 characters at least, that no other session of
// the same source shares (a table column, and still a unique name to find the session by).
std::vector<std::string> ShortIds(const std::vector<SessionUsage>& sessions) {
  std::vector<std::string> out;
  for (const auto& s : sessions) {
    size_t n = std::min<size_t>(24, s.id.size());
    for (const auto& o : sessions) {
      if (&o == &s || o.source != s.source) continue;
      size_t common = 0;
      while (common < s.id.size() && common < o.id.size() && s.id[common] == o.id[common]) {
        ++common;
      }
      n = std::max(n, std::min(common + 1, s.id.size()));
    }
    out.push_back(s.id.substr(0, n));
  }
  return out;
}

nlohmann::json TotalsJson(const UsageTotals& t) {
  nlohmann::json drops = nlohmann::json::object();
  for (size_t c = 0; c < kDropCauseCount; ++c) {
    if (t.drops[c].count == 0) continue;
    drops[DropCauseName(DropCause(c))] = {{"count", t.drops[c].count},
                                          {"lost_tokens", t.drops[c].lost_tokens}};
  }
  return {{"requests", t.requests},
          {"input_tokens", t.input_tokens},
          {"cache_read_tokens", t.cache_read_tokens},
          {"cache_write_tokens", t.cache_write_tokens},
          {"output_tokens", t.output_tokens},
          {"hit_ratio", t.HitRatio()},
          {"cost", t.cost},
          {"lost_cost", t.lost_cost},
          {"lost_tokens", t.LostTokens()},
          {"drops", std::move(drops)}};
}

}  // namespace

std::string FormatUsageTable(const UsageReport& r) {
  std::string out =
      fmt::format("strata usage: {} session{} from {} log file{}", r.sessions.size(),
                  r.sessions.size() == 1 ? "" : "s", r.files, r.files == 1 ? "" : "s");
  if (!r.skipped.empty()) {
    out += fmt::format("; {} file{} skipped (not readable, named below; the others are counted)",
                       r.skipped.size(), r.skipped.size() == 1 ? "" : "s");
  }
  if (r.skipped_lines > 0) {
    out += fmt::format("; {} broken line{} skipped (named below; the rest of each log is counted)",
                       r.skipped_lines, r.skipped_lines == 1 ? "" : "s");
  }
  out += "\n";
  for (const auto& w : r.warnings) out += "warning: " + w + "\n";
  out += "\nby day (UTC)\n" + Header("date");
  for (const auto& d : r.days) out += Row(d.date, d.totals);
  out += "\nsessions, worst first (most cost lost to cache drops)\n" + Header("session");
  const std::vector<std::string> ids = ShortIds(r.sessions);
  for (size_t i = 0; i < r.sessions.size(); ++i) {
    const SessionUsage& s = r.sessions[i];
    out += Row(s.source + " " + ids[i], s.totals);
    if (!s.project.empty()) out += "  " + s.project + "\n";
  }
  out += "\n" + Header("") + Row("total", r.totals);
  out += fmt::format(
      "hit ratio {:.1f}%, cost ${:.2f}; {} tokens lost to cache drops cost ${:.2f} more than "
      "reading them (without the drops: ${:.2f})\n",
      100 * r.totals.HitRatio(), r.totals.cost, r.totals.LostTokens(), r.totals.lost_cost,
      r.totals.cost - r.totals.lost_cost);
  return out;
}

std::string FormatUsageJson(const UsageReport& r) {
  nlohmann::json j;
  j["files"] = r.files;
  j["skipped_lines"] = r.skipped_lines;
  j["sessions"] = nlohmann::json::array();
  for (const auto& s : r.sessions) {
    nlohmann::json drops = nlohmann::json::array();
    for (const auto& c : s.chains) {
      for (size_t i = 0; i < c.requests.size(); ++i) {
        const auto& q = c.requests[i];
        if (!q.drop) continue;
        drops.push_back({{"chain", c.label},
                         {"request", i + 1},
                         {"time", q.time},
                         {"cause", DropCauseName(q.drop->cause)},
                         {"predicted", q.drop->predicted},
                         {"held_tokens", q.drop->held_tokens},
                         {"read_tokens", q.drop->read_tokens},
                         {"lost_tokens", q.drop->lost_tokens},
                         {"detail", q.drop->detail}});
      }
    }
    j["sessions"].push_back({{"source", s.source},
                             {"id", s.id},
                             {"project", s.project},
                             {"path", s.path},
                             {"first_time", s.first_time},
                             {"last_time", s.last_time},
                             {"models", s.models},
                             {"chains", s.chains.size()},
                             {"totals", TotalsJson(s.totals)},
                             {"drops", std::move(drops)}});
  }
  j["days"] = nlohmann::json::array();
  for (const auto& d : r.days)
    j["days"].push_back({{"date", d.date}, {"totals", TotalsJson(d.totals)}});
  j["totals"] = TotalsJson(r.totals);
  j["skipped_files"] = nlohmann::json::array();
  for (const auto& k : r.skipped)
    j["skipped_files"].push_back({{"path", k.path}, {"error", k.error}});
  j["warnings"] = r.warnings;
  // A path or a project directory is bytes, not necessarily UTF-8: written with U+FFFD rather
  // than failing the whole report.
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace strata
