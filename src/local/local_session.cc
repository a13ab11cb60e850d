// local_session.cc: the local session (see local_session.h): draft until the first non-empty
// submission; then discovery of the project's instruction files, the prompt assembled by a
// ContextSession and rendered through the model's chat template (the render's head is the
// deterministic prefix, the rest the uncached suffix), checkpoint lookup / restore / rebuild,
// suffix prefill, greedy generation, and later turns appended to the same context.
//
// Concurrency: a miss takes the store's key lock and looks again before prefilling, so when two
// processes start the same new prefix, the second waits for the first's file and restores it.
#include "strata/local_session.h"

#include <fmt/format.h>
#include <llama.h>

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>
#include <thread>

#include "base/hash.h"
#include "io/file_io.h"
#include "local/model_chat_template.h"
#include "strata/assemble.h"
#include "strata/chat_template.h"
#include "strata/discover.h"
#include "tokenize/llama_tokenize.h"

namespace strata {
namespace {

using Clock = std::chrono::steady_clock;

double MsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

Result<ggml_type> KvType(std::string_view name) {
  if (name == "f32") return GGML_TYPE_F32;
  if (name == "f16") return GGML_TYPE_F16;
  if (name == "bf16") return GGML_TYPE_BF16;
  if (name == "q8_0") return GGML_TYPE_Q8_0;
  if (name == "q4_0") return GGML_TYPE_Q4_0;
  return MakeError(ErrorKind::kInvalidArgument, fmt::format("unknown KV cache type '{}'", name));
}

struct ContextFree {
  void operator()(llama_context* ctx) const { llama_free(ctx); }
};
using ContextPtr = std::unique_ptr<llama_context, ContextFree>;

Result<ContextPtr> NewContext(const LocalModel& model, const EngineOptions& engine) {
  auto type_k = KvType(engine.type_k);
  if (!type_k) return tl::unexpected(type_k.error());
  auto type_v = KvType(engine.type_v);
  if (!type_v) return tl::unexpected(type_v.error());
  llama_context_params p = llama_context_default_params();
  p.n_ctx = engine.n_ctx;
  p.n_batch = engine.n_batch;
  p.n_ubatch = std::min(engine.n_ubatch, engine.n_batch);
  p.n_seq_max = 1;
  const int threads =
      engine.n_threads > 0 ? engine.n_threads : std::max(1u, std::thread::hardware_concurrency());
  p.n_threads = threads;
  p.n_threads_batch = threads;
  p.type_k = *type_k;
  p.type_v = *type_v;
  p.flash_attn_type =
      engine.flash_attn ? LLAMA_FLASH_ATTN_TYPE_ENABLED : LLAMA_FLASH_ATTN_TYPE_DISABLED;
  p.no_perf = true;
  llama_context* ctx = llama_init_from_model(model.get(), p);
  if (ctx == nullptr) {
    return MakeError(
        ErrorKind::kInvalidArgument,
        "llama.cpp refused the context settings (KV types, context size, flash attention)");
  }
  return ContextPtr(ctx);
}

struct SamplerFree {
  void operator()(llama_sampler* sampler) const { llama_sampler_free(sampler); }
};

// Decodes `tokens` in batches of at most n_batch (llama.cpp lowers n_batch to the context size;
// a larger decode call would abort in ggml), reporting progress after each batch.
Status DecodeBatches(llama_context* ctx, const EngineOptions& engine,
                     const std::vector<int32_t>& tokens,
                     const std::function<void(size_t, size_t)>& progress) {
  const size_t batch = std::max<size_t>(1, std::min<size_t>(engine.n_batch, llama_n_batch(ctx)));
  for (size_t at = 0; at < tokens.size(); at += batch) {
    const size_t n = std::min(batch, tokens.size() - at);
    llama_batch b =
        llama_batch_get_one(const_cast<llama_token*>(tokens.data() + at), static_cast<int32_t>(n));
    if (llama_decode(ctx, b) != 0) return MakeError(ErrorKind::kIo, "llama_decode failed");
    if (progress) progress(at + n, tokens.size());
  }
  return {};
}

// The logits after the last decoded token (vocabulary size).
std::vector<float> LastLogits(const LocalModel& model, llama_context* ctx) {
  const float* logits = llama_get_logits_ith(ctx, -1);
  const int n_vocab = llama_vocab_n_tokens(llama_model_get_vocab(model.get()));
  return std::vector<float>(logits, logits + n_vocab);
}

bool IsBlank(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isspace(c) != 0; });
}

