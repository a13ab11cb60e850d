// server.cc: strata serve's start (model, template, store, index rebuilt from the checkpoint
// headers, live sequences), its HTTP server (cpp-httplib: body limit, read/write timeouts, a
// thread per waiting request up to the queue bound), API-key check, and the small endpoints
// (/health, /v1/models, /metrics, count_tokens). See include/strata/serve.h.
#include <fmt/format.h>
#include <strings.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

#include "base/hash.h"
#include "local/prompt_plan.h"
#include "serve/connection_guard.h"
#include "serve/request_limits.h"
#include "serve/serve_options.h"
#include "serve/server_state.h"
#include "tokenize/llama_tokenize.h"
#include "wire/reply_writer.h"
#include "wire/request_json.h"
#include "wire/serve_codec.h"

namespace strata {

using serve::Api;
using serve::ApiError;
using serve::ServerState;

struct Server::Impl {
  ServerState state;
  std::unique_ptr<serve::GuardedServer> http;  // made once the options are known
  std::atomic<bool> bound{false};              // the port is bound: Run is about to listen
  std::atomic<bool> listened{false};           // Run's listen ended
};

namespace serve {

ApiResult<ServeRequest> ParseRequest(Api api, std::string_view body,
                                     const ClientTextOptions& client_text) {
  auto json = ParseBody(body);
  if (!json) return tl::unexpected(json.error());
  return ServeCodecFor(api).parse(*json, client_text);
}

void SendError(const ServeCodec& codec, const ApiError& error, httplib::Response& res) {
  res.status = error.status;
  // replace: a message quoting bytes that are not UTF-8 must still make an answer, never a throw.
  res.set_content(
      codec.error_body(error).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace),
      "application/json");
}

void SendError(ServerState& state, std::string_view endpoint, Api api, const ApiError& error,
               httplib::Response& res) {
  SendError(ServeCodecFor(api), error, res);
  state.metrics.CountRequest(std::string(endpoint), error.status);
  if (state.options.log)
    state.options.log(
        fmt::format("serve: api={} status={} error={}", endpoint, error.status, error.message));
}

void HandleCountTokens(ServerState& state, const httplib::Request& req, httplib::Response& res) {
  auto json = ParseBody(req.body);
  auto parsed = json ? ParseMessages(*json, /*count_tokens=*/true, ClientTextOf(state.options))
                     : ApiResult<ServeRequest>(tl::unexpected(json.error()));
  if (parsed) {
    auto fits = CheckPromptBytes(LeastPromptBytes(*parsed), state.max_token_bytes,
                                 state.shared.engine.n_ctx);
    if (!fits) parsed = tl::unexpected(fits.error());
  }
  ApiResult<PromptPlan> plan = parsed ? PlanPrompt(*state.chat_template, *parsed, state.thinking)
                                      : ApiResult<PromptPlan>(tl::unexpected(parsed.error()));
  if (plan) {
    auto fits = CheckPromptBytes(plan->prompt.text.size(), state.max_token_bytes,
                                 state.shared.engine.n_ctx);
    if (!fits) plan = tl::unexpected(fits.error());
  }
  if (!plan) {
    SendError(ServeCodecFor(Api::kAnthropicMessages), plan.error(), res);
    state.metrics.CountRequest(ApiName(Api::kAnthropicMessages), plan.error().status);
    if (state.options.log)
      state.options.log(fmt::format("serve: api={} count_tokens status={} error={}",
                                    ApiName(Api::kAnthropicMessages), plan.error().status,
                                    plan.error().message));
    return;
  }
  auto tokens = TokenizeText(*state.model, plan->prompt.text, true);
  const size_t n = tokens ? tokens->size() : 0;
  res.set_content(nlohmann::json{{"input_tokens", n}}.dump(), "application/json");
}

// POST /tokenize: {"api": "messages" | "chat.completions" | "responses", "request": {...}} ->
// {"tokens": [...]}, the prompt the request renders to as this server tokenizes it (tests and
// tools compute shared prefixes with it).
void HandleTokenize(ServerState& state, const httplib::Request& req, httplib::Response& res) {
  auto json = ParseBody(req.body);
  if (!json) return SendError(state, "tokenize", Api::kOpenAiChat, json.error(), res);
  const std::string api_name = json->is_object() ? json->value("api", "") : "";
  std::optional<Api> api;
  for (const ServeCodec* codec : AllServeCodecs())
    if (api_name == codec->name) api = codec->api;
  if (!api || !json->contains("request"))
    return SendError(state, "tokenize", Api::kOpenAiChat,
                     BadRequest("api",
                                "must be one of chat.completions, responses, messages, "
                                "beside a 'request' object")
                         .value(),
                     res);
  auto parsed = ParseRequest(*api, (*json)["request"].dump(), ClientTextOf(state.options));
  ApiResult<PromptPlan> plan = parsed ? PlanPrompt(*state.chat_template, *parsed, state.thinking)
                                      : ApiResult<PromptPlan>(tl::unexpected(parsed.error()));
  if (!plan) return SendError(state, "tokenize", *api, plan.error(), res);
  auto tokens = TokenizeText(*state.model, plan->prompt.text, true);
  if (!tokens)
    return SendError(state, "tokenize", *api,
                     ApiError{500, "api_error", tokens.error().message, ""}, res);
  res.set_content(nlohmann::json{{"tokens", *tokens}}.dump(), "application/json");
}

}  // namespace serve

