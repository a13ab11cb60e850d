// delegate.cc: `strata chat|replay|explain ...` execs strata-local, the executable that links
// llama.cpp, and `strata record ...` execs strata-record, the one that links cpp-httplib (a shared
// library with its own OpenSSL and libstdc++), so that every other command starts without them.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "commands.h"

namespace strata::cli {

namespace {

// `name` beside this executable (the build tree and bin/), else in ../libexec/strata/.
std::filesystem::path FindExecutable(const std::string& name) {
  std::error_code ec;
  std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  std::filesystem::path dir = self.parent_path();
  for (const auto& candidate : {dir / name, dir.parent_path() / "libexec" / "strata" / name}) {
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return {};
}

}  // namespace

int ExecDelegate(int argc, char** argv, const char* executable) {
  std::filesystem::path local = FindExecutable(executable);
  if (local.empty() && std::string_view(executable) == "strata-local") {
    std::fprintf(stderr,
                 "strata: error: '%s' runs in strata-local, which is not installed beside strata "
                 "(this build has no llama.cpp: run scripts/setup-llama.sh, configure with "
                 "-DSTRATA_LLAMA_DIR=<its prefix> and rebuild)\n",
                 argv[1]);
    return 2;
  }
  if (local.empty()) {
    std::fprintf(stderr,
                 "strata: error: '%s' runs in %s, which is not installed beside strata (this "
                 "build has no cpp-httplib: run scripts/setup.sh and rebuild)\n",
                 argv[1], executable);
    return 2;
  }
  std::vector<char*> args(argv, argv + argc);
  std::string program = local.string();
  args[0] = program.data();
  args.push_back(nullptr);
  ::execv(program.c_str(), args.data());
  std::fprintf(stderr, "strata: error: cannot run %s: %s\n", program.c_str(), std::strerror(errno));
  return 2;
}

}  // namespace strata::cli
