// request_tokens.cc: block-wise, memoized tokenization of rendered requests (request_tokens.h).
#include "tokenize/request_tokens.h"

#include <xxhash.h>

#include <algorithm>
#include <cstring>

namespace strata {

size_t TokenizedRequest::TokensAt(size_t byte_offset) const {
  if (byte_offset >= bytes) return ids.size();
  auto it = std::upper_bound(cut_bytes.begin(), cut_bytes.end(), byte_offset);
  return it == cut_bytes.begin() ? 0 : tokens_at_cut[size_t(it - cut_bytes.begin()) - 1];
}

std::vector<size_t> BlockStarts(std::string_view bytes, size_t from) {
  std::vector<size_t> starts;
  // A plain loop: string_view::find_first_of calls memchr on the set once per byte, and this scan
  // runs over every new byte of every request.
  for (size_t i = from; i < bytes.size(); ++i) {
    if (bytes[i] != '{' && bytes[i] != '<') continue;
    std::string_view rest = bytes.substr(i);
    if (rest.starts_with("{\"type\":\"") || rest.starts_with("{\"role\":\"") ||
        rest.starts_with("<|im_start|>")) {
      starts.push_back(i);
    }
  }
  return starts;
}

std::vector<size_t> StructuralCuts(std::string_view bytes, const LayerMap& spans,
                                   const std::vector<Breakpoint>& breakpoints,
                                   const std::vector<size_t>& extra) {
  return MergeCuts(BlockStarts(bytes), bytes.size(), spans, breakpoints, extra);
}

std::vector<size_t> MergeCuts(std::vector<size_t> starts, size_t size, const LayerMap& spans,
                              const std::vector<Breakpoint>& breakpoints,
                              const std::vector<size_t>& extra) {
  std::vector<size_t> more;
  for (const auto& s : spans) {
    // Spans of the new input and the tail end where the next request's history does not cut.
    if (s.layer == "input" || s.layer == "epoch" || s.layer == "tail" || s.layer == "history") {
      continue;
    }
    more.push_back(s.begin);
    more.push_back(s.end);
  }
  for (const auto& b : breakpoints) more.push_back(b.offset);
  more.insert(more.end(), extra.begin(), extra.end());
  std::sort(more.begin(), more.end());
  std::vector<size_t> cuts;
  cuts.reserve(starts.size() + more.size());
  std::merge(starts.begin(), starts.end(), more.begin(), more.end(), std::back_inserter(cuts));
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  std::erase_if(cuts, [&](size_t c) { return c == 0 || c >= size; });
  return cuts;
}

namespace {

bool IsAsciiLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// Where to end the part of `text` that starts at `begin`: the last safe boundary within
// kMaxPieceBytes, else the limit moved back to a UTF-8 character start.
size_t PartEnd(std::string_view text, size_t begin) {
  size_t limit = begin + kMaxPieceBytes;
  if (limit >= text.size()) return text.size();
  for (size_t i = limit; i > begin + kMaxPieceBytes / 2; --i) {
    if (text[i] == ' ' && IsAsciiLetter(text[i - 1]) && i + 1 < text.size() &&
        IsAsciiLetter(text[i + 1])) {
      return i;
    }
  }
  while (limit > begin + 1 && (static_cast<unsigned char>(text[limit]) & 0xC0) == 0x80) --limit;
  return limit;
}

}  // namespace

Status PieceTokenizer::TokenizePiece(std::string_view text, std::vector<TokenId>* out) const {
  for (size_t begin = 0; begin < text.size();) {
    size_t end = PartEnd(text, begin);
    STRATA_TRY_ASSIGN(std::vector<TokenId> part,
                      tokenizer_.Tokenize(text.substr(begin, end - begin)));
    out->insert(out->end(), part.begin(), part.end());
    begin = end;
  }
  return {};
}

Status PieceTokenizer::TokenizeFrom(std::string_view bytes, const std::vector<size_t>& cuts,
                                    size_t first, size_t begin, TokenizedRequest* out) {
  auto piece = [&](size_t end) -> Status {
    if (end <= begin) return {};
    std::string_view text = bytes.substr(begin, end - begin);
    begin = end;
    if (text.size() > kMaxMemoPieceBytes) {  // straight into the request's tokens: no copy
      bytes_tokenized_ += text.size();
      return TokenizePiece(text, &out->ids);
    }
    uint64_t key = XXH3_64bits(text.data(), text.size()) ^ (uint64_t(text.size()) << 40);
    auto it = memo_.find(key);
    if (it == memo_.end()) {
      std::vector<TokenId> ids;
      STRATA_TRY(TokenizePiece(text, &ids));
      bytes_tokenized_ += text.size();
      it = memo_.emplace(key, std::move(ids)).first;
    }
    out->ids.insert(out->ids.end(), it->second.begin(), it->second.end());
    return {};
  };
  for (size_t i = first; i < cuts.size(); ++i) {
    size_t c = cuts[i];
    if (c > begin && c < bytes.size()) {
      STRATA_TRY(piece(c));
      // Ascending, unique and > 0: a cut after an empty piece adds nothing.
      size_t at = out->ids.size();
      if (at > 0 && (out->cut_tokens.empty() || out->cut_tokens.back() != at)) {
        out->cut_tokens.push_back(at);
      }
    }
    out->tokens_at_cut.push_back(out->ids.size());
    out->cut_bytes.push_back(c);
  }
  out->bytes = bytes.size();
  return piece(bytes.size());
}

Result<TokenizedRequest> PieceTokenizer::Tokenize(std::string_view bytes,
                                                  const std::vector<size_t>& cuts) {
  TokenizedRequest out;
  out.ids.reserve(bytes.size() / 3);
  STRATA_TRY(TokenizeFrom(bytes, cuts, 0, 0, &out));
  return out;
}

Result<TokenizedRequest> PieceTokenizer::TokenizeAfter(TokenizedRequest prev,
                                                       const std::vector<size_t>& prev_cuts,
                                                       size_t shared, std::string_view bytes,
                                                       const std::vector<size_t>& cuts,
                                                       Reuse* reuse, size_t known_cuts) {
  // The leading cuts both lists share inside the common bytes: the pieces before the last of them
  // are the same text in both requests, so they have the same tokens (the memo's rule).
  size_t m = std::min({known_cuts, cuts.size(), prev_cuts.size(), prev.tokens_at_cut.size()});
  while (m < cuts.size() && m < prev_cuts.size() && m < prev.tokens_at_cut.size() &&
         cuts[m] == prev_cuts[m] && cuts[m] <= shared && cuts[m] < bytes.size()) {
    ++m;
  }
  size_t kept = m == 0 ? 0 : prev.tokens_at_cut[m - 1];
  if (reuse != nullptr) {
    reuse->kept = kept;
    reuse->dropped.assign(prev.ids.begin() + std::ptrdiff_t(kept), prev.ids.end());
  }
  if (m == 0) return Tokenize(bytes, cuts);
  prev.ids.resize(kept);
  prev.tokens_at_cut.resize(m);
  prev.cut_bytes.resize(m);
  prev.cut_tokens.resize(  // ascending: the ones up to `kept`
      size_t(std::upper_bound(prev.cut_tokens.begin(), prev.cut_tokens.end(), kept) -
             prev.cut_tokens.begin()));
  STRATA_TRY(TokenizeFrom(bytes, cuts, m, cuts[m - 1], &prev));
  return prev;
}

}  // namespace strata
