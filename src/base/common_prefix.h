// common_prefix.h: the length of the common prefix of two sequences (bytes, tokens, messages).
// Prefix caches reuse exactly this much; one definition keeps every caller's counting the same.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <span>
#include <string_view>
#include <type_traits>

namespace strata {

namespace common_prefix_internal {

// Leading bytes equal in a[0, n) and b[0, n): memcmp over 4 KiB steps (vectorized by libc; a
// byte loop is several times slower on the megabytes replay compares per request), then the
// bytes of the first differing step.
inline size_t EqualBytes(const void* a, const void* b, size_t n) {
  const auto* pa = static_cast<const unsigned char*>(a);
  const auto* pb = static_cast<const unsigned char*>(b);
  constexpr size_t kStep = 4096;
  size_t i = 0;
  while (i + kStep <= n && std::memcmp(pa + i, pb + i, kStep) == 0) i += kStep;
  while (i < n && pa[i] == pb[i]) ++i;
  return i;
}

}  // namespace common_prefix_internal

// Number of leading elements equal in `a` and `b` (0 when either is empty).
template <class T>
size_t CommonPrefixLength(std::span<const T> a, std::span<const T> b) {
  if constexpr (std::is_integral_v<T> || std::is_enum_v<T>) {
    // Equal elements are equal bytes: the first differing byte lies in the first differing one.
    size_t n = std::min(a.size(), b.size());
    return common_prefix_internal::EqualBytes(a.data(), b.data(), n * sizeof(T)) / sizeof(T);
  } else {
    auto [ia, ib] = std::mismatch(a.begin(), a.end(), b.begin(), b.end());
    return static_cast<size_t>(ia - a.begin());
  }
}

inline size_t CommonPrefixLength(std::string_view a, std::string_view b) {
  return common_prefix_internal::EqualBytes(a.data(), b.data(), std::min(a.size(), b.size()));
}

}  // namespace strata
