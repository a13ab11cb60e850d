// checkpoint_store_test.cc: the checkpoint file format's refusals and the store's byte budget with
// least-recently-used eviction (no model needed: payloads are synthetic bytes).
#include <gtest/gtest.h>

#include <set>
#include <thread>

#include "base/hash.h"
#include "strata/checkpoint.h"
#include "support/test_support.h"

namespace strata::testing {
namespace {

CheckpointIdentity Identity(const std::string& prefix) {
  CheckpointIdentity id;
  id.engine = "llama.cpp test";
  id.model = std::string(64, 'a');
  id.tokenizer = std::string(64, 'b');
  id.chat_template = std::string(64, 'c');
  id.reasoning_mode = "off";
  id.n_ctx = 1024;
  id.type_k = id.type_v = "f16";
  id.n_batch = id.n_ubatch = 512;
  id.prefix_sha256 = Sha256Hex(prefix);
  return id;
}

std::string Image(const std::string& prefix, size_t payload_bytes, char fill = 'x') {
  return EncodeCheckpoint(Identity(prefix), prefix, {1, 2, 3}, payload_bytes,
                          [&](char* dst) { std::fill(dst, dst + payload_bytes, fill); });
}

TEST(CheckpointFormatTest, RoundTripKeepsTokensTextAndPayload) {
  const std::string prefix = "<|im_start|>system\nrules<|im_end|>\n";
  const std::string image = Image(prefix, 100, 'q');
  auto cp = DecodeCheckpoint(image, nullptr, Identity(prefix), prefix);
  ASSERT_TRUE(cp.has_value()) << cp.error().message;
  EXPECT_EQ(cp->prefix_text, prefix);
  EXPECT_EQ(cp->tokens, (std::vector<int32_t>{1, 2, 3}));
  EXPECT_EQ(cp->payload(), std::string(100, 'q'));
}

TEST(CheckpointFormatTest, HeaderIsReadableJsonAfterMagic) {
  const std::string image = Image("p", 10);
  EXPECT_EQ(image.substr(0, 8), "STRATAKV");
  EXPECT_NE(image.find("\"reasoning_mode\":\"off\""), std::string::npos);
  EXPECT_NE(image.find("\"token_count\":3"), std::string::npos);
}

TEST(CheckpointFormatTest, RefusesEveryMismatchWithAReason) {
  const std::string prefix = "system prompt";
  const std::string good = Image(prefix, 64);
  auto reason = [&](std::string image, const CheckpointIdentity& id, const std::string& text) {
    auto r = DecodeCheckpoint(image, nullptr, id, text);
    return r ? std::string("accepted") : r.error().message;
  };
  EXPECT_EQ(reason(good, Identity(prefix), prefix), "accepted");
  EXPECT_EQ(reason(good.substr(0, 10), Identity(prefix), prefix), "truncated: 10 bytes");
  EXPECT_EQ(reason(good.substr(0, good.size() - 1), Identity(prefix), prefix).substr(0, 9),
            "truncated");
  std::string flipped = good;
  flipped.back() ^= 0x40;
  EXPECT_EQ(reason(flipped, Identity(prefix), prefix), "payload checksum mismatch");
  std::string version = good;
  version[8] = 7;
  EXPECT_EQ(reason(version, Identity(prefix), prefix), "format version 7, expected 1");
  std::string magic = good;
  magic[0] = 'X';
  EXPECT_EQ(reason(magic, Identity(prefix), prefix), "bad magic");
  std::string header = good;
  header[header.find("\"off\"") + 1] = 'O';
  EXPECT_EQ(reason(header, Identity(prefix), prefix), "header checksum mismatch");
  CheckpointIdentity other_model = Identity(prefix);
  other_model.model = std::string(64, 'd');
  EXPECT_EQ(reason(good, other_model, prefix), "identity differs: model");
  CheckpointIdentity other_ctx = Identity(prefix);
  other_ctx.n_ctx = 2048;
  EXPECT_EQ(reason(good, other_ctx, prefix), "identity differs: n_ctx");
  // Same identity hash but different text (a collision or a forged header): refused.
  EXPECT_EQ(reason(good, Identity(prefix), "system prompT"), "prefix text differs");
  EXPECT_EQ(reason(good + "z", Identity(prefix), prefix), "trailing bytes after payload");
}

TEST(CheckpointFormatTest, KeyDependsOnEveryIdentityField) {
  CheckpointIdentity base = Identity("p");
  std::set<std::string> keys = {CheckpointKey(base)};
  auto add = [&](auto mutate) {
    CheckpointIdentity id = base;
    mutate(id);
    return keys.insert(CheckpointKey(id)).second;
  };
  EXPECT_TRUE(add([](auto& id) { id.engine = "other"; }));
  EXPECT_TRUE(add([](auto& id) { id.model = "m"; }));
  EXPECT_TRUE(add([](auto& id) { id.tokenizer = "t"; }));
  EXPECT_TRUE(add([](auto& id) { id.chat_template = "c"; }));
  EXPECT_TRUE(add([](auto& id) { id.reasoning_mode = "on"; }));
  EXPECT_TRUE(add([](auto& id) { id.n_ctx = 1; }));
  EXPECT_TRUE(add([](auto& id) { id.type_k = "f32"; }));
  EXPECT_TRUE(add([](auto& id) { id.type_v = "q8_0"; }));
  EXPECT_TRUE(add([](auto& id) { id.flash_attn = true; }));
  EXPECT_TRUE(add([](auto& id) { id.n_batch = 1; }));
  EXPECT_TRUE(add([](auto& id) { id.n_ubatch = 1; }));
  EXPECT_TRUE(add([](auto& id) { id.prefix_sha256 = "x"; }));
  EXPECT_EQ(CheckpointKey(base).size(), 32u);
}

// 11. The budget holds after many distinct prefixes; the evicted ones are least recently used.
TEST(CheckpointStoreTest, ByteBudgetHoldsAndEvictsLeastRecentlyUsed) {
  TempDir tmp;
  const size_t file_size = Image("prefix 0", 1000).size();
  const uint64_t budget = 4 * file_size + file_size / 2;  // room for 4 files
  auto store = CheckpointStore::Open({tmp.path(), budget});
  ASSERT_TRUE(store.has_value());
  std::vector<std::string> keys;
  for (int i = 0; i < 12; ++i) {
    const std::string prefix = "prefix " + std::to_string(i);
    const std::string key = CheckpointKey(Identity(prefix));
    keys.push_back(key);
    auto saved = (*store)->Save(key, Image(prefix, 1000));
    ASSERT_TRUE(saved.has_value());
    EXPECT_TRUE(*saved);
    EXPECT_LE((*store)->List().total_bytes, budget) << "after " << i;
    if (i == 5) {  // use prefix 3 again: it becomes the most recently used
      auto hit = (*store)->Find(keys[3], Identity("prefix 3"), "prefix 3");
      EXPECT_EQ(hit.state, LookupState::kHit);
    }
    if (i == 8) {  // 3 was used after 4 and 5 were saved, so 4 and 5 went first
      EXPECT_EQ((*store)->List().keys_lru_first,
                (std::vector<std::string>{keys[3], keys[6], keys[7], keys[8]}));
    }
  }
  // Saved 0..11, prefix 3 touched after 5 was saved. LRU order before the last saves:
  // 4 5 3 6 7 8 9 10 11 -> kept: the 4 most recent = 8 9 10 11 (3 was older than 6..11).
  auto listing = (*store)->List();
  EXPECT_EQ(listing.keys_lru_first,
            (std::vector<std::string>{keys[8], keys[9], keys[10], keys[11]}));
  EXPECT_LE(listing.total_bytes, budget);
}

TEST(CheckpointStoreTest, RecentlyUsedCheckpointSurvivesEviction) {
  TempDir tmp;
  const size_t file_size = Image("prefix 0", 1000).size();
  auto store = CheckpointStore::Open({tmp.path(), 3 * file_size});
  ASSERT_TRUE(store.has_value());
  auto key = [](int i) { return CheckpointKey(Identity("prefix " + std::to_string(i))); };
  for (int i = 0; i < 3; ++i)
    ASSERT_TRUE((*store)->Save(key(i), Image("prefix " + std::to_string(i), 1000)));
  // Use 0 (the oldest), then add 3: 1 is now the least recently used and goes.
  EXPECT_EQ((*store)->Find(key(0), Identity("prefix 0"), "prefix 0").state, LookupState::kHit);
  ASSERT_TRUE((*store)->Save(key(3), Image("prefix 3", 1000)));
  EXPECT_EQ((*store)->List().keys_lru_first, (std::vector<std::string>{key(2), key(0), key(3)}));
  EXPECT_EQ((*store)->Find(key(1), Identity("prefix 1"), "prefix 1").state, LookupState::kAbsent);
}

TEST(CheckpointStoreTest, ImageLargerThanBudgetIsNotStored) {
  TempDir tmp;
  auto store = CheckpointStore::Open({tmp.path(), 100});
  ASSERT_TRUE(store.has_value());
  auto saved = (*store)->Save(CheckpointKey(Identity("p")), Image("p", 1000));
  ASSERT_TRUE(saved.has_value());
  EXPECT_FALSE(*saved);
  EXPECT_EQ((*store)->List().total_bytes, 0u);
}

TEST(CheckpointStoreTest, InvalidFileIsDeletedAndReported) {
  TempDir tmp;
  auto store = CheckpointStore::Open({tmp.path(), 1 << 20});
  ASSERT_TRUE(store.has_value());
  const std::string key = CheckpointKey(Identity("p"));
  tmp.Write(key + ".kv", "STRATAKV garbage");
  Lookup l = (*store)->Find(key, Identity("p"), "p");
  EXPECT_EQ(l.state, LookupState::kInvalid);
  EXPECT_FALSE(l.reason.empty());
  EXPECT_FALSE(std::filesystem::exists((*store)->PathFor(key)));
}

}  // namespace
}  // namespace strata::testing
