// redaction.cc: SynthesizeText, SynthesizeCode and ExpandRedactions (redaction.h). The generator is
// splitmix64 (base/hash.h) seeded by the FNV-1a hash of the seed text.
#include "transcripts/redaction.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "base/hash.h"

namespace strata {
namespace {

constexpr const char* kWords[] = {
    "the",     "cache",  "prefix", "request", "model",    "token",  "context", "session",
    "file",    "test",   "build",  "change",  "value",    "return", "error",   "check",
    "string",  "list",   "output", "input",   "layer",    "stable", "config",  "source",
    "command", "result", "path",   "line",    "function", "data",   "update",  "read",
    "write",   "option", "and",    "of",      "to",       "in",     "for",     "with",
    "is",      "a",      "on",     "from",    "this",     "that",   "it",      "we",
    "run",     "step",   "time",   "order",   "list",     "new",    "old",     "set",
    "get",     "call",   "tool",   "plan",    "note",     "text",   "user",    "agent"};

}  // namespace

std::string SynthesizeText(size_t length, std::string_view seed) {
  uint64_t state = 1469598103934665603ULL;
  for (unsigned char c : seed) state = (state ^ c) * 1099511628211ULL;
  std::string out;
  out.reserve(length + 16);
  int words_on_line = 0;
  while (out.size() < length) {
    uint64_t r = SplitMix64Next(&state);
    if (!out.empty()) {
      if (words_on_line >= 10 + int(r % 6)) {
        out += '\n';
        words_on_line = 0;
      } else {
        out += ' ';
      }
    }
    out += kWords[(r >> 8) % (sizeof kWords / sizeof kWords[0])];
    ++words_on_line;
  }
  out.resize(length);
  return out;
}

namespace {

size_t Pick(uint64_t* state, size_t n) { return size_t(SplitMix64Next(state) >> 8) % n; }

// One line of SynthesizeCode: a compiler-style location, a call or a prose line.
void AppendCodeLine(uint64_t* state, std::string* out) {
  constexpr size_t kCount = sizeof kWords / sizeof kWords[0];
  auto w = [&] { return std::string(kWords[Pick(state, kCount)]); };
  auto n = [&] { return std::to_string(Pick(state, 400)); };
  switch (Pick(state, 3)) {
    case 0:
      *out += "src/" + w() + "/" + w() + "_" + w() + ".cc:" + n() + ":  " + w() + "_" + w() +
              " = " + w() + "(" + n() + ");";
      break;
    case 1:
      *out += std::string(2 * Pick(state, 3), ' ') + w() + "." + w() + "_" + w() + "(" + w() +
              ", " + w() + "_" + w() + ");";
      break;
    default:
      for (int i = 0; i < 8; ++i) *out += (i > 0 ? " " : "") + w();
  }
  *out += '\n';
}

// The N of each well-formed placeholder of `text`, in order.
std::vector<size_t> PlaceholderLengths(std::string_view text) {
  std::vector<size_t> out;
  for (size_t at = text.find("[REDACTED_"); at != std::string_view::npos;
       at = text.find("[REDACTED_", at + 1)) {
    size_t close = text.find(']', at);
    size_t len_at = text.find(" len=", at);
    if (close == std::string_view::npos || len_at > close) continue;
    size_t length = 0;
    for (size_t i = len_at + 5; i < close && text[i] >= '0' && text[i] <= '9'; ++i) {
      length = std::min<size_t>(length * 10 + size_t(text[i] - '0'), SIZE_MAX / 20);
    }
    out.push_back(length);
  }
  return out;
}

}  // namespace

Result<std::string> RedactionExpander::Expand(std::string_view text, const Location& where) {
  if (text.find("[REDACTED_") == std::string_view::npos) return std::string(text);
  for (size_t length : PlaceholderLengths(text)) {
    if (length > kMaxRedactedLength) {
      return MakeError(ErrorKind::kParse,
                       "a [REDACTED_... len=" + std::to_string(length) +
                           "] placeholder asks for more than the " +
                           std::to_string(kMaxRedactedLength) +
                           " bytes strata synthesizes for one redacted text: the length is not "
                           "that of a real logged text (a corrupt or hand-made log)",
                       where);
    }
    total_ += length;
    if (total_ > kMaxRedactedTotal) {
      return MakeError(ErrorKind::kParse,
                       "the log's [REDACTED_...] placeholders ask for more than " +
                           std::to_string(kMaxRedactedTotal) +
                           " bytes of synthesized text in all: refused rather than filling memory",
                       where);
    }
  }
  return ExpandRedactions(text);
}

std::string SynthesizeCode(size_t length, std::string_view seed) {
  uint64_t state = 1469598103934665603ULL;
  for (unsigned char c : seed) state = (state ^ c) * 1099511628211ULL;
  std::string out;
  out.reserve(length + 128);
  while (out.size() < length) AppendCodeLine(&state, &out);
  out.resize(length);
  return out;
}

std::string ExpandRedactions(std::string_view text) {
  if (text.find("[REDACTED_") == std::string_view::npos) return std::string(text);
  std::string out;
  size_t pos = 0;
  while (true) {
    size_t at = text.find("[REDACTED_", pos);
    if (at == std::string_view::npos) break;
    size_t close = text.find(']', at);
    size_t len_at = text.find(" len=", at);
    size_t sha_at = text.find(" sha=", at);
    if (close == std::string_view::npos || len_at > close || sha_at > close) {
      out.append(text.substr(pos, at + 1 - pos));
      pos = at + 1;
      continue;
    }
    size_t length = 0;
    for (size_t i = len_at + 5; i < close && text[i] >= '0' && text[i] <= '9'; ++i) {
      length = length * 10 + size_t(text[i] - '0');
    }
    out.append(text.substr(pos, at - pos));
    std::string_view kind = text.substr(at + 10, len_at - at - 10);
    std::string_view seed = text.substr(sha_at + 5, close - sha_at - 5);
    length = std::min<size_t>(length, 1u << 24);
    bool code = kind == "OUTPUT" || kind == "ARGUMENTS";  // what tools print and take
    out += code ? SynthesizeCode(length, seed) : SynthesizeText(length, seed);
    pos = close + 1;
  }
  out.append(text.substr(pos));
  return out;
}

}  // namespace strata
