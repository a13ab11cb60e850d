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

std::vector<size_t> StructuralCuts(std::string_view bytes, const LayerMap& spans,
                                   const std::vector<Breakpoint>& breakpoints,
                                   const std::vector<size_t>& extra) {
  std::vector<size_t> cuts;
  // A plain loop: string_view::find_first_of calls memchr on the set once per byte, and this scan
  // runs over every whole request.
  for (size_t i = 0; i < bytes.size(); ++i) {
    if (bytes[i] != '{' && bytes[i] != '<') continue;
    std::string_view rest = bytes.substr(i);
    if (rest.starts_with("{\"type\":\"") || rest.starts_with("{\"role\":\"") ||
        rest.starts_with("<|im_start|>")) {
      cuts.push_back(i);
    }
  }
  for (const auto& s : spans) {
    // Spans of the new input and the tail end where the next request's history does not cut.
    if (s.layer == "input" || s.layer == "epoch" || s.layer == "tail" || s.layer == "history") {
      continue;
    }
    cuts.push_back(s.begin);
    cuts.push_back(s.end);
  }
  for (const auto& b : breakpoints) cuts.push_back(b.offset);
  cuts.insert(cuts.end(), extra.begin(), extra.end());
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  std::erase_if(cuts, [&](size_t c) { return c == 0 || c >= bytes.size(); });
  return cuts;
}

Result<TokenizedRequest> PieceTokenizer::Tokenize(std::string_view bytes,
                                                  const std::vector<size_t>& cuts) {
  TokenizedRequest out;
  out.ids.reserve(bytes.size() / 3);
  out.ends.reserve(bytes.size() / 3);
  size_t begin = 0;
  auto piece = [&](size_t end) -> Status {
    if (end <= begin) return {};
    std::string_view text = bytes.substr(begin, end - begin);
    uint64_t key = XXH3_64bits(text.data(), text.size()) ^ (uint64_t(text.size()) << 40);
    auto it = memo_.find(key);
    if (it == memo_.end()) {
      auto t = tokenizer_.TokenizeWithOffsets(text);
      if (!t) return tl::unexpected(t.error());
      bytes_tokenized_ += text.size();
      it = memo_.emplace(key, std::move(*t)).first;
    }
    out.ids.insert(out.ids.end(), it->second.ids.begin(), it->second.ids.end());
    for (size_t e : it->second.ends) out.ends.push_back(begin + e);
    begin = end;
    return {};
  };
  for (size_t c : cuts) {
    if (c <= begin || c >= bytes.size()) continue;
    if (auto s = piece(c); !s) return tl::unexpected(s.error());
    out.cut_tokens.push_back(out.ids.size());
  }
  if (auto s = piece(bytes.size()); !s) return tl::unexpected(s.error());
  out.cut_tokens.erase(std::unique(out.cut_tokens.begin(), out.cut_tokens.end()),
                       out.cut_tokens.end());
  std::erase(out.cut_tokens, size_t{0});
  return out;
}

}  // namespace strata
