// request_tokens.h (private): tokenizes rendered requests the way providers cache them, block by
// block. A request is cut at every content-block or message start ({"type":", {"role":",
// <|im_start|>), at the head's layer-span boundaries and at cache breakpoints; each piece is
// tokenized on its own (memoized by content), so equal prefixes always give equal tokens and a
// breakpoint always falls on a token boundary.
#pragma once

#include <string_view>
#include <unordered_map>
#include <vector>

#include "strata/accounting.h"
#include "strata/prompt.h"
#include "strata/render.h"

namespace strata {

// No byte offset per token is kept (it cost 8 bytes a token, twice the id): a token never spans
// a cut, so the tokens before a cut are exact, and every offset asked for (a breakpoint) is one.
struct TokenizedRequest {
  std::vector<TokenId> ids;
  std::vector<size_t> cut_tokens;     // token offset of each cut (ascending, unique, > 0)
  std::vector<size_t> tokens_at_cut;  // tokens before each cut of the list given, in order
  std::vector<size_t> cut_bytes;      // the byte offset of each cut of that list, in order
  size_t bytes = 0;                   // the request's size
  // Tokens before `byte_offset` when it is a cut of the list given, 0 or the request's end (or
  // beyond); elsewhere the tokens before the last cut below it.
  size_t TokensAt(size_t byte_offset) const;
};

// A block start at offset i depends on bytes [i, i + kBlockStartSpan) only (the longest pattern,
// <|im_start|>), so the starts of a prefix two requests share, up to that many bytes before its
// end, are the same in both.
inline constexpr size_t kBlockStartSpan = 12;

// The block starts ({"type":", {"role":", <|im_start|>) at offsets >= `from`, ascending.
std::vector<size_t> BlockStarts(std::string_view bytes, size_t from = 0);

// Block starts, span boundaries and breakpoints of `bytes`, plus `extra`; sorted, unique, within
// (0, size).
std::vector<size_t> StructuralCuts(std::string_view bytes, const LayerMap& spans,
                                   const std::vector<Breakpoint>& breakpoints,
                                   const std::vector<size_t>& extra = {});

// StructuralCuts of a request of `size` bytes whose block starts are `starts` (BlockStarts).
std::vector<size_t> MergeCuts(std::vector<size_t> starts, size_t size, const LayerMap& spans,
                              const std::vector<Breakpoint>& breakpoints,
                              const std::vector<size_t>& extra = {});

// Pieces longer than this are tokenized again when they reappear after a change before them
// rather than memoized: the memo would hold a second copy of a huge message's tokens.
inline constexpr size_t kMaxMemoPieceBytes = size_t{1} << 20;

// Pieces longer than this are tokenized in parts cut at a safe boundary (a letter, then a space
// and a letter: every GPT-style pre-tokenizer splits there, so the tokens are the same), which
// bounds the tokenizer's working memory; a part without such a boundary (one "word" of more than
// this many bytes) is cut at the limit, on a UTF-8 character boundary.
inline constexpr size_t kMaxPieceBytes = size_t{256} * 1024;

class PieceTokenizer {
 public:
  explicit PieceTokenizer(const Tokenizer& tokenizer) : tokenizer_(tokenizer) {}
  Result<TokenizedRequest> Tokenize(std::string_view bytes, const std::vector<size_t>& cuts);
  // Tokenize(bytes, cuts) for a request whose first `shared` bytes equal those of the previous
  // one, `prev` (this tokenizer's result for it, cut at `prev_cuts`; consumed): the leading pieces
  // both cut alike within those bytes keep prev's tokens, and only the rest is tokenized. The
  // result equals Tokenize(bytes, cuts). `reuse`, when not null, says how many leading tokens came
  // from prev and receives prev's tokens after them (so a caller can still compare the two).
  // `known_cuts`: the caller knows that the first that many cuts of both lists are equal and
  // within the shared bytes (they are not compared again: a long session has tens of thousands).
  struct Reuse {
    size_t kept = 0;               // leading tokens taken from prev
    std::vector<TokenId> dropped;  // prev's tokens after those
  };
  Result<TokenizedRequest> TokenizeAfter(TokenizedRequest prev,
                                         const std::vector<size_t>& prev_cuts, size_t shared,
                                         std::string_view bytes, const std::vector<size_t>& cuts,
                                         Reuse* reuse = nullptr, size_t known_cuts = 0);
  size_t bytes_tokenized() const { return bytes_tokenized_; }

 private:
  // Appends the tokens of the pieces of bytes[begin, size) cut at cuts[first..] to `out`.
  Status TokenizeFrom(std::string_view bytes, const std::vector<size_t>& cuts, size_t first,
                      size_t begin, TokenizedRequest* out);
  // Appends the tokens of `text` to `out` (in parts of at most kMaxPieceBytes).
  Status TokenizePiece(std::string_view text, std::vector<TokenId>* out) const;

  const Tokenizer& tokenizer_;
  std::unordered_map<uint64_t, std::vector<TokenId>> memo_;  // pieces up to kMaxMemoPieceBytes
  size_t bytes_tokenized_ = 0;
};

}  // namespace strata
