// local_session.h: a local agent session on llama.cpp that never prefills the same deterministic
// prefix twice (docs/chat.md states the behaviour). `strata chat` runs one; it is a client of the
// same local engine and prompt renderer as `strata serve`.
//
// A LocalSession starts as a draft: constructing it reads no file, renders nothing, tokenizes
// nothing and touches neither the model nor the checkpoint store. The first non-empty Submit()
// runs discovery (discover.h) on the project root: the cascade of instruction files (AGENTS.md,
// CLAUDE.md, GEMINI.md, AGENTS.local.md, CLAUDE.local.md) with their `@path` imports, symlinked
// duplicates loaded once, text hygiene (CleanText: BOM, CRLF, Unicode tag characters, NFC) and
// budgets. It then assembles the prompt's head with a ContextSession (assemble.h: persona = agent
// prompt, rules = system instructions then extra instructions, tools, instructions = the
// discovered files) as its OpenAI Chat Completions request would carry it: the system messages,
// joined by blank lines, are the system text, and the tools its tools. The conversation (system
// text, tools, the user's and the assistant's messages) is rendered whole by the model's own chat
// template (its GGUF tokenizer.chat_template run by llama.cpp's Jinja engine; ChatML when it has
// none), exactly as `strata serve` renders a request with that system text, tools and messages.
// The render of the system text and tools alone is the deterministic prefix (when it is a byte
// prefix of the whole render); the rest is the uncached suffix: the first user message, preceded
// by the session context (date/time, client metadata), and the generation prompt.
// The prefix is restored from the CheckpointStore under the same identity `strata serve` gives it
// (same model, engine settings, template and prefix: the same key), or prefilled once and stored;
// a stored file that fails verification is deleted and rebuilt (`rebuilt`, with the reason). Later
// turns render the whole conversation again and prefill only what the context does not hold. System
// context is model context only: visible_turns() lists the user's and the assistant's messages.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "strata/checkpoint.h"
#include "strata/status.h"

namespace STRATA_EXPORT strata {

// Identity of a GGUF model file that distinguishes weights, not only shapes, without reading the
// whole file: SHA-256 over the file size, the whole metadata block (every key/value and tensor
// descriptor, bytes [0, data offset)) and, for every tensor, up to three 4 KiB windows of its
// data (start, middle, end). Cached on disk by (path, size, mtime, device, inode, ctime) under
// `cache_dir`; any difference (an overwrite in place with the mtime restored changes ctime) samples
// again.
struct ModelFingerprint {
  std::string digest;          // hex SHA-256 of the above
  std::string tokenizer;       // hex SHA-256 of the tokenizer.* metadata values
  std::string chat_template;   // the tokenizer.chat_template text ("" when absent)
  uint64_t sampled_bytes = 0;  // weight bytes read to compute it (0 when served from the cache)
};
Result<ModelFingerprint> FingerprintModel(const std::filesystem::path& gguf,
                                          const std::filesystem::path& cache_dir = {});

// How the weights are read and held in memory: llama.cpp's load mode (llama-server's -lm): "auto"
// (mmap where the device allows), "none", "mmap", "mlock", "mmap+mlock" or "dio". No mode changes
// a result.
struct WeightMemory {
  std::string load_mode = "auto";
};

// A loaded model (weights mmapped by llama.cpp; the llama.cpp handle stays inside strata), shared
// by many sessions.
class LocalModel {
 public:
  // Loads `gguf` on the CPU (`gpu_layers` > 0 offloads that many layers, a negative count all of
  // them, when llama.cpp was built with a GPU backend that found a usable device; otherwise it is
  // ignored and every layer runs on the CPU, as llama-server does). `fingerprint_cache` (may be
  // empty) caches the fingerprint. Errors: FingerprintModel's (the file cannot be read or is no
  // GGUF), kInvalidArgument for an unknown load mode, kParse when llama.cpp cannot load the model.
  static Result<std::unique_ptr<LocalModel>> Load(
      const std::filesystem::path& gguf, const std::filesystem::path& fingerprint_cache = {},
      int gpu_layers = 0, WeightMemory memory = {});
  ~LocalModel();
  LocalModel(const LocalModel&) = delete;
  LocalModel& operator=(const LocalModel&) = delete;

