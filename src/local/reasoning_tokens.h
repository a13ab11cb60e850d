// reasoning_tokens.h: how many of a reply's generated tokens are its thinking: what the Responses
// API reports as usage.output_tokens_details.reasoning_tokens (llama-server reports no such count;
// OpenAI's is the tokens a model reasons with).
//
// The thinking lies between the chat template's thinking tags (common's thinking_start_tag and
// thinking_end_tags, e.g. "<think>" and "</think>"). It is open when the reply starts if the
// generation prompt's last tag is the start tag (GLM-4.7-Flash's generation prompt ends with
// "<think>"), or opened by the start tag at the reply's beginning (after whitespace: Qwen3's model
// writes "<think>" itself). It ends with the first end tag after that. The thinking's tokens are
// the generated tokens whose text begins before its end: the tags the model wrote included (the
// end tag forced by a reasoning budget too); a reply that ends while thinking is all thinking.
// None when the template has no thinking tags or the reply does not think.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace strata::serve {

// `text`: the reply's generated text as the model wrote it (tags and all); `token_starts`: the
// byte offset in `text` where each generated token's text begins, one per token counted as output
// (ascending). `generation_prompt`: the end of the prompt the template adds for the reply.
size_t CountReasoningTokens(std::span<const size_t> token_starts, std::string_view text,
                            std::string_view generation_prompt, std::string_view start_tag,
                            std::span<const std::string> end_tags);

}  // namespace strata::serve
