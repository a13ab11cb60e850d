// config_fuzz.cc: strata.toml parsing (toml++ plus strata's checks of keys, targets, blocks,
// [imports] and [mcp]) on arbitrary bytes, with block files resolved below a scratch root that
// holds none: every input gives a ProjectConfig or an error naming the line.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

#include "config/config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::filesystem::path root = [] {
    char dir[] = "/tmp/strata-config-fuzz-XXXXXX";
    return std::filesystem::path(mkdtemp(dir));
  }();
  // Non-ASCII bytes outside double-quoted strings become '?': toml++ 3.3.0 takes an unreachable
  // branch on them (a syntax error either way, see config.cc), which would hide strata's findings.
  std::string toml(reinterpret_cast<const char*>(data), size);
  bool quoted = false;
  for (char& c : toml) {
    if (c == '"') quoted = !quoted;
    if (c == '\n') quoted = false;
    if (!quoted && static_cast<unsigned char>(c) >= 0x80) c = '?';
  }
  auto config = strata::ParseProjectConfig(toml, root / "strata.toml", root);
  if (config) (void)config->targets.size();
  return 0;
}
