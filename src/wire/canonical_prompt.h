// canonical_prompt.h (private): the prompt of a provider request as the provider's prompt cache
// sees it, so that explain and replay compare what is cached rather than the raw JSON
// (docs/replay.md, "Canonical prompts").
//
// A provider caches the prompt it renders from a request, not the request's bytes. The canonical
// form keeps exactly the members that become prompt text, in the order the provider renders them,
// one block after another:
//   anthropic-messages  tools, then system, then messages (Anthropic's documented cache order);
//                       a string `system` or `content` equals one text block; `cache_control`
//                       is a breakpoint, not text; `model`, `metadata`, `stream`, `max_tokens`,
//                       `thinking`, `context_management`, `output_config`, `temperature` and
//                       every other top-level member are not prompt text; nor is Claude
//                       Code's billing block at the start of system[0] (strata/discover.h: it
//                       varies per session or request and Anthropic's cache does not count it).
//   openai-chat         tools, then `response_format`, then messages; a string `content` equals
//                       one text part; a message's other members (tool_calls, tool_call_id, name)
//                       are one block after its content.
//   openai-responses    tools, then `text.format`, then `instructions`, then input; a string
//                       `input` equals one user message, a string `content` one input_text part.
// Each block is a header line `[<member path> <role or kind> <type>]` and a body: the text of a
// text block as it is, any other block as compact JSON without `cache_control` (object members in
// sorted order: member order inside an object is not compared), then a newline. So request N+1 of
// a conversation that only grows has request N's canonical bytes as a prefix, whatever moved its
// breakpoints or changed the form of a content member.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "strata/accounting.h"
#include "strata/prompt.h"
#include "strata/render.h"
#include "strata/status.h"

namespace strata {

struct PromptBlock {
  std::string path;         // "tools[1]", "system[2]", "messages[3].content[0]", "input[4]"
  size_t begin = 0;         // offset of the header in CanonicalPrompt::bytes
  size_t body = 0;          // offset of the body
  size_t end = 0;           // one past the block's closing newline
  bool breakpoint = false;  // anthropic: the block carried cache_control
  CacheTtl ttl = CacheTtl::k5m;
};

struct CanonicalPrompt {
  RequestApi api = RequestApi::kAnthropicMessages;
  std::string model;  // the request's "model", "" when absent
  std::string bytes;
  std::vector<PromptBlock> blocks;
  // One breakpoint at the end of each block that carried cache_control, its layer the path.
  std::vector<Breakpoint> Breakpoints() const;
  // One span per block (layer = path), for the block-wise tokenizer.
  LayerMap Spans() const;
  // The block holding byte `offset` (the last block when offset is the size), or nullptr.
  const PromptBlock* BlockAt(size_t offset) const;
};

// Writes a CanonicalPrompt block by block; the codecs (codec.h) call it in their cache order.
class CanonicalWriter {
 public:
  CanonicalWriter(RequestApi api, const Location& where) : where_(where) { out_.api = api; }

  // A block: `[path label]\n` + body + `\n`; `cache_control` (an object) makes it a breakpoint.
  void Add(const std::string& path, std::string_view label, std::string_view body,
           const nlohmann::json* cache_control = nullptr);
  // A content block (an object with "type"): a text block's text, any other block as JSON.
  Status Block(const nlohmann::json& block, const std::string& path, std::string_view role);
  // `content`: a string (one text block of `text_type`) or an array of blocks.
  Status Content(const nlohmann::json& content, const std::string& path, std::string_view role,
                 std::string_view text_type);
  // Each element of the array member `key` of `body` as one JSON block (tools).
  Status JsonArray(const nlohmann::json& body, const std::string& key, std::string_view label);
  // The role of message `m` at `path` ("user" when absent), an error unless it is a string.
  Result<std::string> RoleOf(const nlohmann::json& m, const std::string& path);
  // The array member `key` (nullptr when absent or null), an error unless it is an array.
  Result<const nlohmann::json*> MessagesOf(const nlohmann::json& body, const std::string& key);
  // kParse at the request's location naming the member and the API.
  tl::unexpected<Error> Fail(const std::string& path, std::string_view message) const;

  CanonicalPrompt Take() { return std::move(out_); }

 private:
  CanonicalPrompt out_;
  Location where_;
};

// A copy of `v` without any "cache_control" member, at any depth.
nlohmann::json WithoutCacheControl(const nlohmann::json& v);

// The API a request body was written for, from its members: `input` or `instructions`: Responses;
// top-level `system`, a block with `cache_control`, or a tool with `input_schema`: Anthropic
// Messages; a message of role system/developer/tool or a tool of type "function": Chat
// Completions; otherwise Anthropic Messages.
RequestApi GuessRequestApi(const nlohmann::json& body);

// The canonical prompt of `body`. Errors (kParse at `where`, naming the member path): a prompt
// member of the wrong shape (messages not an array, content neither a string nor an array, a block
// that is not an object, a text block without a string "text").
Result<CanonicalPrompt> CanonicalizeRequest(const nlohmann::json& body, RequestApi api,
                                            const Location& where);

// The top-level members of `a` and `b` that differ and are not prompt text for `api` (sorted),
// e.g. {"metadata", "stream"}; then, for Anthropic Messages, "system[0]:claude-code/<entry>"
// when the billing blocks the canonical form leaves out differ (strata/discover.h).
std::vector<std::string> NonPromptDifferences(const nlohmann::json& a, const nlohmann::json& b,
                                              RequestApi api);

}  // namespace strata
