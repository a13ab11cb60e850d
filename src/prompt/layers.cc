// layers.cc: layer names, the default volatility order, its validation, and the layer-map
// printout. The order check is what keeps a per-turn value out of the cached prefix.
#include <set>

#include "prompt/canonical_json.h"
#include "prompt/names.h"
#include "strata/prompt.h"

namespace strata {

const char* VolatilityName(Volatility volatility) {
  return NameOf(kVolatilityNames, volatility).data();  // the names are literals: NUL-terminated
}

const char* LayerName(LayerKind kind) { return NameOf(kLayerKindNames, kind).data(); }

std::vector<LayerDecl> DefaultLayerOrder() {
  return {
      {LayerKind::kPersona, Volatility::kStatic},
      {LayerKind::kTools, Volatility::kStatic},
      {LayerKind::kRules, Volatility::kStatic},
      {LayerKind::kEnvironment, Volatility::kSession},
      {LayerKind::kInstructions, Volatility::kSession},
      {LayerKind::kSkills, Volatility::kSession},
      {LayerKind::kNotes, Volatility::kSession},
      {LayerKind::kPlan, Volatility::kSession},
      {LayerKind::kHistory, Volatility::kSession},
      {LayerKind::kTail, Volatility::kTurn},
  };
}

Result<std::vector<Diagnostic>> ValidateLayerOrder(const std::vector<LayerDecl>& order,
                                                   OrderPolicy policy) {
  std::set<LayerKind> seen;
  int history_at = -1, tail_at = -1;
  for (size_t i = 0; i < order.size(); ++i) {
    if (!seen.insert(order[i].kind).second) {
      return MakeError(ErrorKind::kInvalidArgument,
                       std::string("layer '") + LayerName(order[i].kind) + "' is declared twice");
    }
    if (order[i].kind == LayerKind::kHistory) history_at = static_cast<int>(i);
    if (order[i].kind == LayerKind::kTail) tail_at = static_cast<int>(i);
  }
  if (history_at < 0) return MakeError(ErrorKind::kInvalidArgument, "layer 'history' is missing");
  if (tail_at < 0) return MakeError(ErrorKind::kInvalidArgument, "layer 'tail' is missing");
  if (tail_at < history_at) {
    return MakeError(ErrorKind::kInvalidArgument, "layer 'tail' must come after 'history'");
  }
  for (size_t i = history_at + 1; i < order.size(); ++i) {
    LayerKind k = order[i].kind;
    if (k == LayerKind::kPersona || k == LayerKind::kTools || k == LayerKind::kRules) {
      return MakeError(ErrorKind::kInvalidArgument,
                       std::string("layer '") + LayerName(k) +
                           "' must be above 'history': it is rendered in the system prompt or "
                           "the tools field");
    }
  }
  std::vector<Diagnostic> warnings;
  Volatility floor = Volatility::kStatic;
  std::string floor_name;
  for (int i = 0; i <= history_at; ++i) {
    const LayerDecl& layer = order[i];
    std::string problem;
    if (layer.kind != LayerKind::kHistory && layer.volatility == Volatility::kTurn) {
      problem = std::string("layer '") + LayerName(layer.kind) +
                "' (turn) is above 'history': a value that changes every turn would move the "
                "cached prefix; move it below history (into the tail) or declare it session";
    } else if (layer.kind != LayerKind::kHistory && layer.volatility < floor) {
      problem = std::string("layer '") + LayerName(layer.kind) + "' (" +
                VolatilityName(layer.volatility) + ") is below '" + floor_name + "' (" +
                VolatilityName(floor) + "): order layers from least to most volatile";
    }
    if (!problem.empty()) {
      if (policy == OrderPolicy::kRefuse) return MakeError(ErrorKind::kInvalidArgument, problem);
      warnings.push_back({Severity::kWarning, "volatility-order", problem, {}});
      continue;  // reported once: a flagged layer does not raise the floor for the others
    }
    if (layer.volatility > floor) {
      floor = layer.volatility;
      floor_name = LayerName(layer.kind);
    }
  }
  return warnings;
}

std::string FormatLayerMap(const LayerMap& map) {
  std::string out = "[\n";
  for (size_t i = 0; i < map.size(); ++i) {
    const LayerSpan& s = map[i];
    out += "  {\"layer\":";
    AppendJsonString(s.layer, &out);
    out += ",\"volatility\":";
    AppendJsonString(VolatilityName(s.volatility), &out);
    if (!s.source.empty()) {
      out += ",\"source\":";
      AppendJsonString(s.source, &out);
    }
    out += ",\"begin\":" + std::to_string(s.begin) + ",\"end\":" + std::to_string(s.end) + "}";
    out += i + 1 < map.size() ? ",\n" : "\n";
  }
  out += "]\n";
  return out;
}

}  // namespace strata
