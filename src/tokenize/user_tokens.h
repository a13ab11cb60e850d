// user_tokens.h (private): the tokens llama.cpp splits out of plain text before its pre-tokenizer
// runs, for a tokenizer that runs without llama.cpp's model (byte_bpe_tokenizer.h).
//
// llama.cpp (llama_vocab::impl::tokenizer_st_partition in its src/llama-vocab.cpp) walks its
// special-token cache: every token whose attributes hold CONTROL, USER_DEFINED or UNKNOWN, in id
// order, then std::sort by text length, longest first. With special text not parsed (strata's
// prompt bodies), CONTROL and UNKNOWN tokens are skipped, so only the user-defined ones split:
// each in turn, in that order, is found in every stretch of plain text still left, leftmost
// first, each find resuming after the previous match, and becomes its own token; the stretches
// around it stay plain text. (qwen2's vocabulary has 290: "[PAD151646]" and on.)
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

struct llama_vocab;

namespace strata {

class UserTokens {
 public:
  // A stretch of the text: plain text (id -1) or one user-defined token.
  struct Segment {
    size_t begin = 0;
    size_t end = 0;
    int32_t id = -1;
  };

  // `vocab`'s user-defined tokens in llama.cpp's order, or nothing when one of them has an
  // attribute strata does not apply (LSTRIP or RSTRIP, which strip spaces beside a match) or no
  // text: such a vocabulary keeps llama.cpp's own tokenizer.
  static std::optional<UserTokens> FromVocab(const llama_vocab* vocab);

  bool empty() const { return tokens_.empty(); }

  // `text` cut as llama.cpp cuts it: the segments in order, covering it; none (and nothing
  // allocated) when no token occurs in it.
  std::vector<Segment> Partition(std::string_view text) const;

 private:
  struct Token {
    std::string text;
    int32_t id = -1;
  };
  std::vector<Token> tokens_;                      // llama.cpp's order: the first found first
  std::unordered_map<std::string, size_t> order_;  // text -> index in tokens_
  std::vector<size_t> lengths_;                    // the distinct token lengths
  bool first_byte_[256] = {};                      // some token starts with this byte
};

}  // namespace strata
