// config_fuzz.cc: strata.toml parsing (toml++ plus strata's checks of keys, targets, blocks,
// [imports] and [mcp]) on arbitrary bytes, with block files resolved below a scratch root that
// holds none: every input gives a ProjectConfig or an error naming the line.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string_view>

#include "config/config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::filesystem::path root = [] {
    char dir[] = "/tmp/strata-config-fuzz-XXXXXX";
    return std::filesystem::path(mkdtemp(dir));
  }();
  std::string_view toml(reinterpret_cast<const char*>(data), size);
  auto config = strata::ParseProjectConfig(toml, root / "strata.toml", root);
  if (config) (void)config->targets.size();
  return 0;
}
