// embeddings_endpoint.cc: llama-server's embedding endpoints (tools/server/server-context.cpp of
// the pinned source, handle_embeddings_impl): POST /v1/embeddings in OpenAI's shape, and
// POST /embedding and /embeddings in llama-server's own ({"index", "embedding": [[...]]} per
// input), served when the server runs with --embeddings (EmbeddingContext: the model's pooling or
// --pooling). Without --embeddings all three answer llama-server's 501, saying whether the model
// is an embedding model (its GGUF declares a pooling type) or a generation model.
#include <fmt/format.h>
#include <llama.h>
#include <openssl/evp.h>

#include <chrono>

#include "serve/server_state.h"
#include "wire/request_json.h"
#include "wire/request_members.h"

namespace strata::serve {
namespace {

using nlohmann::json;

std::string MetaValue(const llama_model* model, const std::string& key) {
  char buf[256];
  const int n = llama_model_meta_val_str(model, key.c_str(), buf, sizeof buf);
  return n < 0 ? "" : std::string(buf, static_cast<size_t>(std::min<int>(n, sizeof buf - 1)));
}

void Reply(httplib::Response& res, int status, const json& body) {
  res.status = status;
  res.set_content(body.dump(), "application/json");
}

void RefuseEmbeddings(const ServerState& s, httplib::Response& res) {
  const llama_model* model = LlamaModel(*s.model);
  const std::string arch = MetaValue(model, "general.architecture");
  const std::string pooling = MetaValue(model, arch + ".pooling_type");
  const std::string name = s.options.model.filename().string();
  const std::string message =
      pooling.empty()
          ? fmt::format(
                "This server does not support embeddings: {} is a generation model, not an "
                "embedding model (its GGUF declares no pooling type); start it with --embeddings "
                "to pool it anyway (with --pooling)",
                name)
          : fmt::format(
                "This server does not support embeddings. Start it with `--embeddings`: {} is an "
                "embedding model (pooling type {})",
                name, pooling);
  Reply(res, 501,
        {{"error", {{"code", 501}, {"message", message}, {"type", "not_supported_error"}}}});
}

// The floats' bytes in base64 (OpenAI's encoding_format "base64": little-endian float32).
std::string Base64(const std::vector<float>& v) {
  const size_t n = v.size() * sizeof(float);
  std::string out(4 * ((n + 2) / 3) + 1, '\0');  // EVP_EncodeBlock writes a NUL after the text
  const int written =
      EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                      reinterpret_cast<const unsigned char*>(v.data()), static_cast<int>(n));
  out.resize(static_cast<size_t>(written));
  return out;
}

using enum MemberRule;
// OpenAI's create-embedding members and llama-server's (content, embd_normalize).
constexpr MemberSpec kMembers[] = {
    {"input", kHonoured},
    {"content", kHonoured},
    {"model", kHonoured},
    {"encoding_format", kHonoured},
    {"embd_normalize", kHonoured},
    {"dimensions", kRefused, "the embedding has the model's size; it cannot be shortened"},
    {"user", kNoEffect, "an end-user id for the provider's abuse monitoring"},
};

struct EmbeddingRequest {
  std::vector<std::vector<int32_t>> inputs;  // tokenized, in order
  bool oai = true;                           // /v1/embeddings with `input`
  bool base64 = false;
  int normalize = 2;  // llama-server's default: Euclidean
  std::string model;
};

// One input: a string (tokenized with BOS, special tokens parsed, as llama-server does) or token
// ids.
ApiResult<std::vector<int32_t>> Input(const ServerState& s, const json& v,
                                      const std::string& path) {
  std::vector<int32_t> tokens;
  if (v.is_string()) {
    auto t = TokenizeText(*s.model, v.get<std::string>(), /*add_special=*/true);
    if (!t) return BadRequest(path, t.error().message);
    tokens = std::move(*t);
  } else if (v.is_array()) {
    const int32_t n_vocab = llama_vocab_n_tokens(llama_model_get_vocab(LlamaModel(*s.model)));
    for (size_t i = 0; i < v.size(); ++i) {
      if (!v[i].is_number_integer() || v[i].get<int64_t>() < 0 || v[i].get<int64_t>() >= n_vocab)
        return BadRequest(fmt::format("{}[{}]", path, i),
                          fmt::format("must be a token id from 0 to {}", n_vocab - 1));
      tokens.push_back(v[i].get<int32_t>());
    }
  } else {
    return BadRequest(path, "must be a string, token ids, or an array of these");
  }
  if (tokens.empty()) return BadRequest(path, "Input content cannot be empty");
  if (tokens.size() > s.embedder->n_ctx())
    return tl::unexpected(ApiError{
        413, "request_too_large",
        fmt::format("{} has {} tokens; the context holds {}: start the server with a larger --ctx",
                    path, tokens.size(), s.embedder->n_ctx()),
        path});
  return tokens;
}

ApiResult<EmbeddingRequest> ParseEmbedding(const ServerState& s, const json& body, bool oai) {
  EmbeddingRequest out;
  out.oai = oai;
  if (auto ok = CheckMembers(body, {kMembers}, "Embeddings", nullptr); !ok)
    return tl::unexpected(ok.error());
  JsonObjectReader r(body, "", {}, JsonStrictness::kLenient);
  STRATA_API_TRY(r.String("model", &out.model));
  const json* input = r.Raw("input");
  std::string path = "input";
  if (input == nullptr || input->is_null()) {
    input = r.Raw("content");
    path = "content";
    out.oai = false;  // llama-server: "content" is not OpenAI's
  }
  if (input == nullptr || input->is_null())
    return BadRequest("input", "\"input\" or \"content\" must be provided");
  std::string format = "float";
  STRATA_API_TRY(r.String("encoding_format", &format));
  if (format != "float" && format != "base64")
    return BadRequest("encoding_format", "must be float or base64");
  out.base64 = format == "base64";
  int64_t normalize = 2;
  if (Given(r, "embd_normalize")) STRATA_API_TRY(r.Int("embd_normalize", &normalize, -1, 1 << 20));
  out.normalize = static_cast<int>(normalize);
  const bool one = input->is_string() ||
                   (input->is_array() && !input->empty() && (*input)[0].is_number_integer());
  if (one) {
    auto tokens = Input(s, *input, path);
    if (!tokens) return tl::unexpected(tokens.error());
    out.inputs.push_back(std::move(*tokens));
  } else if (input->is_array() && !input->empty()) {
    for (size_t i = 0; i < input->size(); ++i) {
      auto tokens = Input(s, (*input)[i], fmt::format("{}[{}]", path, i));
      if (!tokens) return tl::unexpected(tokens.error());
      out.inputs.push_back(std::move(*tokens));
    }
  } else {
    return BadRequest(path, "must be a string, token ids, or a non-empty array of these");
  }
  if (out.oai && !s.embedder->pooled())
    return BadRequest("input",
                      "Pooling type 'none' is not OAI compatible. Please use a different pooling "
                      "type (--pooling), or /embedding for every token's vector");
  return out;
}

ApiResult<json> Embeddings(ServerState& s, const json& body, bool oai, size_t* n_tokens) {
  auto parsed = ParseEmbedding(s, body, oai);
  if (!parsed) return tl::unexpected(parsed.error());
  EmbeddingRequest& request = *parsed;
  json data = json::array();
  for (size_t i = 0; i < request.inputs.size(); ++i) {
    auto embedding = s.embedder->Embed(request.inputs[i], request.normalize);
    if (!embedding)
      return tl::unexpected(ApiError{500, "api_error", embedding.error().message, ""});
    *n_tokens += request.inputs[i].size();
    if (!request.oai) {
      data.push_back({{"index", i}, {"embedding", *embedding}});
    } else if (request.base64) {
      data.push_back({{"embedding", Base64(embedding->front())},
                      {"index", i},
                      {"object", "embedding"},
                      {"encoding_format", "base64"}});
    } else {
      data.push_back({{"embedding", embedding->front()}, {"index", i}, {"object", "embedding"}});
    }
  }
  if (!request.oai) return data;
  return json{{"model", request.model.empty() ? s.model_id : request.model},
              {"object", "list"},
              {"usage", {{"prompt_tokens", *n_tokens}, {"total_tokens", *n_tokens}}},
              {"data", std::move(data)}};
}

}  // namespace

void AddEmbeddingRoutes(ServerState& s, httplib::Server& http) {
  for (const char* path : {"/v1/embeddings", "/embeddings", "/embedding"}) {
    const bool oai = std::string_view(path) == "/v1/embeddings";
    http.Post(path, [&s, oai](const httplib::Request& req, httplib::Response& res) {
      if (!s.embedder) return RefuseEmbeddings(s, res);
      const auto started = std::chrono::steady_clock::now();
      size_t n_tokens = 0;
      auto body = ParseBody(req.body);
      auto out = body ? Embeddings(s, *body, oai, &n_tokens)
                      : ApiResult<json>(tl::unexpected(body.error()));
      const int status = out ? 200 : out.error().status;
      s.metrics.CountRequest("embeddings", status);
      if (s.options.log) {
        s.options.log(fmt::format(
            "serve: api=embeddings status={} {} prompt={} total_ms={:.1f}", status,
            out ? "ok" : "error=" + out.error().message, n_tokens,
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
                .count()));
      }
      if (!out) return SendError(ServeCodecFor(Api::kOpenAiChat), out.error(), res);
      Reply(res, 200, *out);
    });
  }
}

}  // namespace strata::serve
