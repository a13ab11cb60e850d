// delegate.cc: `strata chat|replay|explain ...` execs strata-local, the executable that links
// llama.cpp, and `strata record ...` execs strata-record, the one that links cpp-httplib (a shared
// library with its own OpenSSL and libstdc++), so that every other command starts without them.
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fcntl.h>

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

// Reads `fd` to its end into *out.
void DrainFd(int fd, std::string* out) {
  char buf[65536];
  for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    out->append(buf, static_cast<size_t>(n));
  }
}

}  // namespace

Result<DelegateRun> RunDelegate(const char* executable, const std::vector<std::string>& args) {
  std::filesystem::path program = FindExecutable(executable);
  if (program.empty()) {
    return MakeError(ErrorKind::kNotFound,
                     std::string(executable) +
                         " is not installed beside strata (this build has no llama.cpp: run "
                         "scripts/setup-llama.sh, configure with -DSTRATA_LLAMA_DIR=<its prefix> "
                         "and rebuild)");
  }
  int out_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) {
    return MakeError(ErrorKind::kIo, std::string("pipe: ") + std::strerror(errno));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], STDOUT_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  std::vector<std::string> argv_storage = {program.string()};
  argv_storage.insert(argv_storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_storage) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  int rc = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(out_pipe[1]);
  if (rc != 0) {
    ::close(out_pipe[0]);
    return MakeError(ErrorKind::kIo, "cannot run " + program.string() + ": " + std::strerror(rc));
  }
  DelegateRun run;
  DrainFd(out_pipe[0], &run.out);
  ::close(out_pipe[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return run;
}

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
