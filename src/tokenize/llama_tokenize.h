// llama_tokenize.h: text to token ids through llama.cpp's vocabulary, in one call site for the
// whole library (llama_tokenize reports a too-small buffer by returning minus the size it needs:
// the buffer is grown once and the call repeated).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "strata/status.h"

struct llama_vocab;

namespace strata {

// Tokens of `text`. `add_special`: the vocabulary's BOS (and EOS) rules apply; `parse_special`:
// special-token text (e.g. "<|im_start|>") becomes its single token. Errors: kLimit when the text
// is too long for llama.cpp's int32 lengths, kInvalidArgument when llama.cpp fails.
Result<std::vector<int32_t>> LlamaTokenize(const llama_vocab* vocab, std::string_view text,
                                           bool add_special, bool parse_special);

// Starts llama.cpp's backend (idempotent) with its log limited to errors, or everything when
// STRATA_LLAMA_LOG is set: llama.cpp's progress lines would otherwise precede strata's output.
void InitQuietLlamaBackend();

}  // namespace strata
