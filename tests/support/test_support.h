// test_support.h: helpers shared by the tests: scratch directories, file writes, the corpus folder,
// and running the built `strata` binary.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace strata::testing {

// A fresh directory under the system temp dir, removed with everything below it on destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  // Writes `bytes` to path()/relative, creating parent directories; returns the full path.
  std::filesystem::path Write(const std::string& relative, std::string_view bytes) const;

 private:
  std::filesystem::path path_;
};

std::string ReadAll(const std::filesystem::path& path);

// The bytes of tests/transcripts/fixtures/<name> (a hand-written log); a missing file fails the
// test and gives "".
std::string TranscriptFixture(const std::string& name);

// ../shared/corpus beside the source tree, or nullopt when it is absent (tests then GTEST_SKIP).
std::optional<std::filesystem::path> CorpusDir();

struct CliResult {
  int exit_code = -1;
  std::string out;  // stdout
  std::string err;  // stderr
};

// Runs the built strata binary with `args` in `cwd` (NO_COLOR set, stdin empty), capturing both
// streams.
CliResult RunCli(const std::vector<std::string>& args, const std::filesystem::path& cwd,
                 const std::vector<std::string>& env = {});  // env: NAME=VALUE set in the child

// RunCli with `input` as the child's stdin.
CliResult RunCliWithInput(const std::vector<std::string>& args, const std::filesystem::path& cwd,
                          std::string_view input);

}  // namespace strata::testing
