// partial_restore_slow_test.cc: after a restart only the store's checkpoints are left; a request
// that shares only the first K tokens of a longer stored checkpoint (an earlier request diverged
// after them) restores that checkpoint and cuts it back to K tokens (prefix_engine.h,
// PartialRestorePays), for a share shorter than one index block and for a long one, and its
// greedy reply equals a cold prefill's; when prefilling the shared part is cheaper, the request
// prefills and the log line and /metrics say so. Generated models, scratch store.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>

#include "local/prefix_engine.h"
#include "serve/serve_fixture.h"

namespace strata::testing {
namespace {

using nlohmann::json;

class PartialRestoreTest : public ServeTest {
 protected:
  // A chat request whose system text is `system` (no tools: the system cut is the system text).
  static json Body(const std::string& system, const std::string& user) {
    json b = ChatBody(user, system);
    b.erase("tools");
    return b;
  }
  // The prompt tokens the server renders `body` to (POST /tokenize).
  static std::vector<int32_t> Tokens(httplib::Client& c, const json& body) {
    const json r = Post(c, "/tokenize", {{"api", "chat.completions"}, {"request", body}});
    return r["tokens"].get<std::vector<int32_t>>();
  }
  static size_t Lcp(const std::vector<int32_t>& a, const std::vector<int32_t>& b) {
    size_t i = 0;
    while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
    return i;
  }
  static size_t Cached(const json& r) {
    return r["usage"]["prompt_tokens_details"]["cached_tokens"];
  }
  static std::string Text(const json& r) {
    const json& c = r["choices"][0]["message"]["content"];
    return c.is_string() ? c.get<std::string>() : "";
  }
  static std::string Metrics(httplib::Client& c) {
    auto m = c.Get("/metrics");
    return m ? m->body : "";
  }

