// lone_surrogates.h: JSON text with `\uD83D`-style escapes of lone UTF-16 surrogates made
// readable.
//
// Node's JSON.stringify (ES2019 "well-formed JSON.stringify") writes a UTF-16 surrogate that is
// not half of a pair as an escape (`"\ud83d"`), and JSON.parse reads it back: a Claude Code log
// holds one where a tool output was cut inside an emoji. Such a string has no UTF-8 form, and
// nlohmann's parser refuses the whole document. Node itself, encoding that string as UTF-8
// (Buffer.from, TextEncoder: the WHATWG "scalar value string" conversion), writes U+FFFD for each
// lone surrogate; strata reads it the same way. A pair in the right order (high D800-DBFF then
// low DC00-DFFF) is left as it is; a reversed pair is two lone surrogates.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace strata {

// `text` with every `\uXXXX` escape of a lone surrogate replaced by `\ufffd` (the same length, so
// line and column positions hold), and in `*count` how many; nullopt (and *count 0) when `text`
// has none, so the caller keeps its own bytes. Escapes are read left to right (`\\ud83d` is an
// escaped backslash and text, not an escape).
std::optional<std::string> ReplaceLoneSurrogateEscapes(std::string_view text, size_t* count);

}  // namespace strata
