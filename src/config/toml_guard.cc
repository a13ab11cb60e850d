// toml_guard.cc: strata.toml bytes checked before toml++ (toml_guard.h). A small scanner that
// knows only where strings ("...", '...', """...""", '''...''') and comments start and end.
#include "config/toml_guard.h"

#include <utf8proc.h>

#include <fmt/format.h>

#include <cctype>
#include <string>

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

// A character as a TOML escape of a basic string.
std::string Escape(utf8proc_int32_t cp) {
  return cp > 0xFFFF ? fmt::format("\\U{:08X}", cp) : fmt::format("\\u{:04X}", cp);
}

// A literal string's content as a basic string with the same value (multi: '''...''' becomes
// """..."""): backslashes and quotes escaped, non-ASCII characters as \u escapes, line ends kept.
std::string BasicFromLiteral(std::string_view content, bool multi) {
  std::string out = multi ? "\"\"\"" : "\"";
  for (size_t i = 0; i < content.size();) {
    const unsigned char c = static_cast<unsigned char>(content[i]);
    if (c < 0x80) {
      if (c == '\\' || c == '"') out += '\\';
      out += static_cast<char>(c);
      ++i;
      continue;
    }
    utf8proc_int32_t cp = 0;
    const auto n = utf8proc_iterate(reinterpret_cast<const utf8proc_uint8_t*>(content.data() + i),
                                    static_cast<utf8proc_ssize_t>(content.size() - i), &cp);
    out += Escape(cp);
    i += static_cast<size_t>(n > 0 ? n : 1);  // the caller checked the bytes are UTF-8
  }
  out += multi ? "\"\"\"" : "\"";
  return out;
}

bool IsLiteral(Region r) { return r == Region::kLiteral || r == Region::kMultiLiteral; }

// Where keys and values may start outside strings and comments: a line start, after '=', after ','
// in an array or inline table, after '[' or '{' that open one, after '.' between key names. A
// quote, '[' or '{' anywhere else is inside a bare value, which toml++ 3.3.0 reads on (its
// errors then come from text this scanner takes for strings).
struct Structure {
  bool in_key = true;       // before the '=' or ']' of a line
  bool value_start = true;  // a key or value may start here
  std::string open;         // the arrays ('[') and inline tables ('{') open, innermost last
  bool table_key = false;   // in a key of an inline table (after its '{' or ',', before '=')

  // The error at bare character `c` (the start of `rest`), or "".
  std::string Check(unsigned char c, std::string_view rest) const {
    if (in_key && (c == '[' || c == '.') &&
        !KeyNameFollows(rest.substr(rest.starts_with("[[") ? 2 : 1)))
      return "a key name must follow '[' and '.' (letters, digits, '-', '_', or quoted)";
    if ((in_key || table_key) && (rest.starts_with("\"\"\"") || rest.starts_with("'''")))
      return "a multi-line string cannot be a key: quote the key with one \" or '";
    if ((c == '"' || c == '\'' || c == '[' || c == '{') && !value_start)
      return fmt::format(
          "{} inside a bare value: strings, arrays and inline tables start "
          "after '=', ',', '[' or '{{' (quote the text)",
          c == '"'    ? "a quote (\")"
          : c == '\'' ? "a quote (')"
          : c == '['  ? "'['"
                      : "'{'");
    return "";
  }

  // Takes bare character `c` (not whitespace).
  void Take(unsigned char c) {
    if (c == '[' && !in_key) open.push_back('[');
    if (c == '{') open.push_back('{');
    if (((c == ']' && !in_key) || c == '}') && !open.empty()) open.pop_back();
    if (c == '=' || (c == ']' && in_key)) in_key = false;
    const bool in_table = !open.empty() && open.back() == '{';
    if (c == '=' || c == '}') table_key = false;
    if (c == '{' || (c == ',' && in_table)) table_key = true;
    value_start = c == '=' || c == '[' || c == '{' || (c == ',' && !open.empty()) ||
                  (c == '.' && (in_key || table_key));
  }

  // A line ends; `bare`: not inside a multi-line string (after one, its value goes on).
  void NewLine(bool bare) {
    in_key = bare && open.empty();  // a key or table header, or an array's next values
    value_start = bare;
  }
};

// The literal string being read: where it opens in the text and in the output, and whether it
// holds a non-ASCII character (then it is rewritten as a basic string when it closes).
struct OpenLiteral {
  size_t in = 0, out = 0, delim = 0;
  bool non_ascii = false;

  // An unclosed one is toml++'s error to report: its non-ASCII characters become '?'.
  void Blank(std::string* output) const {
    for (size_t k = out; k < output->size(); ++k)
      if (static_cast<unsigned char>((*output)[k]) >= 0x80) (*output)[k] = '?';
  }

  // Closed at text position `at` by a run of `run` quotes: rewritten when it needs to be.
  void Close(std::string_view text, size_t at, size_t run, bool multi, std::string* output) const {
    if (!non_ascii) return;
    std::string content(text.substr(in + delim, at - in - delim));
    content.append(run - delim, '\'');  // a closing run of 4 or 5 ends in quotes
    output->resize(out);
    *output += BasicFromLiteral(content, multi);
  }
};

}  // namespace

Result<std::string> AsciiTomlText(std::string_view text, std::string_view path) {
  Region region = Region::kBare;
  Structure structure;
  OpenLiteral literal;
  int line = 1;
  size_t line_start = 0;
  std::string out;  // what toml++ reads: ASCII only
  out.reserve(text.size());
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
    if (region == Region::kBare) {
      if (std::string error = structure.Check(c, rest); !error.empty()) return fail(i, error);
      if (c != ' ' && c != '\t' && c != '\r' && c != '\n') structure.Take(c);
    }
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
      if (region == Region::kComment)
        out += '?';  // a comment's text is dropped by toml++ anyway
      else if (IsLiteral(region))
        out += rest.substr(0, static_cast<size_t>(n)), literal.non_ascii = true;
      else
        out += Escape(cp);
      i += static_cast<size_t>(n);
      continue;
    }
    if (c == '\n') {
      if (region == Region::kLiteral && literal.non_ascii) literal.Blank(&out);
      out += '\n';
      ++line;
      line_start = i + 1;
      if (region == Region::kComment || region == Region::kBasic || region == Region::kLiteral)
        region = Region::kBare;  // a one-line string left open is toml++'s error to report
      structure.NewLine(region == Region::kBare);
      ++i;
      continue;
    }
    const Region before = region;
    size_t step = Advance(&region, rest);
    // A skipped escaped character is checked too (a control character after a backslash).
    if (step == 2 && IsForbiddenControl(static_cast<unsigned char>(rest[1]), rest.substr(1))) {
      out += rest[0];
      ++i;
      continue;
    }
    // No TOML escape starts with a non-ASCII character, and toml++ 3.3.0 reaches its unreachable
    // branch on some (a backslash before U+FEFF in a multi-line string).
    if (step == 2 && static_cast<unsigned char>(rest[1]) >= 0x80)
      return fail(i,
                  "a backslash before a non-ASCII character is not a TOML escape: write \\\\ "
                  "for a backslash, or \\uXXXX for the character");
    if (before == Region::kBare && IsLiteral(region)) literal = {i, out.size(), step, false};
    out += rest.substr(0, step);
    if (IsLiteral(before) && region == Region::kBare)
      literal.Close(text, i, step, before == Region::kMultiLiteral, &out);
    i += step;
  }
  if (IsLiteral(region) && literal.non_ascii) literal.Blank(&out);
  return out;
}

}  // namespace strata
