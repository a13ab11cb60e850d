// request_text.cc: RequestText (request_text.h): the new request written over the previous one,
// the bytes the caller marks unchanged skipped, the others compared until the first difference
// and copied from there.
#include "replay/request_text.h"

#include <vector>

#include "base/common_prefix.h"

namespace strata {

void RequestText::Set(std::span<const Part> parts) {
  ++version_;
  copied_ = 0;
  size_t total = 0;
  for (const Part& part : parts) total += part.bytes.size();
  // One allocation of the request's size: appending a huge message to a buffer that then grows
  // again would hold the old and the new buffer at once.
  if (total > bytes_.capacity()) bytes_.reserve(total);
  size_t at = 0;
  bool diverged = false;
  for (const Part& part : parts) {
    std::string_view b = part.bytes;
    if (diverged) {
      bytes_.append(b);
      copied_ += b.size();
      continue;
    }
    size_t same = b.size();
    if (!part.unchanged || at + b.size() > bytes_.size()) {
      same = CommonPrefixLength(std::string_view(bytes_).substr(std::min(at, bytes_.size())), b);
    }
    at += same;
    if (same == b.size()) continue;
    bytes_.resize(at);
    bytes_.append(b.substr(same));
    copied_ += b.size() - same;
    shared_ = at;
    diverged = true;
  }
  if (!diverged) {  // the new request is a prefix of the previous one (or equal to it)
    bytes_.resize(at);
    shared_ = at;
  }
}

void RequestText::Set(std::span<const Part> parts, std::string tail) {
  size_t head = 0;
  for (const Part& part : parts) head += part.bytes.size();
  if (tail.size() < head || tail.empty()) {
    std::vector<Part> all(parts.begin(), parts.end());
    all.push_back({tail});
    Set(all);
    return;
  }
  ++version_;
  // The leading bytes equal to the previous request's, compared before its bytes are dropped.
  size_t at = 0;
  bool diverged = false;
  for (const Part& part : parts) {
    const std::string_view b = part.bytes;
    size_t same = b.size();
    if (!part.unchanged || at + b.size() > bytes_.size()) {
      same = CommonPrefixLength(std::string_view(bytes_).substr(std::min(at, bytes_.size())), b);
    }
    at += same;
    if (same < b.size()) {
      diverged = true;
      break;
    }
  }
  if (!diverged) {
    at += CommonPrefixLength(std::string_view(bytes_).substr(std::min(at, bytes_.size())), tail);
  }
  shared_ = at;
  bytes_ = std::string();  // the previous request's bytes go before the new ones grow
  std::string front;
  front.reserve(head);
  for (const Part& part : parts) front.append(part.bytes);
  tail.insert(0, front);  // in place when the tail's buffer has room: it usually has (it grew)
  bytes_ = std::move(tail);
  copied_ = head;
}

}  // namespace strata
