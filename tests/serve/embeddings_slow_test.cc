// embeddings_slow_test.cc: strata serve --embeddings on a generated embedding model (the tiny
// llama model with llama.pooling_type = 1, mean), in llama-server's shapes:
//   - /v1/embeddings (OpenAI): one Euclidean-normalised vector of the model's width per input,
//     in input order, usage = the inputs' tokens (BOS included), base64 = the same floats;
//   - /embedding (llama-server's): [{"index", "embedding": [[...]]}];
//   - mean pooling is the mean of the per-token vectors that --pooling none returns, normalised;
//   - embd_normalize -1 leaves the pooled vector unnormalised;
//   - pooling none is refused on /v1/embeddings (llama-server's 400); without --embeddings, 501.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "serve/serve_fixture.h"

namespace strata::testing {
namespace {

using nlohmann::json;

double Norm(const std::vector<float>& v) {
  double s = 0;
  for (float x : v) s += static_cast<double>(x) * x;
  return std::sqrt(s);
}

std::vector<float> FromBase64(const std::string& text) {
  auto value = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    return c == '+' ? 62 : c == '/' ? 63 : -1;
  };
  std::string bytes;
  int bits = 0, acc = 0;
  for (char c : text) {
    const int v = value(c);
    if (v < 0) break;
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes += static_cast<char>((acc >> bits) & 0xFF);
    }
  }
  std::vector<float> out(bytes.size() / sizeof(float));
  std::memcpy(out.data(), bytes.data(), out.size() * sizeof(float));
  return out;
}

class EmbeddingsTest : public ServeTest {
 protected:
  ServeOptions Embedding(const std::string& pooling = "") const {
    ServeOptions o = Options();
    o.model = EmbeddingModelPath();
    o.embeddings = true;
    o.pooling = pooling;
    return o;
  }
};

TEST_F(EmbeddingsTest, OpenAiEmbeddingsAreNormalisedVectorsPerInput) {
  RunningServer server(Embedding());
  auto c = server.Client();
  int status = 0;
  json one = Post(*c, "/v1/embeddings", {{"input", "hello world"}, {"model", "m"}}, &status);
  ASSERT_EQ(status, 200) << one.dump();
  EXPECT_EQ(one["object"], "list");
  EXPECT_EQ(one["model"], "m");
  ASSERT_EQ(one["data"].size(), 1u);
  EXPECT_EQ(one["data"][0]["object"], "embedding");
  EXPECT_EQ(one["data"][0]["index"], 0);
  const std::vector<float> v = one["data"][0]["embedding"].get<std::vector<float>>();
  EXPECT_EQ(v.size(), 64u);  // the model's n_embd
  EXPECT_NEAR(Norm(v), 1.0, 1e-5);
  // usage: the input's tokens as llama-server tokenizes it (BOS added, special tokens parsed).
  json tokens = Post(*c, "/tokenize", {{"content", "hello world"}, {"add_special", true}});
  EXPECT_EQ(one["usage"]["prompt_tokens"], tokens["tokens"].size());
  EXPECT_EQ(one["usage"]["total_tokens"], tokens["tokens"].size());

  // Several inputs keep their order; token ids are an input too.
  json many = Post(*c, "/v1/embeddings",
                   {{"input", {"other text", "hello world", tokens["tokens"]}}}, &status);
  ASSERT_EQ(status, 200) << many.dump();
  ASSERT_EQ(many["data"].size(), 3u);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(many["data"][i]["index"], i);
  const auto second = many["data"][1]["embedding"].get<std::vector<float>>();
  const auto third = many["data"][2]["embedding"].get<std::vector<float>>();
  const auto first = many["data"][0]["embedding"].get<std::vector<float>>();
  for (size_t i = 0; i < v.size(); ++i) {
    EXPECT_NEAR(second[i], v[i], 1e-5);
    EXPECT_NEAR(third[i], v[i], 1e-5);
  }
  EXPECT_GT(std::abs(first[0] - v[0]) + std::abs(first[1] - v[1]), 1e-6);

  // base64: the same little-endian floats.
  json b64 = Post(*c, "/v1/embeddings", {{"input", "hello world"}, {"encoding_format", "base64"}});
  EXPECT_EQ(b64["data"][0]["encoding_format"], "base64");
  const std::vector<float> decoded = FromBase64(b64["data"][0]["embedding"].get<std::string>());
  ASSERT_EQ(decoded.size(), v.size());
  for (size_t i = 0; i < v.size(); ++i) EXPECT_FLOAT_EQ(decoded[i], v[i]);

  // llama-server's /embedding: its own shape, one pooled vector per input.
  json native = Post(*c, "/embedding", {{"content", "hello world"}}, &status);
  ASSERT_EQ(status, 200) << native.dump();
  ASSERT_TRUE(native.is_array());
  EXPECT_EQ(native[0]["index"], 0);
  ASSERT_EQ(native[0]["embedding"].size(), 1u);
  EXPECT_EQ(native[0]["embedding"][0].get<std::vector<float>>(), v);

  // embd_normalize -1: the raw mean, which normalised is the default answer.
  json raw = Post(*c, "/v1/embeddings", {{"input", "hello world"}, {"embd_normalize", -1}});
  const auto r = raw["data"][0]["embedding"].get<std::vector<float>>();
  const double n = Norm(r);
  EXPECT_GT(std::abs(n - 1.0), 1e-3);
  for (size_t i = 0; i < v.size(); ++i) EXPECT_NEAR(r[i] / n, v[i], 1e-5);

  // Members outside the table, and empty inputs, are 400 naming them.
  Post(*c, "/v1/embeddings", {{"input", "x"}, {"dimensions", 8}}, &status);
  EXPECT_EQ(status, 400);
  Post(*c, "/v1/embeddings", {{"input", json::array()}}, &status);
  EXPECT_EQ(status, 400);
  // Generation still works beside the embeddings.
  Post(*c, "/completion", {{"prompt", "hi"}, {"n_predict", 2}}, &status);
  EXPECT_EQ(status, 200);
}

