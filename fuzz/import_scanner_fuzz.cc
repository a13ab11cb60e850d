// import_scanner_fuzz.cc: any bytes through the import scanner, the cmark-gfm region finder and
// head+tail truncation; checks that every token and range lies inside the text and that cuts fall
// on code point boundaries.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "discover/budget.h"
#include "discover/import_scanner.h"
#include "discover/markdown_regions.h"
#include "text/text.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  strata::ImportScan scan = strata::ScanImports(text);
  size_t previous = 0;
  for (const auto* list : {&scan.imports, &scan.refused}) {
    previous = 0;
    for (const strata::ImportToken& t : *list) {
      if (t.offset >= size || text[t.offset] != '@') std::abort();
      if (t.offset + t.length > size || t.length == 0) std::abort();
      if (t.offset < previous) std::abort();
      if (t.line < 1 || t.column < 1) std::abort();
      previous = t.offset;
      if (list == &scan.imports && (t.path.empty() || t.path.find('\n') != std::string::npos)) {
        std::abort();
      }
    }
  }
  for (const auto& range : strata::discover::FindExcludedRanges(text)) {
    if (range.begin > range.end || range.end > size) std::abort();
  }
  if (strata::CleanText(text, "fuzz")) {
    size_t keep = size == 0 ? 0 : data[0] % (size + 1);
    strata::Truncation cut = strata::TruncateHeadTail(text, keep, "fuzz");
    if (cut.head_bytes + cut.tail_bytes > std::max(keep, cut.truncated ? 0 : size)) std::abort();
    if (!strata::IsCodePointBoundary(text, cut.head_bytes)) std::abort();
    if (!strata::IsCodePointBoundary(text, size - cut.tail_bytes)) std::abort();
  }
  return 0;
}
