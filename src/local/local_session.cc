// local_session.cc: the local session (see local_session.h): draft until the first non-empty
// submission, then deterministic prefix + uncached suffix, checkpoint lookup / restore / rebuild,
// suffix prefill, greedy generation, and later turns appended to the same context.
//
// Concurrency: a miss takes the store's key lock and looks again before prefilling, so when two
// processes start the same new prefix, the second waits for the first's file and restores it.
#include "strata/local_session.h"

#include <fmt/format.h>
#include <llama.h>

#include <algorithm>
#include <cctype>
#include <thread>

#include "io/file_io.h"

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

bool IsBlank(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isspace(c) != 0; });
}

// The deterministic system message: every configured component, then AGENTS.md byte for byte.
std::string SystemMessage(const SessionConfig& config,
                          const std::optional<std::string>& agents_md) {
  std::string out = config.agent_prompt;
  if (!config.tools.empty()) {
    out += "\n\n# Tools\n";
    for (const ToolSpec& tool : config.tools) {
      out += fmt::format("\n## {}\n{}\nParameters: {}\n", tool.name, tool.description,
                         tool.parameters_json);
    }
  }
  if (!config.system_instructions.empty())
    out += "\n\n# Instructions\n\n" + config.system_instructions;
  if (!config.extra_instructions.empty())
    out += "\n\n# Additional instructions\n\n" + config.extra_instructions;
  if (agents_md) out += "\n\n# Project instructions (AGENTS.md)\n\n" + *agents_md;
  out += "\n\n# Reasoning: " + config.reasoning_mode;
  return out;
}

std::string ContextMessage(const SessionContext& context) {
  std::string out;
  if (!context.datetime.empty()) out += "Current date and time: " + context.datetime + "\n";
  if (!context.client_metadata.empty()) out += "Client: " + context.client_metadata + "\n";
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
};

LocalSession::LocalSession(const LocalModel& model, CheckpointStore& store, SessionConfig config,
                           EngineOptions engine, SessionHooks hooks)
    : model_(model),
      store_(store),
      config_(std::move(config)),
      engine_(std::move(engine)),
      hooks_(std::move(hooks)) {}

LocalSession::~LocalSession() = default;

Result<std::string> LocalSession::Render(
    const std::vector<std::pair<std::string, std::string>>& messages, bool add_assistant) {
  ++counters_.renders;
  std::vector<llama_chat_message> chat;
  size_t total = 0;
  for (const auto& [role, content] : messages) {
    chat.push_back({role.c_str(), content.c_str()});
    total += role.size() + content.size();
  }
  std::string buf(2 * total + 256, '\0');
  int32_t n =
      llama_chat_apply_template(model_.chat_template().c_str(), chat.data(), chat.size(),
                                add_assistant, buf.data(), static_cast<int32_t>(buf.size()));
  if (n > static_cast<int32_t>(buf.size())) {
    buf.resize(n);
    n = llama_chat_apply_template(model_.chat_template().c_str(), chat.data(), chat.size(),
                                  add_assistant, buf.data(), static_cast<int32_t>(buf.size()));
  }
  if (n < 0)
    return MakeError(ErrorKind::kInvalidArgument,
                     "llama.cpp does not support this model's chat template");
  buf.resize(n);
  return buf;
}

Result<std::vector<int32_t>> LocalSession::Tokenize(std::string_view text, bool add_special) {
  ++counters_.tokenizations;
  return TokenizeText(model_, text, add_special);
}

Result<std::vector<int32_t>> TokenizeText(const LocalModel& model, std::string_view text,
                                          bool add_special) {
  const llama_vocab* vocab = llama_model_get_vocab(model.get());
  std::vector<llama_token> tokens(text.size() + 8);
  int32_t n =
      llama_tokenize(vocab, text.data(), static_cast<int32_t>(text.size()), tokens.data(),
                     static_cast<int32_t>(tokens.size()), add_special, /*parse_special=*/true);
  if (n < 0) {
    tokens.resize(-n);
    n = llama_tokenize(vocab, text.data(), static_cast<int32_t>(text.size()), tokens.data(),
                       static_cast<int32_t>(tokens.size()), add_special, true);
  }
  if (n < 0) return MakeError(ErrorKind::kInvalidArgument, "tokenization failed");
  tokens.resize(n);
  return tokens;
}

