// explain.cc: the first difference between two rendered requests, the layer that owns it, and
// what it costs in cache (explain.h).
#include "strata/explain.h"
#include "text/text.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "accounting/request_tokens.h"

namespace strata {
namespace {

using nlohmann::json;

// The JSON member (tools / system / messages) a byte falls in, for requests without a layer map.
std::string MemberAt(std::string_view bytes, size_t offset) {
  std::string_view before = bytes.substr(0, offset);
  size_t best = std::string_view::npos;
  std::string name;
  for (const char* member : {"\"tools\":[", "\"system\":[", "\"messages\":[", "\"input\":["}) {
    size_t at = before.rfind(member);
    if (at != std::string_view::npos && (best == std::string_view::npos || at > best)) {
      best = at;
      name = std::string(member).substr(1, std::string(member).find('"', 1) - 1);
    }
  }
  return name.empty() ? "request" : name;
}

std::string Snippet(std::string_view bytes, size_t at) {
  size_t from = at > 40 ? at - 40 : 0;
  return std::string(bytes.substr(from, std::min<size_t>(80, bytes.size() - from)));
}

}  // namespace

Result<LayerMap> ParseLayerMap(std::string_view text, std::string_view path) {
  json j = json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_array()) {
    return MakeError(ErrorKind::kParse, "layer map must be a JSON array", {std::string(path)});
  }
  LayerMap map;
  for (const auto& e : j) {
    if (!e.is_object())
      return MakeError(ErrorKind::kParse, "layer map entry is not an object", {std::string(path)});
    LayerSpan s;
    s.layer = e.value("layer", "");
    std::string v = e.value("volatility", "static");
    s.volatility = v == "turn"      ? Volatility::kTurn
                   : v == "session" ? Volatility::kSession
                                    : Volatility::kStatic;
    s.source = e.value("source", "");
    s.begin = e.value("begin", size_t{0});
    s.end = e.value("end", size_t{0});
    map.push_back(std::move(s));
  }
  return map;
}

Result<ExplainInput> ParseExplainInput(std::string_view text, std::string_view path) {
  ExplainInput in;
  if (text.ends_with("\n")) text.remove_suffix(1);
  const std::string what =
      ": expected a request printed by `strata assemble` (JSON, or a chat-template render)";
  if (text.empty()) return MakeError(ErrorKind::kParse, "empty file" + what, {std::string(path)});
  if (auto clean = CleanText(text, path, {.normalize_nfc = false, .strip_tags = false}); !clean) {
    Error e = clean.error();
    e.message += what;
    return tl::unexpected(e);
  }
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& err) {
    const bool looks_json = text.find_first_not_of(" \t\r\n") != std::string_view::npos &&
                            (text[text.find_first_not_of(" \t\r\n")] == '{' ||
                             text[text.find_first_not_of(" \t\r\n")] == '[');
    if (looks_json || text.find("<|") == std::string_view::npos) {
      size_t at = err.byte > 0 ? err.byte - 1 : 0;
      return MakeError(ErrorKind::kParse,
                       std::string(looks_json ? "invalid or truncated JSON" : "not JSON") + what,
                       LocationAt(path, text, std::min(at, text.size())));
    }
    j = json(json::value_t::discarded);  // chat-template text
  }
  if (!j.is_discarded() && !j.is_object()) {
    return MakeError(ErrorKind::kParse, "JSON that is not an object" + what, {std::string(path)});
  }
  if (!j.is_discarded() && j.contains("model") && j["model"].is_string()) {
    in.model = j["model"].get<std::string>();
  }
  if (!j.is_discarded() && j.is_object() && j.contains("request")) {
    if (!j["request"].is_string()) {
      return MakeError(ErrorKind::kParse, "member 'request' must be a string" + what,
                       {std::string(path)});
    }
    in.bytes = j["request"].get<std::string>();
    if (auto model = json::parse(in.bytes, nullptr, false);
        model.is_object() && model.contains("model") && model["model"].is_string()) {
      in.model = model["model"].get<std::string>();
    }
    if (j.contains("layers")) {
      auto map = ParseLayerMap(j["layers"].dump(), path);
      if (!map) return tl::unexpected(map.error());
      in.layers = std::move(*map);
    }
    if (auto it = j.find("breakpoints"); it != j.end() && it->is_array()) {
      for (const auto& b : *it) {
        in.breakpoints.push_back({b.value("offset", size_t{0}),
                                  b.value("ttl", "5m") == "1h" ? CacheTtl::k1h : CacheTtl::k5m,
                                  b.value("layer", "")});
      }
    }
    return in;
  }
  in.bytes = std::string(text);
  const std::string marker = ",\"cache_control\":";
  for (size_t at = in.bytes.find(marker); at != std::string::npos;
       at = in.bytes.find(marker, at + 1)) {
    std::string_view after = std::string_view(in.bytes).substr(at + marker.size());
    bool long_ttl = after.starts_with(R"({"type":"ephemeral","ttl":"1h"})");
    in.breakpoints.push_back({at, long_ttl ? CacheTtl::k1h : CacheTtl::k5m, ""});
  }
  // Name the cuts as the Anthropic renderer does: system blocks in order, then the input.
  int system_blocks = 0;
  for (auto& bp : in.breakpoints) {
    std::string member = MemberAt(in.bytes, bp.offset);
    bp.layer = member == "system"     ? "system-block-" + std::to_string(++system_blocks)
               : member == "messages" ? "input"
                                      : member;
  }
  return in;
}

std::string FormatExplainInput(const ExplainInput& input) {
  json j;
  j["request"] = input.bytes;
  j["layers"] =
      json::parse(FormatLayerMap(input.layers).empty() ? "[]" : FormatLayerMap(input.layers));
  j["breakpoints"] = json::array();
  for (const auto& b : input.breakpoints) {
    j["breakpoints"].push_back(
        {{"offset", b.offset}, {"ttl", b.ttl == CacheTtl::k1h ? "1h" : "5m"}, {"layer", b.layer}});
  }
  return j.dump() + "\n";
}

Result<Explanation> Explain(const ExplainInput& a, const ExplainInput& b,
                            const Tokenizer& tokenizer) {
  using accounting_internal::PieceTokenizer;
  using accounting_internal::StructuralCuts;
  Explanation e;
  e.tokenizer = tokenizer.name();
  size_t n = std::min(a.bytes.size(), b.bytes.size());
  size_t i = 0;
  while (i < n && a.bytes[i] == b.bytes[i]) ++i;
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
  size_t t = 0;
  while (t < ta->ids.size() && t < tb->ids.size() && ta->ids[t] == tb->ids[t]) ++t;
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
