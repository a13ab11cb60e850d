// shared_tier_slow_test.cc: strata serve with --shared-store against a real redis-server on
// loopback (started and stopped by each test; skipped without redis-server or the llama.cpp
// vocabulary): two servers with separate local stores share a prefix (usage, /metrics, equal
// tokens at temperature 0), four servers starting the same new prefix prefill it once, and each
// failure (Redis killed, a flipped byte in a chunk, a header of another model, a wrong password)
// falls back to prefill and is counted in /metrics.
#include <gtest/gtest.h>

#include <future>

#include "serve/serve_fixture.h"
#include "shared_store/redis_fixture.h"

namespace strata::testing {
namespace {

using nlohmann::json;

size_t Cached(const json& chat) { return chat["usage"]["prompt_tokens_details"]["cached_tokens"]; }
std::string Text(const json& chat) {
  const json& c = chat["choices"][0]["message"]["content"];
  return c.is_string() ? c.get<std::string>() : "";
}

// The value of an unlabelled or labelled sample line `name` in /metrics (-1 when absent).
double Metric(const RunningServer& server, const std::string& name) {
  auto res = server.Client()->Get("/metrics");
  if (!res) return -1;
  std::istringstream in(res->body);
  for (std::string line; std::getline(in, line);)
    if (line.starts_with(name + " ")) return std::stod(line.substr(name.size() + 1));
  return -1;
}

// Waits (bounded) until `server` has published at least `n` checkpoints.
void AwaitPublished(const RunningServer& server, double n) {
  for (int i = 0; i < 1500 && Metric(server, "strata_shared_store_published_total") < n; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_GE(Metric(server, "strata_shared_store_published_total"), n);
}

std::vector<std::string> Keys(RedisServer& redis, const std::string& pattern) {
  std::vector<std::string> out;
  auto r = redis.Command({"KEYS", pattern});
  if (!r) return out;
  for (size_t i = 0; i < (*r)->elements; ++i)
    out.emplace_back((*r)->element[i]->str, (*r)->element[i]->len);
  return out;
}

class SharedTierTest : public ServeTest {
 protected:
  void SetUp() override {
    ServeTest::SetUp();
    if (IsSkipped()) return;
    STRATA_REQUIRE_REDIS();
  }
  ServeOptions SharedOptions(const RedisServer& redis, const std::string& store) const {
    ServeOptions o = Options();
    o.store_dir = tmp_.path() / store;
    o.shared_store = redis.Url();
    return o;
  }
  // Server A answers cold and publishes its checkpoints; returns its reply.
  json ColdRunPublished(const RedisServer& redis, const std::string& user) {
    RunningServer a(SharedOptions(redis, "kv-a"));
    auto c = a.Client();
    json r = Post(*c, "/v1/chat/completions", ChatBody(user));
    EXPECT_EQ(Cached(r), 0u);
    AwaitPublished(a, 2);  // the system + tools cut and the whole prompt
    return r;
  }
};

TEST_F(SharedTierTest, ASecondServerRestoresWhatTheFirstComputed) {
  RedisServer redis;
  const json cold = ColdRunPublished(redis, "Where are the tests?");
  RunningServer b(SharedOptions(redis, "kv-b"));
  auto c = b.Client();
  json r = Post(*c, "/v1/chat/completions", ChatBody("Where are the tests?"));
  const size_t prompt = r["usage"]["prompt_tokens"];
  EXPECT_EQ(Cached(r), prompt - 1);  // the whole prompt but its last token, from Redis
  EXPECT_EQ(Text(r), Text(cold));
  EXPECT_EQ(Metric(b, "strata_shared_store_hits_total"), 1);
  EXPECT_EQ(Metric(b, "strata_prompt_tokens_restored_total"), static_cast<double>(prompt - 1));
  EXPECT_EQ(Metric(b, "strata_checkpoint_hits_total"), 1);
  size_t local_files = 0;
  for (const auto& e : std::filesystem::directory_iterator(tmp_.path() / "kv-b"))
    local_files += e.path().extension() == ".kv";
  EXPECT_GE(local_files, 1u);  // the hit was written into B's local tier
  // Another conversation with the same system prompt restores the shared system + tools cut.
  json other = Post(*c, "/v1/chat/completions", ChatBody("List the source files."));
  EXPECT_GT(Cached(other), 0u);
}

TEST_F(SharedTierTest, FourServersStartingTheSameNewPrefixPrefillItOnce) {
  RedisServer redis;
  std::vector<std::unique_ptr<RunningServer>> servers;
  for (int i = 0; i < 4; ++i)
    servers.push_back(
        std::make_unique<RunningServer>(SharedOptions(redis, "kv-" + std::to_string(i))));
  std::vector<std::future<json>> replies;
  for (auto& s : servers) {
    replies.push_back(std::async(std::launch::async, [&s] {
      auto c = s->Client();
      return Post(*c, "/v1/chat/completions", ChatBody("Start the task."));
    }));
  }
  size_t cold = 0, restored = 0;
  std::string text;
  for (auto& f : replies) {
    const json r = f.get();
    if (Cached(r) == 0) ++cold;
    if (Cached(r) > 0) ++restored;
    if (text.empty()) text = Text(r);
    EXPECT_EQ(Text(r), text);
  }
  EXPECT_EQ(cold, 1u);
  EXPECT_EQ(restored, 3u);
  // One lease holder prefilled the system + tools cut; the other three restored its checkpoint
  // (after waiting on the lease, or found it published when they looked).
  double held = 0, waited = 0, hits = 0;
  for (auto& s : servers) {
    held += Metric(*s, "strata_shared_store_leases_total{outcome=\"held\"}");
    waited += Metric(*s, "strata_shared_store_leases_total{outcome=\"waited\"}");
    hits += Metric(*s, "strata_shared_store_hits_total");
  }
  EXPECT_EQ(held, 1);
  EXPECT_LE(waited, 3);
  EXPECT_EQ(hits, 3);
}

TEST_F(SharedTierTest, RedisKilledFallsBackToPrefillAndIsCounted) {
  RedisServer redis;
  const json cold = ColdRunPublished(redis, "Where are the tests?");
  RunningServer b(SharedOptions(redis, "kv-b"));
  redis.Kill();
  auto c = b.Client();
  int status = 0;
  json r = Post(*c, "/v1/chat/completions", ChatBody("Where are the tests?"), &status);
  EXPECT_EQ(status, 200);
  EXPECT_EQ(Cached(r), 0u);
  EXPECT_EQ(Text(r), Text(cold));
  EXPECT_GE(Metric(b, "strata_shared_store_errors_total{reason=\"unreachable\"}"), 1);
}

TEST_F(SharedTierTest, AFlippedByteInAChunkIsRefusedAndPrefilled) {
  RedisServer redis;
  const json cold = ColdRunPublished(redis, "Where are the tests?");
  for (const std::string& chunk : Keys(redis, "strata:kv:*:0")) {
    auto old = redis.Command({"GETRANGE", chunk, "100", "100"});
    ASSERT_TRUE(old);
    const std::string flipped(1, static_cast<char>((*old)->str[0] ^ 0x20));
    ASSERT_TRUE(redis.Command({"SETRANGE", chunk, "100", flipped}));
  }
  RunningServer b(SharedOptions(redis, "kv-b"));
  auto c = b.Client();
  json r = Post(*c, "/v1/chat/completions", ChatBody("Where are the tests?"));
  EXPECT_EQ(Cached(r), 0u);
  EXPECT_EQ(Text(r), Text(cold));
  EXPECT_GE(Metric(b, "strata_shared_store_errors_total{reason=\"checksum\"}"), 1);
  EXPECT_GE(Metric(b, "strata_checkpoint_rebuilds_total"), 1);
  EXPECT_EQ(Metric(b, "strata_shared_store_hits_total"), 0);
}

TEST_F(SharedTierTest, AHeaderOfAnotherModelIsRefusedAndPrefilled) {
  RedisServer redis;
  const json cold = ColdRunPublished(redis, "Where are the tests?");
  for (const std::string& key : Keys(redis, "strata:kv:*:h")) {
    auto h = redis.Command({"GET", key});
    ASSERT_TRUE(h);
    auto header = DecodeSharedHeader(std::string_view((*h)->str, (*h)->len));
    ASSERT_TRUE(header);
    header->identity.model = "another-model";
    ASSERT_TRUE(redis.Command({"SET", key, EncodeSharedHeader(*header)}));
  }
  RunningServer b(SharedOptions(redis, "kv-b"));
  auto c = b.Client();
  json r = Post(*c, "/v1/chat/completions", ChatBody("Where are the tests?"));
  EXPECT_EQ(Cached(r), 0u);
  EXPECT_EQ(Text(r), Text(cold));
  EXPECT_GE(Metric(b, "strata_shared_store_errors_total{reason=\"identity\"}"), 1);
}

TEST_F(SharedTierTest, AWrongPasswordServesFromPrefillAndIsCounted) {
  RedisServer redis({.password = "right"});
  ServeOptions o = Options();
  o.shared_store = "redis://:wrong@127.0.0.1:" + std::to_string(redis.port());
  RunningServer b(o);
  auto c = b.Client();
  int status = 0;
  json r = Post(*c, "/v1/chat/completions", ChatBody("Where are the tests?"), &status);
  EXPECT_EQ(status, 200);
  EXPECT_EQ(Cached(r), 0u);
  EXPECT_GE(Metric(b, "strata_shared_store_errors_total{reason=\"auth\"}"), 1);
  EXPECT_EQ(Metric(b, "strata_shared_store_published_total"), 0);
}

TEST_F(SharedTierTest, ABadSharedStoreUrlIsRefusedAtStart) {
  ServeOptions o = Options();
  o.shared_store = "http://127.0.0.1:6379";
  auto created = Server::Create(o);
  ASSERT_FALSE(created);
  EXPECT_EQ(created.error().kind, ErrorKind::kInvalidArgument);
}

}  // namespace
}  // namespace strata::testing
