// cmd_serve.cc: `strata serve`, the OpenAI- and Anthropic-compatible local endpoint whose prompt
// prefixes are restored from KV checkpoints (docs/serve.md). Prints one ready line to stderr
// ("strata serve: listening on http://HOST:PORT ...", with the bound port when --port 0), then one
// line per request; SIGINT or SIGTERM stops it.
#include <fmt/format.h>
#include <malloc.h>
#include <pthread.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

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
  // Each connection thread allocates from a malloc arena of its own, and glibc keeps a large block
  // freed there for reuse once its mmap threshold has risen past it (the threshold follows the
  // largest block freed): after a burst of large bodies every arena would hold its share for the
  // server's life. A fixed threshold maps each block of 1 MiB or more on its own, returned to the
  // system when freed.
  mallopt(M_MMAP_THRESHOLD, 1 << 20);
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

// CLI11 options whose llama-server value needs a translation.
struct LlamaSpellings {
  std::string gpu_layers = "auto";  // a count, "auto" or "all"
  std::string flash_attn = "auto";  // on, off, auto
  int parallel = 1;                 // -1: auto
  int threads = 0, threads_batch = 0;
  bool mlock = false, no_mmap = false;
  std::string load_mode;
};

// llama-server's values as ServeOptions; "" or the error naming the option.
std::string ApplySpellings(const LlamaSpellings& l, ServeOptions* o) {
  if (l.gpu_layers == "auto") {
    o->gpu_layers = -1;  // llama.cpp decides (no layer on a CPU-only build)
  } else if (l.gpu_layers == "all") {
    o->gpu_layers = -2;  // llama.cpp's "all"
  } else {
    try {
      size_t used = 0;
      o->gpu_layers = std::stoi(l.gpu_layers, &used);
      // -1 is llama-server's (and llama.cpp's) own spelling of auto.
      if (used != l.gpu_layers.size() || o->gpu_layers < -1) throw std::invalid_argument("");
    } catch (const std::exception&) {
      return "-ngl " + l.gpu_layers + ": must be a layer count, auto or all";
    }
  }
  // llama-server's "auto" enables flash attention where the backend has it (the CPU does).
  o->flash_attn = l.flash_attn != "off";
  o->parallel = l.parallel == -1 ? 1 : l.parallel;
  o->n_threads = std::max(0, l.threads);
  o->n_threads_batch = std::max(0, l.threads_batch);
  if (!l.load_mode.empty() && (l.mlock || l.no_mmap))
    return "--load-mode and --mlock / --no-mmap: give one of them";
  if (!l.load_mode.empty()) o->load_mode = l.load_mode;
  if (l.mlock) o->load_mode = l.no_mmap ? "mlock" : "mmap+mlock";
  if (!l.mlock && l.no_mmap) o->load_mode = "none";
  for (const std::string* v : {&o->api_key, &o->alias, &o->host}) {
    if (v->find(',') != std::string::npos)
      return fmt::format(
          "'{}': lists are not supported by strata serve (one API key, one alias, "
          "one host)",
          *v);
  }
  return "";
}

const std::vector<std::string> kKvTypes = {"f32", "f16", "bf16", "q8_0", "q4_0"};

std::string KvTypeCheck(const std::string& value) {
  if (std::find(kKvTypes.begin(), kKvTypes.end(), value) != kKvTypes.end()) return "";
  return value + ": not supported by strata serve as a KV cache type (f32, f16, bf16, q8_0, q4_0)";
}

