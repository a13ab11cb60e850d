// config_fuzz.cc: strata.toml parsing (strata's byte checks, toml++, then strata's checks of keys,
// targets, blocks, [imports] and [mcp]) on arbitrary bytes, with block files resolved below a
// scratch root that holds none: every input gives a ProjectConfig or an error naming the line.
// The bytes go in unchanged: what toml++ 3.3.0 cannot read is config/toml_guard.h's to refuse.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "config/config.h"
#include "scratch_dir.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::filesystem::path& root = strata::fuzz::ScratchDir();
  std::string_view toml(reinterpret_cast<const char*>(data), size);
  auto config = strata::ParseProjectConfig(toml, root / "strata.toml", root);
  if (config) (void)config->targets.size();
  return 0;
}
