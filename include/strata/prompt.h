// prompt.h: the vocabulary every prompt is made of: messages, tool definitions and their stable
// order, and layers with their declared volatility. The renderers (render.h) and the assembler
// (assemble.h) both speak it; a harness author builds these values and hands them over.
//
// Messages. The history is append-only between baseline rebuilds: a rendered message never
// changes, which is what lets the renderers cache its bytes. A turn's "new input" is the run of
// non-assistant messages after the last assistant message (the user message, or the tool results
// of a tool-call streak, plus any context-update notice); everything before it is history proper.
// A tool result answers a call of the assistant message it follows (the pairing rule below).
//
// Tools. The tool list sits at the very top of a provider's cache prefix, so it must serialize to
// the same bytes whatever order the tool servers registered in, after a reconnect, and whatever key
// order a schema arrived with: a definition is serialized canonically (sorted keys, one number
// spelling), and the list is either sorted by name or kept in first-registration order, frozen
// for the session.
//
// Layers. A layer declares how often it may change: `static` (never in a normal run), `session`
// (fixed for a session or a context epoch) or `turn` (may change every turn). Providers cache by
// prefix, so the order must never put a more volatile layer above a less volatile one: nothing
// above the history may vary from turn to turn. ValidateLayerOrder enforces that rule.
#pragma once

#include <cstddef>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "strata/status.h"

namespace STRATA_EXPORT strata {

// ---- Messages ----------------------------------------------------------------------------------

enum class Role {
  kUser,           // a user message
  kAssistant,      // model output: text and/or tool calls
  kToolResult,     // the result of one tool call (tool_call_id names it)
  kContextUpdate,  // a context-epoch notice: changed sources, rendered as a system message
};

// JSON text fields (ToolCall::arguments_json, ToolDefinition::input_schema_json) hold one JSON
// value as UTF-8 text, in any key order and spacing; "" and null mean {}. The renderers write
// the canonical form (CanonicalJsonText), so two spellings of one value render to the same bytes.
// Text that is not JSON is refused by ContextSession (kParse naming the call or tool, at the line
// and column of the text, assemble.h); a bare renderer (render.h) writes it as a JSON string, so
// nothing is dropped.

struct ToolCall {
  std::string id;                     // provider call id, e.g. "toolu_01"
  std::string name;                   // the tool's name
  std::string arguments_json = "{}";  // JSON text of the arguments, normally an object
};

struct Message {
  Role role = Role::kUser;
  std::string text;                  // UTF-8; for kToolResult the result text
  std::vector<ToolCall> tool_calls;  // kAssistant only
  std::string tool_call_id;          // kToolResult only
  bool is_error = false;             // kToolResult only: the tool failed
};

// The tool-result pairing rule: a tool result answers one call of the assistant message it
// follows, i.e. the nearest earlier message that is not itself a tool result must be an assistant
// message and one of its tool_calls must carry the result's tool_call_id. Anthropic wants the
// tool_result blocks right after the tool_use turn, and OpenAI refuses a tool message whose id
// answers no call, so a history that breaks the rule cannot be rendered for either.

// The assistant message a tool result appended after `history` would answer: the last message
// that is not a tool result, when it is an assistant message; nullptr otherwise (empty history,
// or a user message or context update last). Points into `history`.
const Message* AskingMessage(std::span<const Message> history);

// True when a tool result carrying `tool_call_id`, appended after `history`, answers a call of
// AskingMessage(history).
bool AnswersToolCall(std::span<const Message> history, std::string_view tool_call_id);

// The ids of the calls of AskingMessage(history) that no tool result after it answers yet, in
// call order; empty when there is no asking message or every call has its result. A user turn
// may start only when this is empty.
std::vector<std::string> UnansweredToolCalls(std::span<const Message> history);

// ---- Tools -------------------------------------------------------------------------------------

struct ToolDefinition {
  std::string name;                      // unique within a session; the sort key
  std::string description;               // UTF-8
  std::string input_schema_json = "{}";  // JSON text of the arguments' JSON Schema
};

enum class ToolOrder {
  kSorted,        // by name (byte order): independent of registration order altogether
  kRegistration,  // first time each name was registered; re-registering keeps the old position
};

// The canonical form of JSON text (the rules of CanonicalToolJson below); "" and null give "{}".
// Errors: kParse located at `label`:line:column of the text where it stops being JSON.
Result<std::string> CanonicalJsonText(std::string_view json_text, std::string_view label);

// The canonical JSON of one definition: {"description":..,"input_schema":..,"name":..} with the
// schema's keys sorted at every depth, no whitespace, and one spelling per number (integral
// values below 2^53 as integers, -0 as 0, other doubles in shortest round-trip form). Two
// definitions are the same tool surface exactly when these bytes are equal. A schema that is not
// JSON text is written as a JSON string.
std::string CanonicalToolJson(const ToolDefinition& tool);

// Remembers the order in which tool names were first registered in a session. Not thread-safe.
class ToolRegistry {
 public:
  explicit ToolRegistry(ToolOrder order = ToolOrder::kSorted) : order_(order) {}
  // Records any names of `tools` not seen before, in the order given.
  void Register(const std::vector<ToolDefinition>& tools);
  // `tools` in the configured order (duplicates by name: the last definition wins).
  std::vector<ToolDefinition> Ordered(const std::vector<ToolDefinition>& tools) const;
  ToolOrder order() const { return order_; }

 private:
  ToolOrder order_;
  std::map<std::string, size_t> first_seen_;  // name -> registration rank
};

// ---- Layers ------------------------------------------------------------------------------------

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

// The default order: persona (static) → tools (static) → rules (static) → environment
// (session) → instructions (session) → skills (session) → notes (session) → plan (session) →
// history (session: append-only) → tail (turn).
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
