// scratch_dir.h: a fuzz target's scratch directory under the temporary directory, made at the
// first call and removed with everything in it when the fuzzer exits normally (-runs,
// -max_total_time), so repeated runs leave nothing behind. A crash keeps it for the reproducer.
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <string>

namespace strata::fuzz {

inline const std::filesystem::path& ScratchDir() {
  struct Dir {
    std::filesystem::path path;
    Dir() {
      std::string tmpl = (std::filesystem::temp_directory_path() / "strata-fuzz-XXXXXX").string();
      if (::mkdtemp(tmpl.data()) == nullptr) std::abort();
      path = tmpl;
    }
    ~Dir() {
      std::error_code ec;
      std::filesystem::remove_all(path, ec);
    }
  };
  static const Dir dir;
  return dir.path;
}

}  // namespace strata::fuzz
