// The automatic prefix caches (granular_cache.h) on hand-made token sequences, with the caches
// that neither expire nor evict (radix, block-hash) in view: the prefixes the last request cached
// hold no key until a request leaves them. Expected figures follow from the rule in
// cache_model.h (every prefix of minimum + k * granule tokens of a request is cached; a hit is
// the longest run of them present, per model), worked out by hand in the comments; a random
// check compares with a plain set of every cached prefix.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>
#include <string>
#include <tuple>

#include "cache_model/cache_model.h"

namespace strata {
namespace {

// How a session's requests reach the model: as the request accountant gives them (the model
// compares them and keeps a copy), as replay gives them (the caller tells the exact shared prefix
// and the previous request's tokens after it), or either, request by request.
enum class Delivery { kCompared, kToldExact, kMixed };

constexpr Delivery kDeliveries[] = {Delivery::kCompared, Delivery::kToldExact, Delivery::kMixed};

const char* DeliveryName(Delivery d) {
  return d == Delivery::kCompared ? "compared" : d == Delivery::kToldExact ? "told" : "mixed";
}

// Tokens from letters: "abc" is {'a', 'b', 'c'}, one token a letter.
std::vector<TokenId> T(std::string_view letters) {
  return std::vector<TokenId>(letters.begin(), letters.end());
}

class Session {
 public:
  Session(const CacheModelOptions& options, Delivery delivery, uint32_t seed = 1)
      : model_(MakeCacheModel(options)), delivery_(delivery), rng_(seed) {}

  CacheUsage Send(const std::vector<TokenId>& tokens, const std::string& model = "m1") {
    CacheRequest r;
    r.tokens = tokens;
    r.model = model;
    r.time_s = ++time_;
    bool told = delivery_ == Delivery::kToldExact ||
                (delivery_ == Delivery::kMixed && std::bernoulli_distribution(0.5)(rng_));
    size_t shared = 0;
    while (shared < prev_.size() && shared < tokens.size() && prev_[shared] == tokens[shared]) {
      ++shared;
    }
    // The previous request's tokens after known_prefix go with a request after a told one
    // (CacheRequest::previous_tail), the shared count with a told one (a compared one after a
    // told one tells nothing: the model has no copy to compare with).
    if (prev_told_) r.previous_tail = std::span<const TokenId>(prev_).subspan(told ? shared : 0);
    if (told) {
      r.known_prefix = shared;
      r.known_prefix_exact = true;
    }
    CacheUsage u = model_->Process(r);
    prev_ = tokens;
    prev_told_ = told;
    EXPECT_EQ(u.cache_read_tokens + u.cache_write_tokens + u.uncached_tokens, tokens.size());
    return u;
  }

  const CacheModel& model() const { return *model_; }

