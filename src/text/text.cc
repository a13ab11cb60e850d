// text.cc: BOM, line endings, UTF-8 validity, tag and invisible characters, NFC.
#include "text/text.h"

#include <utf8proc.h>

#include <cstdlib>
#include <memory>

namespace strata {

namespace {

bool IsTagCharacter(int32_t cp) { return cp >= 0xE0000 && cp <= 0xE007F; }

// Characters that render as nothing (or reorder text) yet reach the model; flagged, not removed,
// because some are legitimate in non-Latin scripts (ZWJ in emoji, ZWNJ in Persian).
bool IsInvisible(int32_t cp) {
  return (cp >= 0x200B && cp <= 0x200F) || (cp >= 0x202A && cp <= 0x202E) ||
         (cp >= 0x2060 && cp <= 0x2064) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0xFEFF ||
         cp == 0x00AD;
}

std::string CodePointName(int32_t cp) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "U+%04X", static_cast<unsigned>(cp));
  return buf;
}

}  // namespace

std::string InOriginalForm(std::string_view lf_text, const CleanedText& original) {
  std::string out;
  out.reserve(lf_text.size() + (original.had_crlf ? lf_text.size() / 16 : 0) + 3);
  if (original.had_bom) out += "\xEF\xBB\xBF";
  for (char c : lf_text) {
    if (c == '\n' && original.had_crlf) out.push_back('\r');
    out.push_back(c);
  }
  return out;
}

std::vector<std::string_view> SplitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

bool IsCodePointBoundary(std::string_view text, size_t offset) {
  if (offset == 0 || offset >= text.size()) return true;
  return (static_cast<unsigned char>(text[offset]) & 0xC0) != 0x80;
}

namespace {

// `bytes` with CRLF and lone CR rewritten to LF; sets *had_crlf when there were any.
std::string ToLf(std::string_view bytes, bool* had_crlf) {
  if (bytes.find('\r') == std::string_view::npos) return std::string(bytes);
  *had_crlf = true;
  std::string lf;
  lf.reserve(bytes.size());
  for (size_t i = 0; i < bytes.size(); ++i) {
    if (bytes[i] != '\r') {
      lf.push_back(bytes[i]);
      continue;
    }
    lf.push_back('\n');
    if (i + 1 < bytes.size() && bytes[i + 1] == '\n') ++i;
  }
  return lf;
}

tl::unexpected<Error> InvalidUtf8(std::string_view path, std::string_view text, size_t pos) {
  char b[4];
  std::snprintf(b, sizeof b, "%02X", static_cast<unsigned char>(text[pos]));
  return MakeError(ErrorKind::kInvalidUtf8,
                   "invalid UTF-8 byte 0x" + std::string(b) + ": save the file as UTF-8",
                   LocationAt(path, text, pos));
}

// Checks that `lf` is UTF-8, drops tag characters when asked and flags invisible ones. ASCII runs
// are copied without decoding: no ASCII character is a tag or invisible character.
Result<std::string> FilterCodePoints(const std::string& lf, std::string_view path,
                                     const CleanOptions& options, CleanedText* out) {
  std::string kept;
  kept.reserve(lf.size());
  const auto* data = reinterpret_cast<const utf8proc_uint8_t*>(lf.data());
  size_t pos = 0;
  size_t tag_count = 0;
  Location first_tag;
  while (pos < lf.size()) {
    size_t ascii = pos;
    while (ascii < lf.size() && static_cast<unsigned char>(lf[ascii]) < 0x80) ++ascii;
    kept.append(lf, pos, ascii - pos);
    if ((pos = ascii) == lf.size()) break;
    utf8proc_int32_t cp = 0;
    utf8proc_ssize_t n =
        utf8proc_iterate(data + pos, static_cast<utf8proc_ssize_t>(lf.size() - pos), &cp);
    if (n < 0) return InvalidUtf8(path, lf, pos);
    if (IsTagCharacter(cp)) {
      if (tag_count++ == 0) first_tag = LocationAt(path, lf, pos);
      if (!options.strip_tags) kept.append(lf, pos, static_cast<size_t>(n));
    } else {
      if (IsInvisible(cp)) {
        out->diagnostics.push_back({Severity::kWarning, "invisible-character",
                                    "invisible character " + CodePointName(cp) +
                                        " in instruction text; remove it unless it is intended",
                                    LocationAt(path, lf, pos)});
      }
      kept.append(lf, pos, static_cast<size_t>(n));
    }
    pos += static_cast<size_t>(n);
  }
  if (tag_count > 0) {
    out->diagnostics.push_back({Severity::kWarning, "tag-characters",
                                std::to_string(tag_count) +
                                    " Unicode tag character(s) (U+E0000..U+E007F) " +
                                    (options.strip_tags ? "stripped" : "found") +
                                    ": they are invisible to reviewers but reach the model",
                                first_tag});
  }
  return kept;
}

// False when NFC provably leaves `utf8` (valid UTF-8) unchanged: no code point has a nonzero
// combining class (nothing to reorder), a canonical decomposition (nothing to decompose) or a
// place as the second of a canonical composition, Hangul vowel and trailing jamo included
// (nothing to compose). Most instruction text passes, so utf8proc's full NFC runs only on text that
// needs it.
bool MayChangeUnderNfc(std::string_view utf8) {
  const auto* data = reinterpret_cast<const utf8proc_uint8_t*>(utf8.data());
  size_t pos = 0;
  while (pos < utf8.size()) {
    if (static_cast<unsigned char>(utf8[pos]) < 0x80) {
      ++pos;
      continue;
    }
    utf8proc_int32_t cp = 0;
    utf8proc_ssize_t n =
        utf8proc_iterate(data + pos, static_cast<utf8proc_ssize_t>(utf8.size() - pos), &cp);
    if (n <= 0) return true;
    pos += static_cast<size_t>(n);
    const utf8proc_property_t* p = utf8proc_get_property(cp);
    if (p->combining_class != 0) return true;
    if (p->decomp_seqindex != UINT16_MAX && p->decomp_type == 0) return true;  // canonical
    if (p->comb_index != UINT16_MAX && p->comb_index >= 0x8000) return true;   // a second
    if ((cp >= 0x1161 && cp <= 0x1175) || (cp >= 0x11A8 && cp <= 0x11C2)) return true;
  }
  return false;
}

}  // namespace

Result<CleanedText> CleanText(std::string_view bytes, std::string_view path,
                              const CleanOptions& options) {
  CleanedText out;
  if (bytes.starts_with("\xEF\xBB\xBF")) {
    bytes.remove_prefix(3);
    out.had_bom = true;
  }
  if (auto nul = bytes.find('\0'); nul != std::string_view::npos) {
    return MakeError(ErrorKind::kParse,
                     "binary file (NUL byte): instruction files must be text; remove it or exclude "
                     "it from the file list",
                     LocationAt(path, bytes, nul));
  }
  std::string lf = ToLf(bytes, &out.had_crlf);
  STRATA_TRY_ASSIGN(std::string kept, FilterCodePoints(lf, path, options, &out));
  if (options.normalize_nfc && MayChangeUnderNfc(kept)) {
    std::unique_ptr<utf8proc_uint8_t, decltype(&std::free)> nfc(
        utf8proc_NFC(reinterpret_cast<const utf8proc_uint8_t*>(kept.c_str())), &std::free);
    if (nfc) kept.assign(reinterpret_cast<const char*>(nfc.get()));
  }
  out.text = std::move(kept);
  return out;
}

}  // namespace strata
