// bands_fuzz: the band splitter, the generated-block splice and the volatile scanner on arbitrary
// text. Checks the invariants the compiler relies on: every piece line maps to a source line in
// order, rendering is deterministic, and a splice is idempotent.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "bands/bands.h"
#include "compile/render_target.h"
#include "compile/splice.h"
#include "stability/stability.h"
#include "targets/targets.h"
#include "text/text.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view raw(reinterpret_cast<const char*>(data), size);
  auto clean = strata::CleanText(raw, "fuzz.md");
  if (!clean) return 0;
  const std::string& text = clean->text;

  strata::BandedSource banded = strata::SplitBands(text, strata::MatchClientHeading);
  int last_line = 0;
  for (const auto& piece : banded.pieces) {
    if (piece.line_numbers.size() != strata::SplitLines(piece.text).size()) std::abort();
    for (int line : piece.line_numbers) {
      if (line < 1) std::abort();
      last_line = std::max(last_line, line);
    }
  }
  if (last_line > static_cast<int>(strata::SplitLines(text).size())) std::abort();

  strata::RenderEnv env;
  for (const auto& target : strata::AllTargets()) {
    std::string a = strata::RenderTarget(target, banded, "AGENTS.md", env);
    std::string b = strata::RenderTarget(target, banded, "AGENTS.md", env);
    if (a != b || a.empty() || a.back() != '\n') std::abort();
  }

  std::vector<strata::GeneratedBlock> blocks = {{"fuzz", "generated text\n"}};
  auto once = strata::SpliceBlocks(text, blocks, "fuzz.md");
  if (once) {
    auto twice = strata::SpliceBlocks(once->text, blocks, "fuzz.md");
    if (!twice || twice->text != once->text) std::abort();
  }

  for (const auto& match : strata::ScanVolatileText(text)) {
    if (match.offset + match.text.size() > text.size()) std::abort();
  }
  return 0;
}