// The instruction files an agent in `root` sees (the discovery cascade: AGENTS.md, CLAUDE.md,
// GEMINI.md, local files, `@path` imports; symlinked duplicates once; text after hygiene), keyed
// by their path relative to the root. Discovery's diagnostics are not errors here.
Result<std::vector<InstructionSource>> DiscoverInstructions(const std::filesystem::path& root) {
  DiscoverOptions options;
  options.working_dir = root;
  options.project_root = root;
  STRATA_TRY_ASSIGN(Discovery found, Discover(options));
  std::vector<InstructionSource> out;
  for (Source& source : found.sources) {
    if (!source.content.empty()) out.push_back({source.display_path, std::move(source.content)});
  }
  return out;
}

// The assembler's inputs for a session: persona, rules (configured, then extra instructions),
// tools, discovered instructions. Errors: kInvalidArgument for a tool whose parameters are not
// JSON.
Result<ContextInputs> SessionInputs(const SessionConfig& config,
                                    std::vector<InstructionSource> instructions) {
  ContextInputs inputs;
  inputs.model = "local";
  inputs.persona = config.agent_prompt;
  for (const std::string* rule : {&config.system_instructions, &config.extra_instructions}) {
    if (!rule->empty()) inputs.rules.push_back(*rule);
  }
  for (const ToolSpec& tool : config.tools) {
    nlohmann::json schema = nlohmann::json::parse(tool.parameters_json, nullptr, false);
    if (schema.is_discarded()) {
      return MakeError(ErrorKind::kInvalidArgument,
                       fmt::format("tool '{}': parameters are not JSON", tool.name));
    }
    inputs.tools.push_back({tool.name, tool.description, std::move(schema)});
  }
  inputs.instructions = std::move(instructions);
  return inputs;
}

// The first user message: the session context (date/time, client metadata), then the message.
// It stays in the history, so later turns append to the KV cache instead of re-rendering it.
std::string FirstUserText(const SessionContext& context, std::string_view user_message) {
  std::string out;
  if (!context.datetime.empty()) out += "Current date and time: " + context.datetime + "\n";
  if (!context.client_metadata.empty()) out += "Client: " + context.client_metadata + "\n";
  if (!out.empty()) out += "\n";
  out.append(user_message);
  return out;
}

}  // namespace

const char* CheckpointOutcomeName(CheckpointOutcome outcome) {
  switch (outcome) {
    case CheckpointOutcome::kHit:
      return "hit";
    case CheckpointOutcome::kMiss:
      return "miss";
    case CheckpointOutcome::kRebuilt:
      return "rebuilt";
    case CheckpointOutcome::kNone:
      break;
  }
  return "none";
}

std::string HeuristicTitle(std::string_view message) {
  while (!message.empty() && std::isspace(static_cast<unsigned char>(message.front())))
    message.remove_prefix(1);
  message = message.substr(0, message.find('\n'));
  std::string title;
  int words = 0;
  size_t i = 0;
  while (i < message.size() && words < 8) {
    while (i < message.size() && message[i] == ' ') ++i;
    size_t j = message.find(' ', i);
    if (j == std::string_view::npos) j = message.size();
    if (j == i) break;
    std::string_view word = message.substr(i, j - i);
    if (title.size() + word.size() + 1 > 60 && !title.empty()) break;
    if (!title.empty()) title += ' ';
    title += word.substr(0, 60);
    ++words;
    i = j;
  }
  while (!title.empty() && std::string_view(".,;:!?").find(title.back()) != std::string_view::npos)
    title.pop_back();
  return title;
}

CheckpointIdentity MakeIdentity(const LocalModel& model, const EngineOptions& engine,
                                std::string_view reasoning_mode, std::string_view prefix_text) {
  CheckpointIdentity id;
  id.engine = STRATA_LLAMA_BUILD;
  id.model = model.fingerprint().digest;
  id.tokenizer = model.fingerprint().tokenizer;
  id.chat_template = Sha256Hex(model.chat_template());
  id.reasoning_mode = std::string(reasoning_mode);
  id.n_ctx = engine.n_ctx;
  id.type_k = engine.type_k;
  id.type_v = engine.type_v;
  id.flash_attn = engine.flash_attn;
  id.n_batch = engine.n_batch;
  id.n_ubatch = std::min(engine.n_ubatch, engine.n_batch);
  id.prefix_sha256 = Sha256Hex(prefix_text);
  return id;
}

