// replay.cc: rebuilds each request of a transcript with an assembly layout, tokenizes it block by
// block and runs it through a cache model (replay.h); formats the per-turn table, JSON and the
// side-by-side comparison.
#include "strata/replay.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>

#include "accounting/request_tokens.h"
#include "strata/chat_template.h"

namespace strata {
namespace {

using accounting_internal::PieceTokenizer;
using accounting_internal::StructuralCuts;

Provider RenderProviderFor(CacheModelKind kind) {
  switch (kind) {
    case CacheModelKind::kAnthropic:
      return Provider::kAnthropic;
    case CacheModelKind::kOpenAi:
      return Provider::kOpenAiResponses;
    case CacheModelKind::kDeepSeek:
      return Provider::kOpenAiChat;
    case CacheModelKind::kBlockHash:
    case CacheModelKind::kRadix:
      return Provider::kChatTemplate;
  }
  return Provider::kAnthropic;
}

// A rendered request with its own bytes.
struct Built {
  std::string bytes;
  LayerMap spans;
  std::vector<Breakpoint> breakpoints;
};

// The naive layout: date/time and cwd open system block 1; tools in the order given.
class NaiveLayout {
 public:
  NaiveLayout(Provider provider, const ChatTemplate* tmpl, int long_ttl)
      : renderer_(MakeRenderer(provider, tmpl)), long_ttl_(long_ttl) {}

  void Add(Message m) { messages_.push_back(std::move(m)); }

  Built Render(const ContextInputs& ctx, const std::string& now) const {
    PromptHead head;
    head.tools = ctx.tools;
    std::string env = "Current date and time: " + now + "\nWorking directory: " + ctx.cwd;
    head.block1.push_back({LayerKind::kEnvironment, Volatility::kTurn, "", env});
    head.block1.push_back({LayerKind::kPersona, Volatility::kStatic, "", ctx.persona});
    for (const auto& r : ctx.rules) {
      head.block1.push_back({LayerKind::kRules, Volatility::kStatic, "", r});
    }
    for (const auto& s : ctx.instructions) {
      head.block2.push_back({LayerKind::kInstructions, Volatility::kSession, s.key, s.text});
    }
    std::string skills;
    for (const auto& s : ctx.skills) skills += "- " + s.name + ": " + s.description + "\n";
    head.block2.push_back({LayerKind::kSkills, Volatility::kSession, "", skills});
    head.block2.push_back({LayerKind::kNotes, Volatility::kSession, "", ctx.notes});
    head.block2.push_back({LayerKind::kPlan, Volatility::kSession, "", ctx.plan});
    RenderOptions options;
    options.model = ctx.model;
    options.long_ttl_breakpoints = long_ttl_;
    RenderedPart h;
    renderer_->RenderHead(head, options, &h);
    Built b;
    b.bytes = std::move(h.bytes);
    b.spans = std::move(h.spans);
    b.breakpoints = std::move(h.breakpoints);
    size_t boundary = 0;
    for (size_t i = 0; i < messages_.size(); ++i) {
      if (messages_[i].role == Role::kAssistant) boundary = i + 1;
    }
    bool preceded = h.has_items;
    if (boundary > 0) {
      if (preceded) b.bytes += renderer_->separator();
      renderer_->AppendHistory(std::span(messages_.data(), boundary), false, &b.bytes);
      preceded = true;
    }
    RenderedPart t;
    renderer_->RenderTail(std::span(messages_.data() + boundary, messages_.size() - boundary),
                          preceded, "", options, b.breakpoints.size(), &t);
    size_t at = b.bytes.size();
    b.bytes += t.bytes;
    for (auto s : t.spans) {
      s.begin += at;
      s.end += at;
      b.spans.push_back(s);
    }
    for (auto bp : t.breakpoints) {
      bp.offset += at;
      b.breakpoints.push_back(bp);
    }
    return b;
  }

