// explain.cc: the first difference between two rendered requests, the layer that owns it, and
// what it costs in cache (replay.h); the explanation as text and JSON.
#include "strata/replay.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "base/common_prefix.h"
#include "base/json_reader.h"
#include "cache_model/cache_model.h"
#include "explain/explain_input.h"
#include "replay/drop_cause.h"
#include "tokenize/request_tokens.h"
#include "wire/canonical_prompt.h"
#include "wire/codec.h"

namespace strata {
namespace {

using nlohmann::json;

// Unicode code points in `bytes` (UTF-8: every byte that is not a continuation byte starts one).
size_t CodePoints(std::string_view bytes) {
  return size_t(std::count_if(bytes.begin(), bytes.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

std::string Snippet(std::string_view bytes, size_t at) {
  // About 40 bytes either side, widened to whole UTF-8 characters: a cut inside one would make
  // the excerpt invalid text (and its JSON unwritable).
  auto continuation = [&](size_t i) {
    return i < bytes.size() && (static_cast<unsigned char>(bytes[i]) & 0xC0) == 0x80;
  };
  size_t from = at > 40 ? at - 40 : 0;
  while (from > 0 && continuation(from)) --from;
  size_t to = std::min(bytes.size(), from + 80);
  while (continuation(to)) ++to;
  return std::string(bytes.substr(from, to - from));
}

// What ExplainBytes tokenized, for the cache model's pass (ApplyCacheModel).
struct TokenizedPair {
  TokenizedRequest a, b;
  std::vector<Breakpoint> breakpoints_a, breakpoints_b;
  std::string model_a, model_b;
};

// The byte-wise explanation of two rendered requests (layer maps and breakpoints as given); their
// tokens in `*pair` when it is not null.
Result<Explanation> ExplainBytes(const ExplainInput& a, const ExplainInput& b,
                                 const Tokenizer& tokenizer, TokenizedPair* pair = nullptr) {
  Explanation e;
  e.tokenizer = tokenizer.name();
  const size_t i = CommonPrefixLength(a.bytes, b.bytes);
  e.first_byte = i;
  e.first_char = CodePoints(std::string_view(b.bytes).substr(0, i));
  e.identical = a.bytes == b.bytes;
  e.automatic = a.breakpoints.empty() && b.breakpoints.empty();
  PieceTokenizer pieces(tokenizer);
  std::vector<size_t> a_bps;
  for (const auto& bp : a.breakpoints) {
    if (bp.offset <= i) a_bps.push_back(bp.offset);  // A's cached cuts still hold in B
  }
  auto ta = pieces.Tokenize(a.bytes, StructuralCuts(a.bytes, a.layers, a.breakpoints));
  if (!ta) return tl::unexpected(ta.error());
  auto tb = pieces.Tokenize(b.bytes, StructuralCuts(b.bytes, b.layers, b.breakpoints, a_bps));
  if (!tb) return tl::unexpected(tb.error());
  e.tokens_a = ta->ids.size();
  e.tokens_b = tb->ids.size();
  const size_t t =
      CommonPrefixLength(std::span<const TokenId>(ta->ids), std::span<const TokenId>(tb->ids));
  e.first_token = t;
  auto keep = [&] {
    if (pair != nullptr) {
      *pair = {std::move(*ta), std::move(*tb), a.breakpoints, b.breakpoints, a.model, b.model};
    }
  };
  if (e.identical) {
    keep();
    return e;
  }
  auto owner = [&](const LayerMap& map) -> const LayerSpan* {
    for (const auto& s : map) {
      if (s.begin <= i && i < s.end) return &s;
    }
    return nullptr;
  };
  const LayerSpan* span = owner(b.layers);
  if (span == nullptr) span = owner(a.layers);
  if (span != nullptr) {
    e.layer = span->layer;
    e.source = span->source;
    e.volatility = VolatilityName(span->volatility);
  } else {
    e.layer = MemberAt(b.bytes, i);
  }
  size_t last_bp_tokens = 0;
  for (const auto& bp : a.breakpoints) {
    if (bp.offset > i) {  // [0, offset) no longer a prefix of B
      e.invalidated.push_back(bp);
      last_bp_tokens = std::max(last_bp_tokens, ta->TokensAt(bp.offset));
    }
  }
  e.lost_cached_tokens = last_bp_tokens > t ? last_bp_tokens - t : 0;
  if (e.automatic) e.lost_cached_tokens = ta->ids.size() > t ? ta->ids.size() - t : 0;
  e.uncached_tokens = tb->ids.size() - t;
  // A change that costs none of A's cached tokens (after A's last breakpoint: B extends A, or only
  // A's volatile tail differs) has no cause, as replay finds no drop there.
  if (i < a.bytes.size() && e.lost_cached_tokens > 0) {
    e.cause = DropCauseName(ChangeCauseOfLayer(e.layer));
  }
  e.context_a = Snippet(a.bytes, i);
  e.context_b = Snippet(b.bytes, i);
  keep();
  return e;
}

// A and B through a fresh cache model of `o`, at the same moment; the figures and the drop by
// replay's rule (FindDrop) into `e`.
void ApplyCacheModel(const CacheModelOptions& o, const TokenizedPair& p, Explanation* e) {
  std::unique_ptr<CacheModel> model = MakeCacheModel(o);
  const bool anthropic = o.kind == CacheModelKind::kAnthropic;
  auto request = [&](const TokenizedRequest& t, const std::vector<Breakpoint>& bps,
                     const std::string& id) {
    CacheRequest r;
    r.tokens = t.ids;
    r.block_ends = t.cut_tokens;
    r.model = id;
    if (anthropic) {
      for (const auto& bp : bps) r.breakpoints.push_back({t.TokensAt(bp.offset), bp.ttl});
      std::sort(
          r.breakpoints.begin(), r.breakpoints.end(),
          [](const TokenBreakpoint& x, const TokenBreakpoint& y) { return x.tokens < y.tokens; });
    }
    return r;
  };
  DropEvidence ev;
  ev.model_prev = model->Process(request(p.a, p.breakpoints_a, p.model_a));
  ev.model = model->Process(request(p.b, p.breakpoints_b, p.model_b));
  ev.shared_tokens = e->first_token;
  ev.automatic = !anthropic;
  ev.granule = CacheGranuleTokens(o);
  ev.minimum = CacheMinimumTokens(o);
  ev.model_id_prev = p.model_a;
  ev.model_id = p.model_b;
  ev.changed_layer = e->layer;
  e->provider = CacheModelName(o.kind);
  e->minimum_tokens = !anthropic             ? ev.minimum
                      : o.minimum_tokens > 0 ? o.minimum_tokens
                                             : AnthropicMinimumCacheableTokens(p.model_a);
  e->cached_tokens = HeldTokens(ev.model_prev);
  e->read_tokens = ev.model.cache_read_tokens;
  e->lost_cached_tokens = e->cached_tokens - std::min(e->cached_tokens, e->read_tokens);
  std::optional<CacheDrop> d = FindDrop(ev);
  e->drop = d.has_value();
  e->cause = d ? DropCauseName(d->cause) : "";
  e->cause_detail = d ? d->detail : "";
}

// A canonical prompt as an explain input: one span per block, breakpoints named as the raw reader
// names them (tools, system-block-N, input).
ExplainInput CanonicalInput(const CanonicalPrompt& c) {
  ExplainInput in{c.bytes, c.Spans(), c.Breakpoints(), c.model, RequestApiName(c.api)};
  int system_blocks = 0;
  for (auto& bp : in.breakpoints) {
    bp.layer = bp.layer.starts_with("system")  ? "system-block-" + std::to_string(++system_blocks)
               : bp.layer.starts_with("tools") ? std::string("tools")
                                               : std::string("input");
  }
  return in;
}

// The top-level member a block path starts with: "system" of "system[2]".
std::string MemberOf(const std::string& path) { return path.substr(0, path.find_first_of("[.")); }

// Explain on the canonical prompts of two provider request bodies.
Result<Explanation> ExplainCanonical(const ExplainInput& a, const ExplainInput& b,
                                     const Tokenizer& tokenizer, TokenizedPair* pair) {
  STRATA_TRY_ASSIGN(RequestApi api, ParseRequestApi(a.api));
  STRATA_TRY_ASSIGN(json ja, ParseJson(a.bytes, "A"));
  STRATA_TRY_ASSIGN(json jb, ParseJson(b.bytes, "B"));
  STRATA_TRY_ASSIGN(CanonicalPrompt ca, CanonicalizeRequest(ja, api, {"A"}));
  STRATA_TRY_ASSIGN(CanonicalPrompt cb, CanonicalizeRequest(jb, api, {"B"}));
  STRATA_TRY_ASSIGN(Explanation e,
                    ExplainBytes(CanonicalInput(ca), CanonicalInput(cb), tokenizer, pair));
  e.api = a.api;
  if (!wire::CodecFor(api).explicit_breakpoints && !e.automatic) {  // caches automatically
    e.automatic = true;
    e.lost_cached_tokens = e.tokens_a - std::min(e.tokens_a, e.first_token);
  }
  e.outside_prompt = NonPromptDifferences(ja, jb, api);
  for (const auto& bp : e.invalidated) {
    const PromptBlock* block = ca.BlockAt(bp.offset == 0 ? 0 : bp.offset - 1);
    e.invalidated_paths.push_back(block != nullptr ? block->path : bp.layer);
  }
  if (e.identical) return e;
  e.prompt_extends = e.first_byte == ca.bytes.size();
  const bool in_b = e.first_byte < cb.bytes.size();
  const PromptBlock* block = in_b ? cb.BlockAt(e.first_byte) : ca.BlockAt(e.first_byte);
  if (block != nullptr) {
    const std::string_view bytes = in_b ? cb.bytes : ca.bytes;
    e.layer = MemberOf(block->path);
    e.volatility.clear();
    e.position =
        e.prompt_extends ? block->path
        : e.first_byte < block->body
            ? block->path + ", its header (the block's place or kind)"
            : block->path + ", character " +
                  std::to_string(CodePoints(bytes.substr(block->body, e.first_byte - block->body)));
    // A system or developer message (Chat Completions, Responses) is the system prompt.
    const std::string_view header = bytes.substr(block->begin, block->body - block->begin);
    const bool system_role = header.find(" system ") != std::string_view::npos ||
                             header.find(" developer ") != std::string_view::npos;
    e.cause = e.prompt_extends ? ""
              : system_role    ? "system-change"
                               : DropCauseName(ChangeCauseOfLayer(block->path));
  }
  return e;
}

}  // namespace

Result<Explanation> Explain(const ExplainInput& a, const ExplainInput& b,
                            const Tokenizer& tokenizer, const CacheModelOptions* cache) {
  TokenizedPair pair;
  TokenizedPair* tokens = cache != nullptr ? &pair : nullptr;
  Result<Explanation> e = !a.api.empty() && a.api == b.api && a.layers.empty() && b.layers.empty()
                              ? ExplainCanonical(a, b, tokenizer, tokens)
                              : ExplainBytes(a, b, tokenizer, tokens);
  if (!e) return e;
  if (cache != nullptr) {
    const std::string byte_cause = e->cause;
    ApplyCacheModel(*cache, pair, &*e);
    // The bytes name a system or developer message's change more finely than the layer does.
    if (e->drop && e->cause != "model-change" && !byte_cause.empty() &&
        e->cause.ends_with("-change")) {
      e->cause = byte_cause;
    }
    return e;
  }
  if (!a.model.empty() && !b.model.empty() && a.model != b.model) e->cause = "model-change";
  return e;
}

// The lines on members outside the prompt, for canonical comparisons.
std::string OutsidePrompt(const Explanation& e) {
  if (e.outside_prompt.empty()) return "";
  std::string names;
  for (const auto& m : e.outside_prompt) names += (names.empty() ? "" : ", ") + m;
  return "outside the prompt (not cached text) the raw JSON also differs in: " + names + "\n";
}

namespace {

// What the provider's rules say A cached and B read, and whether that is a drop (replay's rule).
std::string CacheModelLines(const Explanation& e) {
  // A drop replay measured on the log's recorded figures: those are the figures shown.
  std::string out = fmt::format("{} ({}): A left {} tokens cached, B reads {}",
                                e.drop_recorded ? "recorded figures" : "cache model", e.provider,
                                e.cached_tokens, e.read_tokens);
  if (e.cached_tokens == 0 && e.tokens_a < e.minimum_tokens) {
    out += fmt::format(" (A's {} tokens are below the {}-token minimum: nothing was cached)",
                       e.tokens_a, e.minimum_tokens);
  }
  out += "\n";
  if (e.drop) {
    out += fmt::format("drop: {}, {} of {} tokens lost\n", e.cause, e.lost_cached_tokens,
                       e.cached_tokens);
  } else {
    out += "drop: none (B reads what A left cached, within 2% and one cache granule)\n";
  }
  return out;
}

}  // namespace

std::string FormatExplanation(const Explanation& e) {
  if (e.identical && e.api.empty()) return "identical requests: B reads everything A cached\n";
  if (e.identical) {
    return "identical prompts (" + e.api +
           " canonical form): B reads everything A cached; the raw JSON differs only outside the "
           "prompt or in the form of the prompt members (cache_control, a content string vs one "
           "text block)\n" +
           OutsidePrompt(e);
  }
  std::string out;
  if (e.prompt_extends) {
    out += fmt::format(
        "B's prompt extends A's ({} canonical form): no prompt difference before the end of A "
        "(byte {}, token {}); B adds from {} on\n",
        e.api, e.first_byte, e.first_token, e.position);
  } else if (!e.api.empty()) {
    out += fmt::format("first prompt difference ({} canonical form): {}; byte {}, token {}\n",
                       e.api, e.position, e.first_byte, e.first_token);
  }
  out += fmt::format("first difference: character {} (byte {}), token {} (tokenizer: {})\n",
                     e.first_char, e.first_byte, e.first_token, e.tokenizer);
  if (e.request > 0) {
    out += fmt::format("log requests {} (A) and {} (B)\n", e.request - 1, e.request);
  }
  if (!e.cause.empty()) {
    out += "cause: " + e.cause + (e.cause_detail.empty() ? "" : " (" + e.cause_detail + ")") + "\n";
  }
  out += "layer: " + e.layer;
  if (!e.volatility.empty()) out += " (" + e.volatility + ")";
  if (!e.source.empty()) out += ", source " + e.source;
  out += "\n";
  if (e.invalidated.empty() && e.automatic) {
    // no breakpoints: the automatic-caching line below says what B reads
  } else if (e.invalidated.empty()) {
    out += "breakpoints invalidated: none (B keeps every prefix A cached)\n";
  } else {
    out += "breakpoints invalidated:";
    for (const auto& bp : e.invalidated) {
      out += fmt::format(" {}@{}{}", bp.layer.empty() ? "breakpoint" : bp.layer, bp.offset,
                         bp.ttl == CacheTtl::k1h ? "(1h)" : "");
    }
    out += "\n";
    if (!e.invalidated_paths.empty()) {
      std::string paths;
      for (const auto& p : e.invalidated_paths) paths += (paths.empty() ? "" : ", ") + p;
      out += "  closing the blocks: " + paths + "\n";
    }
  }
  if (e.compaction) {
    out += fmt::format(
        "tokens: A {}, B {}; {} of A's cached tokens lost to the compaction (it replaced the "
        "conversation); {} of B's tokens uncached\n",
        e.tokens_a, e.tokens_b, e.lost_cached_tokens, e.uncached_tokens);
  } else {
    out +=
        fmt::format("tokens: A {}, B {}; {} of A's cached tokens lost; {} of B's tokens uncached\n",
                    e.tokens_a, e.tokens_b, e.lost_cached_tokens, e.uncached_tokens);
  }
  if (!e.provider.empty()) {
    out += CacheModelLines(e);
  } else if (e.automatic) {
    out += fmt::format(
        "automatic caching: A's whole prompt was cached; B reads its first {} tokens and sends "
        "tokens {} to {} uncached (from the first difference on)\n",
        e.first_token, e.first_token, e.tokens_b);
  }
  out += OutsidePrompt(e);
  out += "A: " + json(e.context_a).dump() + "\nB: " + json(e.context_b).dump() + "\n";
  return out;
}

std::string FormatExplanationJson(const Explanation& e) {
  json j = {{"identical", e.identical},
            {"first_byte", e.first_byte},
            {"first_char", e.first_char},
            {"first_token", e.first_token},
            {"automatic", e.automatic},
            {"cause", e.cause},
            {"layer", e.layer},
            {"source", e.source},
            {"volatility", e.volatility},
            {"lost_cached_tokens", e.lost_cached_tokens},
            {"uncached_tokens", e.uncached_tokens},
            {"tokens_a", e.tokens_a},
            {"tokens_b", e.tokens_b},
            {"tokenizer", e.tokenizer},
            {"context_a", e.context_a},
            {"context_b", e.context_b}};
  if (e.request > 0) {
    j["request"] = e.request;
    j["compaction"] = e.compaction;
    j["cause_detail"] = e.cause_detail;
  }
  if (!e.provider.empty()) {
    j["provider"] = e.provider;
    j["minimum_tokens"] = e.minimum_tokens;
    j["cached_tokens"] = e.cached_tokens;
    j["read_tokens"] = e.read_tokens;
    j["drop"] = e.drop;
    j["drop_recorded"] = e.drop_recorded;
    j["cause_detail"] = e.cause_detail;
  }
  if (!e.api.empty()) {
    j["api"] = e.api;
    j["position"] = e.position;
    j["prompt_extends"] = e.prompt_extends;
    j["outside_prompt"] = e.outside_prompt;
    j["invalidated_paths"] = e.invalidated_paths;
  }
  j["invalidated"] = json::array();
  for (const auto& bp : e.invalidated) {
    j["invalidated"].push_back({{"offset", bp.offset},
                                {"layer", bp.layer},
                                {"ttl", bp.ttl == CacheTtl::k1h ? "1h" : "5m"}});
  }
  return j.dump(2) + "\n";
}

}  // namespace strata
