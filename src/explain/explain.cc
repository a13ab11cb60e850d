// explain.cc: the first difference between two rendered requests, the layer that owns it, and
// what it costs in cache (explain.h); the explanation as text and JSON.
#include "strata/explain.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "base/common_prefix.h"
#include "explain/explain_input.h"
#include "tokenize/request_tokens.h"

namespace strata {
namespace {

using nlohmann::json;

std::string Snippet(std::string_view bytes, size_t at) {
  size_t from = at > 40 ? at - 40 : 0;
  return std::string(bytes.substr(from, std::min<size_t>(80, bytes.size() - from)));
}

}  // namespace

Result<Explanation> Explain(const ExplainInput& a, const ExplainInput& b,
                            const Tokenizer& tokenizer) {
  Explanation e;
  e.tokenizer = tokenizer.name();
  const size_t i = CommonPrefixLength(a.bytes, b.bytes);
  e.first_byte = i;
  e.identical = a.bytes == b.bytes;
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
  if (e.identical) return e;
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
  e.uncached_tokens = tb->ids.size() - t;
  e.context_a = Snippet(a.bytes, i);
  e.context_b = Snippet(b.bytes, i);
  return e;
}

std::string FormatExplanation(const Explanation& e) {
  if (e.identical) return "identical requests: B reads everything A cached\n";
  std::string out = fmt::format("first difference: byte {}, token {} (tokenizer: {})\n",
                                e.first_byte, e.first_token, e.tokenizer);
  out += "layer: " + e.layer;
  if (!e.volatility.empty()) out += " (" + e.volatility + ")";
  if (!e.source.empty()) out += ", source " + e.source;
  out += "\n";
  if (e.invalidated.empty()) {
    out += "breakpoints invalidated: none (B keeps every prefix A cached)\n";
  } else {
    out += "breakpoints invalidated:";
    for (const auto& bp : e.invalidated) {
      out += fmt::format(" {}@{}{}", bp.layer.empty() ? "breakpoint" : bp.layer, bp.offset,
                         bp.ttl == CacheTtl::k1h ? "(1h)" : "");
    }
    out += "\n";
  }
  out +=
      fmt::format("tokens: A {}, B {}; {} of A's cached tokens lost; {} of B's tokens uncached\n",
                  e.tokens_a, e.tokens_b, e.lost_cached_tokens, e.uncached_tokens);
  out += "A: " + json(e.context_a).dump() + "\nB: " + json(e.context_b).dump() + "\n";
  return out;
}

std::string FormatExplanationJson(const Explanation& e) {
  json j = {{"identical", e.identical},
            {"first_byte", e.first_byte},
            {"first_token", e.first_token},
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
  j["invalidated"] = json::array();
  for (const auto& bp : e.invalidated) {
    j["invalidated"].push_back({{"offset", bp.offset},
                                {"layer", bp.layer},
                                {"ttl", bp.ttl == CacheTtl::k1h ? "1h" : "5m"}});
  }
  return j.dump(2) + "\n";
}

}  // namespace strata