 private:
  std::unique_ptr<Renderer> renderer_;
  int long_ttl_;
  std::vector<Message> messages_;
};

size_t CommonPrefix(std::string_view a, std::string_view b) {
  size_t n = std::min(a.size(), b.size());
  size_t i = 0;
  while (i < n && a[i] == b[i]) ++i;
  return i;
}

}  // namespace

const char* ReplayLayoutName(ReplayLayout layout) {
  return layout == ReplayLayout::kStrata ? "strata" : "naive";
}

Result<ReplayLayout> ParseReplayLayout(std::string_view name) {
  if (name == "strata") return ReplayLayout::kStrata;
  if (name == "naive") return ReplayLayout::kNaive;
  return MakeError(ErrorKind::kInvalidArgument,
                   "unknown layout '" + std::string(name) + "' (strata, naive)");
}

Result<ReplayReport> Replay(const Transcript& transcript, const Tokenizer& tokenizer,
                            const ReplayOptions& options) {
  auto model = MakeCacheModel(options.cache);
  const Provider provider = RenderProviderFor(options.cache.kind);
  auto chatml = MakeChatMlTemplate();
  ReplayReport report;
  report.transcript_format = transcript.format;
  report.layout = ReplayLayoutName(options.layout);
  report.provider = CacheModelName(options.cache.kind);
  report.rules = model->Describe();
  report.tokenizer = tokenizer.name();

  AssembleOptions assemble;
  assemble.long_ttl_breakpoints = options.long_ttl_breakpoints;
  assemble.chat_template = chatml.get();
  auto session = ContextSession::Create(assemble);
  if (!session) return tl::unexpected(session.error());
  NaiveLayout naive(provider, chatml.get(), options.long_ttl_breakpoints);

  PieceTokenizer pieces(tokenizer);
  ContextInputs ctx;
  std::string now = "1970-01-01T00:00:00Z";
  double now_s = 0;
  std::set<std::string> pending_calls;  // calls of the last assistant message without a result
  std::string prev_bytes;
  std::vector<size_t> prev_breakpoints;  // breakpoints of earlier requests in the shared prefix
  std::vector<TokenId> prev_ids;
  const bool strata_layout = options.layout == ReplayLayout::kStrata;

  for (const TranscriptEvent& e : transcript.events) {
    if (!e.time.empty() && e.time_s >= now_s) {
      now = e.time;
      now_s = e.time_s;
    }
    switch (e.kind) {
      case TranscriptEventKind::kContext:
        ctx = e.context;
        if (!options.model.empty()) ctx.model = options.model;
        break;
      case TranscriptEventKind::kUser: {
        for (const auto& id : pending_calls) {  // a call the log never answered
          Message r{Role::kToolResult, "(no result recorded)", {}, id, false};
          if (strata_layout) {
            if (auto s = session->Append(r); !s) return tl::unexpected(s.error());
          } else {
            naive.Add(r);
          }
        }
        pending_calls.clear();
        if (strata_layout) {
          if (auto s = session->BeginTurn(ctx, e.message.text); !s) {
            return tl::unexpected(s.error());
          }
        } else {
          naive.Add(e.message);
        }
        break;
      }
      case TranscriptEventKind::kToolResult:
        if (!pending_calls.erase(e.message.tool_call_id)) break;  // answers no open call
        if (strata_layout) {
          if (auto s = session->Append(e.message); !s) return tl::unexpected(s.error());
        } else {
          naive.Add(e.message);
        }
        break;
      case TranscriptEventKind::kAssistant: {
        for (const auto& id : pending_calls) {
          Message r{Role::kToolResult, "(no result recorded)", {}, id, false};
          if (strata_layout) {
            if (auto s = session->Append(r); !s) return tl::unexpected(s.error());
          } else {
            naive.Add(r);
          }
        }
        pending_calls.clear();
        Built b;
        if (strata_layout) {
          TurnInputs turn;
          turn.now = now;
          auto r = session->Render(provider, ctx, turn);
          if (!r) return tl::unexpected(r.error());
          b.bytes = r->request.Flatten();
          b.spans = r->request.layers;
          b.breakpoints = r->request.breakpoints;
        } else {
          b = naive.Render(ctx, now);
        }
        if (options.on_request) {
          options.on_request(report.turns.size() + 1, b.bytes, b.spans, b.breakpoints);
        }
        // Earlier breakpoints inside the shared prefix stay token boundaries (cached blocks).
        size_t shared = CommonPrefix(prev_bytes, b.bytes);
        std::vector<size_t> extra;
        for (size_t off : prev_breakpoints) {
          if (off <= shared) extra.push_back(off);
        }
        prev_breakpoints = extra;  // still cut points next time, while the prefix holds
        auto cuts = StructuralCuts(b.bytes, b.spans, b.breakpoints, extra);
        auto tokens = pieces.Tokenize(b.bytes, cuts);
        if (!tokens) return tl::unexpected(tokens.error());
        CacheRequest req;
        req.tokens = tokens->ids;
        req.time_s = now_s;
        req.model = ctx.model;
        req.block_ends = tokens->cut_tokens;
        if (provider == Provider::kAnthropic) {
          for (const auto& bp : b.breakpoints) {
            req.breakpoints.push_back({tokens->TokensAt(bp.offset), bp.ttl});
          }
        }
        TurnReport turn;
        turn.index = report.turns.size() + 1;
        turn.time = now;
        turn.usage = model->Process(req);
        size_t lcp = 0;
        while (lcp < prev_ids.size() && lcp < tokens->ids.size() &&
               prev_ids[lcp] == tokens->ids[lcp]) {
          ++lcp;
        }
        turn.ideal_read_tokens = lcp;
        turn.recorded = e.recorded;
        report.request_bytes += b.bytes.size();
        report.turns.push_back(std::move(turn));
        prev_ids = std::move(tokens->ids);
        prev_bytes = std::move(b.bytes);
        for (const auto& bp : b.breakpoints) prev_breakpoints.push_back(bp.offset);
        if (strata_layout) {
          if (auto s = session->Append(e.message); !s) return tl::unexpected(s.error());
        } else {
          naive.Add(e.message);
        }
        for (const auto& c : e.message.tool_calls) pending_calls.insert(c.id);
        break;
      }
    }
  }
  ReplayTotals& t = report.totals;
  for (const auto& turn : report.turns) {
    t.input_tokens += turn.usage.input_tokens;
    t.cache_read_tokens += turn.usage.cache_read_tokens;
    t.cache_write_tokens += turn.usage.cache_write_tokens;
    t.uncached_tokens += turn.usage.uncached_tokens;
    t.ideal_read_tokens += turn.ideal_read_tokens;
    t.cost += turn.usage.cost;
    if (turn.recorded) {
      t.has_recorded = true;
      t.recorded.input_tokens += turn.recorded->input_tokens;
      t.recorded.cache_read_tokens += turn.recorded->cache_read_tokens;
      t.recorded.cache_write_tokens += turn.recorded->cache_write_tokens;
    }
  }
  if (t.input_tokens > 0) {
    t.hit_ratio = double(t.cache_read_tokens) / double(t.input_tokens);
    t.ideal_hit_ratio = double(t.ideal_read_tokens) / double(t.input_tokens);
  }
  if (t.recorded.input_tokens > 0) {
    t.recorded_hit_ratio = double(t.recorded.cache_read_tokens) / double(t.recorded.input_tokens);
  }
  report.bytes_tokenized = pieces.bytes_tokenized();
  return report;
}

std::string FormatReplayTable(const ReplayReport& r) {
  std::string out = fmt::format("replay: {} transcript, layout {}, provider {}\n",
                                r.transcript_format, r.layout, r.provider);
  out += "rules: " + r.rules + "\n";
  out += "tokenizer: " + r.tokenizer + "\n";
  bool rec = r.totals.has_recorded;
  out += fmt::format("{:>5} {:>9} {:>9} {:>9} {:>9} {:>6} {:>10}", "turn", "input", "read", "write",
                     "uncached", "hit", "cost");
  if (rec)
    out +=
        fmt::format("   {:>9} {:>9} {:>9} {:>6}", "rec.input", "rec.read", "rec.write", "rec.hit");
  out += "\n";
  auto row = [&](const std::string& label, size_t in, size_t read, size_t write, size_t unc,
                 double cost, const std::optional<RecordedUsage>& recorded) {
    double hit = in ? 100.0 * double(read) / double(in) : 0;
    std::string line = fmt::format("{:>5} {:>9} {:>9} {:>9} {:>9} {:>5.1f}% {:>10.4f}", label, in,
                                   read, write, unc, hit, cost);
    if (rec && recorded) {
      double rhit = recorded->input_tokens ? 100.0 * double(recorded->cache_read_tokens) /
                                                 double(recorded->input_tokens)
                                           : 0;
      line += fmt::format("   {:>9} {:>9} {:>9} {:>5.1f}%", recorded->input_tokens,
                          recorded->cache_read_tokens, recorded->cache_write_tokens, rhit);
    }
    return line + "\n";
  };
  for (const auto& t : r.turns) {
    out += row(std::to_string(t.index), t.usage.input_tokens, t.usage.cache_read_tokens,
               t.usage.cache_write_tokens, t.usage.uncached_tokens, t.usage.cost, t.recorded);
  }
  const auto& T = r.totals;
  std::optional<RecordedUsage> rt;
  if (T.has_recorded) rt = T.recorded;
  out += row("total", T.input_tokens, T.cache_read_tokens, T.cache_write_tokens, T.uncached_tokens,
             T.cost, rt);
  out += fmt::format("hit ratio {:.1f}% (ideal {:.1f}%: all but each request's new tokens)\n",
                     100 * T.hit_ratio, 100 * T.ideal_hit_ratio);
  return out;
}

namespace {
nlohmann::json UsageJson(size_t in, size_t read, size_t write, size_t unc, double cost) {
  return {{"input_tokens", in},
          {"cache_read_tokens", read},
          {"cache_write_tokens", write},
          {"uncached_tokens", unc},
          {"hit_ratio", in ? double(read) / double(in) : 0.0},
          {"cost", cost}};
}
nlohmann::json RecordedJson(const RecordedUsage& u) {
  return {
      {"input_tokens", u.input_tokens},
      {"cache_read_tokens", u.cache_read_tokens},
      {"cache_write_tokens", u.cache_write_tokens},
      {"hit_ratio", u.input_tokens ? double(u.cache_read_tokens) / double(u.input_tokens) : 0.0}};
}
}  // namespace

std::string FormatReplayJson(const ReplayReport& r) {
  nlohmann::json j;
  j["transcript_format"] = r.transcript_format;
  j["layout"] = r.layout;
  j["provider"] = r.provider;
  j["rules"] = r.rules;
  j["tokenizer"] = r.tokenizer;
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
    j["turns"].push_back(std::move(u));
  }
  const auto& T = r.totals;
  auto totals = UsageJson(T.input_tokens, T.cache_read_tokens, T.cache_write_tokens,
                          T.uncached_tokens, T.cost);
  totals["ideal_read_tokens"] = T.ideal_read_tokens;
  totals["ideal_hit_ratio"] = T.ideal_hit_ratio;
  if (T.has_recorded) totals["recorded"] = RecordedJson(T.recorded);
  j["totals"] = std::move(totals);
  return j.dump(2) + "\n";
}

