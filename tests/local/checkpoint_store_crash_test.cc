// checkpoint_store_crash_test.cc: `strata chat` killed with SIGKILL 30 times at random moments and
// 30 times inside the checkpoint write window (a temporary half written): the next run never loads
// a torn checkpoint (no `rebuilt`), leaves no temporary behind, and the store stays within its
// budget.
#include <nlohmann/json.hpp>

#include "local/local_fixture.h"
#include "support/crash_harness.h"

namespace strata::testing {
namespace {

namespace fs = std::filesystem;
using CheckpointStoreCrashTest = LocalTest;

std::vector<std::string> Args(const fs::path& store, uint64_t budget, int variant) {
  return {"chat",
          TinyModelPath(1).string(),
          "--store",
          store.string(),
          "--budget",
          std::to_string(budget),
          "--json",
          "-n",
          "0",
          "--threads",
          "1",
          "--ctx",
          "1024",
          "--system",
          "Rules, version " + std::to_string(variant % 4) + ".",
          "-p",
          "hi"};
}

uint64_t StoreBytes(const fs::path& store) {
  uint64_t total = 0;
  for (const auto& e : fs::directory_iterator(store)) {
    if (e.is_regular_file()) total += e.file_size();
  }
  return total;
}

void KillLoop(const fs::path& store, const std::string& crash_point, bool random_delay) {
  // One clean run measures a checkpoint; the budget holds two of them, so eviction runs too.
  std::vector<std::string> probe = Args(store, 1ull << 30, 0);
  probe.insert(probe.begin() + 1, "--model");
  CliResult first = RunCli(probe, store.parent_path());
  ASSERT_EQ(first.exit_code, 0) << first.err;
  const uint64_t one = StoreBytes(store);
  ASSERT_GT(one, 0u);
  const uint64_t budget = one * 2 + one / 2;
  std::mt19937 rng(777);
  for (int i = 0; i < 30; ++i) {
    std::vector<std::string> args = Args(store, budget, i);
    args.insert(args.begin() + 1, "--model");
    const long delay = random_delay ? static_cast<long>(rng() % 400000) : -1;
    RunAndKill(args, store.parent_path(), crash_point, delay);
    CliResult next = RunCli(args, store.parent_path());
    const std::string when = "run " + std::to_string(i);
    ASSERT_EQ(next.exit_code, 0) << when << ": " << next.err;
    nlohmann::json j = nlohmann::json::parse(next.out, nullptr, false);
    ASSERT_TRUE(j.is_object()) << next.out;
    EXPECT_NE(j["checkpoint"], "rebuilt") << when << ": " << j.dump();
    EXPECT_EQ(TemporariesBelow(store), std::vector<std::string>()) << when;
    EXPECT_LE(StoreBytes(store), budget) << when;
  }
}

TEST_F(CheckpointStoreCrashTest, KilledAtRandomMomentsNeverLeavesATornOrStrayFile) {
  KillLoop(tmp_.path() / "random-kv", "", true);
}

TEST_F(CheckpointStoreCrashTest, KilledInsideTheWriteWindowLeavesNothingTheNextRunKeeps) {
  KillLoop(tmp_.path() / "window-kv", "temp-half-written", false);
}

}  // namespace
}  // namespace strata::testing