  // Stores A's checkpoints (its system cut and whole prompt) on a server that then stops; sends
  // B to a new server on the same store, then to one on an empty store (the cold run). Returns
  // {shared K, B's reply after the restart, the cold reply, that server's log, its /metrics}.
  struct Run {
    size_t shared = 0, prompt = 0;
    json warm, cold;
    std::vector<std::string> log;
    std::string metrics;
  };
  Run RestartWith(const json& a, const json& b, const std::filesystem::path& model = {}) {
    Run run;
    ServeOptions o = Options();
    o.n_ctx = 2048;
    if (!model.empty()) o.model = model;
    {
      RunningServer server(o);
      auto c = server.Client();
      const json first = Post(*c, "/v1/chat/completions", a);
      EXPECT_EQ(Cached(first), 0u) << first.dump();
      run.shared = Lcp(Tokens(*c, a), Tokens(*c, b));
      run.prompt = Tokens(*c, b).size();
    }  // stopping writes the queued checkpoints
    {
      RunningServer server(o);
      auto c = server.Client();
      run.warm = Post(*c, "/v1/chat/completions", b);
      run.metrics = Metrics(*c);
      run.log = server.log();
    }
    ServeOptions fresh = o;
    fresh.store_dir = tmp_.path() / "cold-kv";
    RunningServer server(fresh);
    auto c = server.Client();
    run.cold = Post(*c, "/v1/chat/completions", b);
    EXPECT_EQ(Cached(run.cold), 0u);
    return run;
  }
};

std::string Sentences(const std::string& topic, int n) {
  std::string out;
  for (int i = 0; i < n; ++i)
    out += " Rule " + std::to_string(i) + " about " + topic + ": keep the change small and tested.";
  return out;
}

// B's system text differs from A's from its first word: the shared part (BOS and the template's
// system header) is shorter than one 16-token index block, and A's checkpoints are small enough
// that restoring one pays (at most 256 KiB per shared token: the tiny model's KV state is 256
// bytes per token).
TEST_F(PartialRestoreTest, AShareShorterThanABlockRestoresAndCutsBackAfterARestart) {
  const json a = Body("You are a coding agent. Answer briefly.", "Where are the tests?");
  const json b = Body("Review patches. Be strict.", "Where are the tests?");
  const Run run = RestartWith(a, b);
  ASSERT_GT(run.shared, 0u);
  ASSERT_LT(run.shared, serve::kBlockTokens);
  EXPECT_EQ(Cached(run.warm), run.shared) << run.warm.dump();
  EXPECT_EQ(run.warm["usage"]["prompt_tokens"].get<size_t>(), run.prompt);
  EXPECT_EQ(Text(run.warm), Text(run.cold));
  EXPECT_EQ(run.warm["usage"]["completion_tokens"], run.cold["usage"]["completion_tokens"]);
  ASSERT_EQ(run.log.size(), 1u);
  EXPECT_NE(run.log[0].find(fmt::format(" restored={} ", run.shared)), std::string::npos)
      << run.log[0];
  EXPECT_NE(run.log[0].find(fmt::format(" partial=restored partial_shared={} ", run.shared)),
            std::string::npos)
      << run.log[0];
  EXPECT_NE(run.metrics.find("strata_partial_restores_total{outcome=\"restored\"} 1"),
            std::string::npos)
      << run.metrics;
}

// A long system text; B's diverges after ~300 of its tokens, before A's system cut: the
// checkpoints of A are not prefixes of B, and both share those tokens.
TEST_F(PartialRestoreTest, ALongShareOfALongerCheckpointRestoresAndCutsBackAfterARestart) {
  const std::string common = "You are a coding agent." + Sentences("the project", 20);
  const json a = Body(common + " Then reply in English.", "Where are the tests?");
  const json b = Body(common + " Finally cite files.", "Rename the helper please.");
  const Run run = RestartWith(a, b);
  ASSERT_GT(run.shared, 200u);
  EXPECT_EQ(Cached(run.warm), run.shared) << run.warm.dump();
  EXPECT_EQ(Text(run.warm), Text(run.cold));
  EXPECT_EQ(run.warm["usage"]["completion_tokens"], run.cold["usage"]["completion_tokens"]);
  ASSERT_EQ(run.log.size(), 1u);
  EXPECT_NE(run.log[0].find(fmt::format(" partial=restored partial_shared={} ", run.shared)),
            std::string::npos)
      << run.log[0];
}

// A's checkpoints hold a long system text; B shares only the first few tokens. On a model whose
// KV state takes 16 KiB per token (16 layers of 256 f16 keys and values), A's shortest file is
// larger than 256 KiB per shared token: restoring it costs more than prefilling the share, so B
// prefills, and the log line and /metrics report the fallback with its counts.
TEST_F(PartialRestoreTest, AShareTooShortForTheCheckpointIsPrefilledAndReported) {
  TestModelOptions wide;
  wide.vocab_path = VocabPath();
  wide.n_embd = 256;
  wide.n_head = 4;
  wide.n_head_kv = 4;
  wide.n_layer = 16;
  wide.n_ff = 256;
  wide.f16 = true;
  const std::filesystem::path model = tmp_.path() / "wide.gguf";
  ASSERT_TRUE(WriteTestModel(wide, model));
  const json a = Body("You are a coding agent." + Sentences("the project", 30), "Hi.");
  const json b = Body("Review patches. Be strict.", "Where are the tests?");
  const Run run = RestartWith(a, b, model);
  ASSERT_GT(run.shared, 0u);
  EXPECT_EQ(Cached(run.warm), 0u) << run.warm.dump();
  EXPECT_EQ(Text(run.warm), Text(run.cold));
  ASSERT_EQ(run.log.size(), 1u);
  // The shortest of A's checkpoints (its system cut) is the one weighed: over 256 KiB per shared
  // token.
  const std::string& line = run.log[0];
  const std::string field =
      fmt::format(" partial=cost partial_shared={} partial_checkpoint=", run.shared);
  const size_t at = line.find(field);
  ASSERT_NE(at, std::string::npos) << line;
  const size_t bytes_at = line.find(" partial_bytes=", at);
  ASSERT_NE(bytes_at, std::string::npos) << line;
  const uint64_t bytes = std::stoull(line.substr(bytes_at + 15));
  EXPECT_GT(bytes, 256u * 1024u * run.shared) << line;
  EXPECT_NE(line.find(" restored=0 "), std::string::npos) << line;
  EXPECT_NE(run.metrics.find("strata_partial_restores_total{outcome=\"cost\"} 1"),
            std::string::npos)
      << run.metrics;
  EXPECT_NE(run.metrics.find("strata_partial_restores_total{outcome=\"restored\"} 0"),
            std::string::npos)
      << run.metrics;
}

// The rule itself, from its statement: file bytes <= shared x 256 KiB; an unknown size never pays.
TEST(PartialRestoreRule, RestoresWhenTheFileIsAtMost256KiBPerSharedToken) {
  EXPECT_TRUE(serve::PartialRestorePays(12, 12 * 262144));
  EXPECT_FALSE(serve::PartialRestorePays(12, 12 * 262144 + 1));
  EXPECT_TRUE(serve::PartialRestorePays(3000, 100'000'000));
  EXPECT_FALSE(serve::PartialRestorePays(1, 300'000));
  EXPECT_FALSE(serve::PartialRestorePays(0, 10));
  EXPECT_FALSE(serve::PartialRestorePays(500, 0));
}

}  // namespace
}  // namespace strata::testing
