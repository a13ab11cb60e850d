// time.cc: RFC 3339 through date::parse (time.h).
#include "base/time.h"

#include <date/date.h>

#include <cctype>
#include <chrono>
#include <sstream>
#include <string>

namespace strata {

std::optional<int64_t> ParseRfc3339Millis(std::string_view text) {
  // RFC 3339 allows lower-case t and z; date's %FT%T wants upper case. Fix the two positions only.
  std::string s(text);
  if (s.size() < 20 || (s[10] != 'T' && s[10] != 't')) return std::nullopt;
  s[10] = 'T';
  // The fraction may have any number of digits; date reads a fixed precision. Take it out here
  // (at least one digit) and parse whole seconds.
  int64_t fraction_ms = 0;
  if (s.size() > 19 && s[19] == '.') {
    size_t end = 20;
    while (end < s.size() && std::isdigit(static_cast<unsigned char>(s[end]))) ++end;
    if (end == 20) return std::nullopt;
    std::string digits = s.substr(20, 3);
    digits.resize(3, '0');
    fraction_ms = std::stoi(digits);
    s.erase(19, end - 19);
  }
  bool zulu = s.back() == 'Z' || s.back() == 'z';
  if (zulu) s.back() = 'Z';
  std::istringstream in(s);
  date::sys_seconds tp;
  if (zulu) {
    in >> date::parse("%FT%TZ", tp);
  } else {
    std::chrono::minutes offset{};
    in >> date::parse("%FT%T%Ez", tp, offset);  // into sys_time: the offset is already applied
  }
  if (in.fail()) return std::nullopt;
  if (in.peek() != std::char_traits<char>::eof()) return std::nullopt;  // trailing text
  // %T accepts a one-digit hour; RFC 3339 does not.
  for (size_t i : {0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18})
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return std::nullopt;
  return std::chrono::duration_cast<std::chrono::milliseconds>(tp.time_since_epoch()).count() +
         fraction_ms;
}

std::string FormatRfc3339Millis(int64_t ms) {
  date::sys_time<std::chrono::milliseconds> tp{std::chrono::milliseconds(ms)};
  return date::format("%FT%TZ", tp);
}

}  // namespace strata