std::string FormatReplayComparison(const ReplayReport& a, const ReplayReport& b) {
  std::string out = fmt::format("replay: {} transcript, provider {}\nrules: {}\ntokenizer: {}\n",
                                a.transcript_format, a.provider, a.rules, a.tokenizer);
  out += fmt::format("{:>5} | {:^32} | {:^32}\n", "", a.layout, b.layout);
  out += fmt::format("{:>5} | {:>9} {:>9} {:>6} {:>6} | {:>9} {:>9} {:>6} {:>6}\n", "turn", "input",
                     "read", "hit", "cost", "input", "read", "hit", "cost");
  auto cell = [](size_t in, size_t read, double cost) {
    return fmt::format("{:>9} {:>9} {:>5.1f}% {:>6.3f}", in, read,
                       in ? 100.0 * double(read) / double(in) : 0.0, cost);
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
  }
  double saved = a.totals.cost - b.totals.cost;
  out += fmt::format("{} vs {}: hit ratio {:.1f}% vs {:.1f}%, cost {:.4f} vs {:.4f}\n", a.layout,
                     b.layout, 100 * a.totals.hit_ratio, 100 * b.totals.hit_ratio, a.totals.cost,
                     b.totals.cost);
  (void)saved;
  return out;
}

}  // namespace strata
