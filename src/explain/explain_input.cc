// explain_input.cc: reading and writing what `strata explain` compares: rendered requests with
// their layer maps and breakpoints (replay.h), and the JSON member a byte falls in
// (explain_input.h).
#include "explain/explain_input.h"

#include <nlohmann/json.hpp>

#include "io/file_io.h"
#include "strata/replay.h"
#include "text/text.h"
#include "wire/canonical_prompt.h"

namespace strata {

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

Result<LayerMap> ParseLayerMap(std::string_view text, std::string_view path) {
  json j = json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_array()) {
    return MakeError(ErrorKind::kParse, "layer map must be a JSON array", {std::string(path)});
  }
  LayerMap map;
  for (size_t i = 0; i < j.size(); ++i) {
    const json& e = j[i];
    if (!e.is_object())
      return MakeError(ErrorKind::kParse, "layer map entry is not an object", {std::string(path)});
    try {
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
    } catch (const json::exception&) {  // a member of the wrong type
      return MakeError(ErrorKind::kParse,
                       "layer map entry " + std::to_string(i) +
                           ": layer, volatility and source must be strings, begin and end "
                           "non-negative integers",
                       {std::string(path)});
    }
  }
  return map;
}

namespace {

// The request as JSON, or a discarded value for chat-template text (no JSON, holding `<|`).
// Errors: kParse for JSON that is invalid, truncated or holds a number beyond a double.
Result<json> ParseRequestOrTemplate(std::string_view text, std::string_view path,
                                    const std::string& what) {
  try {
    return json::parse(text);
  } catch (const json::parse_error& err) {
    const size_t first = text.find_first_not_of(" \t\r\n");
    const bool looks_json =
        first != std::string_view::npos && (text[first] == '{' || text[first] == '[');
    if (looks_json || text.find("<|") == std::string_view::npos) {
      size_t at = err.byte > 0 ? err.byte - 1 : 0;
      return MakeError(ErrorKind::kParse,
                       std::string(looks_json ? "invalid or truncated JSON" : "not JSON") + what,
                       LocationAt(path, text, std::min(at, text.size())));
    }
    return json(json::value_t::discarded);  // chat-template text
  } catch (const json::exception& err) {
    // A number too large for a double (out_of_range 406): JSON, but not one strata can read.
    return MakeError(ErrorKind::kParse, std::string("invalid JSON (") + err.what() + ")" + what,
                     {std::string(path), 1, 1});
  }
}

}  // namespace

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
  STRATA_TRY_ASSIGN(json j, ParseRequestOrTemplate(text, path, what));
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
  if (!j.is_discarded() && (j.contains("messages") || j.contains("input"))) {
    in.api = RequestApiName(GuessRequestApi(j));
  }
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

Result<ExplainInput> LoadExplainInput(const std::filesystem::path& path,
                                      const std::filesystem::path& layers_path) {
  STRATA_TRY_ASSIGN(std::string bytes, ReadInputBytes(path));
  STRATA_TRY_ASSIGN(ExplainInput in,
                    ParseExplainInput(bytes, path == "-" ? "<stdin>" : path.string()));
  if (layers_path.empty()) return in;
  STRATA_TRY_ASSIGN(std::string map_bytes, ReadFileBytes(layers_path));
  STRATA_TRY_ASSIGN(in.layers, ParseLayerMap(map_bytes, layers_path.string()));
  return in;
}

Status SaveExplainInput(const std::filesystem::path& path, const ExplainInput& input) {
  return WriteFileAtomic(path, FormatExplainInput(input));
}

}  // namespace strata
