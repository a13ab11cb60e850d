// byte_bpe_tokenizer.cc: a byte-level BPE Tokenizer without llama.cpp's model
// (byte_bpe_tokenizer.h).
#include "tokenize/byte_bpe_tokenizer.h"

#include <algorithm>

#include "tokenize/o200k_pieces.h"

namespace strata {
namespace {

class ByteBpeTokenizer final : public Tokenizer {
 public:
  ByteBpeTokenizer(std::string name, std::unique_ptr<ByteBpe> bpe, LlamaPreTokenizer pre,
                   UserTokens user_tokens)
      : name_(std::move(name)),
        bpe_(std::move(bpe)),
        pre_(std::move(pre)),
        user_tokens_(std::move(user_tokens)) {}

  const std::string& name() const override { return name_; }

  Result<std::vector<TokenId>> Tokenize(std::string_view text) const override {
    std::vector<TokenId> ids;
    ids.reserve(text.size() / 4 + 1);
    STRATA_TRY(Each(
        text, [&](size_t, size_t) {}, &ids));
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
        [&](size_t end_of_piece, size_t first) {
          size_t end = begin;
          for (size_t i = first; i < out.ids.size(); ++i) {
            end = std::min(end + bpe_->BytesOf(out.ids[i]).size(), end_of_piece);
            out.ends.push_back(i + 1 == out.ids.size() ? end_of_piece : end);
          }
          begin = end_of_piece;
        },
        &out.ids));
    return out;
  }

  size_t max_token_bytes() const override { return bpe_->max_token_bytes(); }

 private:
  // Encodes each piece of `text` into `ids`, then calls on_piece(end of the piece in `text`,
  // index of its first id).
  template <class OnPiece>
  Status Each(std::string_view text, OnPiece on_piece, std::vector<TokenId>* ids) const {
    const std::vector<UserTokens::Segment> segments = user_tokens_.Partition(text);
    if (segments.empty()) return EachPlain(text, 0, on_piece, ids);
    for (const UserTokens::Segment& s : segments) {
      if (s.id >= 0) {
        ids->push_back(s.id);
        on_piece(s.end, ids->size() - 1);
      } else {
        STRATA_TRY(EachPlain(text.substr(s.begin, s.end - s.begin), s.begin, on_piece, ids));
      }
    }
    return {};
  }

  // Each for plain text at `offset`.
  template <class OnPiece>
  Status EachPlain(std::string_view text, size_t offset, OnPiece& on_piece,
                   std::vector<TokenId>* ids) const {
    if (pre_.own_o200k_split()) return EachO200k(text, offset, on_piece, ids);
    return EachRegex(text, offset, on_piece, ids);
  }

  // Each for plain text at `offset`, split by strata's o200k_base pre-tokenizer.
  template <class OnPiece>
  Status EachO200k(std::string_view text, size_t offset, OnPiece& on_piece,
                   std::vector<TokenId>* ids) const {
    O200kPieces pieces(text);
    std::string_view piece;
    bool not_utf8 = false;
    size_t end = offset;
    while (pieces.Next(&piece, &not_utf8)) {
      const size_t first = ids->size();
      if (not_utf8) {
        STRATA_TRY_ASSIGN(std::string read, AsLlamaReads(piece));
        bpe_->Encode(read, pre_.ignore_merges(), *ids);
      } else {
        bpe_->Encode(piece, pre_.ignore_merges(), *ids);
      }
      end += piece.size();
      on_piece(end, first);
    }
    return {};
  }

  // Each for plain text at `offset`, split by llama.cpp's regex split, part by part.
  template <class OnPiece>
  Status EachRegex(std::string_view text, size_t offset, OnPiece& on_piece,
                   std::vector<TokenId>* ids) const {
    for (size_t begin = 0; begin < text.size();) {
      const size_t end = LlamaPreTokenizer::PartEnd(text, begin);
      STRATA_TRY_ASSIGN(LlamaPreTokenizer::Pieces pieces,
                        pre_.Split(text.substr(begin, end - begin)));
      for (size_t i = 0; i < pieces.bytes.size(); ++i) {
        const size_t first = ids->size();
        bpe_->Encode(pieces.bytes[i], pre_.ignore_merges(), *ids);
        on_piece(offset + begin + pieces.ends[i], first);
      }
      begin = end;
    }
    return {};
  }

  std::string name_;
  std::unique_ptr<ByteBpe> bpe_;
  LlamaPreTokenizer pre_;
  UserTokens user_tokens_;
};

}  // namespace

std::unique_ptr<Tokenizer> MakeByteBpeTokenizer(std::string name, std::unique_ptr<ByteBpe> bpe,
                                                LlamaPreTokenizer pre, UserTokens user_tokens) {
  return std::make_unique<ByteBpeTokenizer>(std::move(name), std::move(bpe), std::move(pre),
                                            std::move(user_tokens));
}

}  // namespace strata