Status LocalSession::Decode(const std::vector<int32_t>& tokens, bool want_logits) {
  if (n_past_ + tokens.size() > llama_n_ctx(llama_->ctx.get())) {
    return MakeError(ErrorKind::kLimit,
                     fmt::format("the prompt needs {} tokens; the context holds {}",
                                 n_past_ + tokens.size(), llama_n_ctx(llama_->ctx.get())));
  }
  // llama.cpp lowers n_batch to the context size; a larger decode call would abort in ggml.
  const size_t batch =
      std::max<size_t>(1, std::min<size_t>(engine_.n_batch, llama_n_batch(llama_->ctx.get())));
  for (size_t at = 0; at < tokens.size(); at += batch) {
    const size_t n = std::min(batch, tokens.size() - at);
    llama_batch b =
        llama_batch_get_one(const_cast<llama_token*>(tokens.data() + at), static_cast<int32_t>(n));
    if (llama_decode(llama_->ctx.get(), b) != 0)
      return MakeError(ErrorKind::kIo, "llama_decode failed");
    n_past_ += static_cast<int32_t>(n);
    counters_.prefill_tokens += static_cast<int64_t>(n);
    if (hooks_.progress) hooks_.progress(at + n, tokens.size());
  }
  if (want_logits && !tokens.empty()) {
    const float* logits = llama_get_logits_ith(llama_->ctx.get(), -1);
    const int n_vocab = llama_vocab_n_tokens(llama_model_get_vocab(model_.get()));
    prompt_logits_.assign(logits, logits + n_vocab);
  }
  return {};
}

Status LocalSession::Start(std::string_view user_message, const SessionContext& context,
                           LocalTurnReport& report) {
  // 1. The deterministic prefix and the session suffix.
  std::optional<std::string> agents_md;
  if (!config_.project_root.empty()) {
    ++counters_.file_reads;
    auto bytes = ReadFileBytes(config_.project_root / "AGENTS.md");
    if (bytes) {
      agents_md = std::move(*bytes);
    } else if (bytes.error().kind != ErrorKind::kNotFound) {
      return tl::unexpected(bytes.error());
    }
  }
  messages_.push_back({"system", SystemMessage(config_, agents_md)});
  auto prefix = Render(messages_, /*add_assistant=*/false);
  if (!prefix) return tl::unexpected(prefix.error());
  const std::string session_context = ContextMessage(context);
  if (!session_context.empty()) messages_.push_back({"system", session_context});
  messages_.push_back({"user", std::string(user_message)});
  auto full = Render(messages_, /*add_assistant=*/true);
  if (!full) return tl::unexpected(full.error());
  if (full->compare(0, prefix->size(), *prefix) != 0) {
    return MakeError(ErrorKind::kInvalidArgument,
                     "the chat template does not render the system message as a stable prefix");
  }
  prefix_text_ = std::move(*prefix);
  suffix_text_ = full->substr(prefix_text_.size());
  rendered_ = std::move(*full);
  identity_ = MakeIdentity(model_, engine_, config_.reasoning_mode, prefix_text_);
  report.key = CheckpointKey(identity_);

  // 2. A context (the first model work of the session).
  auto ctx = NewContext(model_, engine_);
  if (!ctx) return tl::unexpected(ctx.error());
  ++counters_.contexts;
  llama_ = std::make_unique<Engine>();
  llama_->ctx = std::move(*ctx);

  // 3. Restore the prefix, or prefill and store it.
  double saved_prefill_ms = 0;
  auto restore = [&](const Lookup& found) -> bool {
    const Checkpoint& cp = found.checkpoint;
    report.restore_read_ms = found.read_ms;
    report.restore_verify_ms = found.verify_ms;
    const auto t_load = Clock::now();
    const size_t read = llama_state_seq_set_data(
        llama_->ctx.get(), reinterpret_cast<const uint8_t*>(cp.payload().data()),
        cp.payload().size(), 0);
    if (read == 0) {
      llama_memory_clear(llama_get_memory(llama_->ctx.get()), true);
      return false;
    }
    prefix_tokens_ = cp.tokens;
    n_past_ = static_cast<int32_t>(cp.tokens.size());
    report.restore_load_ms = MsSince(t_load);
    saved_prefill_ms = cp.prefill_ms;
    return true;
  };
  auto t0 = Clock::now();
  ++counters_.store_lookups;
  Lookup found = store_.Find(report.key, identity_, prefix_text_);
  std::string reason = found.reason;
  bool restored = found.state == LookupState::kHit && restore(found);
  if (found.state == LookupState::kHit && !restored) reason = "llama.cpp refused the stored state";
  if (!restored) {
    auto lock = store_.LockKey(report.key);
    if (!lock) return tl::unexpected(lock.error());
    if (found.state != LookupState::kHit) {  // another process may have built it while we waited
      ++counters_.store_lookups;
      Lookup again = store_.Find(report.key, identity_, prefix_text_);
      if (again.state == LookupState::kHit) restored = restore(again);
      if (again.state == LookupState::kInvalid && reason.empty()) reason = again.reason;
    }
    report.restore_ms = MsSince(t0);
    if (!restored) {
      report.checkpoint = reason.empty() ? CheckpointOutcome::kMiss : CheckpointOutcome::kRebuilt;
      report.rebuild_reason = reason;
      auto tokens = Tokenize(prefix_text_, /*add_special=*/true);
      if (!tokens) return tl::unexpected(tokens.error());
      prefix_tokens_ = std::move(*tokens);
      if (hooks_.before_prefix_prefill) hooks_.before_prefix_prefill();
      auto t1 = Clock::now();
      if (auto st = Decode(prefix_tokens_, false); !st) return st;
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
      // A store that cannot write (disk full, read-only) costs the next session a prefill, not
      // this session its turn: the prefix is already in the context.
      auto saved = store_.Save(report.key, image);
      report.stored = saved.has_value() && *saved;
    } else {
      report.checkpoint = CheckpointOutcome::kHit;
    }
  } else {
    report.restore_ms = MsSince(t0);
    report.checkpoint = CheckpointOutcome::kHit;
  }
  report.prefix_tokens = prefix_tokens_.size();
  if (report.checkpoint == CheckpointOutcome::kHit) {
    report.saved_ms = std::max(0.0, saved_prefill_ms - report.restore_ms);
  }

  // 4. The suffix.
  auto suffix = Tokenize(suffix_text_, /*add_special=*/false);
  if (!suffix) return tl::unexpected(suffix.error());
  suffix_tokens_ = std::move(*suffix);
  auto t2 = Clock::now();
  if (auto st = Decode(suffix_tokens_, true); !st) return st;
  report.prefill_ms += MsSince(t2);
  report.suffix_tokens = suffix_tokens_.size();
  return {};
}