struct LocalSession::Engine {
  ContextPtr ctx;
  std::unique_ptr<ChatTemplate> chat_template;
  std::optional<ContextSession> prompt;  // the conversation, rendered through chat_template
  ContextInputs inputs;                  // fixed at the first submission
};

LocalSession::LocalSession(const LocalModel& model, CheckpointStore& store, SessionConfig config,
                           EngineOptions engine, SessionHooks hooks)
    : model_(model),
      store_(store),
      config_(std::move(config)),
      engine_(std::move(engine)),
      hooks_(std::move(hooks)) {}

LocalSession::~LocalSession() = default;

Result<std::string> LocalSession::Render(size_t* head_end) {
  ++counters_.renders;
  STRATA_TRY_ASSIGN(AssembledRequest assembled,
                    llama_->prompt->Render(Provider::kChatTemplate, llama_->inputs, {}));
  if (head_end != nullptr) *head_end = assembled.request.head_end;
  return assembled.request.Flatten();
}

Result<std::vector<int32_t>> LocalSession::Tokenize(std::string_view text, bool add_special) {
  ++counters_.tokenizations;
  return TokenizeText(model_, text, add_special);
}

Result<std::vector<int32_t>> TokenizeText(const LocalModel& model, std::string_view text,
                                          bool add_special) {
  return LlamaTokenize(llama_model_get_vocab(model.get()), text, add_special,
                       /*parse_special=*/true);
}

Status LocalSession::Decode(const std::vector<int32_t>& tokens, bool want_logits) {
  if (n_past_ + tokens.size() > llama_n_ctx(llama_->ctx.get())) {
    return MakeError(ErrorKind::kLimit,
                     fmt::format("the prompt needs {} tokens; the context holds {}",
                                 n_past_ + tokens.size(), llama_n_ctx(llama_->ctx.get())));
  }
  STRATA_TRY(DecodeBatches(llama_->ctx.get(), engine_, tokens, hooks_.progress));
  n_past_ += static_cast<int32_t>(tokens.size());
  counters_.prefill_tokens += static_cast<int64_t>(tokens.size());
  if (want_logits && !tokens.empty()) prompt_logits_ = LastLogits(model_, llama_->ctx.get());
  return {};
}

Status LocalSession::BuildPrompt(std::string_view user_message, const SessionContext& context) {
  std::vector<InstructionSource> instructions;
  if (!config_.project_root.empty()) {
    ++counters_.file_reads;
    STRATA_TRY_ASSIGN(instructions, DiscoverInstructions(config_.project_root));
  }
  STRATA_TRY_ASSIGN(llama_->inputs, SessionInputs(config_, std::move(instructions)));
  STRATA_TRY_ASSIGN(llama_->chat_template,
                    MakeModelChatTemplate(model_.get(), model_.fingerprint().chat_template,
                                          config_.reasoning_mode != "off"));
  AssembleOptions options;
  options.chat_template = llama_->chat_template.get();
  STRATA_TRY_ASSIGN(ContextSession prompt, ContextSession::Create(std::move(options)));
  llama_->prompt.emplace(std::move(prompt));
  STRATA_TRY(llama_->prompt->BeginTurn(llama_->inputs, FirstUserText(context, user_message)));
  size_t head_end = 0;
  STRATA_TRY_ASSIGN(rendered_, Render(&head_end));
  prefix_text_ = rendered_.substr(0, head_end);
  suffix_text_ = rendered_.substr(head_end);
  identity_ = MakeIdentity(model_, engine_, config_.reasoning_mode, prefix_text_);
  return {};
}

