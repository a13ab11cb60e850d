// assemble_cli_test.cc: `strata assemble` end to end: session file in (a path or standard input),
// request JSON or layer map out; invalid session files and refused project instruction files are
// refused loudly, naming the file (and the line and column, or the member), exit 2.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "strata/assemble.h"
#include "strata/compile.h"
#include "support/test_support.h"
#include "targets/generated_header.h"

namespace strata {
namespace {

using strata::testing::RunCli;
using strata::testing::TempDir;
namespace fs = std::filesystem;

const char kSession[] = R"({
  "model": "claude-sonnet-4-5",
  "persona": "You are a careful coding agent.",
  "tools": [{"name": "read", "description": "Read a file",
             "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}}}],
  "history": [{"role": "user", "content": "hello"}, {"role": "assistant", "content": "hi"}],
  "now": "2026-11-29T10:00:00Z",
  "cwd": "/work/project",
  "user": "run the tests"
})";

TEST(AssembleCliTest, PrintsTheRequestJsonWithProjectInstructions) {
  TempDir dir;
  dir.Write("session.json", kSession);
  dir.Write("project/AGENTS.md", "# Rules\r\n\r\nRun make test.\r\n");
  auto r = RunCli({"assemble", "--session", (dir.path() / "session.json").string(), "--project",
                   (dir.path() / "project").string(), "--provider", "anthropic"},
                  dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["model"], "claude-sonnet-4-5");
  ASSERT_EQ(doc["messages"].size(), 3u);
  EXPECT_EQ(doc["messages"][2]["content"][0]["text"], "run the tests");
  std::string block2 = doc["system"][1]["text"];
  EXPECT_NE(block2.find("# Instructions from AGENTS.md\n\n# Rules\n\nRun make test."),
            std::string::npos)
      << block2;
}

TEST(AssembleCliTest, EveryProviderPrintsValidJson) {
  TempDir dir;
  dir.Write("session.json", kSession);
  for (const char* provider : {"openai-chat", "openai-responses"}) {
    auto r = RunCli({"assemble", "--session", "session.json", "--provider", provider}, dir.path());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_FALSE(nlohmann::json::parse(r.out, nullptr, false).is_discarded()) << provider;
    EXPECT_EQ(r.out.find("cache_control"), std::string::npos);
  }
}

TEST(AssembleCliTest, LayersPrintsTheLayerMap) {
  TempDir dir;
  dir.Write("session.json", kSession);
  auto r = RunCli({"assemble", "--session", "session.json", "--layers"}, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto map = nlohmann::json::parse(r.out);
  ASSERT_TRUE(map.is_array());
  std::vector<std::string> layers;
  for (const auto& e : map) layers.push_back(e["layer"]);
  EXPECT_EQ(layers, (std::vector<std::string>{"tools", "persona", "environment", "history", "input",
                                              "tail"}));
}

TEST(AssembleCliTest, BadInputsExitWithTwo) {
  TempDir dir;
  dir.Write("session.json", kSession);
  EXPECT_EQ(RunCli({"assemble", "--session", "session.json", "--provider", "gemini"}, dir.path())
                .exit_code,
            2);
  EXPECT_EQ(RunCli({"assemble", "--session", "missing.json"}, dir.path()).exit_code, 2);
  dir.Write("bad.json", R"({"now": "yesterday"})");
  auto r = RunCli({"assemble", "--session", "bad.json"}, dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("RFC 3339"), std::string::npos) << r.err;
}

// Runs `strata assemble --session -` in `dir` with `input_file` on standard input; stdout.
std::string AssembleFromStdin(const TempDir& dir, const std::string& input_file, int* exit_code) {
  std::string command = "cd '" + dir.path().string() +
                        "' && '" STRATA_CLI_PATH "' assemble --session - < '" + input_file +
                        "' 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  std::string out;
  char buffer[4096];
  for (size_t n; (n = fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
  int status = pclose(pipe);
  *exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

TEST(AssembleCliTest, DashReadsTheSessionFromStandardInput) {
  TempDir dir;
  dir.Write("session.json", kSession);
  int exit_code = -1;
  std::string from_stdin = AssembleFromStdin(dir, "session.json", &exit_code);
  ASSERT_EQ(exit_code, 0) << from_stdin;
  auto from_file = RunCli({"assemble", "--session", "session.json"}, dir.path());
  ASSERT_EQ(from_file.exit_code, 0) << from_file.err;
  EXPECT_EQ(from_stdin, from_file.out);
  dir.Write("bad.json", R"({"persona": 3})");
  std::string error = AssembleFromStdin(dir, "bad.json", &exit_code);
  EXPECT_EQ(exit_code, 2);
  EXPECT_NE(error.find("<stdin>: error: 'persona' must be a string"), std::string::npos) << error;
}

const char kMinimalSession[] = R"({"model": "m", "persona": "p", "user": "go"})";

testing::CliResult AssembleProject(const TempDir& dir) {
  dir.Write("session.json", kMinimalSession);
  return RunCli({"assemble", "--session", "session.json", "--project", "project"}, dir.path());
}

size_t Count(const std::string& haystack, const std::string& needle) {
  size_t n = 0;
  for (size_t at = haystack.find(needle); at != std::string::npos;
       at = haystack.find(needle, at + 1)) {
    ++n;
  }
  return n;
}

TEST(SessionInputTest, RefusedProjectInstructionFileIsAnErrorNamingIt) {
  struct Case {
    const char* what;
    std::string bytes;
    std::string expected;  // on stderr
  };
  std::vector<Case> cases = {
      {"binary", std::string("bin\0ary", 7), "project/AGENTS.md:1:4: error: binary file"},
      {"invalid UTF-8", "ok\n\xff\n", "project/AGENTS.md:2:1: error:"},
      {"over 4 MiB", std::string(size_t{4} * 1024 * 1024 + 1, 'a'),
       "project/AGENTS.md: error: 4194305 bytes is more than the 4194304-byte read limit"},
  };
  for (const Case& c : cases) {
    TempDir dir;
    dir.Write("project/AGENTS.md", c.bytes);
    testing::CliResult r = AssembleProject(dir);
    EXPECT_EQ(r.exit_code, 2) << c.what;
    EXPECT_TRUE(r.out.empty()) << c.what;
    EXPECT_NE(r.err.find(c.expected), std::string::npos) << c.what << ": " << r.err;
  }
}

TEST(SessionInputTest, DirectoryNamedAgentsMdIsAWarning) {
  TempDir dir;
  fs::create_directories(dir.path() / "project/AGENTS.md");
  testing::CliResult r = AssembleProject(dir);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("project/AGENTS.md: warning: a directory, not an instruction file"),
            std::string::npos)
      << r.err;
}

TEST(SessionInputTest, GeneratedClientCopiesAreNotAssembledAgain) {
  TempDir dir;
  dir.Write("project/AGENTS.md", "Run make test.\n");
  std::string copy = GeneratedHeader("AGENTS.md") + "\nRun make test.\n";
  dir.Write("project/CLAUDE.md", copy);
  dir.Write("project/GEMINI.md", copy);
  testing::CliResult r = AssembleProject(dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Count(r.out, "Run make test."), 1u) << r.out;
  EXPECT_EQ(Count(r.out, "# Instructions from "), 1u) << r.out;
  EXPECT_TRUE(r.err.empty()) << r.err;  // the skip is a note, not printed
}

TEST(SessionInputTest, MalformedJsonReportsLineAndColumn) {
  TempDir dir;
  dir.Write("bad.json", "{\n  \"model\": ,\n}\n");  // the ',' is at line 2, column 12
  testing::CliResult r = RunCli({"assemble", "--session", "bad.json"}, dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("bad.json:2:12: error: not valid JSON: "), std::string::npos) << r.err;
  auto parsed = ParseSessionFile("{\"a\": [1, 2", "s.json");
  ASSERT_FALSE(parsed.has_value());
  EXPECT_EQ(parsed.error().where.line, 1);
  EXPECT_EQ(parsed.error().where.column, 12);  // end of input, after the '2' at column 11
}

TEST(SessionInputTest, UnansweredToolCallErrorNamesTheSessionFile) {
  TempDir dir;
  dir.Write("s.json", R"({"history": [{"role": "user", "content": "a"},
    {"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "name": "read"}]}],
    "user": "next"})");
  testing::CliResult r = RunCli({"assemble", "--session", "s.json"}, dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("s.json: error: a tool call of the last assistant message has no result"),
            std::string::npos)
      << r.err;
}

TEST(SessionInputTest, InvalidMembersAreRefusedNamingFileAndMember) {
  struct Case {
    const char* json;
    const char* expected;
  };
  const Case cases[] = {
      {R"({"history": [{"role": "user", "content": "a"},
          {"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "name": "read"}]},
          {"role": "tool", "tool_call_id": "zz", "content": "x"}]})",
       "s.json: error: history[2].tool_call_id 'zz' answers no tool call of the preceding "
       "assistant message"},
      {R"({"history": [{"role": "user", "content": "a"},
          {"role": "tool", "tool_call_id": "c1", "content": "x"}]})",
       "s.json: error: history[1].tool_call_id 'c1' answers no tool call"},
      {R"({"options": {"max_tokens": -1}})",
       "s.json: error: options.max_tokens must be a positive integer, got -1"},
      {R"({"options": {"max_tokens": 0}})", "s.json: error: options.max_tokens"},
      {R"({"options": {"max_tokens": 9999999999}})",
       "s.json: error: options.max_tokens is out of range"},
      {R"({"options": {"long_ttl_breakpoints": 99}})",
       "s.json: error: options.long_ttl_breakpoints must be 0 to 4"},
      {R"({"options": {"long_ttl_breakpoints": -1}})",
       "s.json: error: options.long_ttl_breakpoints must be 0 to 4"},
      {R"({"tools": [{"name": "read"}, {"name": "write"}, {"name": "read", "description": "x"}]})",
       "s.json: error: tools[2].name 'read' repeats tools[0]; tool names must be unique"},
  };
  for (const Case& c : cases) {
    TempDir dir;
    dir.Write("s.json", c.json);
    testing::CliResult r = RunCli({"assemble", "--session", "s.json"}, dir.path());
    EXPECT_EQ(r.exit_code, 2) << c.json;
    EXPECT_NE(r.err.find(c.expected), std::string::npos) << c.json << "\n" << r.err;
  }
  // The limits themselves are accepted.
  EXPECT_TRUE(
      ParseSessionFile(R"({"options": {"max_tokens": 1, "long_ttl_breakpoints": 4}})", "s.json")
          .has_value());
}

TEST(SessionInputTest, ProjectInstructionFileLinkedOutOfTheRootIsRefused) {
  TempDir dir;
  dir.Write("outside/secret.md", "SECRET\n");
  fs::create_directories(dir.path() / "project");
  fs::create_symlink(dir.path() / "outside/secret.md", dir.path() / "project/CLAUDE.md");
  fs::create_symlink("/proc/self/status", dir.path() / "project/AGENTS.md");
  testing::CliResult r = AssembleProject(dir);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find("SECRET"), std::string::npos);
  EXPECT_EQ(r.out.find("VmRSS"), std::string::npos);
  EXPECT_NE(r.err.find("project/CLAUDE.md: warning: symlink CLAUDE.md resolves outside"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("--allow-outside-root or --allow-dir DIR"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace strata
