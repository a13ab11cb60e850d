// serve.h: `strata serve`, a local HTTP endpoint speaking the OpenAI Chat Completions, OpenAI
// Responses and Anthropic Messages APIs on a GGUF model, whose prompt prefixes are restored from
// KV checkpoints that outlive requests, sessions and restarts (docs/serve.md states the
// behaviour).
//
// Endpoints: POST /v1/chat/completions, POST /v1/responses, POST /v1/messages,
// POST /v1/messages/count_tokens, GET /v1/models, GET /health, GET /metrics (Prometheus text),
// and llama-server's: POST /tokenize, /detokenize, /apply-template, GET /props, GET /slots,
// POST /completion (raw prompt) and OpenAI's legacy POST /v1/completions (the same prefix reuse);
// POST /v1/embeddings, /embedding, /embeddings with --embeddings (else 501, as llama-server).
//
// Each request is converted into strata's prompt types (prompt.h: system text, tool definitions,
// messages with tool calls and tool results), rendered by the model's chat template through
// llama.cpp's `common` library (as llama-server renders it), and tokenized. The longest stored
// state whose tokens are an exact prefix of the request's tokens is reused: a live sequence's
// KV cache (tier 1, RAM), or a checkpoint file of the store (tier 2, disk), found through an index
// of block hashes over token ids and verified token by token and by the file's checksums. Only the
// rest is prefilled. Checkpoints are written at the cuts later requests share: the end of the
// system + tools part of the prompt, the end of the last completed turn, and the whole prompt
// (written after the reply, so the next request of the conversation restores it).
//
// Usage in every response is truthful: prompt tokens, and the part reused
// (cached_tokens / cache_read_input_tokens). Errors use each API's error shape: 400 naming the bad
// member, 401 without the API key, 404 for an unknown model or path, 413 for a prompt longer than
// the context (with both counts) or a body over the limit, 503 when the queue is full.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "strata/status.h"

