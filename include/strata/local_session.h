// local_session.h: a local agent session on llama.cpp that never prefills the same deterministic
// prefix twice (docs/chat.md states the behaviour).
//
// A LocalSession starts as a draft: constructing it reads no file, renders nothing, tokenizes
// nothing and touches neither the model nor the checkpoint store. The first non-empty Submit()
// runs discovery (discover.h) on the project root: the cascade of instruction files (AGENTS.md,
// CLAUDE.md, GEMINI.md, AGENTS.local.md, CLAUDE.local.md) with their `@path` imports, symlinked
// duplicates loaded once, text hygiene (CleanText: BOM, CRLF, Unicode tag characters, NFC) and
// budgets. It then assembles the prompt with a ContextSession (assemble.h: persona = agent prompt,
// rules = system instructions then extra instructions, tools, instructions = the discovered files)
// and renders it through the model's own chat template (its GGUF tokenizer.chat_template run by
// llama.cpp's Jinja engine; ChatML when the model has none; a template whose render of a message
// depends on what follows it is refused). The render's head (the system messages) is the
// deterministic prefix; the rest is the uncached suffix: the first user message, preceded by the
// session context (date/time, client metadata), and the generation prompt. It then looks the
// prefix up in the
// CheckpointStore: on a hit it restores the stored KV state and prefills only the suffix; on a
// miss it prefills the prefix once, stores it, and continues with the suffix; a stored file that
// fails verification is deleted and rebuilt (`rebuilt`, with the reason). Later turns append to
// the same context. System context is model context only: visible_turns() lists the user's and
// the assistant's messages, never the system prompt or AGENTS.md.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "strata/checkpoint.h"
#include "strata/export.h"
#include "strata/status.h"

struct llama_model;

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

// A loaded model (weights mmapped by llama.cpp), shared by many sessions.
class LocalModel {
 public:
  // Loads `gguf` on the CPU (`gpu_layers` > 0 offloads that many layers when llama.cpp was built
  // with a GPU backend; -1 lets llama.cpp choose). `fingerprint_cache` (may be empty) caches the
  // fingerprint.
  static Result<std::unique_ptr<LocalModel>> Load(
      const std::filesystem::path& gguf, const std::filesystem::path& fingerprint_cache = {},
      int gpu_layers = 0, WeightMemory memory = {});
  ~LocalModel();
  LocalModel(const LocalModel&) = delete;
  LocalModel& operator=(const LocalModel&) = delete;

  llama_model* get() const { return model_; }
  const ModelFingerprint& fingerprint() const { return fingerprint_; }
  const std::filesystem::path& path() const { return path_; }
  // The model's own chat template text (its tokenizer.chat_template); empty when it has none, and
  // sessions then render with the built-in ChatML.
  const std::string& chat_template() const { return template_; }

 private:
  LocalModel() = default;
  llama_model* model_ = nullptr;
  ModelFingerprint fingerprint_;
  std::filesystem::path path_;
  std::string template_;
};

// Execution settings that change the KV bytes; all are part of the checkpoint identity.
struct EngineOptions {
  uint32_t n_ctx = 4096;       // context size, tokens
  uint32_t n_batch = 512;      // logical prefill batch, tokens
  uint32_t n_ubatch = 512;     // physical batch, tokens
  std::string type_k = "f16";  // KV cache element types: "f16", "f32", "q8_0", "bf16"
  std::string type_v = "f16";
  bool flash_attn = false;
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
  size_t generated_tokens = 0;
};

// Counters of the work a session did, for tests and reports.
struct SessionCounters {
  int renders = 0;             // prompt renders (ContextSession::Render through the template)
  int tokenizations = 0;       // llama_tokenize calls
  int contexts = 0;            // llama contexts created
  int64_t prefill_tokens = 0;  // prompt tokens decoded
  int store_lookups = 0;
  int store_writes = 0;
  int file_reads = 0;  // discovery runs over the project's instruction files
};

// Called on the first message only; receives exactly the user's first message.
using TitleGenerator = std::function<std::string(std::string_view first_user_message)>;
// A short title from the first line of the message (at most 8 words, 60 bytes).
std::string HeuristicTitle(std::string_view first_user_message);

