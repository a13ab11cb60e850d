// splice.h: generated blocks kept inside an instruction source (praetor, whose format strata
// keeps, has one such block and calls it the "text register block").
//
// A block from strata.toml lives in the source between two marker lines (bands/markers.h),
// outside code blocks:
//   <!-- strata:begin NAME -->
//   ...text rendered from strata.toml...
//   <!-- strata:end NAME -->
// `strata compile` rewrites the text between them; a banded source without the block gets it right
// after its config marker. `--verify` fails when the text differs (drift). The marker lines never
// reach compiled targets.
#pragma once

#include <string>
#include <vector>

#include "config/config.h"
#include "strata/status.h"

namespace strata {

struct SpliceResult {
  std::string text;                     // the source with every block current
  std::vector<std::string> updated;     // names whose text was replaced
  std::vector<std::string> inserted;    // names added after the config marker
  std::vector<Diagnostic> diagnostics;  // a block that could not be placed, an unknown block
};

// Brings every block of `blocks` up to date in `source` (clean UTF-8, LF). `path` labels locations.
// Errors: kParse for a begin without its end (or the reverse), or a block that appears twice.
Result<SpliceResult> SpliceBlocks(std::string_view source,
                                  const std::vector<GeneratedBlock>& blocks, std::string_view path);

}  // namespace strata
