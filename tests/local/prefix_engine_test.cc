// prefix_engine_test.cc: the prefix engine's choice between a live sequence's prefix and a stored
// checkpoint (prefix_engine.h, step 2). The rule: a stored checkpoint that gives a longer prefix
// than any live sequence wins (after a restart, a live sequence may hold only the first tokens of
// a stored prompt, as opencode's title request beside its main request does); a live prefix is
// copied only when no stored checkpoint gives more (at equal length the copy, which reads no file,
// is taken).
#include "local/prefix_engine.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "local_fixture.h"

namespace strata::serve {
namespace {

using testing::LocalTest;
using testing::TinyModel;

// The stored prompt and the request that extends it. Each sentence starts with a space, so the
// request's tokens begin with the stored prompt's tokens (checked by StoreThenRestart).
const std::string kStored =
    "The project builds with cmake. Its tests run with ctest, and the slow ones carry a label. "
    "The library sits in src, one folder per module, with its public headers in include.";
const std::string kRequest =
    kStored + " Now list the modules of the library and say what each of them does, briefly.";

class PrefixEngineTest : public LocalTest {
 protected:
  // The store holds the whole-prompt checkpoint of kStored, written by an engine that is gone (a
  // server that restarted); a new engine of two sequences and an index rebuilt from the store
  // serve the next requests.
  void StoreThenRestart() {
    {
      Engine first = Start();
      PromptPlan plan{{kStored, {}, "", 0, ""}, {}};
      auto prepared = TokenizePrompt(first.shared, plan);
      ASSERT_TRUE(prepared.has_value()) << prepared.error().message;
      Sequence seq{0, first.engine.get(), {}, 0};
      ASSERT_TRUE(first.engine->Decode(0, prepared->tokens).has_value());
      seq.tokens = prepared->tokens;
      PhaseTimes times;
      StorePrompt(first.shared, plan, *prepared, seq, &times);
      ASSERT_EQ(first.index->size(), 1u) << "the stored prompt's checkpoint was not written";
      stored_ = prepared->tokens;
    }
    server_ = Start();
    ASSERT_EQ(RebuildIndex(server_.shared), 1u);
    auto prepared = TokenizePrompt(server_.shared, plan_);
    ASSERT_TRUE(prepared.has_value()) << prepared.error().message;
    request_ = std::move(*prepared);
    ASSERT_GT(request_.tokens.size(), stored_.size() + 8);
    ASSERT_TRUE(std::equal(stored_.begin(), stored_.end(), request_.tokens.begin()))
        << "the request's tokens do not start with the stored prompt's";
  }

  // Sequence 1 holds the request's first `n` tokens, decoded live.
  void HoldLive(size_t n) {
    ASSERT_TRUE(server_.engine->Decode(1, std::span(request_.tokens).first(n)).has_value());
  }

  // The request on sequence 0 (empty); returns its usage.
  Usage Request() {
    Sequence seq{0, server_.engine.get(), {}, 0};
    Usage usage;
    PhaseTimes times;
    auto tail_from = PreparePrefix(server_.shared, plan_, request_, seq, &usage, {}, &times);
    EXPECT_TRUE(tail_from.has_value()) << tail_from.error().message;
    if (tail_from) EXPECT_EQ(*tail_from, seq.tokens.size());
    return usage;
  }

  uint64_t Copied() const { return server_.engine->counters().copied_tokens; }

  struct Engine {
    std::unique_ptr<LocalEngine> engine;
    std::unique_ptr<PrefixIndex> index = std::make_unique<PrefixIndex>();
    std::unique_ptr<Metrics> metrics = std::make_unique<Metrics>();
    EngineShared shared;
  };

  Engine Start() {
    Engine e;
    auto created = LocalEngine::Create(TinyModel(), engine_, 2);
    EXPECT_TRUE(created.has_value()) << (created ? "" : created.error().message);
    if (created) e.engine = std::move(*created);
    e.shared.model = &TinyModel();
    e.shared.engine = engine_;
    e.shared.store = store_.get();
    e.shared.index = e.index.get();
    e.shared.metrics = e.metrics.get();
    e.shared.template_digest = "prefix-engine-test";
    return e;
  }

  PromptPlan plan_{{kRequest, {}, "", 0, ""}, {}};
  Engine server_;
  std::vector<int32_t> stored_;
  PreparedPrompt request_;
};

TEST_F(PrefixEngineTest, AStoredCheckpointLongerThanTheLivePrefixWins) {
  StoreThenRestart();
  if (HasFatalFailure()) return;
  HoldLive(stored_.size() / 2);
  const Usage usage = Request();
  EXPECT_EQ(usage.restored_tokens, stored_.size());
  EXPECT_EQ(usage.cached_tokens, stored_.size());
  EXPECT_EQ(Copied(), 0u) << "the shorter live prefix was copied instead of the stored checkpoint";
}

TEST_F(PrefixEngineTest, ALivePrefixLongerThanEveryStoredCheckpointIsCopied) {
  StoreThenRestart();
  if (HasFatalFailure()) return;
  const size_t live = stored_.size() + 5;
  HoldLive(live);
  const Usage usage = Request();
  EXPECT_EQ(usage.restored_tokens, 0u);
  EXPECT_EQ(usage.cached_tokens, live);
  EXPECT_EQ(Copied(), live);
}

TEST_F(PrefixEngineTest, AtEqualLengthTheLivePrefixIsCopiedAndNoFileIsRead) {
  StoreThenRestart();
  if (HasFatalFailure()) return;
  HoldLive(stored_.size());
  const Usage usage = Request();
  EXPECT_EQ(usage.restored_tokens, 0u);
  EXPECT_EQ(usage.cached_tokens, stored_.size());
  EXPECT_EQ(Copied(), stored_.size());
}

}  // namespace
}  // namespace strata::serve
