// toml_guard.h (private): the bytes of a strata.toml checked before toml++ reads them. toml++ 3.3.0
// (Debian 12) asserts on a control character in a key and reaches an unreachable branch on a
// non-ASCII character outside strings and comments (fixed upstream in 3.4); both are errors in
// TOML 1.0 anyway, so they are refused here, with the place and what to do.
#pragma once

#include <string_view>

#include "strata/status.h"

namespace strata {

// Errors (kParse at path:line:col, 1-based; the column counts bytes): a control character other
// than tab, LF and the CR of CRLF (TOML allows them nowhere, escape them in strings as \uXXXX);
// bytes that are not UTF-8; a non-ASCII character outside a string or comment (quote the key); a
// '[' or '.' in a key not followed by a key name; a quote where no key or value starts (toml++
// asserts, or reaches an unreachable branch, on each of these instead of reporting them).
Status CheckTomlText(std::string_view text, std::string_view path);

}  // namespace strata
