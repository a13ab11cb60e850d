// codec.h (private): one wire codec per provider API (Anthropic Messages, OpenAI Chat Completions,
// OpenAI Responses), and the one table that dispatches on the API. Each codec lives in the files
// named for its API (anthropic_messages*.cc, openai_chat*.cc, openai_responses*.cc) and is the
// one place that knows the API's JSON: the canonical prompt explain and replay compare, the
// request strata renders, the conversation and usage a recorded body holds. Request parsing and
// reply writing for `strata serve` are the same files' *_serve.cc halves (serve_codec.h: they
// need llama.cpp's grammar code, so they build into the serve library).
//
// Adding an API: a new enumerator in RequestApi (strata/accounting.h), a codec file, and its row
// in codec.cc (and serve_codec.cc for strata serve).
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>

#include "strata/accounting.h"
#include "strata/prompt.h"
#include "strata/render.h"
#include "strata/status.h"
#include "wire/canonical_prompt.h"

namespace strata::wire {

// A usage member of the provider's object `strata record` keeps (record.h lists them).
struct UsageField {
  const char* name;
  std::vector<const char*> nested;  // empty: a count; else an object of these counts
};

// Where the prompt counts of the provider's usage object are (recorded_requests.h).
struct UsageCounts {
  const char* input;          // the prompt tokens
  const char* cached_parent;  // "" or the object holding `cached`
  const char* cached;         // the tokens read from the provider's cache
  const char* cache_write;    // "" or the tokens written to the cache
  bool input_excludes_cache;  // the whole prompt is input + cached + cache_write
};

// An event of a streamed response that carries usage (record.h, UsageScanner).
struct UsageEvent {
  const char* type;    // the event's "type"; "" for any event
  const char* parent;  // "" when `usage` is a member of the event, else the object holding it
  bool merge;          // the usage updates (member by member) the one seen before
};

// One message of a recorded request, as replay compares and imports it: a content string and
// a one-block array are the same message.
struct RecordedMessage {
  std::string role;  // "user", "assistant" ("": not replayed, e.g. reasoning items)
  std::string text;
  std::vector<ToolCall> calls;
  std::vector<Message> results;  // tool results (Role::kToolResult)
  bool operator==(const RecordedMessage& o) const;
};

struct WireCodec {
  RequestApi api;
  const char* name;           // RequestApiName: "anthropic-messages"
  const char* path_suffix;    // the request path `strata record` recognises: "/messages"
  Provider provider;          // the renderer's provider
  const char* provider_name;  // its name before RequestApi existed: "anthropic"
  // The provider honours explicit breakpoints (cache_control); false: it caches automatically.
  bool explicit_breakpoints;
  std::unique_ptr<Renderer> (*make_renderer)();
  // Appends the canonical blocks of `body` (an object) in the provider's cache order.
  Status (*canonicalize)(const nlohmann::json& body, CanonicalWriter& w);
  // Prompt-relevant client text the canonical form leaves out and that differs between a and b
  // ("system[0]:claude-code/<entry>"), appended to `out`; nullptr (left out of the row): none.
  void (*left_out_differences)(const nlohmann::json& a, const nlohmann::json& b,
                               std::vector<std::string>* out) = nullptr;
  // The conversation of a recorded body, in order.
  std::vector<RecordedMessage> (*recorded_messages)(const nlohmann::json& body);
  // The system text of a recorded body (the harness's persona).
  std::string (*system_text)(const nlohmann::json& body);
  UsageCounts usage_counts;
  std::span<const UsageEvent> usage_events;
  std::span<const UsageField> documented_usage;
  std::span<const char* const> prompt_members;  // top-level members that are prompt text
};

// The codec of `api`; every enumerator has one.
const WireCodec& CodecFor(RequestApi api);
// The codec rendering for `provider`; nullptr for kChatTemplate.
const WireCodec* CodecOfProvider(Provider provider);
// Every codec, in RequestApi order.
std::span<const WireCodec* const> AllCodecs();

// Helpers the codecs share when reading bodies (lenient: wrong shapes read as empty).
std::string StringMember(const nlohmann::json& o, const char* key);
// The text parts of `content` (a string or an array of parts), joined by blank lines.
std::string TextOf(const nlohmann::json& content);
// Tool-call arguments given as an object or as JSON text (other text: {"input": text}).
// Returned as JSON text (ToolCall::arguments_json).
std::string ArgumentsOf(const nlohmann::json& v);
Message ToolResultMessage(std::string id, std::string text, bool is_error);
// `from` applied to each object of `list` (an array of messages or items; other elements skipped).
std::vector<RecordedMessage> EachRecorded(const nlohmann::json& list,
                                          RecordedMessage (*from)(const nlohmann::json&));
// The tools of a recorded body of any of the APIs (flat, or nested under "function"), with their
// schema from "input_schema" or "parameters" ({} when neither is an object).
std::vector<ToolDefinition> RecordedTools(const nlohmann::json& body);

// The per-API codecs (codec.cc's table holds them).
extern const WireCodec kAnthropicMessagesCodec;
extern const WireCodec kOpenAiChatCodec;
extern const WireCodec kOpenAiResponsesCodec;

}  // namespace strata::wire
