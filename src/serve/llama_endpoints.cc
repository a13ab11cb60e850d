// llama_endpoints.cc: llama-server's own small endpoints with its request and response shapes
// (tools/server/README.md of the pinned llama.cpp): POST /tokenize, POST /detokenize,
// POST /apply-template, GET /props and GET /slots (read-only); the embedding endpoints are
// embeddings_endpoint.cc's. Errors use the OpenAI error shape, as llama-server's do.
#include <fmt/format.h>
#include <llama.h>

#include <algorithm>

#include "local/prompt_plan.h"
#include "serve/server_state.h"
#include "tokenize/llama_tokenize.h"
#include "wire/request_json.h"
#include "wire/serve_codec.h"

namespace strata::serve {
namespace {

using nlohmann::json;

void Reply(httplib::Response& res, const json& body) {
  res.set_content(body.dump(), "application/json");
}

std::string Piece(const llama_vocab* vocab, llama_token token) {
  char buf[256];
  const int n = llama_token_to_piece(vocab, token, buf, sizeof buf, 0, /*special=*/true);
  if (n >= 0) return std::string(buf, static_cast<size_t>(n));
  std::string big(static_cast<size_t>(-n), '\0');
  llama_token_to_piece(vocab, token, big.data(), static_cast<int32_t>(big.size()), 0, true);
  return big;
}

// A piece as llama-server shows it: the text when it is valid UTF-8, else its bytes.
json PieceJson(const std::string& piece) {
  json text = json(piece);
  try {
    (void)text.dump();
    return text;
  } catch (const json::type_error&) {
    json bytes = json::array();
    for (unsigned char b : piece) bytes.push_back(b);
    return bytes;
  }
}

ApiResult<json> Tokenize(const ServerState& s, const json& body) {
  JsonObjectReader r(body, "", {}, JsonStrictness::kStrict);
  std::string content;
  bool add_special = false, parse_special = true, with_pieces = false;
  STRATA_API_TRY(r.RequiredString("content", &content));
  STRATA_API_TRY(r.Bool("add_special", &add_special));
  STRATA_API_TRY(r.Bool("parse_special", &parse_special));
  STRATA_API_TRY(r.Bool("with_pieces", &with_pieces));
  STRATA_API_TRY(r.Finish());
  const llama_vocab* vocab = llama_model_get_vocab(LlamaModel(*s.model));
  auto tokens = LlamaTokenize(vocab, content, add_special, parse_special);
  if (!tokens) return BadRequest("content", tokens.error().message);
  json out = json::array();
  for (int32_t t : *tokens) {
    if (with_pieces) {
      out.push_back({{"id", t}, {"piece", PieceJson(Piece(vocab, t))}});
    } else {
      out.push_back(t);
    }
  }
  return json{{"tokens", out}};
}

ApiResult<json> Detokenize(const ServerState& s, const json& body) {
  JsonObjectReader r(body, "", {}, JsonStrictness::kStrict);
  STRATA_API_TRY_ASSIGN(const json* tokens, r.Array("tokens"));
  STRATA_API_TRY(r.Finish());
  const llama_vocab* vocab = llama_model_get_vocab(LlamaModel(*s.model));
  const int32_t n_vocab = llama_vocab_n_tokens(vocab);
  std::string content;
  for (size_t i = 0; tokens != nullptr && i < tokens->size(); ++i) {
    const json& t = (*tokens)[i];
    if (!t.is_number_integer() || t.get<int64_t>() < 0 || t.get<int64_t>() >= n_vocab)
      return BadRequest(fmt::format("tokens[{}]", i),
                        fmt::format("must be a token id from 0 to {}", n_vocab - 1));
    content += Piece(vocab, static_cast<llama_token>(t.get<int64_t>()));
  }
  return json{{"content", content}};
}

ApiResult<json> ApplyTemplate(const ServerState& s, const json& body) {
  auto request = ParseChatCompletions(body);
  if (!request) return tl::unexpected(request.error());
  auto plan = PlanPrompt(*s.chat_template, *request, s.thinking);
  if (!plan) return tl::unexpected(plan.error());
  return json{{"prompt", plan->prompt.text}};
}

json Props(const ServerState& s) {
  const ServeOptions& o = s.options;
  const json params = {{"n_predict", o.n_predict},
                       {"max_tokens", o.n_predict},
                       {"seed", o.seed < 0 ? 4294967295ll : o.seed},
                       {"temperature", o.temperature},
                       {"top_k", o.top_k},
                       {"top_p", o.top_p},
                       {"min_p", o.min_p},
                       {"repeat_last_n", o.repeat_last_n},
                       {"repeat_penalty", o.repeat_penalty},
                       {"presence_penalty", o.presence_penalty},
                       {"frequency_penalty", o.frequency_penalty},
                       {"stop", json::array()},
                       {"grammar", ""},
                       {"n_probs", 0}};
  return {{"default_generation_settings", {{"n_ctx", o.n_ctx}, {"params", params}}},
          {"total_slots", o.parallel},
          {"model_path", o.model.string()},
          {"chat_template", s.chat_template->source()},
          {"modalities", {{"vision", false}, {"audio", false}}},
          {"build_info", "strata serve"},
          {"is_sleeping", false}};
}

// llama-server's slot view (server_slot::to_json) as far as it applies: a live sequence has no
// task of its own between requests, so the members of the task (params, next_token, prompt) are
// left out; n_prompt_tokens is what its KV cache holds (the prompt reused by the next request
// that shares it).
json Slots(const ServerState& s) {
  json out = json::array();
  const LocalEngine& engine = s.pool->engine();
  for (int id = 0; id < s.pool->size(); ++id) {
    out.push_back({{"id", id},
                   {"n_ctx", engine.n_ctx_seq()},
                   {"speculative", false},
                   {"is_processing", s.pool->IsBusy(id)},
                   {"n_prompt_tokens", engine.Held(id).size()}});
  }
  return out;
}

void GetSlots(const ServerState& s, const httplib::Request& req, httplib::Response& res) {
  if (!s.options.slots_endpoint) {
    // llama-server's answer with --no-slots (ERROR_TYPE_NOT_SUPPORTED).
    res.status = 501;
    return Reply(
        res, {{"error",
               {{"code", 501},
                {"message", "This server does not support slots endpoint. Start it with `--slots`"},
                {"type", "not_supported_error"}}}});
  }
  json slots = Slots(s);
  if (req.has_param("fail_on_no_slot") &&
      std::all_of(slots.begin(), slots.end(), [](const json& v) { return v["is_processing"]; })) {
    res.status = 503;
    return Reply(
        res, {{"error",
               {{"code", 503}, {"message", "no slot available"}, {"type", "unavailable_error"}}}});
  }
  Reply(res, slots);
}

using Handler = ApiResult<json> (*)(const ServerState&, const json&);

void Post(ServerState& s, httplib::Server& http, const char* path, Handler handler) {
  http.Post(path, [&s, path, handler](const httplib::Request& req, httplib::Response& res) {
    auto body = ParseBody(req.body);
    auto out = body ? handler(s, *body) : ApiResult<json>(tl::unexpected(body.error()));
    if (!out) return SendError(s, path + 1, Api::kOpenAiChat, out.error(), res);
    Reply(res, *out);
  });
}

}  // namespace

void AddLlamaServerRoutes(ServerState& s, httplib::Server& http) {
  // One route, two shapes: llama-server's {"content": ...}, and strata's {"api", "request"} (the
  // prompt a whole request renders to; HandleTokenize).
  http.Post("/tokenize", [&s](const httplib::Request& req, httplib::Response& res) {
    auto body = ParseBody(req.body);
    if (body && body->is_object() && body->contains("request")) return HandleTokenize(s, req, res);
    auto out = body ? Tokenize(s, *body) : ApiResult<json>(tl::unexpected(body.error()));
    if (!out) return SendError(s, "tokenize", Api::kOpenAiChat, out.error(), res);
    Reply(res, *out);
  });
  Post(s, http, "/detokenize", Detokenize);
  Post(s, http, "/apply-template", ApplyTemplate);
  http.Get("/props",
           [&s](const httplib::Request&, httplib::Response& res) { Reply(res, Props(s)); });
  http.Get("/slots",
           [&s](const httplib::Request& req, httplib::Response& res) { GetSlots(s, req, res); });
  AddEmbeddingRoutes(s, http);
}

}  // namespace strata::serve
