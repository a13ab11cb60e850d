// local_session_test.cc: the local session's acceptance points (SPEC.md section 7, seeds/002) on a
// tiny generated model: draft sessions do nothing, AGENTS.md reaches the system context, titles see
// the first message only, the checkpoint is reused exactly when the deterministic prefix and the
// execution identity are unchanged, and restoring reproduces a full prefill's logits.
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <set>
#include <thread>

#include "local/local_engine.h"
#include "local/local_fixture.h"
#include "local/local_model.h"

namespace strata::testing {
namespace {

namespace fs = std::filesystem;

std::vector<int32_t> Concat(const std::vector<int32_t>& a, const std::vector<int32_t>& b) {
  std::vector<int32_t> out = a;
  out.insert(out.end(), b.begin(), b.end());
  return out;
}

using LocalSessionTest = LocalTest;

// 1. A draft does no prompt construction, tokenization, prefill, model or store work.
TEST_F(LocalSessionTest, DraftSessionDoesNoWorkUntilFirstSubmission) {
  tmp_.Write("project/AGENTS.md", "Use tabs.\n");
  LocalSession session(TinyModel(), *store_, Config(), engine_);
  EXPECT_FALSE(session.started());
  const SessionCounters& c = session.counters();
  EXPECT_EQ(c.renders, 0);
  EXPECT_EQ(c.tokenizations, 0);
  EXPECT_EQ(c.contexts, 0);
  EXPECT_EQ(c.prefill_tokens, 0);
  EXPECT_EQ(c.store_writes, 0);
  EXPECT_EQ(c.file_reads, 0);
  // An empty or blank submission does not start it either.
  EXPECT_FALSE(session.Submit("").has_value());
  EXPECT_FALSE(session.Submit("  \n\t").has_value());
  EXPECT_FALSE(session.started());
  EXPECT_EQ(session.counters().renders, 0);
  EXPECT_EQ(session.counters().tokenizations, 0);
  EXPECT_EQ(KvFiles(), 0u);
  EXPECT_TRUE(session.rendered_prefix().empty());
}

// 2. AGENTS.md text (after hygiene: CRLF becomes LF) reaches the system context of turn 1 and is
// never a visible turn.
TEST_F(LocalSessionTest, AgentsMdBytesAreInSystemContextNotInVisibleTurns) {
  tmp_.Write("project/AGENTS.md",
             "# Project\r\nRun `make check` before committing.\n\xE2\x9C\x93 done\n");
  const std::string agents = "# Project\nRun `make check` before committing.\n\xE2\x9C\x93 done";
  LocalSession session(TinyModel(), *store_, Config(), engine_);
  auto r = session.Submit("Fix the build.");
  ASSERT_TRUE(r.has_value()) << FormatError(r.error());
  EXPECT_NE(session.rendered_prefix().find(agents), std::string::npos);
  EXPECT_EQ(session.rendered_suffix().find(agents), std::string::npos);
  ASSERT_EQ(session.visible_turns().size(), 2u);
  EXPECT_EQ(session.visible_turns()[0].role, "user");
  EXPECT_EQ(session.visible_turns()[0].text, "Fix the build.");
  EXPECT_EQ(session.visible_turns()[1].role, "assistant");
  EXPECT_GT(r->prefix_tokens, 0u);
}

TEST_F(LocalSessionTest, CorpusAgentsMdReachesSystemContextByteForByte) {
  auto corpus = CorpusDir();
  if (!corpus) GTEST_SKIP() << "corpus absent";
  const fs::path src =
      *corpus / "instructions/pydantic__pydantic-ai/pydantic_ai_slim/pydantic_ai/AGENTS.md";
  if (!fs::exists(src)) GTEST_SKIP() << "corpus file absent";
  const std::string agents = ReadAll(src);
  tmp_.Write("project/AGENTS.md", agents);
  engine_.n_ctx = 4096;
  LocalSession session(TinyModel(), *store_, Config(), engine_);
  auto r = session.Submit("Summarise the rules.");
  ASSERT_TRUE(r.has_value()) << FormatError(r.error());
  // Every byte but the final newline, which the assembler trims at the end of each source (the
  // corpus file has no CR, BOM, tag characters or non-NFC text, so hygiene changes nothing).
  ASSERT_EQ(agents.back(), '\n');
  const std::string body = agents.substr(0, agents.find_last_not_of('\n') + 1);
  // The system messages are joined by a blank line (as serve joins a request's), so the body
  // ends where the system part ends or where the next system message starts.
  const std::string& prefix = session.rendered_prefix();
  const std::string block = "# Instructions from AGENTS.md\n\n" + body;
  const size_t at = prefix.find(block);
  ASSERT_NE(at, std::string::npos);
  const std::string after = prefix.substr(at + block.size(), 10);
  EXPECT_TRUE(after.starts_with("<|im_end|>") || after.starts_with("\n\n")) << after;
  EXPECT_EQ(session.visible_turns()[0].text, "Summarise the rules.");
}

TEST_F(LocalSessionTest, MissingAgentsMdIsNotAnError) {
  LocalSession session(TinyModel(), *store_, Config(), engine_);
  auto r = session.Submit("Hello there");
  ASSERT_TRUE(r.has_value()) << FormatError(r.error());
  EXPECT_EQ(session.rendered_prefix().find("AGENTS.md"), std::string::npos);
  EXPECT_EQ(r->checkpoint, CheckpointOutcome::kMiss);
  ASSERT_EQ(session.visible_turns().size(), 2u);
  EXPECT_EQ(session.visible_turns()[0].text, "Hello there");
}

// 2b. The instruction files come from discovery: imports inlined once (CLAUDE.md, a symlink to
// AGENTS.md, loads once), hygiene strips Unicode tag characters, and the checkpoint key follows the
// imported file's text.
TEST_F(LocalSessionTest, DiscoveredImportReachesThePrefixOnceAndKeysTheCheckpoint) {
  // "Use tabs." with U+E0041 and U+E007F (tag characters, 4 bytes each) inside "tabs".
  tmp_.Write("project/AGENTS.md",
             "Use ta\xF3\xA0\x81\x81"
             "bs\xF3\xA0\x81\xBF.\n@docs/extra.md\n");
  tmp_.Write("project/docs/extra.md", "Extra rule: run ruff.\n");
  fs::create_symlink("AGENTS.md", project_ / "CLAUDE.md");
  LocalSession a(TinyModel(), *store_, Config(), engine_);
  auto ra = a.Submit("Where are the tests?");
  ASSERT_TRUE(ra.has_value()) << FormatError(ra.error());
  const std::string& prefix = a.rendered_prefix();
  // Written by hand from the assembler's instruction layer: "# Instructions from KEY\n\nTEXT".
  EXPECT_NE(prefix.find("# Instructions from AGENTS.md\n\nUse tabs.\n@docs/extra.md"),
            std::string::npos)
      << prefix;
  EXPECT_NE(prefix.find("# Instructions from docs/extra.md\n\nExtra rule: run ruff."),
            std::string::npos)
      << prefix;
  const size_t first = prefix.find("Extra rule: run ruff.");
  EXPECT_EQ(prefix.find("Extra rule: run ruff.", first + 1), std::string::npos);
  EXPECT_EQ(prefix.find("Use tabs.", prefix.find("Use tabs.") + 1), std::string::npos);
  EXPECT_EQ(prefix.find("CLAUDE.md"), std::string::npos);
  EXPECT_EQ(prefix.find("\xF3\xA0"), std::string::npos);
  EXPECT_EQ(ra->checkpoint, CheckpointOutcome::kMiss);
  // Unchanged tree: the same key, a hit.
  LocalTurnReport same = FirstTurn(Config());
  EXPECT_EQ(same.checkpoint, CheckpointOutcome::kHit);
  EXPECT_EQ(same.key, ra->key);
  // The imported file changes: a new key.
  tmp_.Write("project/docs/extra.md", "Extra rule: run black.\n");
  LocalTurnReport changed = FirstTurn(Config());
  EXPECT_EQ(changed.checkpoint, CheckpointOutcome::kMiss);
  EXPECT_NE(changed.key, ra->key);
}

// 3. The title generator receives exactly the first user message, once.
TEST_F(LocalSessionTest, TitleInputIsExactlyTheFirstUserMessage) {
  tmp_.Write("project/AGENTS.md", "Secret project rules.\n");
  std::vector<std::string> inputs;
  SessionHooks hooks;
  hooks.title = [&](std::string_view m) {
    inputs.emplace_back(m);
    return std::string("T");
  };
  SessionConfig config = Config();
  config.system_instructions = "Never mention the weather.";
  LocalSession session(TinyModel(), *store_, config, engine_, hooks);
  auto r1 = session.Submit("  Rename the parser module\nand update imports",
                           {"2026-01-01T00:00:00Z", "{}"});
  ASSERT_TRUE(r1.has_value()) << FormatError(r1.error());
  auto r2 = session.Submit("Now run the tests");
  ASSERT_TRUE(r2.has_value()) << FormatError(r2.error());
  ASSERT_EQ(inputs.size(), 1u);
  EXPECT_EQ(inputs[0], "  Rename the parser module\nand update imports");
  EXPECT_EQ(r1->title, "T");
  EXPECT_EQ(r2->title, "");
  EXPECT_EQ(HeuristicTitle("  Rename the parser module\nand update imports"),
            "Rename the parser module");
}

// 4. A second new session with the same prefix restores it and prefills only the suffix.
TEST_F(LocalSessionTest, SecondSessionHitsAndPrefillsOnlyTheSuffix) {
  tmp_.Write("project/AGENTS.md", "Use four spaces.\n");
  LocalTurnReport first = FirstTurn(Config());
  EXPECT_EQ(first.checkpoint, CheckpointOutcome::kMiss);
  EXPECT_TRUE(first.stored);
  LocalSession second(TinyModel(), *store_, Config(), engine_);
  auto r = second.Submit("Where are the tests?");
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->checkpoint, CheckpointOutcome::kHit);
  EXPECT_EQ(r->key, first.key);
  EXPECT_EQ(r->prefix_tokens, first.prefix_tokens);
  EXPECT_EQ(second.counters().prefill_tokens, static_cast<int64_t>(r->suffix_tokens));
  EXPECT_EQ(second.counters().store_writes, 0);
  EXPECT_GE(r->saved_ms, 0.0);  // the stored prefill time minus the restore time
  EXPECT_LT(r->suffix_tokens, r->prefix_tokens);
  EXPECT_EQ(KvFiles(), 1u);
}

// 5. Any deterministic component change gives a miss and a new checkpoint.
TEST_F(LocalSessionTest, EditingAnyDeterministicComponentMisses) {
  tmp_.Write("project/AGENTS.md", "Use four spaces.\n");
  LocalTurnReport base = FirstTurn(Config());
  ASSERT_EQ(base.checkpoint, CheckpointOutcome::kMiss);
  std::set<std::string> keys = {base.key};
  size_t files = 1;
  auto expect_miss = [&](const SessionConfig& c, const char* what) {
    LocalTurnReport r = FirstTurn(c);
    EXPECT_EQ(r.checkpoint, CheckpointOutcome::kMiss) << what;
    EXPECT_TRUE(keys.insert(r.key).second) << what << ": key reused";
    EXPECT_EQ(KvFiles(), ++files) << what;
  };
  tmp_.Write("project/AGENTS.md", "Use five spaces.\n");  // one byte
  expect_miss(Config(), "AGENTS.md");
  SessionConfig tools = Config();
  tools.tools.push_back({"run", "Runs a command.", R"({"type":"object"})"});
  expect_miss(tools, "tool set");
  SessionConfig instructions = Config();
  instructions.system_instructions = "Answer briefly!";
  expect_miss(instructions, "system instructions");
  SessionConfig extra = Config();
  extra.extra_instructions = "Render UI as JSON.";
  expect_miss(extra, "extra instructions");
  SessionConfig reasoning = Config();
  reasoning.reasoning_mode = "on";
  expect_miss(reasoning, "reasoning mode");
  // And the unchanged current configuration still hits.
  EXPECT_EQ(FirstTurn(Config()).checkpoint, CheckpointOutcome::kHit);
}

// 6. Session-specific context lives in the suffix and does not change the checkpoint.
TEST_F(LocalSessionTest, DateTimeAndClientMetadataDoNotChangeTheCheckpoint) {
  LocalTurnReport a =
      FirstTurn(Config(), {"2026-11-29T10:00:00Z", R"({"client":"tui","width":80})"});
  ASSERT_EQ(a.checkpoint, CheckpointOutcome::kMiss);
  LocalSession s(TinyModel(), *store_, Config(), engine_);
  auto b =
      s.Submit("Where are the tests?", {"2027-02-03T04:05:06Z", R"({"client":"web","width":120})"});
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->checkpoint, CheckpointOutcome::kHit);
  EXPECT_EQ(b->key, a.key);
  EXPECT_NE(s.rendered_suffix().find("2027-02-03T04:05:06Z"), std::string::npos);
  EXPECT_EQ(s.rendered_prefix().find("2027"), std::string::npos);
  EXPECT_EQ(KvFiles(), 1u);
}

