// hash_test.cc: splitmix64 and SHA-256 hex against published values.
#include "base/hash.h"

#include <gtest/gtest.h>

namespace strata {
namespace {

TEST(HashTest, SplitMix64MatchesReferenceSequence) {
  // First outputs of the reference splitmix64 with seed 1234567 (Vigna's splitmix64.c).
  uint64_t state = 1234567;
  EXPECT_EQ(SplitMix64Next(&state), 6457827717110365317ULL);
  EXPECT_EQ(SplitMix64Next(&state), 3203168211198807973ULL);
}

TEST(HashTest, Sha256HexOfAbc) {
  EXPECT_EQ(Sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

}  // namespace
}  // namespace strata