bool LocalSession::Restore(const Lookup& found, LocalTurnReport& report, double* saved_prefill_ms) {
  const Checkpoint& cp = found.checkpoint;
  report.restore_read_ms = found.read_ms;
  report.restore_verify_ms = found.verify_ms;
  const auto t_load = Clock::now();
  const size_t read = llama_state_seq_set_data(
      llama_->ctx.get(), reinterpret_cast<const uint8_t*>(cp.payload().data()), cp.payload().size(),
      0);
  if (read == 0) {
    llama_memory_clear(llama_get_memory(llama_->ctx.get()), true);
    return false;
  }
  prefix_tokens_ = cp.tokens;
  n_past_ = static_cast<int32_t>(cp.tokens.size());
  report.restore_load_ms = MsSince(t_load);
  *saved_prefill_ms = cp.prefill_ms;
  return true;
}

Status LocalSession::PrefillAndStore(LocalTurnReport& report) {
  STRATA_TRY_ASSIGN(prefix_tokens_, Tokenize(prefix_text_, /*add_special=*/true));
  if (hooks_.before_prefix_prefill) hooks_.before_prefix_prefill();
  const auto t1 = Clock::now();
  STRATA_TRY(Decode(prefix_tokens_, false));
  report.prefill_ms += MsSince(t1);
  const double prefix_prefill_ms = report.prefill_ms;
  const size_t size = llama_state_seq_get_size(llama_->ctx.get(), 0);
  std::string image = EncodeCheckpoint(
      identity_, prefix_text_, prefix_tokens_, size,
      [&](char* dst) {
        llama_state_seq_get_data(llama_->ctx.get(), reinterpret_cast<uint8_t*>(dst), size, 0);
      },
      prefix_prefill_ms);
  ++counters_.store_writes;
  // A store that cannot write (disk full, read-only) costs the next session a prefill, not this
  // session its turn: the prefix is already in the context.
  auto saved = store_.Save(report.key, image);
  report.stored = saved.has_value() && *saved;
  if (!saved) {
    const std::string why = store_.degraded().empty()
                                ? "checkpoint not stored: " + saved.error().message
                                : store_.degraded();
    report.store_warning += (report.store_warning.empty() ? "" : "; ") + why;
  }
  return {};
}

Status LocalSession::RestoreOrPrefill(LocalTurnReport& report) {
  double saved_prefill_ms = 0;
  const auto t0 = Clock::now();
  ++counters_.store_lookups;
  Lookup found = store_.Find(report.key, identity_, prefix_text_);
  std::string reason = found.reason;
  if (!found.warning.empty()) report.store_warning = found.warning;
  bool restored = found.state == LookupState::kHit && Restore(found, report, &saved_prefill_ms);
  if (found.state == LookupState::kHit && !restored) reason = "llama.cpp refused the stored state";
  if (!restored) {
    STRATA_TRY_ASSIGN(auto lock, store_.LockKey(report.key));
    if (found.state != LookupState::kHit) {  // another process may have built it while we waited
      ++counters_.store_lookups;
      Lookup again = store_.Find(report.key, identity_, prefix_text_);
      if (again.state == LookupState::kHit) restored = Restore(again, report, &saved_prefill_ms);
      if (again.state == LookupState::kInvalid && reason.empty()) reason = again.reason;
    }
    report.restore_ms = MsSince(t0);
    if (!restored) {
      report.checkpoint = reason.empty() ? CheckpointOutcome::kMiss : CheckpointOutcome::kRebuilt;
      report.rebuild_reason = reason;
      STRATA_TRY(PrefillAndStore(report));
    }
  } else {
    report.restore_ms = MsSince(t0);
  }
  if (restored) {
    report.checkpoint = CheckpointOutcome::kHit;
    report.saved_ms = std::max(0.0, saved_prefill_ms - report.restore_ms);
  }
  report.prefix_tokens = prefix_tokens_.size();
  return {};
}

Status LocalSession::Start(std::string_view user_message, const SessionContext& context,
                           LocalTurnReport& report) {
  llama_ = std::make_unique<Engine>();
  // 1. The deterministic prefix (the render's head) and the session suffix.
  STRATA_TRY(BuildPrompt(user_message, context));
  report.key = CheckpointKey(identity_);
  // 2. A context (the first model work of the session).
  STRATA_TRY_ASSIGN(llama_->ctx, NewContext(model_, engine_));
  ++counters_.contexts;
  // 3. Restore the prefix, or prefill and store it.
  STRATA_TRY(RestoreOrPrefill(report));
  // 4. The suffix.
  STRATA_TRY_ASSIGN(suffix_tokens_, Tokenize(suffix_text_, /*add_special=*/false));
  const auto t2 = Clock::now();
  STRATA_TRY(Decode(suffix_tokens_, true));
  report.prefill_ms += MsSince(t2);
  report.suffix_tokens = suffix_tokens_.size();
  return {};
}

