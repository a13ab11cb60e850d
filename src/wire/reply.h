// reply.h (private): a model's reply as the wire codecs write it back (reply_writer.h): the whole
// reply parsed into text, reasoning and tool calls, and the steps of a streamed one. The local
// engine's parser (local/conversation_template.h) produces them; JSON is held as text because
// llama.cpp's `common` headers bring their own JSON library.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace strata {

// A candidate token and its log probability (natural log; the lowest float for probability 0).
struct TokenProb {
  int32_t id = 0;
  std::string token;  // its text (may end inside a UTF-8 sequence: writers cut it, bytes keep it)
  float logprob = 0;
};

// A generated token's log probability and the likeliest candidates at its step (most likely
// first), as the logprobs / top_logprobs / n_probs members ask (llama-server: from the logits
// before sampling).
struct TokenLogprob {
  TokenProb sampled;
  std::vector<TokenProb> top;
};

struct TemplateToolCall {
  std::string id;
  std::string name;
  std::string arguments;  // JSON text of the arguments object
};

// One step of a streamed reply: new content or reasoning text, or a new tool call / more of a
// tool call's arguments (tool_index >= 0).
struct ReplyDelta {
  std::string content;
  std::string reasoning;
  int tool_index = -1;
  std::string tool_id, tool_name, tool_arguments;
  // The log probabilities of the tokens sampled since the last delta (when asked for); a delta
  // may carry only these.
  std::vector<TokenLogprob> logprobs;
};

struct ParsedReply {
  std::string content;
  std::string reasoning;
  std::vector<TemplateToolCall> tool_calls;
};

}  // namespace strata
