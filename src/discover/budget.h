// budget.h: size budgets for instruction text, kept as head + tail around a visible marker.
//
// Each file and the whole discovery have a budget in bytes, and in tokens when the caller sets a
// token counter (Budget, discover.h). Over budget, the start and the end of the text are
// kept (the start usually holds the overview, the end the latest additions) and a marker that names
// the file and the bytes cut stands where the middle was. A cut never falls inside a UTF-8 code
// point. OpenClaw keeps head and tail the same way; Codex spends a 32 KiB total root-first. The
// marker's own bytes are not counted against the budget.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "strata/discover.h"

namespace strata {

struct Truncation {
  std::string text;  // head + marker + tail, or the input unchanged
  bool truncated = false;
  size_t head_bytes = 0;  // bytes kept from the start
  size_t tail_bytes = 0;  // bytes kept from the end
  size_t cut_bytes = 0;   // bytes removed from the middle
};

// Keeps at most `keep_bytes` of `text` (UTF-8): half (rounded down) from the start and the rest
// from the end, each cut moved inward to the nearest code point boundary. When something is cut,
// the marker `[strata: <label> truncated: <N> of <M> bytes cut]` on a line of its own stands
// between head and tail. `keep_bytes` >= text.size() returns the text unchanged.
Truncation TruncateHeadTail(std::string_view text, size_t keep_bytes, std::string_view label);

// Keeps the first `keep_bytes` of `text` (moved back to a code point boundary) and nothing else,
// no marker: how Codex spends its project-doc budget (the rest of a file is dropped silently).
Truncation TruncateHead(std::string_view text, size_t keep_bytes);

// The largest byte count <= `max_bytes` whose head+tail cut of `text` counts at most `max_tokens`
// with `count` (a binary search over the kept bytes; the marker is not counted).
size_t BytesWithinTokens(std::string_view text, size_t max_bytes, size_t max_tokens,
                         const TokenCounter& count);

}  // namespace strata