// 7. Another model of the same shapes, another context size, another KV type never reuse.
TEST_F(LocalSessionTest, OtherModelWithSameShapesNeverReuses) {
  LocalTurnReport a = FirstTurn(Config(), {}, &TinyModel(1));
  ASSERT_EQ(a.checkpoint, CheckpointOutcome::kMiss);
  EXPECT_NE(TinyModel(1).fingerprint().digest, TinyModel(2).fingerprint().digest);
  LocalTurnReport b = FirstTurn(Config(), {}, &TinyModel(2));
  EXPECT_EQ(b.checkpoint, CheckpointOutcome::kMiss);
  EXPECT_NE(b.key, a.key);
  // Even a file planted under model 2's key is refused by its header, not loaded.
  LocalSession probe(TinyModel(2), *store_, Config(), engine_);
  ASSERT_TRUE(probe.Submit("Where are the tests?").has_value());  // hit on b's file
  fs::copy_file(store_->PathFor(a.key), store_->PathFor(b.key),
                fs::copy_options::overwrite_existing);
  LocalTurnReport c = FirstTurn(Config(), {}, &TinyModel(2));
  EXPECT_EQ(c.checkpoint, CheckpointOutcome::kRebuilt);
  EXPECT_EQ(c.rebuild_reason, "identity differs: model");
}

