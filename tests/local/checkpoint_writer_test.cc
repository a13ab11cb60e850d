// checkpoint_writer_test.cc: the background checkpoint writer: a submitted image becomes the
// store's file and an index entry, counted as a write; the key lock it carries is released only
// after the file is in place; Drain and the destructor wait for queued writes (synthetic payloads,
// no model).
#include "local/checkpoint_writer.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "base/hash.h"
#include "support/test_support.h"

namespace strata::serve {
namespace {

// Only the prefix varies between the test's checkpoints.
CheckpointIdentity Identity(const std::string& prefix) {
  CheckpointIdentity id;
  id.engine = "checkpoint writer test";
  id.prefix_sha256 = Sha256Hex(prefix);
  return id;
}

CheckpointWrite Write(const std::string& prefix, std::vector<int32_t> tokens) {
  CheckpointWrite w;
  w.key = CheckpointKey(Identity(prefix));
  w.image = EncodeCheckpoint(Identity(prefix), prefix, tokens, 4096,
                             [](char* dst) { std::fill(dst, dst + 4096, 'k'); });
  w.entry = {w.key, prefix.size(), std::move(tokens)};
  return w;
}

class CheckpointWriterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto store = CheckpointStore::Open({tmp_.path() / "kv", 1ull << 30});
    ASSERT_TRUE(store);
    store_ = std::move(*store);
  }
  testing::TempDir tmp_;
  std::unique_ptr<CheckpointStore> store_;
  PrefixIndex index_;
  Metrics metrics_;
};

TEST_F(CheckpointWriterTest, AWrittenImageIsAFileAnIndexEntryAndACountedWrite) {
  CheckpointWriter writer(store_.get(), &index_, &metrics_, 1u << 20);
  CheckpointWrite w = Write("system text", {1, 2, 3});
  const std::string key = w.key;
  const size_t bytes = w.image.size();
  writer.Submit(std::move(w));
  writer.Drain();
  EXPECT_FALSE(writer.Pending(key));
  EXPECT_TRUE(index_.Contains(key));
  Lookup found = store_->Find(key, Identity("system text"), "system text");
  ASSERT_EQ(found.state, LookupState::kHit) << found.reason;
  EXPECT_EQ(found.checkpoint.tokens, (std::vector<int32_t>{1, 2, 3}));
  const std::string text = metrics_.Render({});
  EXPECT_NE(text.find("strata_checkpoint_writes_total 1\n"), std::string::npos) << text;
  EXPECT_NE(text.find(fmt::format("strata_checkpoint_written_bytes_total {}\n", bytes)),
            std::string::npos)
      << text;
}

TEST_F(CheckpointWriterTest, TheKeyLockIsReleasedAfterTheFileIsInPlace) {
  CheckpointWriter writer(store_.get(), &index_, &metrics_, 1u << 20);
  CheckpointWrite w = Write("shared cut", {4, 5});
  const std::string key = w.key;
  auto lock = store_->LockKey(key);
  ASSERT_TRUE(lock);
  w.lock = std::make_shared<CheckpointStore::KeyLock>(std::move(*lock));
  std::weak_ptr<CheckpointStore::KeyLock> held = w.lock;
  writer.Submit(std::move(w));
  writer.Drain();
  EXPECT_TRUE(held.expired());
  // Whoever takes the lock next finds the file.
  auto next = store_->LockKey(key);
  ASSERT_TRUE(next);
  EXPECT_EQ(store_->Find(key, Identity("shared cut"), "shared cut").state, LookupState::kHit);
}

TEST_F(CheckpointWriterTest, TheDestructorWritesEveryQueuedImageEvenOverTheByteBound) {
  std::vector<std::string> keys;
  {
    CheckpointWriter writer(store_.get(), &index_, &metrics_, /*max_queued_bytes=*/1);
    for (int i = 0; i < 5; ++i) {
      CheckpointWrite w = Write("prefix " + std::to_string(i), {i});
      keys.push_back(w.key);
      writer.Submit(std::move(w));  // waits for room: one image at a time
    }
  }
  for (int i = 0; i < 5; ++i) {
    const std::string prefix = "prefix " + std::to_string(i);
    EXPECT_EQ(store_->Find(keys[i], Identity(prefix), prefix).state, LookupState::kHit) << i;
    EXPECT_TRUE(index_.Contains(keys[i])) << i;
  }
}

}  // namespace
}  // namespace strata::serve