namespace STRATA_EXPORT strata {

struct ServeOptions {
  std::filesystem::path model;  // GGUF file
  std::string host = "127.0.0.1";
  int port = 8080;                  // 0: any free port (Server::port() tells which)
  uint32_t n_ctx = 8192;            // context per sequence, tokens
  int parallel = 1;                 // sequences of the engine; more requests wait in the queue
  int max_queue = 16;               // requests waiting for a sequence; one more gets 503
  std::filesystem::path store_dir;  // empty: DefaultCheckpointDir()
  uint64_t store_budget = 4ull << 30;
  // Layers offloaded to a GPU backend (-ngl): a count, -1 (auto) or -2 (all); a negative value
  // offloads every layer. Without a GPU backend with a usable device every layer runs on the CPU,
  // and a count above 0 or -2 logs a warning (llama-server's behaviour). The offload is logged
  // and is part of the checkpoint identity (LocalModel::offload()).
  int gpu_layers = 0;
  std::string alias;                         // model id in responses; empty: the file's stem
  std::string api_key;                       // non-empty: required as Bearer or x-api-key
  std::filesystem::path chat_template_file;  // a Jinja template replacing the model's own
  int n_threads = 0;                         // engine threads (all sequences); 0: all cores
  int n_threads_batch = 0;                   // prefill threads; 0: n_threads
  // KV cache element types (llama-server's -ctk / -ctv): f16 (default), f32, bf16, q8_0, q4_0.
  // Part of the checkpoint identity.
  std::string cache_type_k = "f16";
  std::string cache_type_v = "f16";
  // llama.cpp's load mode (llama-server's -lm): auto, none, mmap, mlock, mmap+mlock, dio.
  std::string load_mode = "auto";
  // Prefill settings, llama-server's defaults (its -fa auto resolves to on for the CPU backend,
  // -b 2048, -ub 512); they are part of the checkpoint identity.
  bool flash_attn = true;
  uint32_t n_batch = 2048;  // logical prefill batch, tokens
  uint32_t n_ubatch = 512;  // physical batch, tokens
  // Sampling defaults; a request's own members override them. llama-server's defaults (its
  // --temp, --top-p, --top-k, --min-p, --repeat-penalty, --repeat-last-n, --presence-penalty,
  // --frequency-penalty, --seed flags).
  float temperature = 0.8f;  // <= 0: greedy
  float top_p = 0.95f;
  int top_k = 40;
  float min_p = 0.05f;
  float repeat_penalty = 1.0f;
  int repeat_last_n = 64;  // -1: the context
  float presence_penalty = 0.0f;
  float frequency_penalty = 0.0f;
  int64_t seed = -1;  // -1: a random seed per request
  // The most tokens one reply may have (llama-server's -n): -1, its default, leaves the end of
  // the context as the only bound (every reply still ends: the context does not shift). A
  // request's own limit wins when smaller. Either limit ends the reply with the API's length
  // reason (finish_reason "length", stop_reason "max_tokens", status "incomplete").
  int n_predict = -1;
  // Reasoning models, as llama-server: a template with a thinking switch renders with thinking on,
  // and the reply's thinking is parsed by common's parser for the template into the API's
  // reasoning (Chat `reasoning_content`, Messages `thinking` blocks, Responses `reasoning`
  // items). reasoning_format (--reasoning-format): "deepseek" or "auto" (the same: parsed out),
  // "deepseek-legacy" (parsed out too; the pinned common no longer keeps the tags in the content),
  // "none" (left in the content, tags and all).
  std::string reasoning_format = "auto";
  // --reasoning-budget: the most tokens a reply may think (-1: unbounded; 0: the end tag is
  // forced as soon as thinking starts). At the budget common's reasoning-budget sampler forces
  // the template's end tag, as llama-server does; a request's reasoning_budget_tokens (or
  // thinking_budget_tokens) overrides it; Anthropic's thinking.budget_tokens bounds the reply
  // beside it (the smaller wins). No effect on a template without thinking tags.
  int reasoning_budget = -1;
  // --embeddings (llama-server's): POST /v1/embeddings (OpenAI's shape) and /embedding,
  // /embeddings (llama-server's) compute embeddings on a context of their own, with the model's
  // pooling type or `pooling` (none, mean, cls, last, rank; --pooling). Off: they answer 501.
  // Generation endpoints work either way.
  bool embeddings = false;
  std::string pooling;  // "": the model's
  // Prefill progress: a prefill running longer than this many milliseconds logs one line per
  // decode step ("serve: prefill seq=S done/total tokens ... tok/s"); -1: never.
  int progress_log_after_ms = 1000;
  // GET /slots, the read-only view of the live sequences (llama-server's --slots / --no-slots;
  // on by default, as there). Off: 501 naming the flag.
  bool slots_endpoint = true;
  // Jinja template text replacing the model's own (llama-server's --chat-template with a template,
  // not a built-in name); at most one of this and chat_template_file.
  std::string chat_template;
  // Request bounds (docs/serve.md, "Limits"): a declared Content-Length over max_body_bytes gets
  // 413 before any body byte is read; a request's line, headers and body must all arrive within
  // read_timeout_s of its first byte (else 408), however slowly the bytes trickle in (CLI: -to).
  size_t max_body_bytes = 16u << 20;
  int read_timeout_s = 30;
  int write_timeout_s = 600;  // per write
  // Open connections, in all and per client address: over a cap the oldest connection not running
  // a handler (idle, or still sending its request) is closed, else the newcomer gets 503. Each
  // connection has a thread, so /health and /metrics are answered whatever the rest does;
  // max_connections must exceed parallel + max_queue, max_connections_per_client be at least 1
  // (Server::Create refuses others naming the flag). CLI: --max-connections,
  // --max-connections-per-client.
  int max_connections = 128;
  int max_connections_per_client = 32;
  // The shared checkpoint tier behind the local store (checkpoint.h, docs/shared-store.md):
  // `redis://[[user]:password@]host[:port][/db]` or `rediss://...`; empty: none.
  std::string shared_store;
  int shared_store_timeout_ms = 2000;  // connect and per-command timeout
  int shared_lease_wait_ms = 30000;    // how long to wait for another instance's prefill
  int shared_lease_ms = 120000;        // lease expiry (a crashed holder blocks at most this long)
  std::string shared_store_ca_file;    // rediss://: CA to verify the server (empty: system's)
  bool shared_store_tls_verify = true;
  // Keep the client text the client registry leaves out of the prompt (strata/discover.h: Claude
  // Code's billing block, which varies per session or per request); `--keep-client-text`.
  bool keep_client_text = false;
  // One line per request (API, status, tokens restored / prefilled / generated, time to first
  // token). Default: stderr.
  std::function<void(std::string_view line)> log;
};

class Server {
 public:
  // Loads the model, opens the store and rebuilds the prefix index from the checkpoint headers
  // (and the shared tier's index entries). Errors: kNotFound / kParse for the model,
  // kInvalidArgument for bad options, template or --shared-store URL, kIo for the store. An
  // unreachable shared store is not an error (a warning; serving uses the local tier).
  static Result<std::unique_ptr<Server>> Create(ServeOptions options);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds host:port (kIo when it cannot) and serves until Stop(). `on_ready` (may be empty) is
  // called with the bound port once the socket listens.
  Status Run(const std::function<void(int port)>& on_ready = {});
  // Stops Run() from another thread (or a signal handler's thread).
  void Stop();

  struct Impl;

 private:
  explicit Server(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace strata