TEST_F(LocalSessionTest, OtherContextSizeNeverReuses) {
  LocalTurnReport a = FirstTurn(Config());
  EngineOptions bigger = engine_;
  bigger.n_ctx = 2048;
  LocalTurnReport b = FirstTurn(Config(), {}, nullptr, &bigger);
  EXPECT_EQ(b.checkpoint, CheckpointOutcome::kMiss);
  EXPECT_NE(b.key, a.key);
}

TEST_F(LocalSessionTest, OtherKvCacheTypeNeverReuses) {
  LocalTurnReport a = FirstTurn(Config());
  EngineOptions f32 = engine_;
  f32.type_k = "f32";
  f32.type_v = "f32";
  LocalTurnReport b = FirstTurn(Config(), {}, nullptr, &f32);
  EXPECT_EQ(b.checkpoint, CheckpointOutcome::kMiss);
  EXPECT_NE(b.key, a.key);
  EngineOptions k_only = engine_;
  k_only.type_k = "f32";
  LocalTurnReport c = FirstTurn(Config(), {}, nullptr, &k_only);
  EXPECT_EQ(c.checkpoint, CheckpointOutcome::kMiss);
}

// 8. Restore + suffix gives the same logits as prefilling prefix + suffix from scratch.
TEST_F(LocalSessionTest, RestorePlusSuffixEqualsFullPrefillLogits) {
  tmp_.Write("project/AGENTS.md", "Prefer small functions.\n");
  LocalSession miss(TinyModel(), *store_, Config(), engine_);
  auto m = miss.Submit("Where are the tests?");
  ASSERT_TRUE(m.has_value());
  ASSERT_EQ(m->checkpoint, CheckpointOutcome::kMiss);
  LocalSession hit(TinyModel(), *store_, Config(), engine_);
  auto h = hit.Submit("Where are the tests?");
  ASSERT_TRUE(h.has_value());
  ASSERT_EQ(h->checkpoint, CheckpointOutcome::kHit);
  EXPECT_EQ(hit.prefix_tokens(), miss.prefix_tokens());
  auto full = FullPrefillLogits(TinyModel(), engine_,
                                Concat(hit.prefix_tokens(), hit.first_suffix_tokens()));
  ASSERT_TRUE(full.has_value());
  ASSERT_EQ(full->size(), hit.prompt_logits().size());
  EXPECT_TRUE(*full == hit.prompt_logits()) << "restored logits differ from a full prefill";
  EXPECT_TRUE(*full == miss.prompt_logits());
}