  const ModelFingerprint& fingerprint() const { return fingerprint_; }
  const std::filesystem::path& path() const { return path_; }
  // The most text bytes one token of the vocabulary stands for (a text of B bytes has at least
  // B / this many tokens); 0 when the vocabulary gives no bound. Reads every piece: call once.
  size_t max_token_bytes() const;
  // The model's own chat template text (its tokenizer.chat_template); empty when it has none, and
  // sessions then render with the built-in ChatML.
  const std::string& chat_template() const { return template_; }
  // The layers llama.cpp offloaded and where, e.g. "3/3 layers on Vulkan0 (llvmpipe (LLVM 15.0.6,
  // 256 bits))"; empty when every layer runs on the CPU. Part of the checkpoint identity when not
  // empty: a GPU backend computes the KV cache with other rounding than the CPU, so restoring one's
  // checkpoint under the other would not equal a full prefill there.
  const std::string& offload() const { return offload_; }

 private:
  friend struct LocalModelAccess;  // src/local/local_model.h: the llama.cpp model inside
  struct Weights;
  LocalModel();
  std::unique_ptr<Weights> weights_;
  ModelFingerprint fingerprint_;
  std::filesystem::path path_;
  std::string template_;
  std::string offload_;
};

// Execution settings that change the KV bytes; all are part of the checkpoint identity. The
// defaults but n_ctx are `strata serve`'s (llama-server's -b 2048 -ub 512, -fa on for the CPU), so
// a session and a server with the same context size share checkpoints.
struct EngineOptions {
  uint32_t n_ctx = 4096;       // context size, tokens
  uint32_t n_batch = 2048;     // logical prefill batch, tokens
  uint32_t n_ubatch = 512;     // physical batch, tokens
  std::string type_k = "f16";  // KV cache element types: "f16", "f32", "q8_0", "bf16"
  std::string type_v = "f16";
  bool flash_attn = true;
  int n_threads = 0;        // 0: hardware concurrency (not in the identity: results match)
  int n_threads_batch = 0;  // prefill threads; 0: n_threads (not in the identity)
};

struct ToolSpec {
  std::string name;
  std::string description;
  std::string parameters_json;  // JSON Schema text, rendered verbatim
};

// The deterministic configuration of new sessions: everything here is in the cached prefix.
struct SessionConfig {
  std::filesystem::path project_root;  // discovery runs here at the first submission (empty: none)
  std::string agent_prompt = "You are a coding agent working in the user's project.";
  std::vector<ToolSpec> tools;
  std::string system_instructions;  // configured by the user
  std::string extra_instructions;   // optional (e.g. UI protocol instructions)
  std::string reasoning_mode = "off";
};

// Session-specific context: rendered in the uncached suffix, never in the checkpoint identity.
struct SessionContext {
  std::string datetime;         // e.g. "2026-11-29T19:00:00Z"; empty: omitted
  std::string client_metadata;  // e.g. JSON from the client; empty: omitted
};

enum class CheckpointOutcome { kNone, kHit, kMiss, kRebuilt };
const char* CheckpointOutcomeName(CheckpointOutcome outcome);  // "none", "hit", "miss", "rebuilt"

// What one Submit() did. Times are wall-clock milliseconds.
struct LocalTurnReport {
  int turn = 0;                                             // 1-based
  CheckpointOutcome checkpoint = CheckpointOutcome::kNone;  // kNone on turns after the first
  std::string rebuild_reason;  // kRebuilt: why the stored file was refused
  std::string key;             // checkpoint key (first turn)
  bool stored = false;         // the prefix state was written to the store
  // Non-empty: the checkpoint store could not be used as it should (read-only or uncreatable
  // directory, disk full, a FIFO or directory at the key); the turn was answered without it.
  std::string store_warning;
  size_t prefix_tokens = 0;  // first turn: tokens in the deterministic prefix
  size_t suffix_tokens = 0;  // tokens prefilled for this turn after the prefix
  double restore_ms = 0;     // reading + verifying + loading the checkpoint
  double restore_read_ms = 0, restore_verify_ms = 0, restore_load_ms = 0;  // its parts (on a hit)
  double prefill_ms = 0;      // decoding prompt tokens (prefix on a miss, and suffix)
  double saved_ms = 0;        // hit: the stored prefix's prefill time minus restore_ms (>= 0)
  double first_token_ms = 0;  // from Submit() to the first generated token (or logits)
  std::string title;          // first turn only
  std::string reply;          // generated text
  // Tokens sampled for the reply, an end-of-generation one included (strata serve's
  // completion_tokens, llama-server's n_decoded).
  size_t generated_tokens = 0;
};

// Counters of the work a session did, for tests and reports.
struct SessionCounters {
  int renders = 0;             // prompt renders (the head by the assembler, each turn's template)
  int tokenizations = 0;       // prompt tokenizations
  int contexts = 0;            // llama contexts created
  int64_t prefill_tokens = 0;  // prompt tokens decoded
  int store_writes = 0;        // turns that stored a checkpoint
  int file_reads = 0;          // discovery runs over the project's instruction files
};

// Called on the first message only; receives exactly the user's first message.
using TitleGenerator = std::function<std::string(std::string_view first_user_message)>;
// A short title from the first line of the message (at most 8 words, 60 bytes).
std::string HeuristicTitle(std::string_view first_user_message);

struct SessionHooks {
  TitleGenerator title;  // default: HeuristicTitle
  // Prefill progress (prompt tokens in the context, prompt tokens), for a progress bar.
  std::function<void(size_t done, size_t total)> progress;
  // Called with the key lock held, just before the prefix prefill of a miss (tests use it to
  // widen the race window between processes).
  std::function<void()> before_prefix_prefill;
  // Called for every piece of reply text as it is generated.
  std::function<void(std::string_view piece)> on_token;
};

struct GenerateOptions {
  // Tokens to generate greedily after the prompt (at most the context's room); 0: prompt only
  // (then LocalSession::prompt_logits() holds the logits after the prompt).
  int max_tokens = 0;
};

struct VisibleTurn {
  std::string role;  // "user" or "assistant"
  std::string text;
};

class LocalSession {
 public:
  // Does no work (a draft). `model` and `store` must outlive the session.
  LocalSession(const LocalModel& model, CheckpointStore& store, SessionConfig config,
               EngineOptions engine = {}, SessionHooks hooks = {});
  ~LocalSession();
  LocalSession(const LocalSession&) = delete;
  LocalSession& operator=(const LocalSession&) = delete;

  // Adds a user message and runs the model on it. `context` is used on the first turn.
  // Errors (the session is unchanged): kInvalidArgument for an empty (or all-whitespace) message,
  // a tool whose parameters are not JSON, or a template that fails on the conversation; kLimit
  // when the prompt does not fit the context (both counts named); kIo when llama.cpp fails.
  Result<LocalTurnReport> Submit(std::string_view user_message, const SessionContext& context = {},
                                 const GenerateOptions& generate = {});

  bool started() const;
  const std::vector<VisibleTurn>& visible_turns() const;
  const SessionCounters& counters() const;
  const std::string& title() const;
  // The rendered deterministic prefix and first-turn suffix (empty before the first turn).
  const std::string& rendered_prefix() const;
  const std::string& rendered_suffix() const;
  const std::vector<int32_t>& prefix_tokens() const;
  const std::vector<int32_t>& first_suffix_tokens() const;
  // The checkpoint identity of this session's prefix (valid after the first turn).
  const CheckpointIdentity& identity() const;
  // Logits (vocabulary size) after the last prompt token of the latest turn when it generated
  // nothing (GenerateOptions::max_tokens 0); empty otherwise.
  const std::vector<float>& prompt_logits() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace strata
