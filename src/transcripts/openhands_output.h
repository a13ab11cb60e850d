// openhands_output.h (private): reads an OpenHands evaluation `output.jsonl` into a Transcript
// (format: docs/replay.md, "openhands").
//
// Each line of output.jsonl is one benchmark instance: `instance_id`, `metadata` (the LLM config),
// `history` (the event stream, serialized event by event) and `metrics` (`token_usages`: one entry
// per model response, keyed by `response_id`). history[0] is the agent's system message: its
// `args.content` is the full system prompt and `args.tools` the tool definitions (OpenAI function
// format), so the replay needs no --prefix-from. User `message` actions are user messages; agent
// actions that carry `tool_call_metadata` are the tool calls of the response
// `tool_call_metadata.model_response.id` (one request per response id, its text the response's
// message content); observations that carry it are the results; an agent `message` action without
// it is a reply without tool calls (its own request). Each request's usage is its response's
// `token_usages` entry (`prompt_tokens`, `cache_read_tokens`, `cache_write_tokens`). Lenient
// (base/json_reader.h kLenient).
#pragma once

#include <string_view>

#include "strata/status.h"
#include "transcripts/transcript.h"

namespace strata {

// `instance`: the instance_id to read; empty reads the file's only instance. Errors: kParse for a
// malformed line or a member of the wrong shape (path:line); kInvalidArgument when `instance` is
// empty and the file holds several instances, or names none of them (both list the ids).
Result<Transcript> ImportOpenHands(std::string_view jsonl, std::string_view path,
                                   std::string_view instance);

}  // namespace strata
