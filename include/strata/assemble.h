// assemble.h: the per-turn prompt assembler a harness calls.
//
// A ContextSession owns a conversation and the baseline its cached prefix was rendered from. Each
// turn the harness passes its current view of every context source (ContextInputs) and the
// volatile data of the moment (TurnInputs); the session decides what reaches the model where:
//   - persona, rules and tools (static) and environment, instructions, skills, notes and plan
//     (session) are rendered once, from the baseline, into the tools field and two system blocks;
//   - a change to a session source is announced at the next safe boundary (BeginTurn after a
//     completed turn, never inside a tool-call streak) as one context-update message holding a
//     diff; unchanged sources cost nothing, and the system blocks stay as they were;
//   - a tool that appears mid-session is listed in the volatile tail until that announcement;
//   - the volatile tail (date/time, session state, source state, one-shot signals, tail layers)
//     rides after the newest user message's content and is never stored in the history;
//   - the baseline is rebuilt only at compaction, a model-family switch, or a real change of
//     persona, rules or tool surface (a tool removed or redefined), reported as a CacheEvent.
// Rendering is incremental: each provider's history bytes are cached and only appended to, so a
// turn costs time in proportion to what it adds, not to the length of the conversation.
// A session is not thread-safe; use one per conversation (they share nothing).
#pragma once

#include <array>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "strata/prompt.h"
#include "strata/render.h"
#include "strata/status.h"

namespace STRATA_EXPORT strata {

class ChatTemplate;

// One instruction source, e.g. a discovered AGENTS.md. `key` is stable across turns (a path
// relative to the project root); `text` has passed CleanText.
struct InstructionSource {
  std::string key;
  std::string text;
};

// A skills-catalog entry: only what the model needs to decide to load the skill, never its body.
struct SkillEntry {
  std::string name;
  std::string description;
  std::string location;  // where the body can be read, e.g. a path
};

struct KeyValue {
  std::string key;
  std::string value;
};

// A one-shot signal (e.g. a permission-mode change). The session shows each id in exactly one
// request (re-rendering the same state for another provider or a retry shows it again; any
// appended message consumes it); pass it again and it is ignored. Use a fresh id per event.
struct Signal {
  std::string id;
  std::string text;
};

// The harness's current view of every context source.
struct ContextInputs {
  std::string model;         // the provider's model id, written into the request
  std::string model_family;  // cache compatibility class; empty means `model`
  std::string persona;
  std::vector<std::string> rules;  // tool law and invariant rules, one per entry
  std::vector<ToolDefinition> tools;
  std::string cwd;
  std::vector<InstructionSource> instructions;
  std::vector<SkillEntry> skills;
  std::string notes;
  std::string plan;
};

// The volatile data of this request. Lines in the tail appear in this order.
struct TurnInputs {
  std::string now;                      // RFC 3339, e.g. "2026-11-29T10:00:00Z"; empty: omitted
  std::vector<KeyValue> session_state;  // e.g. {"permission-mode", "default"}
  std::vector<KeyValue> source_state;   // e.g. {"git", "clean"}
  std::vector<Signal> signals;
};

enum class CacheEventReason {
  kCompaction,          // the history was compacted; the prefix is rebuilt from current sources
  kModelFamilySwitch,   // a different model family cannot reuse the cache
  kPersonaChanged,      // system block 1 text (persona or rules) changed
  kToolSurfaceChanged,  // a tool was removed or its definition changed
};

// "compaction", "model-family-switch", "persona-changed", "tool-surface-changed".
const char* CacheEventReasonName(CacheEventReason reason);

// A baseline rebuild: every cached prefix of the session is invalid from this request on.
struct CacheEvent {
  CacheEventReason reason = CacheEventReason::kCompaction;
  std::string detail;  // what changed, e.g. "model family claude-4 -> gpt-5"
  int turn = -1;       // history length (messages) of the first request rendered from the
                       // rebuilt baseline; -1 until that request is rendered
};

struct AssembleOptions {
  std::vector<LayerDecl> layers = DefaultLayerOrder();
  OrderPolicy order_policy = OrderPolicy::kRefuse;
  ToolOrder tool_order = ToolOrder::kSorted;
  int max_tokens = 4096;                        // Anthropic's max_tokens
  int long_ttl_breakpoints = 0;                 // Anthropic: the first N breakpoints get a 1 h TTL
  std::string prompt_cache_key;                 // OpenAI: sent when non-empty
  const ChatTemplate* chat_template = nullptr;  // text render; null: ChatML. Must outlive session
};

struct AssembledRequest {
  RenderedRequest request;
  std::vector<CacheEvent> events;       // baseline rebuilds this request is the first to carry
  std::vector<Diagnostic> diagnostics;  // e.g. volatility-order warnings
};

class ContextSession {
 public:
  // Validates the layer order (ValidateLayerOrder with options.order_policy). `history` is a
  // conversation already in progress (e.g. loaded from a session file); it is taken as is, once
  // every tool call's arguments_json is JSON text (else kParse naming the call, prompt.h).
  static Result<ContextSession> Create(AssembleOptions options, std::vector<Message> history = {});

