// layers.h: the layers of a turn's context, their declared volatility, and the layer map that
// says which bytes of a rendered request each layer owns (SPEC.md §4, "Prompt assembly").
//
// A layer declares how often it may change: `static` (never in a normal run), `session` (fixed
// for a session or a context epoch) or `turn` (may change every turn). Providers cache by prefix,
// so the order must never put a more volatile layer above a less volatile one: nothing above the
// history may vary from turn to turn. ValidateLayerOrder enforces that rule on a declared order.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "strata/status.h"

namespace strata {

enum class Volatility { kStatic = 0, kSession = 1, kTurn = 2 };

// "static", "session" or "turn".
const char* VolatilityName(Volatility volatility);

// What a layer holds. Each kind appears at most once in a layer order.
enum class LayerKind {
  kPersona,       // identity text (system block 1)
  kTools,         // tool definitions (the provider's tools field; block 1 in a text render)
  kRules,         // tool law and invariant rules (system block 1)
  kEnvironment,   // working directory (system block 2)
  kInstructions,  // instruction sources from discovery, one span per source (block 2)
  kSkills,        // skills catalog: name, description, location; never skill bodies (block 2)
  kNotes,         // durable notes (block 2)
  kPlan,          // the plan (block 2)
  kHistory,       // the conversation so far: append-only within an epoch
  kTail,          // the volatile tail: date/time, session state, source state, one-shot signals
};

// "persona", "tools", "rules", "environment", "instructions", "skills", "notes", "plan",
// "history", "tail".
const char* LayerName(LayerKind kind);

struct LayerDecl {
  LayerKind kind = LayerKind::kPersona;
  Volatility volatility = Volatility::kStatic;
};

// The default order of SPEC.md §4: persona (static) → tools (static) → rules (static) →
// environment (session) → instructions (session) → skills (session) → notes (session) →
// plan (session) → history (session: append-only) → tail (turn).
std::vector<LayerDecl> DefaultLayerOrder();

// What to do with a layer of higher volatility above one of lower volatility.
enum class OrderPolicy { kRefuse, kWarn };

// Checks a declared order. Structural rules (always errors, kInvalidArgument naming the layer):
// every kind at most once; history and tail present, tail after history; persona, tools and rules
// above history. Volatility rule: walking down to history, volatility never decreases, and no
// `turn` layer sits above history. Under kRefuse a violation is an error naming the layer (e.g.
// "layer 'plan' (turn) is above 'history'..."); under kWarn it is a warning diagnostic of kind
// "volatility-order" and the order is accepted. Layers after history other than the tail are
// rendered inside the tail, with current values, on every request.
Result<std::vector<Diagnostic>> ValidateLayerOrder(const std::vector<LayerDecl>& order,
                                                   OrderPolicy policy);

// One entry of a layer map: the bytes [begin, end) of the rendered request that `layer` owns.
// `source` names the instruction source (its key) for instruction spans, the tool name for
// per-tool spans; empty otherwise. Spans appear in byte order and do not overlap; JSON punctuation
// between two spans belongs to no layer.
struct LayerSpan {
  std::string layer;  // LayerName, or "input" (the new user message / tool results of this
                      // request) or "epoch" (a context-update notice in the new input)
  Volatility volatility = Volatility::kStatic;
  std::string source;
  size_t begin = 0;  // byte offset into the rendered request
  size_t end = 0;    // one past the last byte
};

using LayerMap = std::vector<LayerSpan>;

// The layer map as JSON: [{"layer":..,"volatility":..,"source":..,"begin":..,"end":..}, ...]
// (source omitted when empty), one entry per line, for `strata assemble --layers`.
std::string FormatLayerMap(const LayerMap& map);

}  // namespace strata
