// Cache-model tests on hand-made token sequences; every expected figure follows from the rules
// documented in cache_model.h (REFERENCE.md), worked out by hand in the comments.
#include "cache_model/cache_model.h"

#include <gtest/gtest.h>

#include <numeric>

namespace strata {
namespace {

// Tokens 0..n-1 plus `offset` (distinct offsets give sequences that differ from the first token).
std::vector<TokenId> Seq(size_t n, TokenId offset = 0) {
  std::vector<TokenId> v(n);
  std::iota(v.begin(), v.end(), offset);
  return v;
}

// `base` with tokens from index `from` on replaced by different ids, extended to `n` tokens.
std::vector<TokenId> Diverge(const std::vector<TokenId>& base, size_t from, size_t n) {
  std::vector<TokenId> v(base.begin(), base.begin() + std::min(from, base.size()));
  for (size_t i = v.size(); i < n; ++i) v.push_back(900000 + TokenId(i));
  return v;
}

std::unique_ptr<CacheModel> Make(CacheModelKind kind) {
  CacheModelOptions o;
  o.kind = kind;
  return MakeCacheModel(o);
}

CacheRequest Req(const std::vector<TokenId>& tokens, std::vector<size_t> bps, double t = 0,
                 std::string model = "claude-sonnet-4-5", CacheTtl ttl = CacheTtl::k5m) {
  CacheRequest r;
  r.tokens = tokens;
  for (size_t b : bps) r.breakpoints.push_back({b, ttl});
  r.time_s = t;
  r.model = std::move(model);
  return r;
}

TEST(AnthropicCacheTest, PerModelMinimumCacheableTokens) {
  EXPECT_EQ(AnthropicMinimumCacheableTokens("claude-sonnet-4-5"), 1024u);
  EXPECT_EQ(AnthropicMinimumCacheableTokens("claude-opus-4-1"), 1024u);
  EXPECT_EQ(AnthropicMinimumCacheableTokens("claude-3-5-haiku-latest"), 2048u);
  EXPECT_EQ(AnthropicMinimumCacheableTokens("claude-opus-4-6"), 4096u);
  EXPECT_EQ(AnthropicMinimumCacheableTokens("claude-haiku-4-5"), 4096u);
}

TEST(AnthropicCacheTest, PrefixBelowMinimumIsNeverCached) {
  auto m = Make(CacheModelKind::kAnthropic);
  auto small = Seq(1000);  // Sonnet 4.5: minimum 1024 > 1000
  auto u1 = m->Process(Req(small, {1000}));
  EXPECT_EQ(u1.cache_write_tokens, 0u);
  EXPECT_EQ(u1.uncached_tokens, 1000u);
  EXPECT_FALSE(u1.notes.empty());
  auto u2 = m->Process(Req(small, {1000}, 1));
  EXPECT_EQ(u2.cache_read_tokens, 0u);
  // Haiku 4.5's minimum is 4096: a 3000-token prefix is not cached either.
  auto mid = Seq(3000, 5);
  EXPECT_EQ(m->Process(Req(mid, {3000}, 2, "claude-haiku-4-5")).cache_write_tokens, 0u);
  EXPECT_EQ(m->Process(Req(mid, {3000}, 3, "claude-haiku-4-5")).cache_read_tokens, 0u);
}

TEST(AnthropicCacheTest, WriteThenReadAndPrices) {
  auto m = Make(CacheModelKind::kAnthropic);
  auto t = Seq(2100);
  auto u1 = m->Process(Req(t, {2000}));
  EXPECT_EQ(u1.cache_write_tokens, 2000u);
  EXPECT_EQ(u1.uncached_tokens, 100u);
  // 2000 * $3 * 1.25 + 100 * $3, per million.
  EXPECT_NEAR(u1.cost, (2000 * 3.0 * 1.25 + 100 * 3.0) / 1e6, 1e-12);
  auto u2 = m->Process(Req(t, {2000}, 10));
  EXPECT_EQ(u2.cache_read_tokens, 2000u);
  EXPECT_EQ(u2.cache_write_tokens, 0u);
  EXPECT_EQ(u2.uncached_tokens, 100u);
  EXPECT_NEAR(u2.cost, (2000 * 3.0 * 0.1 + 100 * 3.0) / 1e6, 1e-12);
  EXPECT_NEAR(u2.HitRatio(), 2000.0 / 2100.0, 1e-12);
}

TEST(AnthropicCacheTest, AtMostFourBreakpointsTheFifthIsIgnored) {
  auto m = Make(CacheModelKind::kAnthropic);
  auto t = Seq(1600);
  auto u1 = m->Process(Req(t, {1100, 1200, 1300, 1400, 1500}));
  EXPECT_EQ(u1.cache_write_tokens, 1400u);  // up to the 4th breakpoint only
  EXPECT_EQ(u1.uncached_tokens, 200u);
  ASSERT_FALSE(u1.notes.empty());
  EXPECT_NE(u1.notes[0].find("at most 4"), std::string::npos);
  auto u2 = m->Process(Req(t, {1100, 1200, 1300, 1400, 1500}, 1));
  EXPECT_EQ(u2.cache_read_tokens, 1400u);  // 1500 was never written
}

TEST(AnthropicCacheTest, LookbackFindsAnEntryWithinTwentyBlocksOnly) {
  // Blocks of 10 tokens. Request 1 caches the prefix at 1200 (block boundary 120).
  auto base = Seq(2000);
  auto blocks = [](size_t n) {
    std::vector<size_t> ends;
    for (size_t e = 10; e <= n; e += 10) ends.push_back(e);
    return ends;
  };
  {
    auto m = Make(CacheModelKind::kAnthropic);
    std::vector<TokenId> t1(base.begin(), base.begin() + 1200);
    auto r1 = Req(t1, {1200});
    r1.block_ends = blocks(1200);
    EXPECT_EQ(m->Process(r1).cache_write_tokens, 1200u);
    // 15 blocks later: candidates 1350, 1340, ..., 1150 include 1200 -> read 1200, write 150.
    std::vector<TokenId> t2(base.begin(), base.begin() + 1350);
    auto r2 = Req(t2, {1350}, 1);
    r2.block_ends = blocks(1350);
    auto u2 = m->Process(r2);
    EXPECT_EQ(u2.cache_read_tokens, 1200u);
    EXPECT_EQ(u2.cache_write_tokens, 150u);
  }
  {
    auto m = Make(CacheModelKind::kAnthropic);
    std::vector<TokenId> t1(base.begin(), base.begin() + 1200);
    auto r1 = Req(t1, {1200});
    r1.block_ends = blocks(1200);
    m->Process(r1);
    // 25 blocks later: the breakpoint plus 20 boundaries reach back to 1250 only -> miss.
    std::vector<TokenId> t2(base.begin(), base.begin() + 1450);
    auto r2 = Req(t2, {1450}, 1);
    r2.block_ends = blocks(1450);
    auto u2 = m->Process(r2);
    EXPECT_EQ(u2.cache_read_tokens, 0u);
    EXPECT_EQ(u2.cache_write_tokens, 1450u);
  }
}

TEST(AnthropicCacheTest, FiveMinuteEntryExpiresAndHitRefreshesIt) {
  auto m = Make(CacheModelKind::kAnthropic);
  auto t = Seq(2000);
  m->Process(Req(t, {2000}, 0));
  EXPECT_EQ(m->Process(Req(t, {2000}, 290)).cache_read_tokens, 2000u);  // refreshed to 590
  EXPECT_EQ(m->Process(Req(t, {2000}, 580)).cache_read_tokens, 2000u);  // refreshed to 880
  auto late = m->Process(Req(t, {2000}, 880 + 1));                      // expired
  EXPECT_EQ(late.cache_read_tokens, 0u);
  EXPECT_EQ(late.cache_write_tokens, 2000u);
}

TEST(AnthropicCacheTest, OneHourEntrySurvivesFiveMinutesAndCostsTwice) {
  auto m = Make(CacheModelKind::kAnthropic);
  auto t = Seq(2000);
  auto u1 = m->Process(Req(t, {2000}, 0, "claude-sonnet-4-5", CacheTtl::k1h));
  EXPECT_EQ(u1.cache_write_1h_tokens, 2000u);
  EXPECT_NEAR(u1.cost, 2000 * 3.0 * 2.0 / 1e6, 1e-12);
  EXPECT_EQ(m->Process(Req(t, {2000}, 3000)).cache_read_tokens, 2000u);
  EXPECT_EQ(m->Process(Req(t, {2000}, 3000 + 3601)).cache_read_tokens, 0u);
}

TEST(OpenAiCacheTest, PromptsBelow1024TokensAreNotCached) {
  auto m = Make(CacheModelKind::kOpenAi);
  auto t = Seq(1023);
  m->Process(Req(t, {}));
  auto u = m->Process(Req(t, {}, 1));
  EXPECT_EQ(u.cache_read_tokens, 0u);
  EXPECT_EQ(u.uncached_tokens, 1023u);
}

TEST(OpenAiCacheTest, HitsRoundDownTo128TokenSteps) {
  auto m = Make(CacheModelKind::kOpenAi);
  auto a = Seq(1500);
  EXPECT_EQ(m->Process(Req(a, {})).cache_read_tokens, 0u);
  // Shares 1300 tokens: cached prefixes 1024, 1152, 1280 match, 1408 does not -> 1280.
  auto b = Diverge(a, 1300, 1500);
  auto u = m->Process(Req(b, {}, 1));
  EXPECT_EQ(u.cache_read_tokens, 1280u);
  EXPECT_EQ(u.cache_read_tokens % 128, 0u);
  // Identical 1500-token prompt: 1024 + 3 * 128 = 1408.
  EXPECT_EQ(m->Process(Req(a, {}, 2)).cache_read_tokens, 1408u);
  // 1.25 $/Mtok, reads at 0.1x, no write premium.
  auto c = m->Process(Req(a, {}, 3));
  EXPECT_NEAR(c.cost, (1408 * 1.25 * 0.1 + 92 * 1.25) / 1e6, 1e-12);
}

TEST(OpenAiCacheTest, RetentionExpires) {
  auto m = Make(CacheModelKind::kOpenAi);
  auto a = Seq(2048);
  m->Process(Req(a, {}, 0));
  EXPECT_EQ(m->Process(Req(a, {}, 599)).cache_read_tokens, 2048u);
  EXPECT_EQ(m->Process(Req(a, {}, 599 + 600)).cache_read_tokens, 0u);
}

TEST(DeepSeekCacheTest, HitsAreWhole64TokenUnits) {
  auto m = Make(CacheModelKind::kDeepSeek);
  auto a = Seq(1000);
  m->Process(Req(a, {}));
  auto b = Diverge(a, 700, 1000);  // 700 shared -> 10 units of 64 = 640
  EXPECT_EQ(m->Process(Req(b, {}, 1)).cache_read_tokens, 640u);
  auto c = Diverge(a, 63, 200);  // less than one unit shared
  EXPECT_EQ(m->Process(Req(c, {}, 2)).cache_read_tokens, 0u);
}

TEST(BlockHashCacheTest, FullSixteenTokenBlocksChainedThroughTheParent) {
  auto m = Make(CacheModelKind::kBlockHash);
  auto a = Seq(100);
  auto u1 = m->Process(Req(a, {}));
  EXPECT_EQ(u1.cache_write_tokens, 96u);  // 6 full blocks; the 4-token remainder is not a block
  auto b = Diverge(a, 50, 100);           // 3 full blocks shared -> 48
  EXPECT_EQ(m->Process(Req(b, {}, 1)).cache_read_tokens, 48u);
  // Same third block but a different first one: the chained hash differs, nothing is reused.
  auto c = a;
  c[0] = 777777;
  EXPECT_EQ(m->Process(Req(c, {}, 2)).cache_read_tokens, 0u);
}

TEST(RadixCacheTest, TokenGranularLongestCommonPrefix) {
  auto m = Make(CacheModelKind::kRadix);
  auto a = Seq(100);
  m->Process(Req(a, {}));
  auto b = Diverge(a, 57, 80);
  auto u = m->Process(Req(b, {}, 1));
  EXPECT_EQ(u.cache_read_tokens, 57u);
  EXPECT_EQ(u.cache_write_tokens, 23u);
  EXPECT_EQ(u.uncached_tokens, 0u);
}

TEST(RadixCacheTest, LruCapacityEvictsLeastRecentLeavesFirst) {
  CacheModelOptions o;
  o.kind = CacheModelKind::kRadix;
  o.capacity_tokens = 150;
  auto m = MakeCacheModel(o);
  auto a = Seq(100);
  auto c = Seq(100, 5000);
  m->Process(Req(a, {}, 0));
  m->Process(Req(c, {}, 1));  // 200 tokens > 150: the 50 least recent go, a's leaves first
  EXPECT_EQ(m->Process(Req(c, {}, 2)).cache_read_tokens, 100u);
  EXPECT_EQ(m->Process(Req(a, {}, 3)).cache_read_tokens, 50u);  // a's first 50 tokens remain
}

TEST(CacheModelTest, ParsesProviderNames) {
  EXPECT_EQ(*ParseCacheModelKind("vllm"), CacheModelKind::kBlockHash);
  EXPECT_EQ(*ParseCacheModelKind("radix"), CacheModelKind::kRadix);
  EXPECT_FALSE(ParseCacheModelKind("gemini"));
}

// Reusing the shared prefix's hashes gives exactly PrefixHashes of each request.
TEST(CacheModelTest, PrefixHasherEqualsPrefixHashesOnEveryRequest) {
  PrefixHasher hasher;
  std::vector<std::vector<TokenId>> requests = {{1, 2, 3}, {1, 2, 3, 4, 5}, {1, 2, 9}, {},
                                                {7},       {7, 8, 9, 10}};
  for (const auto& r : requests) {
    hasher.Update(r);
    const std::vector<uint64_t> all = PrefixHashes(r);
    for (size_t len = 0; len <= r.size(); ++len) EXPECT_EQ(hasher.At(len), all[len]) << len;
  }
  // Past the 16-token stride, with a shared prefix that ends between two kept hashes.
  std::vector<TokenId> a(40), b(40);
  for (int i = 0; i < 40; ++i) a[size_t(i)] = b[size_t(i)] = i;
  b[37] = 99;
  hasher.Update(a);
  hasher.Update(b);
  EXPECT_EQ(hasher.shared(), 37u);
  for (size_t len = 0; len <= b.size(); ++len) EXPECT_EQ(hasher.At(len), PrefixHashes(b)[len]);
  // Told the exact shared prefix: the same hashes without comparing (or keeping) tokens.
  PrefixHasher told;
  told.Update(a);
  told.Update(b, 37, true);
  EXPECT_EQ(told.shared(), 37u);
  for (size_t len = 0; len <= b.size(); ++len) EXPECT_EQ(told.At(len), PrefixHashes(b)[len]);
}

// Without a capacity the automatic caches touch only each request's new tokens (the chain of
// shared prefixes keeps one time); with a capacity too large to evict they touch every prefix.
// Both must give the same figures on branching, shrinking, short and expiring requests.
TEST(CacheModelTest, LinearPathEqualsTouchingEveryPrefix) {
  std::vector<std::vector<TokenId>> requests;
  std::vector<double> times;
  std::vector<TokenId> a = Seq(3000);
  double t = 0;
  auto add = [&](std::vector<TokenId> v, double dt) {
    t += dt;
    requests.push_back(std::move(v));
    times.push_back(t);
  };
  add(a, 0);
  add(Seq(3500), 10);                // grows
  add(Diverge(a, 2000, 2600), 10);   // branches at 2000
  add(Seq(3600), 10);                // back to the first branch, beyond it
  add(Seq(500), 10);                 // below the OpenAI minimum
  add(Seq(3700), 10);                // after a short request
  add(Seq(3800), 700);               // after the OpenAI retention
  add(Diverge(a, 100, 1500), 4000);  // after the DeepSeek retention, a new branch
  add(Seq(3000), 5);                 // an older prefix, some of it expired
  add(Diverge(Seq(3000), 2500, 4100), 5);
  for (auto kind : {CacheModelKind::kOpenAi, CacheModelKind::kDeepSeek, CacheModelKind::kBlockHash,
                    CacheModelKind::kRadix}) {
    CacheModelOptions linear;
    linear.kind = kind;
    CacheModelOptions every = linear;
    every.capacity_tokens = size_t(1) << 40;
    auto m1 = MakeCacheModel(linear);
    auto m2 = MakeCacheModel(every);
    for (size_t i = 0; i < requests.size(); ++i) {
      CacheRequest r;
      r.tokens = requests[i];
      r.time_s = times[i];
      CacheUsage u1 = m1->Process(r);
      CacheUsage u2 = m2->Process(r);
      EXPECT_EQ(u1.cache_read_tokens, u2.cache_read_tokens) << CacheModelName(kind) << " " << i;
      EXPECT_EQ(u1.cache_write_tokens, u2.cache_write_tokens) << CacheModelName(kind) << " " << i;
    }
  }
}

// Caches are per model: the same tokens sent to another model read nothing.
TEST(CacheModelTest, AnotherModelReadsNothing) {
  for (auto kind : {CacheModelKind::kAnthropic, CacheModelKind::kOpenAi, CacheModelKind::kRadix}) {
    auto m = Make(kind);
    auto tokens = Seq(5000);
    CacheRequest r;
    r.tokens = tokens;
    r.breakpoints = {{5000, CacheTtl::k5m}};
    r.model = "claude-sonnet-4-5";
    r.time_s = 1;
    m->Process(r);
    r.time_s = 2;
    EXPECT_GT(m->Process(r).cache_read_tokens, 4000u) << CacheModelName(kind);
    r.model = "claude-opus-4-1";
    r.time_s = 3;
    EXPECT_EQ(m->Process(r).cache_read_tokens, 0u) << CacheModelName(kind);
    r.model = "claude-sonnet-4-5";  // the first model's entries are still there
    r.time_s = 4;
    EXPECT_GT(m->Process(r).cache_read_tokens, 4000u) << CacheModelName(kind);
  }
}

}  // namespace
}  // namespace strata