Status LocalSession::Generate(const GenerateOptions& generate, LocalTurnReport& report,
                              Clock::time_point started) {
  report.first_token_ms = MsSince(started);
  if (generate.max_tokens <= 0) return {};
  const llama_vocab* vocab = llama_model_get_vocab(model_.get());
  llama_sampler* sampler = llama_sampler_init_greedy();
  std::string reply;
  for (int i = 0; i < generate.max_tokens; ++i) {
    llama_token token = llama_sampler_sample(sampler, llama_->ctx.get(), -1);
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
    if (llama_decode(llama_->ctx.get(), b) != 0) {
      llama_sampler_free(sampler);
      return MakeError(ErrorKind::kIo, "llama_decode failed during generation");
    }
    ++n_past_;
  }
  llama_sampler_free(sampler);
  report.reply = reply;
  // The generated text is in the KV cache; the template's end-of-turn marker is added with the
  // next turn's delta.
  messages_.push_back({"assistant", reply});
  rendered_ += reply;
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
      messages_.clear();
      return tl::unexpected(st.error());
    }
    started_ = true;
    title_ = hooks_.title ? hooks_.title(user_message) : HeuristicTitle(user_message);
    report.title = title_;
  } else {
    if (messages_.empty() || messages_.back().first != "assistant") {
      messages_.push_back({"assistant", ""});
    }
    messages_.push_back({"user", std::string(user_message)});
    auto full = Render(messages_, true);
    if (!full) return tl::unexpected(full.error());
    std::string delta;
    if (full->compare(0, rendered_.size(), rendered_) == 0) {
      delta = full->substr(rendered_.size());
    } else {  // the template re-rendered earlier turns: replay everything after the prefix
      llama_memory_seq_rm(llama_get_memory(llama_->ctx.get()), 0,
                          static_cast<llama_pos>(prefix_tokens_.size()), -1);
      n_past_ = static_cast<int32_t>(prefix_tokens_.size());
      delta = full->substr(prefix_text_.size());
    }
    auto tokens = Tokenize(delta, false);
    if (!tokens) return tl::unexpected(tokens.error());
    auto t = Clock::now();
    if (auto st = Decode(*tokens, true); !st) return tl::unexpected(st.error());
    report.prefill_ms = MsSince(t);
    report.suffix_tokens = tokens->size();
    rendered_ = std::move(*full);
  }
  visible_.push_back({"user", std::string(user_message)});
  if (auto st = Generate(generate, report, started_at); !st) return tl::unexpected(st.error());
  visible_.push_back({"assistant", report.reply});
  return report;
}

Result<std::vector<float>> FullPrefillLogits(const LocalModel& model, const EngineOptions& engine,
                                             const std::vector<int32_t>& tokens) {
  EngineOptions one = engine;
  auto ctx = NewContext(model, one);
  if (!ctx) return tl::unexpected(ctx.error());
  const size_t batch =
      std::max<size_t>(1, std::min<size_t>(engine.n_batch, llama_n_batch(ctx->get())));
  for (size_t at = 0; at < tokens.size(); at += batch) {
    const size_t n = std::min(batch, tokens.size() - at);
    llama_batch b =
        llama_batch_get_one(const_cast<llama_token*>(tokens.data() + at), static_cast<int32_t>(n));
    if (llama_decode(ctx->get(), b) != 0) return MakeError(ErrorKind::kIo, "llama_decode failed");
  }
  const float* logits = llama_get_logits_ith(ctx->get(), -1);
  const int n_vocab = llama_vocab_n_tokens(llama_model_get_vocab(model.get()));
  return std::vector<float>(logits, logits + n_vocab);
}

}  // namespace strata