void AddSamplingOptions(CLI::App* cmd, ServeOptions* o) {
  cmd->add_option("--temp,--temperature", o->temperature, "sampling temperature (0: greedy)")
      ->capture_default_str();
  cmd->add_option("--top-k", o->top_k, "top-k sampling (0: off)")->capture_default_str();
  cmd->add_option("--top-p", o->top_p, "top-p sampling (1: off)")->capture_default_str();
  cmd->add_option("--min-p", o->min_p, "min-p sampling (0: off)")->capture_default_str();
  cmd->add_option("--repeat-penalty", o->repeat_penalty, "repeat penalty (1: off)")
      ->capture_default_str();
  cmd->add_option("--repeat-last-n", o->repeat_last_n,
                  "tokens the penalties look back over (-1: the context)")
      ->capture_default_str();
  cmd->add_option("--presence-penalty", o->presence_penalty, "presence penalty (0: off)")
      ->capture_default_str();
  cmd->add_option("--frequency-penalty", o->frequency_penalty, "frequency penalty (0: off)")
      ->capture_default_str();
  cmd->add_option("-s,--seed", o->seed, "sampling seed (-1: random per request)")
      ->capture_default_str();
  cmd->add_option("-n,--predict,--n-predict", o->n_predict,
                  "most tokens per reply (-1: up to the end of the context); a request's own "
                  "limit wins when smaller")
      ->capture_default_str();
}

void AddLlamaOptions(CLI::App* cmd, ServeOptions* o, LlamaSpellings* l) {
  cmd->add_option("--gpu-layers,--n-gpu-layers", l->gpu_layers,
                  "layers to offload to a GPU backend: a count, auto or all (llama-server: -ngl)")
      ->capture_default_str();
  cmd->add_option("--threads-batch", l->threads_batch,
                  "prefill threads of the engine (0 or -1: as --threads; llama-server: -tb)");
  cmd->add_option("--cache-type-k", o->cache_type_k, "KV cache type of K (llama-server: -ctk)")
      ->check(KvTypeCheck)
      ->capture_default_str();
  cmd->add_option("--cache-type-v", o->cache_type_v, "KV cache type of V (llama-server: -ctv)")
      ->check(KvTypeCheck)
      ->capture_default_str();
  cmd->add_option("--load-mode", l->load_mode,
                  "how the weights are loaded: auto, none, mmap, mlock, mmap+mlock, dio "
                  "(llama-server: -lm)")
      ->check(CLI::IsMember({"auto", "none", "mmap", "mlock", "mmap+mlock", "dio"}));
  cmd->add_flag("--mlock", l->mlock, "keep the weights in RAM (older llama-server spelling)");
  cmd->add_flag("--no-mmap", l->no_mmap, "read the weights instead of mapping them");
  cmd->add_flag("--jinja")->description("render with the Jinja chat template (always on)");
  cmd->add_flag("--metrics")->description("serve /metrics (always on)");
  cmd->add_flag("--slots,!--no-slots", o->slots_endpoint,
                "serve GET /slots, the live sequences and what each holds (default: on)");
  cmd->add_option("--chat-template", o->chat_template,
                  "Jinja chat template text replacing the model's own");
  cmd->add_flag("--embedding,--embeddings", o->embeddings,
                "serve /v1/embeddings, /embedding and /embeddings (an embedding model)");
  cmd->add_option("--pooling", o->pooling,
                  "pooling of the embeddings: none, mean, cls, last, rank (default: the model's)")
      ->check(CLI::IsMember({"none", "mean", "cls", "last", "rank"}));
  cmd->add_option("--reasoning-format", o->reasoning_format,
                  "thinking parsed out into the API's reasoning (auto, deepseek, deepseek-legacy) "
                  "or left in the content (none)")
      ->check(CLI::IsMember({"auto", "deepseek", "deepseek-legacy", "none"}))
      ->capture_default_str();
  cmd->add_option("--reasoning-budget", o->reasoning_budget,
                  "most tokens a reply may think before the end tag is forced (-1: unbounded, "
                  "0: at once)")
      ->check(CLI::Range(-1, INT32_MAX))
      ->capture_default_str();
}

void AddSharedStoreOptions(CLI::App* cmd, ServeOptions* o) {
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
}

}  // namespace

