// crash_harness.h: runs the built strata binary and kills it with SIGKILL, after a random delay
// or at a named crash point (STRATA_TEST_CRASH_AT, io/file_io.h), for the crash tests.
#pragma once

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

namespace strata::testing {

// Starts strata with `args` in `cwd`, output discarded; `crash_at` (may be empty) is set as
// STRATA_TEST_CRASH_AT. After `kill_after_us` microseconds (< 0: never) the process is killed.
// Returns the wait status.
inline int RunAndKill(const std::vector<std::string>& args, const std::filesystem::path& cwd,
                      const std::string& crash_at, long kill_after_us) {
  pid_t pid = ::fork();
  if (pid == 0) {
    if (::chdir(cwd.c_str()) != 0) _exit(127);
    if (std::freopen("/dev/null", "w", stdout) == nullptr) _exit(127);
    if (std::freopen("/dev/null", "w", stderr) == nullptr) _exit(127);
    if (!crash_at.empty()) ::setenv("STRATA_TEST_CRASH_AT", crash_at.c_str(), 1);
    std::vector<char*> argv;
    std::string cli = STRATA_CLI_PATH;
    argv.push_back(cli.data());
    std::vector<std::string> copy = args;
    for (auto& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(cli.c_str(), argv.data());
    _exit(127);
  }
  if (kill_after_us >= 0) {
    ::usleep(static_cast<useconds_t>(kill_after_us));
    ::kill(pid, SIGKILL);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return status;
}

// Files below `dir` (recursively) whose name carries strata's temporary marker.
inline std::vector<std::string> TemporariesBelow(const std::filesystem::path& dir) {
  std::vector<std::string> found;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(dir, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    if (it->path().filename().string().find(".strata-tmp-") != std::string::npos) {
      found.push_back(it->path().string());
    }
  }
  return found;
}

}  // namespace strata::testing