struct SessionHooks {
  TitleGenerator title;  // default: HeuristicTitle
  // Prefill progress (tokens done, tokens total), for a progress bar.
  std::function<void(size_t done, size_t total)> progress;
  // Called with the key lock held, just before the prefix prefill of a miss (tests use it to
  // widen the race window between processes).
  std::function<void()> before_prefix_prefill;
  // Called for every generated piece of text.
  std::function<void(std::string_view piece)> on_token;
};

struct GenerateOptions {
  int max_tokens = 0;  // tokens to generate greedily after the prompt; 0: prompt only
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

  // Adds a user message and runs the model on it. An empty (or all-whitespace) message is
  // refused with kInvalidArgument and changes nothing. `context` is used on the first turn.
  Result<LocalTurnReport> Submit(std::string_view user_message, const SessionContext& context = {},
                                 const GenerateOptions& generate = {});

  bool started() const { return started_; }
  const std::vector<VisibleTurn>& visible_turns() const { return visible_; }
  const SessionCounters& counters() const { return counters_; }
  const std::string& title() const { return title_; }
  // The rendered deterministic prefix and first-turn suffix (empty before the first turn).
  const std::string& rendered_prefix() const { return prefix_text_; }
  const std::string& rendered_suffix() const { return suffix_text_; }
  const std::vector<int32_t>& prefix_tokens() const { return prefix_tokens_; }
  const std::vector<int32_t>& first_suffix_tokens() const { return suffix_tokens_; }
  // The checkpoint identity of this session's prefix (valid after the first turn).
  const CheckpointIdentity& identity() const { return identity_; }
  // Logits (vocabulary size) after the last prompt token of the latest turn, before generation.
  const std::vector<float>& prompt_logits() const { return prompt_logits_; }

 private:
  struct Engine;
  Status Start(std::string_view user_message, const SessionContext& context,
               LocalTurnReport& report);
  Status BuildPrompt(std::string_view user_message, const SessionContext& context);
  Status RestoreOrPrefill(LocalTurnReport& report);
  bool Restore(const Lookup& found, LocalTurnReport& report, double* saved_prefill_ms);
  Status PrefillAndStore(LocalTurnReport& report);
  Status Continue(std::string_view user_message, LocalTurnReport& report);
  Result<std::string> Render(size_t* head_end);
  Result<std::vector<int32_t>> Tokenize(std::string_view text, bool add_special);
  Status Decode(const std::vector<int32_t>& tokens, bool want_logits);
  Status Generate(const GenerateOptions& generate, LocalTurnReport& report,
                  std::chrono::steady_clock::time_point started);

  const LocalModel& model_;
  CheckpointStore& store_;
  SessionConfig config_;
  EngineOptions engine_;
  SessionHooks hooks_;
  std::unique_ptr<Engine> llama_;

  bool started_ = false;
  std::string title_;
  std::string prefix_text_, suffix_text_;
  std::vector<int32_t> prefix_tokens_, suffix_tokens_;
  CheckpointIdentity identity_;
  std::string rendered_;  // text whose tokens are in the KV cache
  int32_t n_past_ = 0;
  std::vector<VisibleTurn> visible_;
  std::vector<float> prompt_logits_;
  SessionCounters counters_;
};

// Logits after decoding `tokens` in one fresh context with `engine` settings (the reference for
// "restore + suffix equals a full prefill"). The whole sequence goes through llama_decode in one
// call when it fits n_batch.
Result<std::vector<float>> FullPrefillLogits(const LocalModel& model, const EngineOptions& engine,
                                             const std::vector<int32_t>& tokens);

// Tokens of `text` under the model's vocabulary (special tokens parsed), with BOS when add_special.
Result<std::vector<int32_t>> TokenizeText(const LocalModel& model, std::string_view text,
                                          bool add_special);

// The checkpoint identity for a rendered prefix under `engine` and `reasoning_mode`.
CheckpointIdentity MakeIdentity(const LocalModel& model, const EngineOptions& engine,
                                std::string_view reasoning_mode, std::string_view prefix_text);

}  // namespace strata
