// stream_state.cc: a sequence's state between the per-stream and single-stream layouts (see
// stream_state.h).
#include "local/stream_state.h"

#include <cstring>

namespace strata {
namespace {

constexpr size_t kWord = 4;
constexpr size_t kStreamsAt = 8;  // after the magic and the sequence id
constexpr size_t kFirstCountAt = kStreamsAt + kWord;

uint32_t WordAt(std::string_view bytes, size_t at) {
  uint32_t w = 0;
  std::memcpy(&w, bytes.data() + at, kWord);
  return w;
}

}  // namespace

std::optional<std::string> ToSingleStream(std::string_view state, uint32_t n_stream,
                                          uint32_t stream) {
  if (n_stream == 0 || stream >= n_stream) return std::nullopt;
  const size_t before = stream, after = n_stream - stream - 1;
  if (state.size() < kFirstCountAt + kWord * n_stream || WordAt(state, kStreamsAt) != n_stream)
    return std::nullopt;
  for (size_t s = 0; s < before; ++s)
    if (WordAt(state, kFirstCountAt + kWord * s) != 0) return std::nullopt;
  for (size_t s = 0; s < after; ++s)
    if (WordAt(state, state.size() - kWord * (s + 1)) != 0) return std::nullopt;
  const size_t own_at = kFirstCountAt + kWord * before;
  const size_t own_end = state.size() - kWord * after;
  // A stream with no cells has only its count: nothing may sit between it and the others'.
  if (WordAt(state, own_at) == 0 && own_end != own_at + kWord) return std::nullopt;
  std::string out;
  out.reserve(kFirstCountAt + (own_end - own_at));
  out.append(state.substr(0, kStreamsAt));
  const uint32_t one = 1;
  out.append(reinterpret_cast<const char*>(&one), kWord);
  out.append(state.substr(own_at, own_end - own_at));
  return out;
}

std::optional<std::string> FromSingleStream(std::string_view state, uint32_t n_stream,
                                            uint32_t stream) {
  if (n_stream == 0 || stream >= n_stream) return std::nullopt;
  if (state.size() < kFirstCountAt + kWord || WordAt(state, kStreamsAt) != 1) return std::nullopt;
  const std::string zeros(kWord * (n_stream - 1), '\0');
  std::string out;
  out.reserve(state.size() + zeros.size());
  out.append(state.substr(0, kStreamsAt));
  out.append(reinterpret_cast<const char*>(&n_stream), kWord);
  out.append(zeros, 0, kWord * stream);
  out.append(state.substr(kFirstCountAt));
  out.append(zeros, 0, kWord * (n_stream - stream - 1));
  return out;
}

}  // namespace strata
