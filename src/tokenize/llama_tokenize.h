// llama_tokenize.h: text to token ids through llama.cpp's vocabulary, in one call site for the
// whole library (llama_tokenize reports a too-small buffer by returning minus the size it needs:
// the buffer is grown once and the call repeated).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "strata/status.h"

struct llama_model;
struct llama_vocab;

namespace strata {

// Tokens of `text`. `add_special`: the vocabulary's BOS (and EOS) rules apply; `parse_special`:
// special-token text (e.g. "<|im_start|>") becomes its single token. Errors: kLimit when the text
// is too long for llama.cpp's int32 lengths, kInvalidArgument when llama.cpp fails.
Result<std::vector<int32_t>> LlamaTokenize(const llama_vocab* vocab, std::string_view text,
                                           bool add_special, bool parse_special);

// The most text bytes one token of `vocab` stands for: the longest piece (special tokens' text
// included). A text of B bytes has at least ceil(B / MaxTokenBytes) tokens, whatever the
// tokenizer's merges: the cheap bound that refuses a text too long for a context before
// tokenizing it (whose memory grows with the text: tens of bytes per byte in llama.cpp).
// Only for byte-level BPE and SentencePiece vocabularies, which keep every input byte; 0 (no
// bound) for the others (WordPiece and Unigram drop whitespace and accents). Reads each piece
// once (~0.1 s for a 150k vocabulary): compute once per model.
size_t MaxTokenBytes(const llama_vocab* vocab);
size_t MaxTokenBytes(const llama_model* model);  // of the model's vocabulary

// Starts llama.cpp's backend (idempotent) with its log limited to errors, or everything when
// STRATA_LLAMA_LOG is set: llama.cpp's progress lines would otherwise precede strata's output.
void InitQuietLlamaBackend();

}  // namespace strata
