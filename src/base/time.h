// time.h: date-time text as strata's inputs carry it (RFC 3339), validated by Howard Hinnant's date
// library rather than by hand.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace strata {

// Milliseconds since the Unix epoch of an RFC 3339 date-time (`2026-11-29T10:00:00Z`,
// `2026-11-29T10:00:00.250+01:00`; `T`/`Z` in either case; fractions of any length), or nullopt
// when `text` is not one: a missing offset, an impossible date (Feb 30) or trailing text.
std::optional<int64_t> ParseRfc3339Millis(std::string_view text);

// `ms` (milliseconds since the Unix epoch) as RFC 3339 in UTC: `2026-11-29T10:00:00.250Z`.
std::string FormatRfc3339Millis(int64_t ms);

inline bool IsRfc3339(std::string_view text) { return ParseRfc3339Millis(text).has_value(); }

}  // namespace strata