// 9. A damaged or foreign checkpoint is discarded and rebuilt, and the state is still right.
class DamagedCheckpointTest : public LocalTest, public ::testing::WithParamInterface<int> {};

TEST_P(DamagedCheckpointTest, IsRebuiltWithReasonAndCorrectState) {
  LocalTurnReport a = FirstTurn(Config());
  ASSERT_EQ(a.checkpoint, CheckpointOutcome::kMiss);
  const fs::path file = store_->PathFor(a.key);
  std::string bytes = ReadAll(file);
  std::string expected_reason;
  switch (GetParam()) {
    case 0:  // truncated
      bytes.resize(bytes.size() - 100);
      expected_reason = "truncated";
      break;
    case 1:  // one payload byte flipped
      bytes[bytes.size() - 10] ^= 0x01;
      expected_reason = "payload checksum mismatch";
      break;
    case 2:  // a header from another format version
      bytes[8] = 2;
      expected_reason = "format version 2, expected 1";
      break;
    case 3:  // truncated inside the header
      bytes.resize(20);
      expected_reason = "truncated header";
      break;
  }
  tmp_.Write("kv/" + a.key + ".kv", bytes);
  LocalSession s(TinyModel(), *store_, Config(), engine_);
  auto r = s.Submit("Where are the tests?");
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->checkpoint, CheckpointOutcome::kRebuilt);
  EXPECT_EQ(r->rebuild_reason.substr(0, expected_reason.size()), expected_reason);
  auto full =
      FullPrefillLogits(TinyModel(), engine_, Concat(s.prefix_tokens(), s.first_suffix_tokens()));
  ASSERT_TRUE(full.has_value());
  EXPECT_TRUE(*full == s.prompt_logits());
  // The rebuilt file is whole again: the next session hits.
  EXPECT_EQ(FirstTurn(Config()).checkpoint, CheckpointOutcome::kHit);
}

