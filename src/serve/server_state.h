// server_state.h: what a running server holds (the model, template, store, index, live
// sequences, metrics, options) and the request handlers over it: generation (handle_generate.cc)
// and the small endpoints (server.cc).
#pragma once

#include <httplib.h>

#include <atomic>
#include <memory>
#include <string>

#include "local/checkpoint_writer.h"
#include "local/conversation_template.h"
#include "local/embedding_context.h"
#include "local/metrics.h"
#include "local/prefix_engine.h"
#include "local/prefix_index.h"
#include "local/sequence_pool.h"
#include "serve/shared_tier.h"
#include "strata/checkpoint.h"
#include "strata/discover.h"
#include "strata/local_session.h"
#include "strata/serve.h"
#include "wire/serve_codec.h"
#include "wire/serve_request.h"

namespace strata::serve {

struct ServerState {
  ServeOptions options;
  std::string model_id;  // reported in /v1/models and responses
  std::unique_ptr<LocalModel> model;
  std::unique_ptr<ConversationTemplate> chat_template;
  // Thinking as llama-server renders and parses it: on when the template supports it,
  // extracted unless --reasoning-format none.
  ThinkingOptions thinking;
  std::unique_ptr<CheckpointStore> store;
  PrefixIndex index;
  Metrics metrics;
  std::unique_ptr<SequencePool> pool;
  // Declared after the store, index and metrics it writes to: destroyed (drained) before them.
  std::unique_ptr<CheckpointWriter> writer;
  EngineShared shared;
  std::unique_ptr<SharedTier> tier;            // --shared-store; null without
  std::unique_ptr<EmbeddingContext> embedder;  // --embeddings; null without
  std::atomic<uint64_t> next_id{1};
  size_t max_token_bytes = 0;  // MaxTokenBytes of the model's vocabulary (request_limits.h)
};

// Answers `error` in the codec's error shape.
void SendError(const ServeCodec& codec, const ApiError& error, httplib::Response& res);
// Answers `error` in `api`'s error shape, counts it in strata_requests_total under `endpoint`
// ("tokenize", "detokenize", "apply-template") and logs it (`serve: api=<endpoint> status=N
// error=...`): the endpoints outside HandleGenerate and count_tokens.
void SendError(ServerState& state, std::string_view endpoint, Api api, const ApiError& error,
               httplib::Response& res);

// A POST to any codec's route: /v1/chat/completions, /v1/responses, /v1/messages and the
// raw-prompt ones (/completion, /v1/completions).
void HandleGenerate(ServerState& state, const ServeCodec& codec, const httplib::Request& req,
                    httplib::Response& res);

// POST /v1/messages/count_tokens: {"input_tokens": N} for the rendered prompt.
void HandleCountTokens(ServerState& state, const httplib::Request& req, httplib::Response& res);

// llama-server's POST /tokenize, /detokenize, /apply-template and GET /props, with its shapes
// (llama_endpoints.cc).
void AddLlamaServerRoutes(ServerState& state, httplib::Server& http);
// POST /v1/embeddings, /embeddings, /embedding (embeddings_endpoint.cc): with --embeddings the
// embeddings, else llama-server's 501.
void AddEmbeddingRoutes(ServerState& state, httplib::Server& http);
// POST /tokenize with {"api": "messages" | "chat.completions" | "responses", "request": {...}}:
// {"tokens": [...]}, the prompt the request renders to as this server tokenizes it.
void HandleTokenize(ServerState& state, const httplib::Request& req, httplib::Response& res);

// Parses `body` for `api` (the parsers of openai_chat.h, openai_responses.h,
// anthropic_messages.h).
// The client registry's options from the server's (--keep-client-text).
inline ClientTextOptions ClientTextOf(const ServeOptions& options) {
  return ClientTextOptions{options.keep_client_text};
}

ApiResult<ServeRequest> ParseRequest(Api api, std::string_view body,
                                     const ClientTextOptions& client_text = {});

}  // namespace strata::serve