  ContextSession(ContextSession&&) noexcept;
  ContextSession& operator=(ContextSession&&) noexcept;
  ~ContextSession();

  // Starts a user turn. At a safe boundary (empty history, or the last message is an assistant
  // message without tool calls) the sources that changed since the model last saw them are
  // announced first in one appended context-update message. Then `user_text` is appended.
  // Errors: kInvalidArgument when a tool call of the last assistant message has no result; kParse
  // when a tool's input_schema_json is not JSON text (naming the tool, prompt.h).
  Status BeginTurn(const ContextInputs& inputs, std::string user_text);

  // Appends a message the harness received: an assistant message or a tool result.
  // Errors: kInvalidArgument for a tool result that answers no call of the preceding assistant
  // message, or for a kUser / kContextUpdate message (use BeginTurn); kParse when a tool call's
  // arguments_json is not JSON text (naming the call).
  Status Append(Message message);

  // Renders the request for the current conversation. Repeatable: the same state renders the
  // same bytes. The result's segments view this session's memory (see RenderedRequest).
  // Errors: kParse when a tool's input_schema_json is not JSON text (naming the tool).
  Result<AssembledRequest> Render(Provider provider, const ContextInputs& inputs,
                                  const TurnInputs& turn);

  // Moves the bytes of the last Render's tail for `provider` (the request's last segment: the new
  // input and the volatile tail, rendered afresh by every Render) out of the session, for a caller
  // that keeps the request's bytes and would otherwise hold a copy of them beside the session's
  // (replay, on a huge new message). The segments that Render returned no longer hold the tail
  // afterwards. Empty when nothing was rendered for `provider` since the last call.
  std::string TakeTail(Provider provider);

  // Replaces the history (e.g. with a summary) and rebuilds the baseline from the next call's
  // inputs; that request reports a kCompaction event. `history` is taken as is (a tool call whose
  // arguments are not JSON text renders them as a JSON string, prompt.h).
  void Compact(std::vector<Message> history);

  // Every rebuild so far, in order (the first, building the initial baseline, is not an event).
  const std::vector<CacheEvent>& events() const;
  const std::vector<Message>& history() const;

 private:
  struct State;
  explicit ContextSession(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

// ---- Inputs from files: `strata assemble --session FILE --project DIR` ----

// The JSON session file `strata assemble` reads (format and strictness: docs/assemble.md). The
// format is strata's own, so it is read strictly: a member the format does not have is an error
// naming the closest member it does have, and a member of the wrong type is an error naming its
// full path (`history[3].tool_calls[0].id`).
struct SessionFile {
  ContextInputs inputs;
  TurnInputs turn;
  std::vector<Message> history;  // the conversation before the new user message
  std::string user;              // the new user message; empty: no new turn (e.g. mid-streak)
  AssembleOptions options;
};

// Parses session-file JSON. `path` labels errors (every error carries it). Errors:
//   kParse: malformed JSON (at the line and column where parsing failed); a member of the wrong
//     type ("'history[1].tool_calls[0].id' must be a string"); an unknown member ("'histroy' is
//     not a known member; did you mean 'history'? (known: ...)").
//   kInvalidArgument: a bad value: an unknown role, a `now` that is not an RFC 3339 date-time, an
//     unknown tool_order, a second tool with the same name, a tool result whose tool_call_id
//     answers no call of the preceding assistant message (AnswersToolCall, prompt.h),
//     options.max_tokens below 1 or beyond a 32-bit integer, options.long_ttl_breakpoints
//     outside 0-4.
Result<SessionFile> ParseSessionFile(std::string_view json_text, std::string_view path);

// Reads and parses the session file at `path`; "-" reads standard input (labelled "<stdin>" in
// errors). Errors: kNotFound (no such file), kIo (not a regular file, or the read failed), kLimit
// (over 256 MiB), then as ParseSessionFile.
Result<SessionFile> LoadSessionFile(const std::filesystem::path& path);

// The instruction sources of project directory `project`, found by Discover (discover.h) with
// `project` as both the project root and the working directory: its AGENTS.md, CLAUDE.md and
// GEMINI.md (a symlinked pair once), local files and their `@path` imports, in precedence order;
// key = the source's display path ("AGENTS.md"). None when there are none. Errors: kNotFound when
// `project` does not exist, kInvalidArgument when it is not a directory.
// Discovery's diagnostics (paths relative to `project`) are appended to `diagnostics` when it is
// not null: an error-severity one means a file was refused (binary, invalid UTF-8, over the 4 MiB
// read limit, unreadable) and its text is missing from the result; a warning means a file was
// skipped or loaded with a caveat (e.g. a directory named AGENTS.md, a missing import); notes are
// informational (e.g. a generated copy of AGENTS.md skipped). Callers should show them: the
// sources alone cannot tell a missing AGENTS.md from a refused one.
Result<std::vector<InstructionSource>> LoadProjectInstructions(
    const std::filesystem::path& project, std::vector<Diagnostic>* diagnostics = nullptr);

}  // namespace strata