std::string DamageName(const ::testing::TestParamInfo<int>& info) {
  static const char* const kNames[] = {"Truncated", "FlippedPayloadByte", "OtherFormatVersion",
                                       "TruncatedHeader"};
  return kNames[info.param];
}
INSTANTIATE_TEST_SUITE_P(Damage, DamagedCheckpointTest, ::testing::Values(0, 1, 2, 3), DamageName);

// 10. Two processes starting the same new prefix at once: one prefill, both sessions correct.
TEST_F(LocalSessionTest, TwoProcessesSameNewPrefixPrefillOnce) {
  tmp_.Write("project/AGENTS.md", "Concurrency rules.\n");
  const fs::path model = TinyModelPath(1);
  int go[2];
  ASSERT_EQ(pipe(go), 0);
  std::vector<pid_t> children;
  for (int i = 0; i < 2; ++i) {
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      close(go[1]);
      auto m = LocalModel::Load(model);
      auto st = CheckpointStore::Open({store_->dir(), 1ull << 30});
      if (!m || !st) _exit(10);
      SessionHooks hooks;
      // Widen the window: the builder holds the key lock a while before prefilling.
      hooks.before_prefix_prefill = [] {
        std::this_thread::sleep_for(std::chrono::milliseconds(400));
      };
      LocalSession s(**m, **st, Config(), engine_, hooks);
      char c;
      if (read(go[0], &c, 1) != 1) _exit(11);
      auto r = s.Submit("Where are the tests?");
      if (!r) _exit(12);
      auto full =
          FullPrefillLogits(**m, engine_, Concat(s.prefix_tokens(), s.first_suffix_tokens()));
      if (!full || *full != s.prompt_logits()) _exit(13);
      std::ofstream(tmp_.path() / ("child" + std::to_string(i)))
          << CheckpointOutcomeName(r->checkpoint) << " " << s.counters().prefill_tokens;
      _exit(0);
    }
    children.push_back(pid);
  }
  close(go[0]);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  ASSERT_EQ(write(go[1], "gg", 2), 2);  // release both at once
  close(go[1]);
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0);
  }
  std::multiset<std::string> outcomes;
  for (int i = 0; i < 2; ++i) {
    std::string text = ReadAll(tmp_.path() / ("child" + std::to_string(i)));
    outcomes.insert(text.substr(0, text.find(' ')));
  }
  EXPECT_EQ(outcomes, (std::multiset<std::string>{"hit", "miss"}));
  EXPECT_EQ(KvFiles(), 1u);
}

// Later turns continue the same context.
TEST_F(LocalSessionTest, SecondTurnAppendsToTheContext) {
  LocalSession s(TinyModel(), *store_, Config(), engine_);
  auto r1 = s.Submit("First question", {}, {4});
  ASSERT_TRUE(r1.has_value());
  const int64_t before = s.counters().prefill_tokens;
  auto r2 = s.Submit("Second question", {}, {2});
  ASSERT_TRUE(r2.has_value()) << FormatError(r2.error());
  EXPECT_EQ(r2->checkpoint, CheckpointOutcome::kNone);
  EXPECT_EQ(s.counters().prefill_tokens - before, static_cast<int64_t>(r2->suffix_tokens));
  EXPECT_EQ(s.visible_turns().size(), 4u);
  // The second turn reuses the first's live tokens: nothing is restored or rebuilt.
  EXPECT_LT(r2->suffix_tokens, r1->prefix_tokens + r1->suffix_tokens);
}

}  // namespace
}  // namespace strata::testing