Status LocalSession::Generate(const GenerateOptions& generate, LocalTurnReport& report,
                              Clock::time_point started) {
  report.first_token_ms = MsSince(started);
  const llama_vocab* vocab = llama_model_get_vocab(model_.get());
  std::unique_ptr<llama_sampler, SamplerFree> sampler(llama_sampler_init_greedy());
  std::string reply;
  for (int i = 0; i < generate.max_tokens; ++i) {
    llama_token token = llama_sampler_sample(sampler.get(), llama_->ctx.get(), -1);
    if (i == 0) report.first_token_ms = MsSince(started);
    if (llama_vocab_is_eog(vocab, token)) break;
    char piece[256];
    int n = llama_token_to_piece(vocab, token, piece, sizeof piece, 0, /*special=*/false);
    if (n > 0) {
      reply.append(piece, n);
      if (hooks_.on_token) hooks_.on_token(std::string_view(piece, n));
    }
    ++report.generated_tokens;
    if (n_past_ + 1 > static_cast<int32_t>(llama_n_ctx(llama_->ctx.get()))) break;
    llama_batch b = llama_batch_get_one(&token, 1);
    if (llama_decode(llama_->ctx.get(), b) != 0)
      return MakeError(ErrorKind::kIo, "llama_decode failed during generation");
    ++n_past_;
  }
  report.reply = reply;
  // The generated text is in the KV cache; the template's end-of-turn marker is added with the
  // next turn's delta.
  Message answer;
  answer.role = Role::kAssistant;
  answer.text = reply;
  STRATA_TRY(llama_->prompt->Append(std::move(answer)));
  rendered_ += reply;
  return {};
}

Status LocalSession::Continue(std::string_view user_message, LocalTurnReport& report) {
  STRATA_TRY(llama_->prompt->BeginTurn(llama_->inputs, std::string(user_message)));
  STRATA_TRY_ASSIGN(std::string full, Render(nullptr));
  std::string delta;
  if (full.starts_with(rendered_)) {
    delta = full.substr(rendered_.size());
  } else {  // the template re-rendered earlier turns: replay everything after the prefix
    llama_memory_seq_rm(llama_get_memory(llama_->ctx.get()), 0,
                        static_cast<llama_pos>(prefix_tokens_.size()), -1);
    n_past_ = static_cast<int32_t>(prefix_tokens_.size());
    delta = full.substr(prefix_text_.size());
  }
  STRATA_TRY_ASSIGN(auto tokens, Tokenize(delta, false));
  const auto t = Clock::now();
  STRATA_TRY(Decode(tokens, true));
  report.prefill_ms = MsSince(t);
  report.suffix_tokens = tokens.size();
  rendered_ = std::move(full);
  return {};
}

Result<LocalTurnReport> LocalSession::Submit(std::string_view user_message,
                                             const SessionContext& context,
                                             const GenerateOptions& generate) {
  if (IsBlank(user_message)) return MakeError(ErrorKind::kInvalidArgument, "empty message");
  const auto started_at = Clock::now();
  LocalTurnReport report;
  report.turn = static_cast<int>(visible_.size() / 2) + 1;
  if (!started_) {
    if (auto st = Start(user_message, context, report); !st) {
      llama_.reset();
      return tl::unexpected(st.error());
    }
    started_ = true;
    title_ = hooks_.title ? hooks_.title(user_message) : HeuristicTitle(user_message);
    report.title = title_;
  } else {
    STRATA_TRY(Continue(user_message, report));
  }
  visible_.push_back({"user", std::string(user_message)});
  STRATA_TRY(Generate(generate, report, started_at));
  visible_.push_back({"assistant", report.reply});
  return report;
}

Result<std::vector<float>> FullPrefillLogits(const LocalModel& model, const EngineOptions& engine,
                                             const std::vector<int32_t>& tokens) {
  STRATA_TRY_ASSIGN(ContextPtr ctx, NewContext(model, engine));
  STRATA_TRY(DecodeBatches(ctx.get(), engine, tokens, nullptr));
  return LastLogits(model, ctx.get());
}

}  // namespace strata
