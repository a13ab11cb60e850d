// cmd_chat.cc: `strata chat`, a local agent session on a GGUF model with KV bootstrap checkpoints
// (docs/chat.md). One turn with -p, otherwise a REPL on stdin. The model is loaded at the first
// non-empty message, so an idle session does no model work.
#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <ctime>
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "output.h"
#include "strata/checkpoint.h"
#include "strata/local_session.h"

namespace strata::cli {
namespace {

struct ChatOptions {
  std::string model;
  std::string project;
  std::string message;
  bool one_turn = false;  // -p given
  bool json = false;
  std::string store_dir;
  uint64_t budget = 4ull << 30;
  uint32_t n_ctx = 8192;
  uint32_t n_batch = 2048;  // `strata serve`'s defaults: the same checkpoint keys
  uint32_t n_ubatch = 512;
  std::string kv_type = "f16";
  bool flash_attn = true;
  int threads = 0;
  int max_tokens = 64;
  std::string system;
  std::string reasoning = "off";
  std::string datetime;
  std::string client = "strata-cli";
};

std::string NowUtc() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

// A one-line progress bar on stderr, only when stderr is a terminal.
class ProgressBar {
 public:
  ProgressBar() : enabled_(::isatty(STDERR_FILENO) != 0) {}
  void Update(size_t done, size_t total) {
    if (!enabled_ || total < 64) return;
    constexpr int kWidth = 30;
    const int filled = static_cast<int>(kWidth * done / std::max<size_t>(total, 1));
    std::fprintf(stderr, "\rprefill [%s%s] %zu/%zu tokens", std::string(filled, '#').c_str(),
                 std::string(kWidth - filled, '.').c_str(), done, total);
    if (done >= total) std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
  }

