// request_tokens.h (private): tokenizes rendered requests the way providers cache them, block by
// block. A request is cut at every content-block or message start ({"type":", {"role":",
// <|im_start|>), at the head's layer-span boundaries and at cache breakpoints; each piece is
// tokenized on its own (memoized by content), so equal prefixes always give equal tokens and a
// breakpoint always falls on a token boundary.
#pragma once

#include <string_view>
#include <unordered_map>
#include <vector>

#include "strata/prompt.h"
#include "strata/render.h"
#include "strata/tokenizer.h"

namespace strata {

struct TokenizedRequest {
  std::vector<TokenId> ids;
  std::vector<size_t> ends;                   // byte end of each token
  std::vector<size_t> cut_tokens;             // token offset of each cut (ascending, unique, > 0)
  size_t TokensAt(size_t byte_offset) const;  // tokens ending at or before the byte offset
};

// Block starts, span boundaries and breakpoints of `bytes`, plus `extra`; sorted, unique, within
// (0, size).
std::vector<size_t> StructuralCuts(std::string_view bytes, const LayerMap& spans,
                                   const std::vector<Breakpoint>& breakpoints,
                                   const std::vector<size_t>& extra = {});

class PieceTokenizer {
 public:
  explicit PieceTokenizer(const Tokenizer& tokenizer) : tokenizer_(tokenizer) {}
  Result<TokenizedRequest> Tokenize(std::string_view bytes, const std::vector<size_t>& cuts);
  size_t bytes_tokenized() const { return bytes_tokenized_; }

 private:
  const Tokenizer& tokenizer_;
  std::unordered_map<uint64_t, TokenizedText> memo_;
  size_t bytes_tokenized_ = 0;
};

}  // namespace strata
