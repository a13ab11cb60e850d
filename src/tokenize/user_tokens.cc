// user_tokens.cc: llama.cpp's split of user-defined tokens out of plain text (user_tokens.h).
#include "tokenize/user_tokens.h"

#include <llama.h>

#include <algorithm>
#include <cstring>
#include <utility>

namespace strata {

std::optional<UserTokens> UserTokens::FromVocab(const llama_vocab* vocab) {
  // llama.cpp's cache_special_tokens, built the same way (id order, then the same std::sort and
  // comparison), so tokens of equal length keep its order too.
  std::vector<llama_token> cache;
  const int32_t n_tokens = llama_vocab_n_tokens(vocab);
  for (llama_token id = 0; id < n_tokens; ++id) {
    if (llama_vocab_get_attr(vocab, id) &
        (LLAMA_TOKEN_ATTR_CONTROL | LLAMA_TOKEN_ATTR_USER_DEFINED | LLAMA_TOKEN_ATTR_UNKNOWN)) {
      cache.push_back(id);
    }
  }
  const auto size = [&](llama_token id) { return std::strlen(llama_vocab_get_text(vocab, id)); };
  std::sort(cache.begin(), cache.end(),
            [&](llama_token a, llama_token b) { return size(a) > size(b); });
  UserTokens out;
  for (llama_token id : cache) {
    const llama_token_attr attr = llama_vocab_get_attr(vocab, id);
    // Left alone when special text is not parsed.
    if (attr & (LLAMA_TOKEN_ATTR_CONTROL | LLAMA_TOKEN_ATTR_UNKNOWN)) continue;
    if (attr & (LLAMA_TOKEN_ATTR_LSTRIP | LLAMA_TOKEN_ATTR_RSTRIP)) return std::nullopt;
    std::string text = llama_vocab_get_text(vocab, id);
    if (text.empty()) return std::nullopt;
    // A text two tokens share is found for the first only.
    if (!out.order_.emplace(text, out.tokens_.size()).second) continue;
    out.first_byte_[static_cast<uint8_t>(text[0])] = true;
    if (std::find(out.lengths_.begin(), out.lengths_.end(), text.size()) == out.lengths_.end()) {
      out.lengths_.push_back(text.size());
    }
    out.tokens_.push_back({std::move(text), id});
  }
  return out;
}

std::vector<UserTokens::Segment> UserTokens::Partition(std::string_view text) const {
  std::vector<Segment> out;
  if (text.empty() || tokens_.empty()) return out;
  // Every occurrence of every token, as (its place in the order, where it starts).
  std::vector<std::pair<size_t, size_t>> found;
  std::string key;
  for (size_t p = 0; p < text.size(); ++p) {
    if (!first_byte_[static_cast<uint8_t>(text[p])]) continue;
    for (size_t length : lengths_) {
      if (length > text.size() - p) continue;
      key.assign(text.substr(p, length));
      if (auto it = order_.find(key); it != order_.end()) found.emplace_back(it->second, p);
    }
  }
  if (found.empty()) return out;
  std::sort(found.begin(), found.end());
  // Token by token in order: an occurrence is taken unless it overlaps a token taken before (it
  // would cross out of its stretch of plain text) or the same token's previous match.
  std::vector<Segment> taken;  // by position, not overlapping
  size_t current = static_cast<size_t>(-1);
  size_t resume = 0;
  for (const auto& [order, begin] : found) {
    const size_t end = begin + tokens_[order].text.size();
    if (order != current) {
      current = order;
      resume = 0;
    }
    if (begin < resume) continue;
    auto it = std::upper_bound(taken.begin(), taken.end(), begin,
                               [](size_t at, const Segment& s) { return at < s.end; });
    if (it != taken.end() && it->begin < end) continue;
    taken.insert(it, Segment{begin, end, tokens_[order].id});
    resume = end;
  }
  size_t at = 0;
  for (const Segment& s : taken) {
    if (s.begin > at) out.push_back({at, s.begin, -1});
    out.push_back(s);
    at = s.end;
  }
  if (at < text.size()) out.push_back({at, text.size(), -1});
  return out;
}

}  // namespace strata
