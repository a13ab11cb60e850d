// model_fingerprint_test.cc: the generated test models and the model fingerprint: same seed, same
// bytes; same shapes with another seed, another fingerprint; the fingerprint reads a small sample
// of the weights and is served from its cache on later starts until the file changes.
#include <sys/stat.h>

#include "local/local_fixture.h"

namespace strata::testing {
namespace {

namespace fs = std::filesystem;
using ModelFingerprintTest = LocalTest;

TEST_F(ModelFingerprintTest, SameSeedWritesSameBytesOtherSeedSameSize) {
  TestModelOptions o;
  o.vocab_path = VocabPath();
  ASSERT_TRUE(WriteTestModel(o, tmp_.path() / "a.gguf").has_value());
  ASSERT_TRUE(WriteTestModel(o, tmp_.path() / "a2.gguf").has_value());
  o.seed = 99;
  ASSERT_TRUE(WriteTestModel(o, tmp_.path() / "b.gguf").has_value());
  const std::string a = ReadAll(tmp_.path() / "a.gguf"), a2 = ReadAll(tmp_.path() / "a2.gguf"),
                    b = ReadAll(tmp_.path() / "b.gguf");
  EXPECT_EQ(a, a2);
  EXPECT_EQ(a.size(), b.size());
  EXPECT_NE(a, b);
}

TEST_F(ModelFingerprintTest, SameShapesOtherWeightsDiffer) {
  auto a = FingerprintModel(TinyModelPath(1));
  auto b = FingerprintModel(TinyModelPath(2));
  ASSERT_TRUE(a.has_value() && b.has_value());
  EXPECT_NE(a->digest, b->digest);
  EXPECT_EQ(a->tokenizer, b->tokenizer);  // same vocabulary
  EXPECT_EQ(a->chat_template, b->chat_template);
}

TEST_F(ModelFingerprintTest, ReadsASampleAndIsCachedUntilTheFileChanges) {
  const fs::path model = tmp_.path() / "m.gguf";
  fs::copy_file(TinyModelPath(1), model);
  const fs::path cache = tmp_.path() / "cache";
  auto first = FingerprintModel(model, cache);
  ASSERT_TRUE(first.has_value());
  EXPECT_GT(first->sampled_bytes, 0u);
  EXPECT_LT(first->sampled_bytes, fs::file_size(model) / 4);  // not the whole weights file
  auto second = FingerprintModel(model, cache);
  ASSERT_TRUE(second.has_value());
  EXPECT_EQ(second->sampled_bytes, 0u);  // served from the cache
  EXPECT_EQ(second->digest, first->digest);
  // Rewrite the file with other weights (new mtime and size-equal content): recomputed.
  TestModelOptions o;
  o.vocab_path = VocabPath();
  o.seed = 5;
  ASSERT_TRUE(WriteTestModel(o, model).has_value());
  auto third = FingerprintModel(model, cache);
  ASSERT_TRUE(third.has_value());
  EXPECT_GT(third->sampled_bytes, 0u);
  EXPECT_NE(third->digest, first->digest);
}

}  // namespace
}  // namespace strata::testing
