// lone_surrogates.cc: lone UTF-16 surrogate escapes read as U+FFFD (lone_surrogates.h).
#include "base/lone_surrogates.h"

#include <cstring>

namespace strata {
namespace {

// The code unit of the `\uXXXX` escape at text[i] ('\\' at i), or -1 when it is not one.
int EscapedUnit(std::string_view text, size_t i) {
  if (i + 6 > text.size() || text[i] != '\\' || text[i + 1] != 'u') return -1;
  int unit = 0;
  for (size_t k = i + 2; k < i + 6; ++k) {
    const char c = text[k];
    int v = c >= '0' && c <= '9'   ? c - '0'
            : c >= 'a' && c <= 'f' ? c - 'a' + 10
            : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                   : -1;
    if (v < 0) return -1;
    unit = unit * 16 + v;
  }
  return unit;
}

bool High(int u) { return u >= 0xD800 && u <= 0xDBFF; }
bool Low(int u) { return u >= 0xDC00 && u <= 0xDFFF; }

}  // namespace

std::optional<std::string> ReplaceLoneSurrogateEscapes(std::string_view text, size_t* count) {
  *count = 0;
  std::optional<std::string> out;
  size_t i = 0;
  while (i < text.size()) {
    const void* hit = std::memchr(text.data() + i, '\\', text.size() - i);
    if (hit == nullptr) break;
    i = size_t(static_cast<const char*>(hit) - text.data());
    const int unit = EscapedUnit(text, i);
    if (unit < 0) {
      i += 2;  // another escape (\" \\ \n ...): its second character is not a backslash to read
      continue;
    }
    if (High(unit) && Low(EscapedUnit(text, i + 6))) {
      i += 12;  // a pair
      continue;
    }
    if (High(unit) || Low(unit)) {
      if (!out) out.emplace(text);
      out->replace(i + 2, 4, "fffd");
      ++*count;
    }
    i += 6;
  }
  return out;
}

}  // namespace strata
