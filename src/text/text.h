// text.h: text hygiene for instruction files.
//
// Every instruction text strata reads passes through CleanText before any other rule sees it, so
// the band splitter, the import scanner and the renderers only ever see UTF-8 with LF line endings,
// no byte order mark, no Unicode tag characters, in NFC. Tag characters are invisible to a reviewer
// yet reach the model (Goose strips them and NFC-normalises for the same reason), and
// unnormalised text renders the same but hashes differently. Invalid UTF-8 and binary files are
// refused.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "strata/status.h"

namespace strata {

// What CleanText may change beyond BOM and line endings (discovery's public HygieneOptions,
// discover.h, maps onto it).
struct CleanOptions {
  bool normalize_nfc = true;  // utf8proc NFC; off keeps the code points as written
  bool strip_tags = true;     // remove U+E0000..U+E007F (reported either way)
};

struct CleanedText {
  std::string text;                     // UTF-8, LF only, no BOM
  std::vector<Diagnostic> diagnostics;  // tag characters stripped, invisible characters flagged
  bool had_bom = false;                 // a UTF-8 BOM was removed from the start
  bool had_crlf = false;                // CRLF or lone CR line endings were rewritten to LF
};

// Cleans `bytes` read from `path` (the path only labels diagnostics).
// Errors: kParse for a binary file (a NUL byte; the location is its first occurrence), kInvalidUtf8
// for bytes that are not UTF-8 (the location is the first bad byte). Both say what to do.
Result<CleanedText> CleanText(std::string_view bytes, std::string_view path,
                              const CleanOptions& options = {});

// `lf_text` (LF line endings, no BOM) put back in the form `original` was read in: CRLF line
// endings and the BOM restored when the original had them. Used when strata writes back into a
// hand-written file, so that only the lines it meant to change differ.
std::string InOriginalForm(std::string_view lf_text, const CleanedText& original);

// The lines of `text` without their '\n'; a final line without newline counts, an empty text has
// none. The views point into `text`.
std::vector<std::string_view> SplitLines(std::string_view text);

// True when `offset` is not inside a multi-byte UTF-8 sequence of `text` (it may equal size()).
bool IsCodePointBoundary(std::string_view text, size_t offset);

}  // namespace strata
