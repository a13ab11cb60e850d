// cmd_serve.cc: `strata serve`, the OpenAI- and Anthropic-compatible local endpoint whose prompt
// prefixes are restored from KV checkpoints (docs/serve.md). Prints one ready line to stderr
// ("strata serve: listening on http://HOST:PORT ...", with the bound port when --port 0), then one
// line per request; SIGINT or SIGTERM stops it.
#include <fmt/format.h>
#include <pthread.h>

#include <csignal>
#include <cstdio>
#include <thread>

#include "commands.h"
#include "strata/serve.h"

namespace strata::cli {
namespace {

int RunServe(ServeOptions options) {
  // Signals are taken by one thread (sigwait), which stops the server; no handler runs in an
  // arbitrary thread.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  std::signal(SIGPIPE, SIG_IGN);
  const std::string host = options.host;
  const int n_ctx = static_cast<int>(options.n_ctx), parallel = options.parallel;
  auto server = Server::Create(std::move(options));
  if (!server) {
    std::fprintf(stderr, "strata serve: error: %s\n", FormatError(server.error()).c_str());
    return 1;
  }
  std::thread waiter([&] {
    int sig = 0;
    sigwait(&stop_signals, &sig);
    (*server)->Stop();
  });
  Status st = (*server)->Run([&](int port) {
    std::fprintf(stderr, "strata serve: listening on http://%s:%d (ctx %d, parallel %d)\n",
                 host.c_str(), port, n_ctx, parallel);
    std::fflush(stderr);
  });
  if (!st) {
    std::fprintf(stderr, "strata serve: error: %s\n", FormatError(st.error()).c_str());
    pthread_kill(waiter.native_handle(), SIGTERM);
    waiter.join();
    return 1;
  }
  pthread_kill(waiter.native_handle(), SIGTERM);  // Stop() came from elsewhere: end the waiter
  waiter.join();
  return 0;
}

}  // namespace

void AddServeCommand(CLI::App& app, int* exit_code) {
  auto o = std::make_shared<ServeOptions>();
  auto* cmd = app.add_subcommand(
      "serve",
      "Serve a GGUF model over the OpenAI and Anthropic APIs, prefixes restored from KV "
      "checkpoints (docs/serve.md)");
  cmd->add_option("--model", o->model, "GGUF model file")->required()->check(CLI::ExistingFile);
  cmd->add_option("--host", o->host, "address to bind (loopback by default)")
      ->capture_default_str();
  cmd->add_option("--port", o->port, "TCP port (0: any free port)")->capture_default_str();
  cmd->add_option("--ctx", o->n_ctx, "context size per sequence, tokens")->capture_default_str();
  cmd->add_option("--parallel", o->parallel, "live llama.cpp sequences")->capture_default_str();
  cmd->add_option("--store", o->store_dir,
                  "checkpoint directory (default: $STRATA_CHECKPOINT_DIR or ~/.cache/strata/kv)");
  cmd->add_option("--store-budget", o->store_budget, "checkpoint store byte budget")
      ->capture_default_str();
  cmd->add_option("--gpu-layers", o->gpu_layers, "layers to offload to a GPU backend")
      ->capture_default_str();
  cmd->add_option("--alias", o->alias,
                  "model name to serve; requests naming another model get 404 (default: the "
                  "file's stem, any requested name accepted)");
  cmd->add_option("--api-key", o->api_key,
                  "require this key (Authorization: Bearer KEY or x-api-key: KEY)");
  cmd->add_option("--chat-template-file", o->chat_template_file,
                  "Jinja chat template replacing the model's own")
      ->check(CLI::ExistingFile);
  cmd->add_option("--threads", o->n_threads, "CPU threads per sequence (0: all)");
  cmd->add_option("--flash-attn", o->flash_attn, "flash attention: on or off")
      ->transform(CLI::IsMember({"on", "off"}))
      ->capture_default_str();
  cmd->add_option("--batch-size", o->n_batch, "logical prefill batch, tokens")
      ->check(CLI::Range(1u, 1u << 20))
      ->capture_default_str();
  cmd->add_option("--ubatch-size", o->n_ubatch, "physical prefill batch, tokens")
      ->check(CLI::Range(1u, 1u << 20))
      ->capture_default_str();
  cmd->add_option("--max-queue", o->max_queue, "requests waiting for a sequence before 503")
      ->capture_default_str();
  cmd->add_option("--shared-store", o->shared_store,
                  "a Redis tier behind the local store: redis://[:password@]host:port[/db] or "
                  "rediss:// (docs/shared-store.md)");
  cmd->add_option("--shared-store-timeout-ms", o->shared_store_timeout_ms,
                  "connect and per-command timeout of the shared store")
      ->capture_default_str();
  cmd->add_option("--shared-lease-wait-ms", o->shared_lease_wait_ms,
                  "how long to wait for another instance prefilling the same new prefix")
      ->capture_default_str();
  cmd->add_option("--shared-lease-ms", o->shared_lease_ms,
                  "lease expiry: how long a crashed instance's lease blocks the others")
      ->capture_default_str();
  cmd->add_option("--shared-store-ca-file", o->shared_store_ca_file,
                  "rediss://: CA certificates to verify the server with (default: the system's)");
  cmd->add_flag("--keep-client-text", o->keep_client_text,
                "keep the client text that varies per session or request in the prompt (Claude "
                "Code's billing block; docs/serve-clients.md)");
  cmd->callback([o, exit_code] { *exit_code = RunServe(*o); });
}

}  // namespace strata::cli
