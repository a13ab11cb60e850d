// tokenizer.h: the tokenizer interface cache accounting counts with.
//
// Providers cache token sequences, not bytes, so every figure strata reports (cached, written,
// uncached tokens) comes from a real tokenizer. The interface lives in the core library so the
// cache models and replay need no inference engine; the implementation that loads a llama.cpp
// vocabulary file (src/tokenize/vocab_tokenizer.h) lives in strata_local. Every report names the
// tokenizer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "strata/export.h"
#include "strata/status.h"

namespace STRATA_EXPORT strata {

using TokenId = int32_t;

// Token ids of a text with, for each token, the byte offset one past its last byte in the text.
// `ends` is non-decreasing and its last entry is the text size (an empty text has no tokens).
struct TokenizedText {
  std::vector<TokenId> ids;
  std::vector<size_t> ends;
};

class Tokenizer {
 public:
  virtual ~Tokenizer() = default;
  // Names the tokenizer in reports, e.g. "llama.cpp vocab qwen2".
  virtual const std::string& name() const = 0;
  // The ids of `text` as the engine tokenizes a prompt body: no BOS/EOS added, special-token text
  // treated as plain text. Errors: kInvalidArgument when the engine refuses the text.
  virtual Result<std::vector<TokenId>> Tokenize(std::string_view text) const = 0;
  // Tokenize plus byte ends, from the tokens' pieces. Where the pieces do not concatenate to the
  // text exactly (a SentencePiece vocabulary adds a leading space), the difference is taken off
  // the first token, so offsets stay within [0, text.size()].
  virtual Result<TokenizedText> TokenizeWithOffsets(std::string_view text) const = 0;
};

// Number of tokens whose end is at or before byte `offset`: the length in tokens of the prefix
// that ends at that byte (a token straddling it is not part of the prefix).
size_t TokensBefore(const TokenizedText& text, size_t offset);

}  // namespace strata
