// budget.cc: head + tail truncation on code point boundaries, and the token-budget search.
#include "discover/budget.h"

#include "text/text.h"

namespace strata {

namespace {

std::string Marker(std::string_view label, size_t cut, size_t total) {
  return "[strata: " + std::string(label) + " truncated: " + std::to_string(cut) + " of " +
         std::to_string(total) + " bytes cut]";
}

// Head and tail lengths for `keep` bytes of `text`, both on code point boundaries.
std::pair<size_t, size_t> Split(std::string_view text, size_t keep) {
  size_t head = keep / 2;
  while (head > 0 && !IsCodePointBoundary(text, head)) --head;
  size_t tail_start = text.size() - (keep - keep / 2);
  while (tail_start < text.size() && !IsCodePointBoundary(text, tail_start)) ++tail_start;
  return {head, text.size() - tail_start};
}

}  // namespace

Truncation TruncateHeadTail(std::string_view text, size_t keep_bytes, std::string_view label) {
  Truncation out;
  if (keep_bytes >= text.size()) {
    out.text.assign(text);
    out.head_bytes = text.size();
    return out;
  }
  auto [head, tail] = Split(text, keep_bytes);
  out.truncated = true;
  out.head_bytes = head;
  out.tail_bytes = tail;
  out.cut_bytes = text.size() - head - tail;
  std::string_view head_text = text.substr(0, head);
  std::string_view tail_text = text.substr(text.size() - tail);
  out.text.reserve(head + tail + 96);
  out.text.append(head_text);
  if (!head_text.empty() && head_text.back() != '\n') out.text.push_back('\n');
  out.text += Marker(label, out.cut_bytes, text.size());
  out.text.push_back('\n');
  out.text.append(tail_text);
  return out;
}

size_t BytesWithinTokens(std::string_view text, size_t max_bytes, size_t max_tokens,
                         const TokenCounter& count) {
  max_bytes = std::min(max_bytes, text.size());
  auto kept_tokens = [&](size_t keep) {
    auto [head, tail] = Split(text, keep);
    if (head + tail == text.size()) return count(text);
    return count(text.substr(0, head)) + count(text.substr(text.size() - tail));
  };
  if (!count || kept_tokens(max_bytes) <= max_tokens) return max_bytes;
  size_t low = 0, high = max_bytes;  // invariant: low fits, high does not
  while (high - low > 1) {
    size_t mid = low + (high - low) / 2;
    (kept_tokens(mid) <= max_tokens ? low : high) = mid;
  }
  return low;
}

Truncation TruncateHead(std::string_view text, size_t keep_bytes) {
  Truncation out;
  if (keep_bytes >= text.size()) {
    out.text = std::string(text);
    out.head_bytes = text.size();
    return out;
  }
  size_t keep = keep_bytes;
  while (keep > 0 && (static_cast<unsigned char>(text[keep]) & 0xC0) == 0x80) --keep;
  out.text = std::string(text.substr(0, keep));
  out.truncated = true;
  out.head_bytes = keep;
  out.cut_bytes = text.size() - keep;
  return out;
}

}  // namespace strata