 private:
  bool enabled_;
};

nlohmann::json TurnJson(const LocalTurnReport& r) {
  nlohmann::json j{{"turn", r.turn},
                   {"checkpoint", r.turn == 1 ? CheckpointOutcomeName(r.checkpoint) : "none"},
                   {"prefix_tokens", r.prefix_tokens},
                   {"suffix_tokens", r.suffix_tokens},
                   {"restore_ms", std::round(r.restore_ms * 100) / 100},
                   {"prefill_ms", std::round(r.prefill_ms * 100) / 100},
                   {"first_token_ms", std::round(r.first_token_ms * 100) / 100},
                   {"generated_tokens", r.generated_tokens},
                   {"reply", r.reply}};
  if (r.turn == 1) {
    j["title"] = r.title;
    j["key"] = r.key;
    j["stored"] = r.stored;
    j["saved_ms"] = std::round(r.saved_ms * 100) / 100;
    if (!r.rebuild_reason.empty()) j["rebuild_reason"] = r.rebuild_reason;
    if (!r.store_warning.empty()) j["store_warning"] = r.store_warning;
  }
  return j;
}

int RunChat(const ChatOptions& o) {
  if (o.one_turn && o.message.find_first_not_of(" \t\r\n") == std::string::npos) {
    return PrintError(Error{ErrorKind::kInvalidArgument, "-p: the message is empty", {}});
  }
  SessionConfig config;
  config.project_root = o.project;
  config.system_instructions = o.system;
  config.reasoning_mode = o.reasoning;
  EngineOptions engine;
  engine.n_ctx = o.n_ctx;
  engine.n_batch = o.n_batch;
  engine.n_ubatch = o.n_ubatch;
  engine.type_k = engine.type_v = o.kv_type;
  engine.flash_attn = o.flash_attn;
  engine.n_threads = o.threads;
  ProgressBar bar;
  SessionHooks hooks;
  hooks.progress = [&bar](size_t done, size_t total) { bar.Update(done, total); };
  if (!o.json) {
    hooks.on_token = [](std::string_view piece) {
      std::fwrite(piece.data(), 1, piece.size(), stdout);
      std::fflush(stdout);
    };
  }
  std::unique_ptr<CheckpointStore> store;
  std::unique_ptr<LocalModel> model;
  std::unique_ptr<LocalSession> session;
  const SessionContext context{o.datetime.empty() ? NowUtc() : o.datetime, o.client};
  size_t max_token_bytes = 0;  // of the model's vocabulary, once loaded

  auto turn = [&](const std::string& message) -> int {
    if (!model) {  // the first non-empty message opens the store, loads the model, starts the
                   // session
      auto opened = CheckpointStore::Open(
          {o.store_dir.empty() ? DefaultCheckpointDir() : std::filesystem::path(o.store_dir),
           o.budget});
      if (!opened) return PrintError(opened.error());
      store = std::move(*opened);
      if (o.store_dir.empty() && !CheckpointDirNote().empty()) {
        std::fprintf(stderr, "note: %s\n", CheckpointDirNote().c_str());
      }
      auto loaded = LocalModel::Load(o.model, store->dir());
      if (!loaded) return PrintError(loaded.error());
      model = std::move(*loaded);
      session = std::make_unique<LocalSession>(*model, *store, config, engine, hooks);
      max_token_bytes = model->max_token_bytes();
    }
    // The cheap bound before tokenizing (llama_tokenize.h): a message that cannot fit the context
    // whatever it tokenizes to is refused without the tokenizer's memory (tens of bytes per byte).
    if (max_token_bytes > 0 && o.n_ctx > 1 &&
        message.size() > static_cast<size_t>(o.n_ctx - 1) * max_token_bytes) {
      return PrintError(
          MakeError(ErrorKind::kLimit,
                    fmt::format(
                        "the message is {} bytes, at least {} tokens (a token of this model "
                        "stands for at most {} bytes); the context holds {}: send a "
                        "shorter message or raise --ctx",
                        message.size(), message.size() / max_token_bytes, max_token_bytes, o.n_ctx))
              .value());
    }
    auto report = session->Submit(message, context, {o.max_tokens});
    if (!report) return PrintError(report.error());
    if (!report->store_warning.empty()) {
      std::fprintf(stderr, "warning: %s\n", report->store_warning.c_str());
    }
    if (o.json) {
      std::printf("%s\n", TurnJson(*report).dump().c_str());
    } else {
      std::printf("\n");
      if (report->turn == 1) {
        std::fprintf(
            stderr,
            "[%s: checkpoint %s%s; prefix %zu tokens, suffix %zu; restore %.1f ms, prefill %.1f "
            "ms]\n",
            report->title.c_str(), CheckpointOutcomeName(report->checkpoint),
            report->rebuild_reason.empty() ? "" : (" (" + report->rebuild_reason + ")").c_str(),
            report->prefix_tokens, report->suffix_tokens, report->restore_ms, report->prefill_ms);
      }
    }
    std::fflush(stdout);
    return 0;
  };

  if (o.one_turn) return turn(o.message);
  const bool interactive = ::isatty(STDIN_FILENO) != 0;
  std::string line;
  while (true) {
    if (interactive) {
      std::fprintf(stderr, "> ");
      std::fflush(stderr);
    }
    if (!std::getline(std::cin, line)) break;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;  // drafts do nothing
    if (int rc = turn(line); rc != 0) return rc;
  }
  return 0;
}

}  // namespace

void AddChatCommand(CLI::App& app, int* exit_code) {
  auto o = std::make_shared<ChatOptions>();
  CLI::App* cmd = app.add_subcommand(
      "chat", "Chat with a local GGUF model, reusing KV checkpoints of the prompt prefix");
  cmd->add_option("--model", o->model, "GGUF model file")->required()->check(CLI::ExistingFile);
  cmd->add_option("--project", o->project,
                  "project root; its instruction files (AGENTS.md, CLAUDE.md, imports) join the "
                  "system context")
      ->check(CLI::ExistingDirectory);
  cmd->add_option("-p,--prompt", o->message,
                  "send one message and exit (otherwise: a REPL on stdin)");
  cmd->add_flag("--json", o->json, "print one JSON object per turn");
  cmd->add_option("--store", o->store_dir,
                  "checkpoint directory (default: $STRATA_CACHE_DIR/kv, else "
                  "${XDG_CACHE_HOME:-~/.cache}/strata/kv; the older STRATA_CHECKPOINT_DIR still "
                  "works)");
  cmd->add_option("--budget", o->budget, "checkpoint store byte budget")->capture_default_str();
  cmd->add_option("--ctx", o->n_ctx, "context size in tokens")->capture_default_str();
  cmd->add_option("--batch", o->n_batch,
                  "logical prefill batch in tokens (at most the context size; as serve's -b)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--ubatch", o->n_ubatch, "physical prefill batch in tokens (as serve's -ub)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--kv-type", o->kv_type,
                  "KV cache type: f16, f32, bf16, q8_0 (q8_0 needs flash attention)")
      ->capture_default_str();
  cmd->add_flag("--flash-attn,!--no-flash-attn", o->flash_attn,
                "use flash attention (default: on, as serve)");
  cmd->add_option("--threads", o->threads, "CPU threads (0: all)");
  cmd->add_option("-n,--max-tokens", o->max_tokens, "tokens to generate per turn")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_option("--system", o->system, "configured system instructions");
  cmd->add_option("--reasoning", o->reasoning, "reasoning mode (part of the cached prefix)")
      ->capture_default_str();
  cmd->add_option("--datetime", o->datetime, "session date/time (default: now, UTC)");
  cmd->add_option("--client", o->client, "client metadata (session suffix)")->capture_default_str();
  cmd->callback([o, exit_code, cmd] {
    o->one_turn = cmd->count("--prompt") > 0;
    *exit_code = RunChat(*o);
  });
}

}  // namespace strata::cli
