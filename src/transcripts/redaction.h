// redaction.h (private): the text that stands in for redacted spans of sanitised logs.
//
// Sanitised fixtures replace text with "[REDACTED_<KIND> len=<N> sha=<H>]"; the readers replace
// each by SynthesizeText(N, H): deterministic English-like text of exactly N bytes, so token counts
// are plausible and identical across runs (not the original counts).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace strata {

// Deterministic text of exactly `length` bytes (ASCII words, spaces and newlines) seeded by `seed`.
std::string SynthesizeText(size_t length, std::string_view seed);

// `text` with every "[REDACTED_<KIND> len=<N> sha=<H>]" replaced by SynthesizeText(N, H) (N is
// capped at 16 MiB); a malformed placeholder is kept as it is.
std::string ExpandRedactions(std::string_view text);

}  // namespace strata