 private:
  std::unique_ptr<CacheModel> model_;
  Delivery delivery_;
  std::mt19937 rng_;
  std::vector<TokenId> prev_;
  bool prev_told_ = false;
  double time_ = 0;
};

CacheModelOptions Radix() {
  CacheModelOptions o;
  o.kind = CacheModelKind::kRadix;
  return o;
}

// Block-hash with 4-token blocks: the prefixes of 4, 8, 12, ... tokens are cached.
CacheModelOptions Blocks4() {
  CacheModelOptions o;
  o.kind = CacheModelKind::kBlockHash;
  o.block_tokens = 4;
  return o;
}

// read, write, uncached of one request.
struct Figures {
  size_t read, write, uncached;
};

void ExpectFigures(const CacheUsage& u, Figures f, const std::string& what) {
  EXPECT_EQ(u.cache_read_tokens, f.read) << what;
  EXPECT_EQ(u.cache_write_tokens, f.write) << what;
  EXPECT_EQ(u.uncached_tokens, f.uncached) << what;
}

// Sends each (tokens, model) and checks its figures, under every delivery.
struct Step {
  std::string letters;
  Figures expected;
  std::string model = "m1";
};

void ExpectSession(const CacheModelOptions& options, const std::vector<Step>& steps) {
  for (Delivery d : kDeliveries) {
    Session s(options, d);
    for (size_t i = 0; i < steps.size(); ++i) {
      ExpectFigures(s.Send(T(steps[i].letters), steps[i].model), steps[i].expected,
                    std::string(DeliveryName(d)) + " request " + std::to_string(i + 1) + " '" +
                        steps[i].letters + "'");
    }
  }
}

// Radix: a hit is the longest common prefix with any earlier request; the rest is written.
TEST(GranularCacheTest, RadixAppendOnlySessionReadsEachPreviousRequest) {
  ExpectSession(Radix(), {{"abcd", {0, 4, 0}}, {"abcdef", {4, 2, 0}}, {"abcdefgh", {6, 2, 0}}});
}

TEST(GranularCacheTest, RadixReadsPrefixesThatLeftTheChain) {
  ExpectSession(Radix(), {
                             {"abcdefgh", {0, 8, 0}},
                             {"abcxy", {3, 2, 0}},     // leaves defgh
                             {"abcdefz", {6, 1, 0}},   // abcdef from the first request
                             {"abcxyq", {5, 1, 0}},    // abcxy from the second
                             {"abcdefgh", {8, 0, 0}},  // the first request whole
                         });
}

TEST(GranularCacheTest, RadixAlternatingBranchesReadWhole) {
  ExpectSession(Radix(), {
                             {"abcdefgh", {0, 8, 0}},
                             {"abcdxyzw", {4, 4, 0}},
                             {"abcdefgh", {8, 0, 0}},
                             {"abcdxyzw", {8, 0, 0}},
                             {"abcdefgh", {8, 0, 0}},
                             {"abcdxyzwv", {8, 1, 0}},
                         });
}

// A shorter request reads what it shares and writes nothing; the longer one's end stays cached.
TEST(GranularCacheTest, RadixShorterRequestKeepsTheLongerCached) {
  ExpectSession(Radix(), {
                             {"abcdefgh", {0, 8, 0}},
                             {"abcd", {4, 0, 0}},
                             {"abcdefgh", {8, 0, 0}},
                             {"ab", {2, 0, 0}},
                             {"abcdefghij", {8, 2, 0}},
                         });
}

// Caches are per model: a prefix cached for one model is read for it only.
TEST(GranularCacheTest, ModelChangeKeepsEachModelsPrefixes) {
  ExpectSession(Radix(), {
                             {"abcdef", {0, 6, 0}, "m1"},
                             {"abcdef", {0, 6, 0}, "m2"},
                             {"abcdef", {6, 0, 0}, "m1"},
                             {"abxy", {2, 2, 0}, "m2"},      // m1's abcdef leaves the chain
                             {"abcdeg", {5, 1, 0}, "m1"},    // m1's abcde
                             {"abcdefgh", {6, 2, 0}, "m2"},  // m2's abcdef
                             {"abxyz", {4, 1, 0}, "m2"},
                         });
  // 4-token blocks: the model changes with the request whole.
  ExpectSession(Blocks4(), {
                               {"abcdefghij", {0, 8, 2}, "m1"},
                               {"abcdefghij", {0, 8, 2}, "m2"},
                               {"abcdefghijkl", {8, 4, 0}, "m1"},
                           });
}

// Block-hash, 4-token blocks: a request branching inside a block reads the blocks before it.
TEST(GranularCacheTest, BlockHashBranchInsideABlock) {
  ExpectSession(Blocks4(), {
                               {"abcdefghij", {0, 8, 2}},    // blocks abcd, efgh; ij uncached
                               {"abcdefXYZW", {4, 4, 2}},    // shares 6: one block; efXY new
                               {"abcdefghijkl", {8, 4, 0}},  // abcdefgh left the chain
                               {"abcdefXYZWQR", {8, 4, 0}},  // abcdefXY too
                               {"abcdefXY", {8, 0, 0}},
                               {"abcde", {4, 0, 1}},
                           });
}

// Below the minimum nothing is read or written, and the chain before it stays cached.
TEST(GranularCacheTest, BelowMinimumRequestsAreNotCachedAndForgetNothing) {
  ExpectSession(Blocks4(), {
                               {"abcdefghij", {0, 8, 2}},
                               {"abc", {0, 0, 3}},
                               {"abcdefghijkl", {8, 4, 0}},
                               {"", {0, 0, 0}},
                               {"xyz", {0, 0, 3}},
                               {"abcdefghijklmn", {12, 0, 2}},
                           });
  ExpectSession(Radix(), {
                             {"abcd", {0, 4, 0}},
                             {"", {0, 0, 0}},
                             {"abcd", {4, 0, 0}},
                             {"", {0, 0, 0}, "m2"},
                             {"abce", {3, 1, 0}},
                         });
}

// FNV-1a of each of `tokens`' prefixes: out[len] identifies tokens[0, len).
std::vector<uint64_t> PrefixIds(const std::vector<TokenId>& tokens) {
  std::vector<uint64_t> out{0xcbf29ce484222325ULL};
  for (TokenId t : tokens) {
    uint64_t h = out.back();
    for (int byte = 0; byte < 4; ++byte)
      h = (h ^ ((uint32_t(t) >> (8 * byte)) & 0xff)) * 0x100000001b3ULL;
    out.push_back(h);
  }
  return out;
}

// The same rule on a few thousand random sessions that branch from earlier requests, shrink,
// grow, change model and drop below the minimum, against a plain set of every cached prefix
// (model, length, PrefixIds): the hit is the longest granule prefix whose every granule prefix is
// in the set.
// Every mode of the model must agree: no expiry (keys when a prefix leaves the chain), a retention
// and a capacity too large to matter (entries with a last use).
TEST(GranularCacheTest, MatchesASetOfEveryCachedPrefixOnRandomSessions) {
  struct Config {
    CacheModelOptions options;
    size_t minimum, granule;
  };
  std::vector<Config> configs;
  for (size_t block : {1, 4}) {
    CacheModelOptions o;
    o.kind = block == 1 ? CacheModelKind::kRadix : CacheModelKind::kBlockHash;
    o.block_tokens = block;
    configs.push_back({o, block, block});
    CacheModelOptions kept = o;
    kept.retention_s = 1e9;
    configs.push_back({kept, block, block});
    CacheModelOptions capacity = o;
    capacity.capacity_tokens = size_t{1} << 40;
    configs.push_back({capacity, block, block});
  }
  CacheModelOptions openai;  // a minimum above the granule
  openai.kind = CacheModelKind::kOpenAi;
  openai.retention_s = 0;
  configs.push_back({openai, 1024, 128});

  std::mt19937 rng(7);
  auto pick = [&](size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng); };
  for (int session = 0; session < 3000; ++session) {
    const Config& c = configs[size_t(session) % configs.size()];
    const Delivery d = kDeliveries[size_t(session) / configs.size() % 3];
    const size_t scale = c.granule == 128 ? 64 : 1;  // tokens per step for OpenAI's granule
    Session s(c.options, d, uint32_t(session));
    std::set<std::tuple<std::string, size_t, uint64_t>> cached;
    std::vector<std::vector<TokenId>> sent;
    for (int r = 0; r < 16; ++r) {
      std::vector<TokenId> tokens;
      if (!sent.empty() && pick(5) > 0) {
        const auto& from = pick(2) == 0 ? sent.back() : sent[pick(sent.size())];
        tokens.assign(from.begin(), from.begin() + std::ptrdiff_t(pick(from.size() + 1)));
      }
      const size_t add = pick(12) * scale;
      for (size_t i = 0; i < add; ++i) tokens.push_back(TokenId(pick(3)));
      const std::string model = pick(6) == 0 ? "m2" : "m1";
      Figures want{0, 0, tokens.size()};
      if (tokens.size() >= c.minimum) {
        const std::vector<uint64_t> ids = PrefixIds(tokens);
        for (size_t len = c.minimum; len <= tokens.size(); len += c.granule) {
          if (!cached.count({model, len, ids[len]})) break;
          want.read = len;
        }
        size_t last = c.minimum + (tokens.size() - c.minimum) / c.granule * c.granule;
        for (size_t len = c.minimum; len <= last; len += c.granule) {
          cached.insert({model, len, ids[len]});
        }
        want.write = last - want.read;
        want.uncached = tokens.size() - last;
      }
      std::string what = s.model().Describe() + " " + DeliveryName(d) + " session " +
                         std::to_string(session) + " request " + std::to_string(r + 1);
      ExpectFigures(s.Send(tokens, model), want, what);
      if (testing::Test::HasFailure()) return;
      sent.push_back(std::move(tokens));
    }
  }
}

// A caller that tells the exact shared prefix (replay) and a model without expiry or capacity:
// the model holds its PrefixHasher's every 16th hash and nothing per token beyond it, however
// long the requests it only appends to; the keys of a prefix come when a request leaves it.
TEST(GranularCacheTest, OneLongRequestHoldsNoKeyPerToken) {
  const size_t n = size_t{1} << 20;
  std::vector<TokenId> tokens(n);
  for (size_t i = 0; i < n; ++i) tokens[i] = TokenId(i % 50000);
  for (const CacheModelOptions& o : {Radix(), Blocks4()}) {
    Session s(o, Delivery::kToldExact);
    PrefixHasher alone;  // what the model's own hasher holds for these requests
    alone.Update(std::span<const TokenId>(tokens).first(n / 2), 0, true);
    alone.Update(tokens, n / 2, true);
    s.Send({tokens.begin(), tokens.begin() + std::ptrdiff_t(n / 2)});
    const CacheUsage u = s.Send(tokens);
    EXPECT_EQ(u.cache_read_tokens, n / 2);
    EXPECT_EQ(u.cache_write_tokens, n / 2);
    // Beyond the hasher: a few bytes of empty tables, not 9 to 14 bytes a key (a key a token for
    // radix, one per 4 tokens here for block-hash). The hasher: 8 bytes per 16 tokens, in a
    // vector grown by doubling (at most 1 byte a token).
    EXPECT_LE(s.model().HeldBytes(), alone.HeldBytes() + 1024) << s.model().Describe();
    EXPECT_LE(s.model().HeldBytes(), n + 1024) << s.model().Describe();
  }
}

// A branch at the middle leaves the second half of the chain: its prefixes are keyed then (at
// least 8 bytes each), and read back by a request returning to them.
TEST(GranularCacheTest, ABranchKeysWhatLeftTheChain) {
  const size_t n = size_t{1} << 16;
  std::vector<TokenId> a(n), b(n);
  for (size_t i = 0; i < n; ++i) a[i] = b[i] = TokenId(i);
  for (size_t i = n / 2; i < n; ++i) b[i] = TokenId(n + i);
  Session s(Radix(), Delivery::kToldExact);
  s.Send(a);
  const size_t before = s.model().HeldBytes();
  EXPECT_EQ(s.Send(b).cache_read_tokens, n / 2);
  EXPECT_GE(s.model().HeldBytes(), before + 8 * (n / 2));  // a's n/2 longest prefixes
  EXPECT_EQ(s.Send(a).cache_read_tokens, n);
}

}  // namespace
}  // namespace strata
