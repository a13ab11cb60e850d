// common_prefix.h: the length of the common prefix of two sequences (bytes, tokens, messages).
// Prefix caches reuse exactly this much; one definition keeps every caller's counting the same.
#pragma once

#include <algorithm>
#include <cstddef>
#include <span>
#include <string_view>

namespace strata {

// Number of leading elements equal in `a` and `b` (0 when either is empty).
template <class T>
size_t CommonPrefixLength(std::span<const T> a, std::span<const T> b) {
  auto [ia, ib] = std::mismatch(a.begin(), a.end(), b.begin(), b.end());
  return static_cast<size_t>(ia - a.begin());
}

inline size_t CommonPrefixLength(std::string_view a, std::string_view b) {
  auto [ia, ib] = std::mismatch(a.begin(), a.end(), b.begin(), b.end());
  return static_cast<size_t>(ia - a.begin());
}

}  // namespace strata
