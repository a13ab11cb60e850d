// toml_guard.h (private): the bytes of a strata.toml checked, and made ASCII, before toml++ reads
// them. toml++ 3.3.0 (Debian 12) asserts on a control character in a key, and reaches an
// unreachable branch when it tests some non-ASCII characters for whitespace (its generated
// is_non_ascii_horizontal_whitespace misses U+00A1-U+0499, U+2C5E-U+3057 and U+FB26-U+FEFE; fixed
// upstream in 3.4). So toml++ is given pure ASCII with the same meaning: whatever this scanner's
// idea of where strings are, toml++ never meets a character it mishandles.
#pragma once

#include <string>
#include <string_view>

#include "strata/status.h"

namespace strata {

// The text toml++ reads: `text` with each non-ASCII character of a basic string as a \uXXXX (or
// \UXXXXXXXX) escape, a literal string holding one rewritten as the basic string of the same value,
// each one in a comment as '?'. Line numbers are kept; columns after a rewritten character shift.
//
// Errors (kParse at path:line:col, 1-based; the column counts bytes): a control character other
// than tab, LF and the CR of CRLF (TOML allows them nowhere, escape them in strings as \uXXXX);
// bytes that are not UTF-8; a non-ASCII character outside a string or comment (quote the key); a
// backslash before a non-ASCII character; a '[' or '.' in a key not followed by a key name; a
// multi-line string as a key; a quote, '[' or '{' where no value starts (after a bare value). Each
// is an error in TOML 1.0 too, reported here with the place and what to do.
Result<std::string> AsciiTomlText(std::string_view text, std::string_view path);

}  // namespace strata
