// chat_cli_test.cc: `strata chat` end to end on the tiny model: one JSON object per turn with the
// checkpoint outcome and counts, a second process restoring the first one's checkpoint, usage
// errors exiting 2.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "local/local_fixture.h"

namespace strata::testing {
namespace {

using ChatCliTest = LocalTest;

nlohmann::json Parse(const std::string& line) {
  return nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
}

TEST_F(ChatCliTest, SecondProcessRestoresTheCheckpoint) {
  tmp_.Write("project/AGENTS.md", "Build with cmake.\n");
  // The session's date and time is part of the first message (the uncached suffix): without
  // --datetime each process renders its own clock's second, and two processes a second apart (a
  // loaded machine) ask different prompts, which may well get different greedy replies.
  const std::vector<std::string> args = {"chat",
                                         "--model",
                                         TinyModelPath(1).string(),
                                         "--project",
                                         project_.string(),
                                         "--store",
                                         (tmp_.path() / "cli-kv").string(),
                                         "--json",
                                         "-n",
                                         "3",
                                         "--threads",
                                         "1",
                                         "--ctx",
                                         "1024",
                                         "--datetime",
                                         "2026-01-01T00:00:00Z",
                                         "-p",
                                         "How do I build?"};
  CliResult first = RunCli(args, tmp_.path());
  ASSERT_EQ(first.exit_code, 0) << first.err;
  nlohmann::json a = Parse(first.out);
  ASSERT_TRUE(a.is_object()) << first.out;
  EXPECT_EQ(a["checkpoint"], "miss");
  EXPECT_EQ(a["title"], "How do I build");
  EXPECT_GT(a["prefix_tokens"].get<int>(), 0);
  EXPECT_GT(a["suffix_tokens"].get<int>(), 0);
  EXPECT_TRUE(a.contains("restore_ms"));
  EXPECT_TRUE(a.contains("prefill_ms"));
  CliResult second = RunCli(args, tmp_.path());
  ASSERT_EQ(second.exit_code, 0) << second.err;
  nlohmann::json b = Parse(second.out);
  EXPECT_EQ(b["checkpoint"], "hit");
  EXPECT_EQ(b["prefix_tokens"], a["prefix_tokens"]);
  EXPECT_EQ(b["key"], a["key"]);
  EXPECT_EQ(b["reply"], a["reply"]);  // greedy decoding from an identical state
}

TEST_F(ChatCliTest, ReplPrintsOneJsonObjectPerTurnAndSkipsBlankLines) {
  const std::vector<std::string> args = {"chat",
                                         "--model",
                                         TinyModelPath(1).string(),
                                         "--store",
                                         (tmp_.path() / "kv2").string(),
                                         "--json",
                                         "-n",
                                         "2"};
  CliResult r = RunCliWithInput(args, tmp_.path(), "How do I build?\n\n   \nAnd test?\n");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<nlohmann::json> turns;
  size_t start = 0;
  for (size_t nl; (nl = r.out.find('\n', start)) != std::string::npos; start = nl + 1)
    turns.push_back(Parse(r.out.substr(start, nl - start)));
  ASSERT_EQ(turns.size(), 2u) << r.out;
  ASSERT_TRUE(turns[0].is_object() && turns[1].is_object()) << r.out;
  EXPECT_EQ(turns[0]["turn"], 1);
  EXPECT_EQ(turns[1]["turn"], 2);
  EXPECT_EQ(turns[0]["title"], "How do I build");
  // The second turn appends to the first one's context: it prefills only its own tokens, fewer
  // than the first turn's prompt that the conversation now starts with.
  const int first_prompt =
      turns[0]["prefix_tokens"].get<int>() + turns[0]["suffix_tokens"].get<int>();
  EXPECT_GT(turns[1]["suffix_tokens"].get<int>(), 0) << r.out;
  EXPECT_LT(turns[1]["suffix_tokens"].get<int>(), first_prompt) << r.out;

  // No line at all: no turn, and no store or model work.
  CliResult none = RunCli({"chat", "--model", TinyModelPath(1).string(), "--store",
                           (tmp_.path() / "kv2b").string(), "--json"},
                          tmp_.path());
  EXPECT_EQ(none.exit_code, 0) << none.err;
  EXPECT_EQ(none.out, "");
  EXPECT_FALSE(std::filesystem::exists(tmp_.path() / "kv2b"));
}

TEST_F(ChatCliTest, EmptyPromptIsAUsageErrorAndDoesNoWork) {
  CliResult r = RunCli({"chat", "--model", TinyModelPath(1).string(), "--store",
                        (tmp_.path() / "kv3").string(), "-p", "  "},
                       tmp_.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_FALSE(std::filesystem::exists(tmp_.path() / "kv3"));
}

TEST_F(ChatCliTest, ContextSmallerThanBatchDecodesInContextSizedBatches) {
  // llama.cpp lowers n_batch to n_ctx; decoding a 512-token batch into it would abort in ggml.
  // (128: the prompt, about 93 tokens with the session context, plus one generated token fit.)
  CliResult r = RunCli(
      {"chat", "--model", TinyModelPath(1).string(), "--store", (tmp_.path() / "kv4").string(),
       "--ctx", "128", "--batch", "512", "-n", "2", "--json", "-p", "hi"},
      tmp_.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"checkpoint\":\"miss\""), std::string::npos) << r.out;
}

// A message with more bytes than the context can hold tokens of is refused before tokenizing:
// exit 2 with the least token count, and no turn.
TEST_F(ChatCliTest, AMessageOverTheContextInBytesIsRefusedBeforeTokenizing) {
  std::string message;
  while (message.size() < 100000) message += "plan the next step ";
  CliResult r = RunCli({"chat", "--model", TinyModelPath(1).string(), "--store",
                        (tmp_.path() / "kv6").string(), "--ctx", "64", "--json", "-p", message},
                       tmp_.path());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("the message is " + std::to_string(message.size()) + " bytes, at least"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("the context holds 64"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
}

TEST_F(ChatCliTest, NegativeMaxTokensIsAUsageError) {
  CliResult r = RunCli({"chat", "--model", TinyModelPath(1).string(), "--store",
                        (tmp_.path() / "kv5").string(), "-n", "-1", "-p", "hi"},
                       tmp_.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_FALSE(std::filesystem::exists(tmp_.path() / "kv5"));
}

// strata chat reads the project through discovery: an imported file is part of the checkpoint key.
TEST_F(ChatCliTest, ImportedFileKeysTheCheckpoint) {
  tmp_.Write("project/AGENTS.md", "Build with cmake.\n@docs/extra.md\n");
  tmp_.Write("project/docs/extra.md", "Run ctest after building.\n");
  std::filesystem::create_symlink("AGENTS.md", project_ / "CLAUDE.md");
  std::vector<std::string> args = {"chat", "--model", TinyModelPath(1).string(), "--project",
                                   project_.string()};
  for (const char* arg : {"--json", "-n", "0", "--threads", "1", "--ctx", "1024", "--datetime",
                          "2026-01-01T00:00:00Z", "-p", "How do I build?", "--store"}) {
    args.emplace_back(arg);
  }
  args.push_back((tmp_.path() / "kv6").string());
  nlohmann::json a = Parse(RunCli(args, tmp_.path()).out);
  nlohmann::json b = Parse(RunCli(args, tmp_.path()).out);
  tmp_.Write("project/docs/extra.md", "Run ctest twice.\n");
  nlohmann::json c = Parse(RunCli(args, tmp_.path()).out);
  ASSERT_TRUE(a.is_object() && b.is_object() && c.is_object());
  EXPECT_EQ(a["checkpoint"], "miss");
  EXPECT_EQ(b["checkpoint"], "hit");
  EXPECT_EQ(b["key"], a["key"]);
  EXPECT_EQ(c["checkpoint"], "miss");
  EXPECT_NE(c["key"], a["key"]);
}

TEST_F(ChatCliTest, MissingModelIsAUsageError) {
  CliResult r =
      RunCli({"chat", "--model", (tmp_.path() / "nope.gguf").string(), "-p", "hi"}, tmp_.path());
  EXPECT_EQ(r.exit_code, 2);
}

// Stores degrade, never fail the user's work: each case answers (exit 0, a reply object), warns
// on stderr and in --json, and stores nothing it cannot.
std::vector<std::string> ChatArgs(const std::filesystem::path& model,
                                  const std::filesystem::path& store) {
  return {"chat",         "--model",
          model.string(), "--store",
          store.string(), "--json",
          "-n",           "0",
          "--threads",    "1",
          "--ctx",        "1024",
          "--datetime",   "2026-01-01T00:00:00Z",
          "-p",           "How do I build?"};
}

bool Mount(const std::string& options, const std::filesystem::path& dir) {
  std::filesystem::create_directories(dir);
  const std::string cmd =
      "mount -t tmpfs -o " + options + " tmpfs '" + dir.string() + "' 2>/dev/null";
  return ::geteuid() == 0 && std::system(cmd.c_str()) == 0;
}

void Unmount(const std::filesystem::path& dir) {
  (void)std::system(("umount '" + dir.string() + "' 2>/dev/null").c_str());
}

TEST_F(ChatCliTest, ReadOnlyStoreAnswersWithAWarning) {
  const std::filesystem::path store = tmp_.path() / "ro-kv";
  bool mounted = Mount("ro,size=1m", store);
  if (!mounted) {
    if (::geteuid() == 0) GTEST_SKIP() << "cannot mount a read-only tmpfs here";
    std::filesystem::create_directories(store);
    std::filesystem::permissions(
        store, std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
  }
  CliResult r = RunCli(ChatArgs(TinyModelPath(1), store), tmp_.path());
  if (mounted) Unmount(store);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json j = Parse(r.out);
  ASSERT_TRUE(j.is_object()) << r.out;
  EXPECT_EQ(j["checkpoint"], "miss");
  EXPECT_EQ(j["stored"], false);
  EXPECT_NE(j.value("store_warning", "").find("not writable"), std::string::npos) << j.dump();
  EXPECT_NE(r.err.find("warning: checkpoint directory"), std::string::npos) << r.err;
}

TEST_F(ChatCliTest, UncreatableStoreAnswersWithAWarning) {
  tmp_.Write("a-file", "x");
  CliResult r = RunCli(ChatArgs(TinyModelPath(1), tmp_.path() / "a-file" / "kv"), tmp_.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json j = Parse(r.out);
  ASSERT_TRUE(j.is_object()) << r.out;
  EXPECT_EQ(j["stored"], false);
  EXPECT_NE(j.value("store_warning", "").find("cannot create checkpoint directory"),
            std::string::npos)
      << j.dump();
}

TEST_F(ChatCliTest, FullStoreAnswersWithAWarning) {
  const std::filesystem::path store = tmp_.path() / "full-kv";
  if (!Mount("size=4k", store)) {
    GTEST_SKIP() << "needs root to mount a small tmpfs (a full disk cannot be simulated otherwise)";
  }
  CliResult r = RunCli(ChatArgs(TinyModelPath(1), store), tmp_.path());
  size_t left = 0;
  for (const auto& e : std::filesystem::directory_iterator(store)) {
    left += e.path().filename().string().find(".strata-tmp-") != std::string::npos;
  }
  Unmount(store);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json j = Parse(r.out);
  ASSERT_TRUE(j.is_object()) << r.out;
  EXPECT_EQ(j["stored"], false);
  EXPECT_NE(j.value("store_warning", "").find("No space left"), std::string::npos) << j.dump();
  EXPECT_NE(r.err.find("warning: checkpoint not stored"), std::string::npos) << r.err;
  EXPECT_EQ(left, 0u);
}

TEST_F(ChatCliTest, FifoOrDirectoryAtTheKeyIsRefusedWithoutBlocking) {
  CliResult first = RunCli(ChatArgs(TinyModelPath(1), tmp_.path() / "probe-kv"), tmp_.path());
  const std::string key = Parse(first.out).value("key", "");
  ASSERT_FALSE(key.empty()) << first.out;
  for (const bool fifo : {true, false}) {
    const std::filesystem::path store = tmp_.path() / (fifo ? "fifo-kv" : "dir-kv");
    std::filesystem::create_directories(store);
    const std::filesystem::path at = store / (key + ".kv");
    if (fifo) {
      ASSERT_EQ(::mkfifo(at.c_str(), 0644), 0);
    } else {
      std::filesystem::create_directories(at / "inside");
    }
    CliResult r = RunCli(ChatArgs(TinyModelPath(1), store), tmp_.path());
    EXPECT_EQ(r.exit_code, 0) << r.err;
    nlohmann::json j = Parse(r.out);
    ASSERT_TRUE(j.is_object()) << r.out;
    EXPECT_EQ(j["key"], key);
    const std::string what = fifo ? "is a FIFO, not a checkpoint file" : "is a directory";
    EXPECT_NE(j.value("store_warning", "").find(what), std::string::npos) << j.dump();
    EXPECT_NE(r.err.find("warning: checkpoint store"), std::string::npos) << r.err;
    // The FIFO is removed and the state stored; a non-empty directory stays, refused.
    EXPECT_EQ(j["stored"], fifo) << j.dump();
  }
}

// The same-shape model swap: model B's bytes written over model A's file in place (same path,
// size and inode), its mtime restored: the fingerprint cache must not serve A's identity.
TEST_F(ChatCliTest, SameShapeModelOverwrittenInPlaceIsAMiss) {
  const std::filesystem::path model = tmp_.path() / "swap.gguf";
  std::filesystem::copy_file(TinyModelPath(1), model);
  const std::vector<std::string> args = ChatArgs(model, tmp_.path() / "swap-kv");
  EXPECT_EQ(Parse(RunCli(args, tmp_.path()).out)["checkpoint"], "miss");
  EXPECT_EQ(Parse(RunCli(args, tmp_.path()).out)["checkpoint"], "hit");
  struct stat before {};
  ASSERT_EQ(::stat(model.c_str(), &before), 0);
  const std::string b = ReadAll(TinyModelPath(2));
  FILE* f = std::fopen(model.c_str(), "r+b");  // in place: same inode
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(std::fwrite(b.data(), 1, b.size(), f), b.size());
  std::fclose(f);
  const timespec times[2] = {before.st_atim, before.st_mtim};
  ASSERT_EQ(::utimensat(AT_FDCWD, model.c_str(), times, 0), 0);
  struct stat after {};
  ASSERT_EQ(::stat(model.c_str(), &after), 0);
  ASSERT_EQ(after.st_ino, before.st_ino);
  ASSERT_EQ(after.st_size, before.st_size);
  EXPECT_EQ(Parse(RunCli(args, tmp_.path()).out)["checkpoint"], "miss");
}

}  // namespace
}  // namespace strata::testing