// Options take llama-server's spellings (serve_flags.h rewrites its multi-letter short ones);
// docs/serve.md has the table.
void AddServeCommand(CLI::App& app, int* exit_code) {
  auto o = std::make_shared<ServeOptions>();
  auto l = std::make_shared<LlamaSpellings>();
  auto* cmd = app.add_subcommand(
      "serve",
      "Serve a GGUF model over the OpenAI and Anthropic APIs, prefixes restored from KV "
      "checkpoints (docs/serve.md)");
  cmd->add_option("-m,--model", o->model, "GGUF model file")->required()->check(CLI::ExistingFile);
  cmd->add_option("--host", o->host, "address to bind (loopback by default)")
      ->capture_default_str();
  cmd->add_option("--port", o->port, "TCP port (0: any free port)")->capture_default_str();
  cmd->add_option("-c,--ctx-size,--ctx", o->n_ctx, "context size per sequence, tokens")
      ->capture_default_str();
  cmd->add_option(
         "--parallel", l->parallel,
         "sequences of the one llama.cpp context, decoded together (-1: 1; llama-server: -np)")
      ->capture_default_str();
  cmd->add_option("--store,--slot-save-path", o->store_dir,
                  "checkpoint directory (default: $STRATA_CHECKPOINT_DIR or ~/.cache/strata/kv)");
  cmd->add_option("--store-budget", o->store_budget, "checkpoint store byte budget")
      ->capture_default_str();
  cmd->add_option("-a,--alias", o->alias,
                  "model name to serve; requests naming another model get 404 (default: the "
                  "file's stem, any requested name accepted)");
  cmd->add_option("--api-key", o->api_key,
                  "require this key (Authorization: Bearer KEY or x-api-key: KEY)");
  cmd->add_option("--chat-template-file", o->chat_template_file,
                  "Jinja chat template replacing the model's own")
      ->check(CLI::ExistingFile);
  cmd->add_option("-t,--threads", l->threads,
                  "CPU threads of the engine, shared by all sequences (0 or -1: all)");
  cmd->add_option("--flash-attn", l->flash_attn,
                  "flash attention: on, off or auto (on: the CPU has it; llama-server: -fa)")
      ->check(CLI::IsMember({"on", "off", "auto"}))
      ->capture_default_str();
  cmd->add_option("-b,--batch-size", o->n_batch, "logical prefill batch, tokens")
      ->check(CLI::Range(1u, 1u << 20))
      ->capture_default_str();
  cmd->add_option("--ubatch-size", o->n_ubatch,
                  "physical prefill batch, tokens (llama-server: -ub)")
      ->check(CLI::Range(1u, 1u << 20))
      ->capture_default_str();
  cmd->add_option("--max-queue", o->max_queue, "requests waiting for a sequence before 503")
      ->capture_default_str();
  cmd->add_option("--timeout", o->read_timeout_s,
                  "seconds a request has, from its first byte, to send its headers and body (else "
                  "408); a deadline for the whole request, not per read (llama-server: per read, "
                  "default 600)")
      ->check(CLI::Range(1, 86400))
      ->capture_default_str();
  cmd->add_option("--max-connections", o->max_connections,
                  "open connections at once, all clients; over it the oldest idle one closes, or "
                  "503 when all are busy (must exceed --parallel + --max-queue)")
      ->check(CLI::Range(1, 65536))
      ->capture_default_str();
  cmd->add_option("--max-connections-per-client", o->max_connections_per_client,
                  "open connections at once from one client address (same rule)")
      ->check(CLI::Range(1, 65536))
      ->capture_default_str();
  cmd->add_flag("--keep-client-text", o->keep_client_text,
                "keep the client text that varies per session or request in the prompt (Claude "
                "Code's billing block; docs/serve-clients.md)");
  AddSamplingOptions(cmd, o.get());
  AddLlamaOptions(cmd, o.get(), l.get());
  AddSharedStoreOptions(cmd, o.get());
  cmd->callback([o, l, exit_code] {
    const std::string error = ApplySpellings(*l, o.get());
    if (!error.empty()) {
      std::fprintf(stderr, "strata serve: error: %s\n", error.c_str());
      *exit_code = 2;
      return;
    }
    *exit_code = RunServe(*o);
  });
}

}  // namespace strata::cli
