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

#include "io/file_io.h"
#include "base/hash.h"
#include "local/llama_context.h"
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

struct SamplerFree {
  void operator()(llama_sampler* sampler) const { llama_sampler_free(sampler); }
};

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
  LlamaContextPtr ctx;
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
  STRATA_TRY(DecodeTokenBatches(llama_->ctx.get(), engine_, tokens, hooks_.progress));
  n_past_ += static_cast<int32_t>(tokens.size());
  counters_.prefill_tokens += static_cast<int64_t>(tokens.size());
  if (want_logits && !tokens.empty()) prompt_logits_ = LastTokenLogits(model_, llama_->ctx.get());
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
  if (!LoadSequenceCheckpoint(llama_->ctx.get(), cp)) return false;
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
  std::string image = EncodeSequenceCheckpoint(llama_->ctx.get(), identity_, prefix_text_,
                                               prefix_tokens_, prefix_prefill_ms);
  ++counters_.store_writes;
  // A store that cannot write (disk full, read-only) costs the next session a prefill, not this
  // session its turn: the prefix is already in the context.
  auto saved = store_.Save(report.key, image);
  report.stored = saved.has_value() && *saved;
  return {};
}

Status LocalSession::RestoreOrPrefill(LocalTurnReport& report) {
  double saved_prefill_ms = 0;
  const auto t0 = Clock::now();
  ++counters_.store_lookups;
  Lookup found = store_.Find(report.key, identity_, prefix_text_);
  std::string reason = found.reason;
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
  STRATA_TRY_ASSIGN(llama_->ctx, NewLlamaContext(model_, engine_));
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
  STRATA_TRY_ASSIGN(LlamaContextPtr ctx, NewLlamaContext(model, engine));
  STRATA_TRY(DecodeTokenBatches(ctx.get(), engine, tokens, nullptr));
  return LastTokenLogits(model, ctx.get());
}

}  // namespace strata
