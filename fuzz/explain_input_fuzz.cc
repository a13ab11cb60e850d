// explain_input_fuzz.cc: what `strata explain` reads (a provider request body in any of the three
// APIs, or strata assemble output) on arbitrary bytes: a parse gives an ExplainInput whose
// canonical form prints, or an error with file:line:col; never a crash or an out-of-bounds read.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "strata/replay.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto input = strata::ParseExplainInput(text, "fuzz.json");
  if (input) (void)strata::FormatExplainInput(*input).size();
  return 0;
}