namespace {

bool Authorized(const ServerState& state, const httplib::Request& req) {
  const std::string& key = state.options.api_key;
  if (key.empty() || req.path == "/health") return true;
  // The auth scheme is case-insensitive (RFC 9110 section 11.1): "bearer KEY" is as good.
  const std::string auth = req.get_header_value("Authorization");
  constexpr std::string_view kBearer = "bearer ";
  const bool bearer = auth.size() == kBearer.size() + key.size() &&
                      strncasecmp(auth.c_str(), kBearer.data(), kBearer.size()) == 0 &&
                      auth.compare(kBearer.size(), std::string::npos, key) == 0;
  return bearer || req.get_header_value("x-api-key") == key;
}

Result<std::string> ReadTemplateFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return MakeError(ErrorKind::kNotFound,
                     fmt::format("{}: cannot read the chat template file", path.string()));
  }
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Checkpoint images waiting for the background writer beyond this make the next one wait.
constexpr uint64_t kMaxQueuedCheckpointBytes = 1ull << 30;

Status Load(ServerState& s) {
  CheckpointStoreOptions store;
  store.dir = s.options.store_dir.empty() ? DefaultCheckpointDir() : s.options.store_dir;
  store.byte_budget = s.options.store_budget;
  STRATA_TRY_ASSIGN(s.store, CheckpointStore::Open(store));
  STRATA_TRY_ASSIGN(s.model, LocalModel::Load(s.options.model, s.store->dir(), s.options.gpu_layers,
                                              {s.options.load_mode}));
  if (!s.model->offload().empty()) s.options.log("serve: offloaded " + s.model->offload());
  s.model_id = s.options.alias.empty() ? s.options.model.stem().string() : s.options.alias;
  std::string source;
  if (!s.options.chat_template_file.empty()) {
    STRATA_TRY_ASSIGN(source, ReadTemplateFile(s.options.chat_template_file));
  } else {
    source = s.options.chat_template;
  }
  STRATA_TRY_ASSIGN(s.chat_template, ConversationTemplate::Make(LlamaModel(*s.model), source));
  s.shared.model = s.model.get();
  s.shared.engine.n_ctx = s.options.n_ctx;
  s.shared.engine.n_threads = s.options.n_threads;
  s.shared.engine.n_threads_batch = s.options.n_threads_batch;
  s.shared.engine.type_k = s.options.cache_type_k;
  s.shared.engine.type_v = s.options.cache_type_v;
  s.shared.engine.flash_attn = s.options.flash_attn;
  s.shared.engine.n_batch = s.options.n_batch;
  s.shared.engine.n_ubatch = s.options.n_ubatch;
  s.shared.store = s.store.get();
  s.shared.index = &s.index;
  s.shared.metrics = &s.metrics;
  s.writer = std::make_unique<serve::CheckpointWriter>(s.store.get(), &s.index, &s.metrics,
                                                       kMaxQueuedCheckpointBytes);
  s.shared.writer = s.writer.get();
  s.shared.template_digest = Sha256Hex(s.chat_template->source());
  s.thinking.enable = s.chat_template->supports_thinking();
  s.thinking.extract = s.options.reasoning_format != "none";
  // The identity's reasoning mode, as strata chat names it: the template renders with thinking.
  s.shared.reasoning_mode = s.thinking.enable ? "on" : "off";
  s.max_token_bytes = MaxTokenBytes(LlamaModel(*s.model));
  STRATA_TRY_ASSIGN(s.tier, serve::OpenSharedTier(s.options));
  s.shared.tier = s.tier.get();
  serve::RebuildIndex(s.shared);
  if (s.options.embeddings) {
    STRATA_TRY_ASSIGN(s.embedder,
                      EmbeddingContext::Create(*s.model, s.options.n_ctx, s.options.n_threads,
                                               s.options.flash_attn, s.options.pooling));
  }
  STRATA_TRY_ASSIGN(s.pool, serve::SequencePool::Create(*s.model, s.shared.engine,
                                                        s.options.parallel, s.options.max_queue));
  return {};
}

