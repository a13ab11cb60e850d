// toml_guard.cc: strata.toml bytes checked before toml++ (toml_guard.h). A small scanner that
// knows only where strings ("...", '...', """...""", '''...''') and comments start and end.
#include "config/toml_guard.h"

#include <utf8proc.h>

#include <fmt/format.h>

#include <cctype>

namespace strata {
namespace {

enum class Region { kBare, kComment, kBasic, kLiteral, kMultiBasic, kMultiLiteral };

bool IsForbiddenControl(unsigned char c, std::string_view rest) {
  if (c == '\t' || c == '\n') return false;
  if (c == '\r') return !rest.starts_with("\r\n");
  return c < 0x20 || c == 0x7f;
}

// The closing delimiter of a multi-line string with up to two quotes of content before it
// ("""a""""" is a string ending in two quotes): the run of quotes, at most 5.
size_t ClosingRun(std::string_view rest, char quote) {
  size_t n = 0;
  while (n < rest.size() && n < 5 && rest[n] == quote) ++n;
  return n;
}

// Moves `region` past the ASCII character at the start of `rest` (not LF); returns how many bytes
// it takes (an escape, a triple quote and a closing run take more than one).
size_t Advance(Region* region, std::string_view rest) {
  const char c = rest[0];
  size_t step = 1;
  switch (*region) {
    case Region::kBare:
      if (c == '#') *region = Region::kComment;
      if (rest.starts_with("\"\"\""))
        *region = Region::kMultiBasic, step = 3;
      else if (rest.starts_with("'''"))
        *region = Region::kMultiLiteral, step = 3;
      else if (c == '"')
        *region = Region::kBasic;
      else if (c == '\'')
        *region = Region::kLiteral;
      break;
    case Region::kComment:
      break;
    case Region::kBasic:
      if (c == '\\' && rest.size() > 1 && rest[1] != '\n')
        step = 2;
      else if (c == '"')
        *region = Region::kBare;
      break;
    case Region::kLiteral:
      if (c == '\'') *region = Region::kBare;
      break;
    case Region::kMultiBasic:
      if (c == '\\' && rest.size() > 1 && rest[1] != '\n')
        step = 2;
      else if (rest.starts_with("\"\"\""))
        *region = Region::kBare, step = ClosingRun(rest, '"');
      break;
    case Region::kMultiLiteral:
      if (rest.starts_with("'''")) *region = Region::kBare, step = ClosingRun(rest, '\'');
      break;
  }
  return step;
}

// A key name (bare, or quoted) after '[' or '.' in a key: toml++ 3.3.0 asserts there is one (and
// a release build assumes it) instead of reporting the error.
bool KeyNameFollows(std::string_view after) {
  size_t k = after.find_first_not_of(" \t");
  if (k == std::string_view::npos) return false;
  const char d = after[k];
  return std::isalnum(static_cast<unsigned char>(d)) || d == '_' || d == '-' || d == '"' ||
         d == '\'';
}

// A quote outside strings starts one only where a key or value starts: at a line start or after
// '=', '[', ',', '{' or '.' (spaces between). Elsewhere toml++ 3.3.0 reads on as a bare value and
// may reach its unreachable branch on non-ASCII text it then takes for a string.
bool QuoteMayStart(std::string_view text, size_t pos) {
  const size_t prev = text.find_last_not_of(" \t", pos == 0 ? std::string_view::npos : pos - 1);
  if (pos == 0 || prev == std::string_view::npos) return true;
  return std::string_view("\n=[,{.").find(text[prev]) != std::string_view::npos;
}

}  // namespace

Status CheckTomlText(std::string_view text, std::string_view path) {
  Region region = Region::kBare;
  bool in_key = true;  // before the '=' or ']' of a line
  int line = 1;
  size_t line_start = 0;
  auto fail = [&](size_t pos, const std::string& what) {
    return MakeError(ErrorKind::kParse, what,
                     {std::string(path), line, static_cast<int>(pos - line_start) + 1});
  };
  for (size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    const std::string_view rest = text.substr(i);
    if (IsForbiddenControl(c, rest))
      return fail(i, fmt::format("control character U+{:04X} (TOML allows none but tab and line "
                                 "ends; in a string write it as \\u{:04X})",
                                 c, c));
    if (in_key && region == Region::kBare && (c == '[' || c == '.') &&
        !KeyNameFollows(rest.substr(rest.starts_with("[[") ? 2 : 1)))
      return fail(i, "a key name must follow '[' and '.' (letters, digits, '-', '_', or quoted)");
    if (region == Region::kBare && (c == '"' || c == '\'') && !QuoteMayStart(text, i))
      return fail(i, "a quote inside a bare value: strings start after '=', '[', ',', '{' or '.'");
    if (region == Region::kBare && (c == '=' || c == ']')) in_key = false;
    if (c >= 0x80) {
      utf8proc_int32_t cp = 0;
      const auto n = utf8proc_iterate(reinterpret_cast<const utf8proc_uint8_t*>(rest.data()),
                                      static_cast<utf8proc_ssize_t>(rest.size()), &cp);
      if (n < 0) return fail(i, "bytes that are not UTF-8: save the file as UTF-8");
      if (region == Region::kBare) {
        return fail(i,
                    "a non-ASCII character outside a string or comment: quote the key "
                    "(\"name\") or put the text in a string");
      }
      i += static_cast<size_t>(n);
      continue;
    }
    if (c == '\n') {
      ++line;
      line_start = i + 1;
      if (region == Region::kComment || region == Region::kBasic || region == Region::kLiteral)
        region = Region::kBare;          // a one-line string left open is toml++'s error to report
      in_key = region == Region::kBare;  // a line starts with a key or a table header
      ++i;
      continue;
    }
    size_t step = Advance(&region, rest);
    // A skipped escaped character is checked too (a control character after a backslash).
    if (step == 2 && IsForbiddenControl(static_cast<unsigned char>(rest[1]), rest.substr(1))) {
      ++i;
      continue;
    }
    // No TOML escape starts with a non-ASCII character, and toml++ 3.3.0 reaches its unreachable
    // branch on some (a backslash before U+FEFF in a multi-line string).
    if (step == 2 && static_cast<unsigned char>(rest[1]) >= 0x80)
      return fail(i, "a backslash before a non-ASCII character is not a TOML escape: write \\\\ "
                     "for a backslash, or \\uXXXX for the character");
    i += step;
  }
  return {};
}

}  // namespace strata
