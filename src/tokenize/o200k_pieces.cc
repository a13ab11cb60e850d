// o200k_pieces.cc: o200k_base's pre-tokenizer without a regex engine (o200k_pieces.h).
#include "tokenize/o200k_pieces.h"

#include <cstdint>

// llama.cpp's character table (src/unicode.h of the llama.cpp source tree setup-llama.sh clones;
// the function is in libllama): the classes its regex fallback collapses code points to.
#include "unicode.h"

namespace strata {
namespace {

// A code point as llama.cpp's collapsed text has it: ASCII itself, anything above U+007F one of
// these stand-ins (the bytes llama.cpp uses; only their classes matter here).
constexpr uint8_t kSpace = 0x0B;   // a whitespace (ASCII \v behaves the same)
constexpr uint8_t kNumber = 0xD1;  // \p{N}
constexpr uint8_t kLetter = 0xD2;  // \p{L}
constexpr uint8_t kMark = 0xD4;    // \p{M}
constexpr uint8_t kOther = 0xD0;   // punctuation, symbols, controls, unassigned

struct Char {
  uint8_t c = 0;     // the collapsed byte
  uint8_t len = 0;   // bytes in the text
  bool odd = false;  // llama.cpp does not read these bytes back as themselves
};

uint8_t Collapse(uint32_t cpt) {
  const unicode_cpt_flags flags = unicode_cpt_flags_from_cpt(cpt);
  if (flags.is_whitespace) return kSpace;
  if (flags.is_number) return kNumber;
  if (flags.is_letter) return kLetter;
  if (flags.is_accent_mark) return kMark;
  return kOther;
}

// Decodes as llama.cpp's unicode_cpt_from_utf8 does (lead byte decides the length; only the
// continuation bytes' top bits are checked); a rejected byte is U+FFFD, one byte long.
Char At(std::string_view t, size_t i) {
  const auto b = [&](size_t k) { return static_cast<uint8_t>(t[i + k]); };
  const auto cont = [&](size_t k) { return i + k < t.size() && (b(k) & 0xC0) == 0x80; };
  const uint8_t b0 = b(0);
  if (b0 < 0x80) return {b0, 1, false};
  uint32_t cpt = 0;
  uint8_t len = 0;
  uint32_t least = 0;
  if ((b0 & 0xE0) == 0xC0 && cont(1)) {
    cpt = ((b0 & 0x1Fu) << 6) | (b(1) & 0x3Fu);
    len = 2;
    least = 0x80;
  } else if ((b0 & 0xF0) == 0xE0 && cont(1) && cont(2)) {
    cpt = ((b0 & 0x0Fu) << 12) | ((b(1) & 0x3Fu) << 6) | (b(2) & 0x3Fu);
    len = 3;
    least = 0x800;
  } else if ((b0 & 0xF8) == 0xF0 && cont(1) && cont(2) && cont(3)) {
    cpt = ((b0 & 0x07u) << 18) | ((b(1) & 0x3Fu) << 12) | ((b(2) & 0x3Fu) << 6) | (b(3) & 0x3Fu);
    len = 4;
    least = 0x10000;
  } else {
    return {Collapse(0xFFFD), 1, true};
  }
  // llama.cpp decodes an overlong form to its code point and writes that back shorter; above
  // U+10FFFF it cannot write it back at all. Either way the piece's bytes are not the text's.
  const bool odd = cpt < least || cpt > 0x10FFFF;
  if (cpt < 0x80) return {static_cast<uint8_t>(cpt), len, odd};
  return {Collapse(cpt), len, odd};
}

bool IsSpace(uint8_t c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
bool IsAsciiUpper(uint8_t c) { return c >= 'A' && c <= 'Z'; }
bool IsAsciiLower(uint8_t c) { return c >= 'a' && c <= 'z'; }
bool IsLetter(uint8_t c) { return c == kLetter || IsAsciiUpper(c) || IsAsciiLower(c); }
bool IsNumber(uint8_t c) { return c == kNumber || (c >= '0' && c <= '9'); }
// (?=[\p{L}\p{M}])[^a-z] and (?=[\p{L}\p{M}])[^A-Z] on the collapsed text.
bool IsUpper(uint8_t c) { return IsAsciiUpper(c) || c == kLetter || c == kMark; }
bool IsLower(uint8_t c) { return IsAsciiLower(c) || c == kLetter || c == kMark; }
// [^\r\n\p{L}\p{N}] and [^\s\p{L}\p{N}].
bool IsLead(uint8_t c) { return c != '\r' && c != '\n' && !IsLetter(c) && !IsNumber(c); }
bool IsPunct(uint8_t c) { return !IsSpace(c) && !IsLetter(c) && !IsNumber(c); }

class Matcher {
 public:
  explicit Matcher(std::string_view t) : t_(t) {}

  // The end of the match at `s` (< size): the first alternative that matches, as std::regex's
  // backtracking takes it.
  size_t MatchAt(size_t s) {
    const Char c0 = Get(s);
    const size_t after0 = s + c0.len;
    // 1. P? U* Lo+ C?  (P taken first, then left out)
    if (IsLead(c0.c)) {
      if (size_t e = UpperLower(after0)) return e;
    }
    if (size_t e = UpperLower(s)) return e;
    // 2. P? U+ Lo* C?
    if (IsLead(c0.c)) {
      if (size_t e = UppersThenLowers(after0)) return e;
    }
    if (size_t e = UppersThenLowers(s)) return e;
    // 3. \p{N}{1,3}
    if (IsNumber(c0.c)) {
      size_t e = after0;
      for (int n = 1; n < 3 && e < t_.size(); ++n) {
        const Char c = Get(e);
        if (!IsNumber(c.c)) break;
        e += c.len;
      }
      return e;
    }
    // 4. ' '? [^\s\p{L}\p{N}]+ [\r\n/]*
    size_t p = npos;
    if (c0.c == ' ' && after0 < t_.size() && IsPunct(Get(after0).c)) {
      p = after0;
    } else if (IsPunct(c0.c)) {
      p = s;
    }
    if (p != npos) {
      while (p < t_.size()) {
        const Char c = Get(p);
        if (!IsPunct(c.c)) break;
        p += c.len;
      }
      while (p < t_.size()) {
        const Char c = Get(p);
        if (c.c != '\r' && c.c != '\n' && c.c != '/') break;
        p += c.len;
      }
      return p;
    }
    // Only whitespace is left: the run of it decides 5, 6 and 7.
    size_t end = s;
    size_t last_newline = npos;  // the last \r or \n in the run
    size_t last_start = s;       // where the run's last character starts
    while (end < t_.size()) {
      const Char c = Get(end);
      if (!IsSpace(c.c)) break;
      if (c.c == '\r' || c.c == '\n') last_newline = end;
      last_start = end;
      end += c.len;
    }
    // 5. \s*[\r\n]+: \s* gives characters back down to the last newline, which [\r\n]+ takes.
    if (last_newline != npos) return last_newline + 1;
    // 6. \s+(?!\S): the whole run at the end of the text, else all but its last character.
    if (end == t_.size()) return end;
    if (last_start > s) return last_start;
    // 7. \s+ (one whitespace before a non-space).
    return end;
  }

 private:
  static constexpr size_t npos = static_cast<size_t>(-1);

  Char Get(size_t i) const { return At(t_, i); }

  // U* Lo+ C? from `p`: 0 when it does not match. U* takes the whole run of U, then gives back
  // characters until Lo+ can start: at the character after the run, else at the run's last Lo
  // (a non-ASCII letter or mark is both U and Lo).
  size_t UpperLower(size_t p) {
    size_t q = p;
    size_t last_lower = npos;
    while (q < t_.size()) {
      const Char c = Get(q);
      if (!IsUpper(c.c)) break;
      if (IsLower(c.c)) last_lower = q;
      q += c.len;
    }
    size_t start = npos;
    if (q < t_.size() && IsLower(Get(q).c)) {
      start = q;
    } else if (last_lower != npos) {
      start = last_lower;
    } else {
      return 0;
    }
    size_t e = start;
    while (e < t_.size()) {
      const Char c = Get(e);
      if (!IsLower(c.c)) break;
      e += c.len;
    }
    return Contraction(e);
  }

  // U+ Lo* C? from `p`: 0 when it does not match.
  size_t UppersThenLowers(size_t p) {
    size_t e = p;
    while (e < t_.size()) {
      const Char c = Get(e);
      if (!IsUpper(c.c)) break;
      e += c.len;
    }
    if (e == p) return 0;
    while (e < t_.size()) {
      const Char c = Get(e);
      if (!IsLower(c.c)) break;
      e += c.len;
    }
    return Contraction(e);
  }

  // (?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])? at `e` (the alternatives differ in
  // their second character, so the first that matches is the only one).
  size_t Contraction(size_t e) {
    const auto is = [&](size_t& k, char lower) {
      if (k >= t_.size()) return false;
      const Char c = Get(k);
      if (c.c != lower && c.c != lower - ('a' - 'A')) return false;
      k += c.len;
      return true;
    };
    size_t k = e;
    if (!is(k, '\'')) return e;
    const size_t second = k;
    for (char c : {'s', 't', 'm', 'd'}) {
      if (size_t j = second; is(j, c)) return j;
    }
    for (const char* pair : {"re", "ve", "ll"}) {
      if (size_t j = second; is(j, pair[0]) && is(j, pair[1])) return j;
    }
    return e;
  }

  std::string_view t_;
};

// Whether llama.cpp reads `piece` back as other bytes than its own.
bool Odd(std::string_view piece) {
  for (size_t i = 0; i < piece.size();) {
    if (static_cast<uint8_t>(piece[i]) < 0x80) {
      ++i;
      continue;
    }
    const Char c = At(piece, i);
    if (c.odd) return true;
    i += c.len;
  }
  return false;
}

}  // namespace

Result<std::string> AsLlamaReads(std::string_view piece) {
  std::string out;
  out.reserve(piece.size() + 8);
  for (size_t i = 0; i < piece.size();) {
    const Char c = At(piece, i);
    if (!c.odd) {
      out.append(piece.substr(i, c.len));
      i += c.len;
      continue;
    }
    const auto b = [&](size_t k) { return static_cast<uint8_t>(piece[i + k]) & 0x3Fu; };
    uint32_t cpt = 0xFFFD;  // a rejected byte
    if (c.len == 2) cpt = ((static_cast<uint8_t>(piece[i]) & 0x1Fu) << 6) | b(1);
    if (c.len == 3) cpt = ((static_cast<uint8_t>(piece[i]) & 0x0Fu) << 12) | (b(1) << 6) | b(2);
    if (c.len == 4) {
      cpt = ((static_cast<uint8_t>(piece[i]) & 0x07u) << 18) | (b(1) << 12) | (b(2) << 6) | b(3);
    }
    if (cpt > 0x10FFFF) {
      return MakeError(ErrorKind::kInvalidArgument,
                       "text holds a UTF-8 sequence beyond U+10FFFF, which llama.cpp cannot "
                       "tokenize");
    }
    out += unicode_cpt_to_utf8(cpt);
    i += c.len;
  }
  return out;
}

bool O200kPieces::Next(std::string_view* piece, bool* not_utf8) {
  if (pos_ >= text_.size()) return false;
  const size_t end = Matcher(text_).MatchAt(pos_);
  *piece = text_.substr(pos_, end - pos_);
  if (not_utf8 != nullptr) *not_utf8 = Odd(*piece);
  pos_ = end;
  return true;
}

}  // namespace strata