void Json(httplib::Response& res, const nlohmann::json& body) {
  res.set_content(body.dump(), "application/json");
}

void Routes(ServerState& s, serve::GuardedServer& http) {
  http.Get("/health", [](const httplib::Request&, httplib::Response& res) {
    Json(res, {{"status", "ok"}});
  });
  http.Get("/v1/models", [&s](const httplib::Request&, httplib::Response& res) {
    Json(res, {{"object", "list"},
               {"data", nlohmann::json::array({{{"id", s.model_id},
                                                {"object", "model"},
                                                {"created", 0},
                                                {"owned_by", "strata"}}})}});
  });
  http.Get("/metrics", [&s, &http](const httplib::Request&, httplib::Response& res) {
    const EngineCounters e = s.pool->engine().counters();
    serve::PoolGauges g{
        s.pool->size(),  s.pool->busy(), s.pool->waiting(),        s.store->List().total_bytes,
        s.index.size(),  e.decode_calls, e.multi_sequence_decodes, e.copied_tokens,
        e.decoded_tokens};
    res.set_content(s.metrics.Render(g) + serve::RenderSharedTier(s.tier.get()) +
                        http.connections().RenderMetrics(),
                    "text/plain; version=0.0.4");
  });
  std::vector<const serve::ServeCodec*> codecs(serve::AllServeCodecs().begin(),
                                               serve::AllServeCodecs().end());
  codecs.insert(codecs.end(), serve::RawPromptServeCodecs().begin(),
                serve::RawPromptServeCodecs().end());
  for (const serve::ServeCodec* codec : codecs) {
    for (const char* route : codec->routes) {
      http.Post(route, [&s, &http, codec](const httplib::Request& req, httplib::Response& res) {
        http.connections().MarkBusy(req.remote_addr, req.remote_port);
        serve::HandleGenerate(s, *codec, req, res);
      });
    }
  }
  http.Post("/v1/messages/count_tokens",
            [&s, &http](const httplib::Request& req, httplib::Response& res) {
              http.connections().MarkBusy(req.remote_addr, req.remote_port);
              serve::HandleCountTokens(s, req, res);
            });
  serve::AddLlamaServerRoutes(s, http);
}

// The declared body length when it exceeds `max` (a length that does not parse is httplib's to
// refuse); 0 otherwise.
uint64_t DeclaredLengthOver(const httplib::Request& req, size_t max) {
  const std::string declared = req.get_header_value("Content-Length");
  if (declared.empty()) return 0;
  errno = 0;
  char* end = nullptr;
  const unsigned long long n = std::strtoull(declared.c_str(), &end, 10);
  if (end == declared.c_str()) return 0;
  if (errno == ERANGE) return UINT64_MAX;
  return n > max ? n : 0;
}

