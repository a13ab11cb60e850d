// test_support.cc: scratch directories and a subprocess runner for CLI tests.
#include "support/test_support.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace strata::testing {

namespace fs = std::filesystem;

TempDir::TempDir() {
  std::string tmpl = (fs::temp_directory_path() / "strata-test-XXXXXX").string();
  if (::mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  path_ = fs::canonical(tmpl);
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

fs::path TempDir::Write(const std::string& relative, std::string_view bytes) const {
  fs::path full = path_ / relative;
  fs::create_directories(full.parent_path());
  std::ofstream out(full, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return full;
}

std::string ReadAll(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::string TranscriptFixture(const std::string& name) {
  const fs::path path = fs::path(STRATA_SOURCE_DIR) / "tests/transcripts/fixtures" / name;
  EXPECT_TRUE(fs::is_regular_file(path)) << path;
  return fs::is_regular_file(path) ? ReadAll(path) : std::string();
}

std::optional<fs::path> CorpusDir() {
  fs::path dir = fs::path(STRATA_SOURCE_DIR).parent_path() / "shared" / "corpus";
  if (const char* env = std::getenv("STRATA_CORPUS_DIR")) dir = env;
  std::error_code ec;
  if (fs::is_directory(dir, ec)) return dir;
  return std::nullopt;
}

namespace {

CliResult Run(const std::vector<std::string>& args, const fs::path& cwd,
              const std::vector<std::string>& env, const fs::path& input) {
  fs::path out_file = fs::temp_directory_path() / ("strata-cli-out-" + std::to_string(::getpid()));
  fs::path err_file = fs::temp_directory_path() / ("strata-cli-err-" + std::to_string(::getpid()));
  pid_t pid = ::fork();
  if (pid == 0) {
    if (::chdir(cwd.c_str()) != 0) _exit(127);
    FILE* o = std::freopen(out_file.c_str(), "w", stdout);
    FILE* e = std::freopen(err_file.c_str(), "w", stderr);
    // stdin is the given file, never what the test runner left open there (a CI pipe that
    // never closes would hang a command that reads it).
    FILE* i = std::freopen(input.c_str(), "r", stdin);
    if (o == nullptr || e == nullptr || i == nullptr) _exit(127);
    ::setenv("NO_COLOR", "1", 1);
    for (const std::string& pair : env) {
      size_t eq = pair.find('=');
      if (eq != std::string::npos) ::setenv(pair.substr(0, eq).c_str(), pair.c_str() + eq + 1, 1);
    }
    std::vector<char*> argv;
    std::string bin = STRATA_CLI_PATH;
    argv.push_back(bin.data());
    std::vector<std::string> copy = args;
    for (auto& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(bin.c_str(), argv.data());
    _exit(127);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  CliResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = ReadAll(out_file);
  result.err = ReadAll(err_file);
  std::error_code ec;
  fs::remove(out_file, ec);
  fs::remove(err_file, ec);
  return result;
}

}  // namespace

CliResult RunCli(const std::vector<std::string>& args, const fs::path& cwd,
                 const std::vector<std::string>& env) {
  return Run(args, cwd, env, "/dev/null");
}

CliResult RunCliWithInput(const std::vector<std::string>& args, const fs::path& cwd,
                          std::string_view input) {
  TempDir dir;
  return Run(args, cwd, {}, dir.Write("stdin", input));
}

}  // namespace strata::testing
