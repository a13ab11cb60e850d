// member_location.cc: finds a member's value in JSON text by its path (member_location.h) with a
// small scanner that skips values without building them.
#include "transcripts/member_location.h"

#include <cctype>
#include <charconv>
#include <string>

namespace strata {
namespace {

constexpr size_t npos = std::string_view::npos;

size_t SkipSpace(std::string_view t, size_t i) {
  while (i < t.size() && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r')) ++i;
  return i;
}

// One past the closing quote of the string starting at t[i] == '"'.
size_t SkipString(std::string_view t, size_t i) {
  for (++i; i < t.size(); ++i) {
    if (t[i] == '\\') {
      ++i;
    } else if (t[i] == '"') {
      return i + 1;
    }
  }
  return npos;
}

// One past the value starting at t[i].
size_t SkipValue(std::string_view t, size_t i) {
  if (i >= t.size()) return npos;
  if (t[i] == '"') return SkipString(t, i);
  if (t[i] != '{' && t[i] != '[') {
    while (i < t.size() && t[i] != ',' && t[i] != '}' && t[i] != ']' &&
           !std::isspace(static_cast<unsigned char>(t[i]))) {
      ++i;
    }
    return i;
  }
  int depth = 0;
  while (i < t.size()) {
    char c = t[i];
    if (c == '"') {
      i = SkipString(t, i);
      if (i == npos) return npos;
      continue;
    }
    if (c == '{' || c == '[') ++depth;
    if ((c == '}' || c == ']') && --depth == 0) return i + 1;
    ++i;
  }
  return npos;
}

// The value of member `key` of the object at t[i], or npos.
size_t FindKey(std::string_view t, size_t i, std::string_view key) {
  if (i >= t.size() || t[i] != '{') return npos;
  i = SkipSpace(t, i + 1);
  while (i < t.size() && t[i] == '"') {
    size_t end = SkipString(t, i);
    if (end == npos) return npos;
    std::string_view name = t.substr(i + 1, end - i - 2);
    i = SkipSpace(t, end);
    if (i >= t.size() || t[i] != ':') return npos;
    i = SkipSpace(t, i + 1);
    if (name == key) return i;
    i = SkipValue(t, i);
    if (i == npos) return npos;
    i = SkipSpace(t, i);
    if (i < t.size() && t[i] == ',') i = SkipSpace(t, i + 1);
  }
  return npos;
}

// Element `index` of the array at t[i], or npos.
size_t FindIndex(std::string_view t, size_t i, size_t index) {
  if (i >= t.size() || t[i] != '[') return npos;
  i = SkipSpace(t, i + 1);
  for (size_t n = 0; i < t.size() && t[i] != ']'; ++n) {
    if (n == index) return i;
    i = SkipValue(t, i);
    if (i == npos) return npos;
    i = SkipSpace(t, i);
    if (i < t.size() && t[i] == ',') i = SkipSpace(t, i + 1);
  }
  return npos;
}

}  // namespace

size_t MemberOffset(std::string_view text, std::string_view path) {
  size_t at = SkipSpace(text, 0);
  size_t p = 0;
  while (p < path.size() && at != npos) {
    if (path[p] == '.' && ++p == path.size()) return npos;
    if (path[p] == '[') {
      size_t close = path.find(']', p);
      size_t index = 0;
      if (close == npos) return npos;
      auto [end, ec] = std::from_chars(path.data() + p + 1, path.data() + close, index);
      if (ec != std::errc() || end != path.data() + close) return npos;
      at = FindIndex(text, at, index);
      p = close + 1;
    } else {
      size_t end = path.find_first_of(".[", p);
      if (end == npos) end = path.size();
      at = FindKey(text, at, path.substr(p, end - p));
      p = end;
    }
  }
  return at;
}

Error WithMemberColumn(Error error, std::string_view text, int first_line) {
  if (error.kind != ErrorKind::kParse || error.where.column != 0) return error;
  std::string_view message = error.message;
  std::string path;
  constexpr std::string_view kRequestMember =
      "request member ";  // wire/canonical_prompt.cc's errors
  if (message.starts_with('\'')) {
    size_t close = message.find('\'', 1);
    if (close == npos) return error;
    path = message.substr(1, close - 1);
    if (path == "the top level") path.clear();
  } else if (message.starts_with(kRequestMember)) {
    size_t colon = message.find(':', kRequestMember.size());
    if (colon == npos) return error;
    path = "request." +
           std::string(message.substr(kRequestMember.size(), colon - kRequestMember.size()));
  } else {
    return error;
  }
  size_t offset = MemberOffset(text, path);
  if (offset == npos) return error;
  Location at = LocationAt(error.where.path, text, offset);
  error.where.line = at.line + first_line - 1;
  error.where.column = at.column;
  return error;
}

}  // namespace strata
