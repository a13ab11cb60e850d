// request_limits.h (private): bounds a request is held to before the work they bound.
#pragma once

#include <cstddef>
#include <cstdint>

#include "wire/serve_request.h"

namespace strata::serve {

// The cheap bound before tokenizing: a prompt of `prompt_bytes` has at least
// ceil(prompt_bytes / max_token_bytes) tokens (tokenize/llama_tokenize.h, MaxTokenBytes), so when
// that (plus one generated token) exceeds `n_ctx` the prompt cannot fit, and tokenizing it (memory
// tens of times its size in llama.cpp) is skipped. Errors: 413 request_too_large naming the bytes,
// the least token count and the context. max_token_bytes 0: no bound (true).
ApiResult<bool> CheckPromptBytes(size_t prompt_bytes, size_t max_token_bytes, uint32_t n_ctx);

// The bytes any rendering of `request` holds at least: its system text and message texts, each
// without leading and trailing whitespace (a template may trim them). Checked with
// CheckPromptBytes before the chat template renders (its memory is several times the text).
size_t LeastPromptBytes(const ServeRequest& request);

}  // namespace strata::serve