// Before the body is read: the API key, then the declared length (413 at once, not after reading
// or skipping what was declared). A refused request's body is never read, so its connection closes
// once the answer is out.
void Guards(ServerState& s, serve::GuardedServer& http) {
  http.set_pre_routing_handler([&s, &http](const httplib::Request& req, httplib::Response& res) {
    const Api api = serve::ApiOfPath(req.path);
    serve::ApiError error;
    if (!Authorized(s, req)) {
      error = {401, "authentication_error",
               "missing or wrong API key: send it as 'Authorization: Bearer KEY' or "
               "'x-api-key: KEY'",
               ""};
    } else if (uint64_t declared = DeclaredLengthOver(req, s.options.max_body_bytes)) {
      error = {413, "request_too_large",
               fmt::format("the body ({} bytes, its Content-Length) exceeds the {} bytes "
                           "accepted: send a shorter conversation",
                           declared, s.options.max_body_bytes),
               ""};
    } else {
      return httplib::Server::HandlerResponse::Unhandled;
    }
    serve::SendError(serve::ServeCodecFor(api), error, res);
    if (req.has_header("Content-Length") || req.has_header("Transfer-Encoding")) {
      res.set_header("Connection", "close");  // its body stays unread
      http.connections().CloseAfterResponse(req.remote_addr, req.remote_port);
    }
    s.metrics.CountRequest(serve::ApiName(api), error.status);
    if (error.status != 401 && s.options.log)
      s.options.log(fmt::format("serve: api={} status={} error={}", serve::ApiName(api),
                                error.status, error.message));
    return httplib::Server::HandlerResponse::Handled;
  });
  http.set_error_handler([&s](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty()) return;
    ApiError e{res.status, res.status == 413 ? "request_too_large" : "not_found_error",
               res.status == 413
                   ? fmt::format("the body exceeds {} bytes", s.options.max_body_bytes)
                   : fmt::format("{} {}: no such endpoint", req.method, req.path),
               ""};
    if (res.status != 404 && res.status != 413)
      e = {res.status, "invalid_request_error", "bad request", ""};
    serve::SendError(serve::ServeCodecFor(serve::ApiOfPath(req.path)), e, res);
  });
}

}  // namespace

Server::Server(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Server::~Server() { Stop(); }

Result<std::unique_ptr<Server>> Server::Create(ServeOptions options) {
  STRATA_TRY(serve::CheckServeOptions(options));
  if (options.max_connections_per_client < 1 ||
      options.max_connections <= options.parallel + options.max_queue || options.read_timeout_s < 1)
    return MakeError(ErrorKind::kInvalidArgument,
                     fmt::format("--max-connections {} must exceed --parallel + --max-queue "
                                 "({}: room for /health and newcomers); "
                                 "--max-connections-per-client and --timeout must be at least 1",
                                 options.max_connections, options.parallel + options.max_queue));
  auto impl = std::make_unique<Impl>();
  impl->http = std::make_unique<serve::GuardedServer>(serve::ConnectionLimits{
      options.read_timeout_s, options.write_timeout_s, /*keep_alive_timeout_s=*/5,
      options.max_connections, options.max_connections_per_client});
  if (!options.log)
    options.log = [](std::string_view line) {
      std::fprintf(stderr, "%.*s\n", static_cast<int>(line.size()), line.data());
    };
  if (std::string warning = serve::GpuLayersWarning(options); !warning.empty())
    options.log(warning);
  impl->state.options = std::move(options);
  STRATA_TRY(Load(impl->state));
  return std::unique_ptr<Server>(new Server(std::move(impl)));
}

Status Server::Run(const std::function<void(int port)>& on_ready) {
  ServerState& s = impl_->state;
  serve::GuardedServer& http = *impl_->http;
  // Read and write timeouts, and the thread per connection: serve::GuardedServer.
  http.set_payload_max_length(s.options.max_body_bytes);
  Guards(s, http);
  Routes(s, http);
  // cpp-httplib sets SO_REUSEPORT by default, so a second server on the same port would bind too
  // and the kernel would split connections between them. SO_REUSEADDR alone still lets a
  // restarted server bind over connections in TIME_WAIT, and a port in use fails below.
  http.set_socket_options([](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  int port = s.options.port;
  if (port == 0) {
    port = http.bind_to_any_port(s.options.host);
  } else if (!http.bind_to_port(s.options.host, port)) {
    port = -1;
  }
  if (port < 0) {
    return MakeError(ErrorKind::kIo, fmt::format("cannot listen on {}:{} (in use, or not a local "
                                                 "address): choose another --port or --host",
                                                 s.options.host, s.options.port));
  }
  impl_->bound = true;
  if (on_ready) on_ready(port);
  http.listen_after_bind();
  impl_->listened = true;
  return {};
}

void Server::Stop() {
  if (!impl_ || !impl_->http) return;
  // httplib's stop() does nothing until listen_after_bind() has begun (it sets is_running there):
  // a Stop() just after on_ready (a SIGTERM as soon as the port is announced) would be lost, and
  // the server would then listen for ever. So it waits for the listen to begin (or end).
  while (impl_->bound && !impl_->listened && !impl_->http->is_running())
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  impl_->http->stop();
  impl_->http->connections().CloseIdle();  // the pool joins its threads: wake the waiting ones
}

}  // namespace strata
