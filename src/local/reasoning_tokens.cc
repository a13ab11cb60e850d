// reasoning_tokens.cc: the thinking's share of a reply's tokens (see reasoning_tokens.h).
#include "local/reasoning_tokens.h"

#include <algorithm>

namespace strata::serve {
namespace {

// The first end tag in `text` at or after `from`: where it ends, or npos.
size_t EndOfFirstEndTag(std::string_view text, size_t from, std::span<const std::string> end_tags) {
  size_t best = std::string_view::npos, best_end = std::string_view::npos;
  for (const std::string& tag : end_tags) {
    if (tag.empty()) continue;
    const size_t at = text.find(tag, from);
    if (at < best) {
      best = at;
      best_end = at + tag.size();
    }
  }
  return best_end;
}

// Whether thinking is open at the end of `generation_prompt`: its last tag is the start tag.
bool OpenAtEnd(std::string_view generation_prompt, std::string_view start_tag,
               std::span<const std::string> end_tags) {
  const size_t start = generation_prompt.rfind(start_tag);
  if (start == std::string_view::npos) return false;
  for (const std::string& tag : end_tags) {
    if (tag.empty()) continue;
    const size_t end = generation_prompt.rfind(tag);
    if (end != std::string_view::npos && end > start) return false;
  }
  return true;
}

}  // namespace

size_t CountReasoningTokens(std::span<const size_t> token_starts, std::string_view text,
                            std::string_view generation_prompt, std::string_view start_tag,
                            std::span<const std::string> end_tags) {
  if (start_tag.empty() || end_tags.empty()) return 0;
  size_t from = 0;
  if (!OpenAtEnd(generation_prompt, start_tag, end_tags)) {
    const size_t first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos || text.substr(first, start_tag.size()) != start_tag)
      return 0;
    from = first + start_tag.size();
  }
  const size_t end = EndOfFirstEndTag(text, from, end_tags);
  if (end == std::string_view::npos) return token_starts.size();
  return static_cast<size_t>(std::count_if(token_starts.begin(), token_starts.end(),
                                           [end](size_t start) { return start < end; }));
}

}  // namespace strata::serve
