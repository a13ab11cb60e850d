// request_tokens.cc: block-wise, memoized tokenization of rendered requests (request_tokens.h).
#include "tokenize/request_tokens.h"

#include <xxhash.h>

#include <algorithm>
#include <cstring>

namespace strata {

size_t TokenizedRequest::TokensAt(size_t byte_offset) const {
  return static_cast<size_t>(std::upper_bound(ends.begin(), ends.end(), byte_offset) -
                             ends.begin());
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

Result<TokenizedText> PieceTokenizer::TokenizePiece(std::string_view text) const {
  if (text.size() <= kMaxPieceBytes) return tokenizer_.TokenizeWithOffsets(text);
  TokenizedText out;
  for (size_t begin = 0; begin < text.size();) {
    size_t end = PartEnd(text, begin);
    auto part = tokenizer_.TokenizeWithOffsets(text.substr(begin, end - begin));
    if (!part) return tl::unexpected(part.error());
    out.ids.insert(out.ids.end(), part->ids.begin(), part->ids.end());
    for (size_t e : part->ends) out.ends.push_back(begin + e);
    begin = end;
  }
  return out;
}

Status PieceTokenizer::TokenizeFrom(std::string_view bytes, const std::vector<size_t>& cuts,
                                    size_t first, size_t begin, TokenizedRequest* out) {
  auto piece = [&](size_t end) -> Status {
    if (end <= begin) return {};
    std::string_view text = bytes.substr(begin, end - begin);
    uint64_t key = XXH3_64bits(text.data(), text.size()) ^ (uint64_t(text.size()) << 40);
    auto it = memo_.find(key);
    if (it == memo_.end()) {
      STRATA_TRY_ASSIGN(TokenizedText t, TokenizePiece(text));
      bytes_tokenized_ += text.size();
      it = memo_.emplace(key, std::move(t)).first;
    }
    out->ids.insert(out->ids.end(), it->second.ids.begin(), it->second.ids.end());
    for (size_t e : it->second.ends) out->ends.push_back(begin + e);
    begin = end;
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
  }
  return piece(bytes.size());
}

Result<TokenizedRequest> PieceTokenizer::Tokenize(std::string_view bytes,
                                                  const std::vector<size_t>& cuts) {
  TokenizedRequest out;
  out.ids.reserve(bytes.size() / 3);
  out.ends.reserve(bytes.size() / 3);
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
  prev.ends.resize(kept);
  prev.tokens_at_cut.resize(m);
  prev.cut_tokens.resize(  // ascending: the ones up to `kept`
      size_t(std::upper_bound(prev.cut_tokens.begin(), prev.cut_tokens.end(), kept) -
             prev.cut_tokens.begin()));
  STRATA_TRY(TokenizeFrom(bytes, cuts, m, cuts[m - 1], &prev));
  return prev;
}

}  // namespace strata
