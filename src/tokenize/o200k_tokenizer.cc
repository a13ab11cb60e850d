// o200k_tokenizer.cc: the o200k_base Tokenizer without llama.cpp's regex (o200k_tokenizer.h).
#include "tokenize/o200k_tokenizer.h"

#include <algorithm>

#include "tokenize/o200k_pieces.h"

namespace strata {
namespace {

class O200kTokenizer final : public Tokenizer {
 public:
  O200kTokenizer(std::string name, std::unique_ptr<ByteBpe> bpe)
      : name_(std::move(name)), bpe_(std::move(bpe)) {}

  const std::string& name() const override { return name_; }

  Result<std::vector<TokenId>> Tokenize(std::string_view text) const override {
    std::vector<TokenId> ids;
    ids.reserve(text.size() / 4 + 1);
    STRATA_TRY(Each(
        text, [&](std::string_view, size_t) {}, &ids));
    return ids;
  }

  Result<TokenizedText> TokenizeWithOffsets(std::string_view text) const override {
    TokenizedText out;
    out.ids.reserve(text.size() / 4 + 1);
    out.ends.reserve(text.size() / 4 + 1);
    // Each piece's tokens end where their bytes end, the last one at the piece's end (they differ
    // only where llama.cpp reads a byte as U+FFFD).
    size_t begin = 0;
    STRATA_TRY(Each(
        text,
        [&](std::string_view piece, size_t first) {
          size_t end = begin;
          for (size_t i = first; i < out.ids.size(); ++i) {
            end = std::min(end + bpe_->BytesOf(out.ids[i]).size(), begin + piece.size());
            out.ends.push_back(i + 1 == out.ids.size() ? begin + piece.size() : end);
          }
          begin += piece.size();
        },
        &out.ids));
    return out;
  }

  size_t max_token_bytes() const override { return bpe_->max_token_bytes(); }

 private:
  // Encodes each piece of `text` into `ids`, then calls on_piece(piece, index of its first id).
  template <class OnPiece>
  Status Each(std::string_view text, OnPiece on_piece, std::vector<TokenId>* ids) const {
    O200kPieces pieces(text);
    std::string_view piece;
    bool not_utf8 = false;
    while (pieces.Next(&piece, &not_utf8)) {
      const size_t first = ids->size();
      if (not_utf8) {
        STRATA_TRY_ASSIGN(std::string read, AsLlamaReads(piece));
        bpe_->Encode(read, *ids);
      } else {
        bpe_->Encode(piece, *ids);
      }
      on_piece(piece, first);
    }
    return {};
  }

  std::string name_;
  std::unique_ptr<ByteBpe> bpe_;
};

}  // namespace

std::unique_ptr<Tokenizer> MakeO200kTokenizer(std::string name, std::unique_ptr<ByteBpe> bpe) {
  return std::make_unique<O200kTokenizer>(std::move(name), std::move(bpe));
}

}  // namespace strata
