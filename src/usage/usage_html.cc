// usage_html.cc: the usage report as one self-contained HTML page (replay.h FormatUsageHtml): inline
// CSS, inline SVG charts drawn here, one small inline script that sorts the tables; a
// Content-Security-Policy forbids any network fetch.
#include <fmt/format.h>

#include <algorithm>

#include "io/file_io.h"
#include "strata/replay.h"

namespace strata {
namespace {

std::string Escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// One colour per drop cause (DropCause order).
constexpr const char* kCauseColors[kDropCauseCount] = {"#6a1b9a", "#f9a825", "#1565c0", "#00838f",
                                                       "#5d4037", "#ad1457", "#e65100", "#c62828"};
constexpr const char* kRead = "#2e7d32";
constexpr const char* kWrite = "#ffb74d";
constexpr const char* kUncached = "#9e9e9e";

std::string Cells(const UsageTotals& t) {
  std::string causes;
  for (size_t c = 0; c < kDropCauseCount; ++c) {
    if (t.drops[c].count == 0) continue;
    causes += fmt::format("<span class=\"cause\" style=\"border-color:{}\">{} {} ({})</span> ",
                          kCauseColors[c], DropCauseName(DropCause(c)), t.drops[c].count,
                          t.drops[c].lost_tokens);
  }
  return fmt::format(
      "<td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.1f}%</td><td>{:.2f}</td>"
      "<td>{:.2f}</td><td>{}</td><td class=\"causes\">{}</td>",
      t.requests, t.input_tokens, t.cache_read_tokens, t.cache_write_tokens, t.output_tokens,
      100 * t.HitRatio(), t.cost, t.lost_cost, t.LostTokens(), causes);
}

constexpr const char* kHead =
    "<th>requests</th><th>input</th><th>cache read</th><th>cache write</th><th>output</th>"
    "<th>hit</th><th>cost $</th><th>lost $</th><th>lost tokens</th><th>drops by cause (tokens "
    "lost)</th>";

// A chart of one chain: a stacked bar per request (cache read, cache write, uncached) and a
// marker over each drop, coloured by cause, its cause and evidence in a tooltip.
std::string Chart(const UsageChain& chain) {
  const double width = 960, height = 180, left = 70, top = 14, bottom = 22;
  const double plot_w = width - left - 10, plot_h = height - top - bottom;
  size_t max_in = 1;
  for (const auto& q : chain.requests) max_in = std::max(max_in, q.usage.input_tokens);
  const double n = double(std::max<size_t>(1, chain.requests.size()));
  const double bw = plot_w / n;
  std::string read, write, unc, marks;
  auto bar = [&](std::string* path, double x, double y0, double h) {
    if (h <= 0) return;
    *path += fmt::format("M{:.2f} {:.2f}h{:.2f}v{:.2f}h{:.2f}Z", x, y0 - h,
                         std::max(bw * 0.85, 0.5), h, -std::max(bw * 0.85, 0.5));
  };
  for (size_t i = 0; i < chain.requests.size(); ++i) {
    const auto& q = chain.requests[i];
    const double x = left + double(i) * bw;
    const double scale = plot_h / double(max_in);
    const double base = top + plot_h;
    const size_t r = q.usage.cache_read_tokens, w = q.usage.cache_write_tokens;
    const size_t u = q.usage.input_tokens - std::min(q.usage.input_tokens, r + w);
    bar(&read, x, base, double(r) * scale);
    bar(&write, x, base - double(r) * scale, double(w) * scale);
    bar(&unc, x, base - double(r + w) * scale, double(u) * scale);
    if (q.drop) {
      const double cx = x + bw * 0.42;
      marks += fmt::format(
          "<path class=\"drop\" data-cause=\"{0}\" d=\"M{1:.2f} {2:.2f}l-5 -9h10Z\" fill=\"{3}\">"
          "<title>request {4}: {0}, {5} of {6} cached tokens lost ({7})</title></path>",
          DropCauseName(q.drop->cause), cx, top + 1, kCauseColors[size_t(q.drop->cause)], i + 1,
          q.drop->lost_tokens, q.drop->held_tokens, Escape(q.drop->detail));
    }
  }
  return fmt::format(
      "<svg class=\"chart\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" role=\"img\" "
      "aria-label=\"{2}: tokens per request\">"
      "<line x1=\"{3}\" y1=\"{4}\" x2=\"{3}\" y2=\"{5}\" stroke=\"#555\"/>"
      "<line x1=\"{3}\" y1=\"{5}\" x2=\"{6}\" y2=\"{5}\" stroke=\"#555\"/>"
      "<text x=\"{7}\" y=\"{8}\" text-anchor=\"end\">{9}</text>"
      "<text x=\"{7}\" y=\"{5}\" text-anchor=\"end\">0</text>"
      "<text x=\"{3}\" y=\"{10}\">request 1</text>"
      "<text x=\"{6}\" y=\"{10}\" text-anchor=\"end\">request {11}</text>"
      "<path class=\"read\" fill=\"{12}\" d=\"{13}\"/><path class=\"write\" fill=\"{14}\" "
      "d=\"{15}\"/><path class=\"uncached\" fill=\"{16}\" d=\"{17}\"/>{18}</svg>",
      width, height, Escape(chain.label), left, top, top + plot_h, width - 10, left - 4, top + 10,
      max_in, height - 4, chain.requests.size(), kRead, read, kWrite, write, kUncached, unc, marks);
}

constexpr const char* kStyle = R"(
body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222}
table{border-collapse:collapse;margin:8px 0 20px}
th,td{border-bottom:1px solid #ddd;padding:3px 8px;text-align:right;white-space:nowrap}
th{cursor:pointer;background:#f4f4f4;position:sticky;top:0}
td:first-child,th:first-child{text-align:left}
td.causes{text-align:left}
.cause{border-left:6px solid;padding-left:4px;margin-right:6px}
.chart text{font-size:11px;fill:#444}
section{margin:18px 0;border-top:1px solid #ccc}
.legend span{display:inline-block;margin-right:14px}
.legend i{display:inline-block;width:12px;height:12px;margin-right:4px;vertical-align:middle}
)";

// Sorts a table by the clicked column (numbers by value); marks the page ready for tests.
constexpr const char* kScript = R"(
(function(){
  function key(td){var t=td.textContent.replace(/[%$,]/g,'');var n=parseFloat(t);return isNaN(n)?t:n;}
  document.querySelectorAll('table.sortable th').forEach(function(th,col){
    th.addEventListener('click',function(){
      var body=th.closest('table').tBodies[0];var rows=Array.from(body.rows);
      var asc=th.dataset.asc!=='1';th.dataset.asc=asc?'1':'0';
      rows.sort(function(a,b){var x=key(a.cells[col]),y=key(b.cells[col]);return (x<y?-1:x>y?1:0)*(asc?1:-1);});
      rows.forEach(function(r){body.appendChild(r);});
    });
  });
  document.body.setAttribute('data-charts',String(document.querySelectorAll('svg.chart').length));
})();
)";

}  // namespace

std::string FormatUsageHtml(const UsageReport& r) {
  std::string out =
      "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src "
      "'unsafe-inline'; script-src 'unsafe-inline'\">"
      "<title>strata usage</title><style>";
  out += kStyle;
  out += "</style></head><body>\n<h1>strata usage</h1>\n";
  const UsageTotals& T = r.totals;
  out += fmt::format(
      "<p id=\"summary\">{} sessions from {} log files: {} requests, hit ratio {:.1f}%, cost "
      "${:.2f}. {} cached tokens lost to cache drops cost ${:.2f} more than reading them "
      "(without the drops: ${:.2f}).</p>\n",
      r.sessions.size(), r.files, T.requests, 100 * T.HitRatio(), T.cost, T.LostTokens(),
      T.lost_cost, T.cost - T.lost_cost);
  for (const auto& w : r.warnings) out += "<p class=\"warning\">warning: " + Escape(w) + "</p>\n";
  out += "<p class=\"legend\">";
  out += fmt::format("<span><i style=\"background:{}\"></i>cache read</span>", kRead);
  out += fmt::format("<span><i style=\"background:{}\"></i>cache write</span>", kWrite);
  out += fmt::format("<span><i style=\"background:{}\"></i>uncached</span>", kUncached);
  for (size_t c = 0; c < kDropCauseCount; ++c) {
    out += fmt::format("<span><i style=\"background:{}\"></i>drop: {}</span>", kCauseColors[c],
                       DropCauseName(DropCause(c)));
  }
  out += "</p>\n<h2>By day (UTC)</h2>\n<table class=\"sortable\"><thead><tr><th>date</th>";
  out += kHead;
  out += "</tr></thead><tbody>\n";
  for (const auto& d : r.days) out += "<tr><td>" + d.date + "</td>" + Cells(d.totals) + "</tr>\n";
  out +=
      "</tbody></table>\n<h2>Sessions, worst first</h2>\n<table class=\"sortable\" "
      "id=\"sessions\"><thead><tr><th>session</th><th>project</th>";
  out += kHead;
  out += "</tr></thead><tbody>\n";
  for (size_t i = 0; i < r.sessions.size(); ++i) {
    const auto& s = r.sessions[i];
    out += fmt::format("<tr><td><a href=\"#s{}\">{} {}</a></td><td>{}</td>{}</tr>\n", i + 1,
                       s.source, Escape(s.id), Escape(s.project), Cells(s.totals));
  }
  out += "</tbody></table>\n";
  for (size_t i = 0; i < r.sessions.size(); ++i) {
    const auto& s = r.sessions[i];
    out += fmt::format(
        "<section id=\"s{}\"><h3>{} {}</h3><p>{} &middot; {} to {} &middot; {} "
        "requests, hit {:.1f}%, cost ${:.2f}, lost ${:.2f}</p>\n",
        i + 1, s.source, Escape(s.id), Escape(s.project), Escape(s.first_time), Escape(s.last_time),
        s.totals.requests, 100 * s.totals.HitRatio(), s.totals.cost, s.totals.lost_cost);
    for (const auto& c : s.chains) {
      out += "<h4>" + Escape(c.label) + "</h4>\n" + Chart(c) + "\n";
    }
    out += "</section>\n";
  }
  out += "<script>";
  out += kScript;
  out += "</script>\n</body></html>\n";
  return out;
}

Status WriteUsageHtml(const std::filesystem::path& path, const UsageReport& report) {
  return WriteFileAtomic(path, FormatUsageHtml(report));
}

}  // namespace strata
