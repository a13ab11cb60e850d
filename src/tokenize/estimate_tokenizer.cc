// estimate_tokenizer.cc: the tokenizer that needs no vocabulary (accounting.h,
// MakeEstimateTokenizer): whole UTF-8 characters packed into tokens of at most 4 bytes.
#include <algorithm>
#include <cstdint>

#include "strata/accounting.h"

namespace strata {
namespace {

// The byte length of the UTF-8 character that starts with `lead` (1 for a stray byte, so text
// that is not UTF-8 still tokenizes, a byte at a time).
size_t CharLength(unsigned char lead) {
  if (lead >= 0xF0 && lead <= 0xF4) return 4;
  if (lead >= 0xE0) return lead <= 0xEF ? 3 : 1;
  if (lead >= 0xC2) return 2;
  return 1;
}

class EstimateTokenizer final : public Tokenizer {
 public:
  const std::string& name() const override { return name_; }

  Result<std::vector<TokenId>> Tokenize(std::string_view text) const override {
    STRATA_TRY_ASSIGN(TokenizedText t, TokenizeWithOffsets(text));
    return std::move(t.ids);
  }

  Result<TokenizedText> TokenizeWithOffsets(std::string_view text) const override {
    TokenizedText out;
    size_t begin = 0;
    while (begin < text.size()) {
      size_t end = begin;
      // Characters join the token while it stays within 4 bytes; NUL is a token of its own, so
      // every other token is free of zero bytes and its packed bytes name it uniquely.
      while (end < text.size()) {
        size_t length =
            std::min(CharLength(static_cast<unsigned char>(text[end])), text.size() - end);
        bool nul = text[end] == '\0';
        if (end > begin && (end + length - begin > 4 || nul)) break;
        end += length;
        if (nul) break;
      }
      uint32_t packed = 0;
      for (size_t i = begin; i < end; ++i) {
        packed |= uint32_t(static_cast<unsigned char>(text[i])) << (8 * (i - begin));
      }
      out.ids.push_back(static_cast<TokenId>(packed));
      out.ends.push_back(end);
      begin = end;
    }
    return out;
  }

  size_t max_token_bytes() const override { return 4; }

 private:
  std::string name_ = "estimate (4 bytes per token, no vocabulary)";
};

}  // namespace

std::unique_ptr<Tokenizer> MakeEstimateTokenizer() { return std::make_unique<EstimateTokenizer>(); }

}  // namespace strata