TEST_F(EmbeddingsTest, MeanPoolingIsTheMeanOfThePerTokenVectors) {
  std::vector<std::vector<float>> per_token;
  {
    RunningServer server(Embedding("none"));
    auto c = server.Client();
    int status = 0;
    // llama-server refuses pooling none on the OpenAI endpoint.
    json refused = Post(*c, "/v1/embeddings", {{"input", "hello world"}}, &status);
    EXPECT_EQ(status, 400);
    EXPECT_NE(refused["error"]["message"].get<std::string>().find("not OAI compatible"),
              std::string::npos)
        << refused.dump();
    json r = Post(*c, "/embedding", {{"content", "hello world"}}, &status);
    ASSERT_EQ(status, 200) << r.dump();
    per_token = r[0]["embedding"].get<std::vector<std::vector<float>>>();
  }
  RunningServer server(Embedding());  // the model's own: mean
  auto c = server.Client();
  json tokens = Post(*c, "/tokenize", {{"content", "hello world"}, {"add_special", true}});
  ASSERT_EQ(per_token.size(), tokens["tokens"].size());
  std::vector<double> mean(per_token[0].size(), 0.0);
  for (const auto& t : per_token)
    for (size_t i = 0; i < t.size(); ++i) mean[i] += t[i] / static_cast<double>(per_token.size());
  double norm = 0;
  for (double x : mean) norm += x * x;
  norm = std::sqrt(norm);
  json pooled = Post(*c, "/v1/embeddings", {{"input", "hello world"}});
  const auto v = pooled["data"][0]["embedding"].get<std::vector<float>>();
  ASSERT_EQ(v.size(), mean.size());
  for (size_t i = 0; i < v.size(); ++i) EXPECT_NEAR(v[i], mean[i] / norm, 1e-4) << i;
}

TEST_F(EmbeddingsTest, WithoutTheFlagAnEmbeddingModelIsRefusedNamingIt) {
  ServeOptions o = Embedding();
  o.embeddings = false;
  RunningServer server(o);
  auto c = server.Client();
  int status = 0;
  json r = Post(*c, "/v1/embeddings", {{"input", "hello"}}, &status);
  EXPECT_EQ(status, 501);
  EXPECT_EQ(r["error"]["type"], "not_supported_error");
  EXPECT_NE(r["error"]["message"].get<std::string>().find("Start it with `--embeddings`"),
            std::string::npos)
      << r.dump();
}

}  // namespace
}  // namespace strata::testing
