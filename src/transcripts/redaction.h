// redaction.h (private): the text that stands in for redacted spans of sanitised logs.
//
// Sanitised fixtures replace text with "[REDACTED_<KIND> len=<N> sha=<H>]"; the readers replace
// each by deterministic text of exactly N bytes seeded by H, so token counts are plausible and
// identical across runs (not the original counts): SynthesizeCode for the kinds OUTPUT and
// ARGUMENTS (what tools print and take: source lines, paths, JSON, about 3.5 bytes per o200k
// token, as the real tool output of the corpus Codex rollout), SynthesizeText (English-like,
// about 5 bytes per token) for the others (prose: messages, instructions, summaries).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "strata/status.h"

namespace strata {

// Deterministic text of exactly `length` bytes (ASCII words, spaces and newlines) seeded by `seed`.
std::string SynthesizeText(size_t length, std::string_view seed);

// Deterministic code-like text of exactly `length` bytes (compiler locations, calls and prose
// lines built from SynthesizeText's words) seeded by `seed`.
std::string SynthesizeCode(size_t length, std::string_view seed);

// `text` with every "[REDACTED_<KIND> len=<N> sha=<H>]" replaced by SynthesizeCode(N, H) for the
// kinds OUTPUT and ARGUMENTS, else SynthesizeText(N, H) (N is capped at 16 MiB); a malformed
// placeholder is kept as it is.
std::string ExpandRedactions(std::string_view text);

// The synthesized bytes a sanitised log may ask for: 1 MiB per placeholder (a sanitiser records
// the length of real text, and no harness logs a single megabyte-long text), 64 MiB per log.
inline constexpr size_t kMaxRedactedLength = size_t{1} << 20;
inline constexpr size_t kMaxRedactedTotal = size_t{64} << 20;

// ExpandRedactions with the bounds above, across all the texts of one log.
class RedactionExpander {
 public:
  // `text` expanded. Errors (kParse at `where`): a placeholder longer than kMaxRedactedLength, or
  // the log's placeholders together asking for more than kMaxRedactedTotal bytes.
  Result<std::string> Expand(std::string_view text, const Location& where);

 private:
  size_t total_ = 0;
};

}  // namespace strata
