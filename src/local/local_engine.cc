// local_engine.cc: the shared context, its scheduler thread and the sequence operations (see
// local_engine.h).
#include "local/local_engine.h"

#include <common.h>
#include <fmt/format.h>

#include <algorithm>

#include "base/common_prefix.h"

namespace strata {

Result<std::unique_ptr<LocalEngine>> LocalEngine::Create(const LocalModel& model,
                                                         const EngineOptions& engine, int n_seq) {
  if (n_seq < 1)
    return MakeError(ErrorKind::kInvalidArgument, "an engine needs at least one sequence");
  std::unique_ptr<LocalEngine> e(new LocalEngine());
  STRATA_TRY_ASSIGN(e->ctx_, NewLlamaContext(model, engine, n_seq));
  e->vocab_ = llama_model_get_vocab(LlamaModel(model));
  e->n_swa_ = std::max(0, llama_model_n_swa(LlamaModel(model)));
  e->can_trim_ =
      !llama_model_is_recurrent(LlamaModel(model)) && !llama_model_is_hybrid(LlamaModel(model));
  e->n_ctx_seq_ = engine.n_ctx;
  e->n_batch_ = std::max<size_t>(1, std::min<size_t>(engine.n_batch, llama_n_batch(e->ctx_.get())));
  e->batch_ = llama_batch_init(static_cast<int32_t>(e->n_batch_), 0, 1);
  e->held_.resize(static_cast<size_t>(n_seq));
  e->scheduler_ = std::thread([p = e.get()] { p->Loop(); });
  return e;
}

LocalEngine::~LocalEngine() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  work_cv_.notify_all();
  if (scheduler_.joinable()) scheduler_.join();
  if (batch_.token != nullptr) llama_batch_free(batch_);
}

Status LocalEngine::Decode(int seq, std::span<const int32_t> tokens,
                           const std::function<bool()>& cancelled, std::vector<float>* last_logits,
                           const std::function<void(size_t)>& progress) {
  if (tokens.empty()) return {};
  std::unique_lock lock(mu_);
  if (held_[seq].size() + tokens.size() > n_ctx_seq_) {
    return MakeError(ErrorKind::kInvalidArgument,
                     fmt::format("sequence {} would hold {} tokens; its context holds {}", seq,
                                 held_[seq].size() + tokens.size(), n_ctx_seq_));
  }
  Work w;
  w.seq = seq;
  w.tokens = tokens;
  w.cancelled = cancelled ? &cancelled : nullptr;
  w.last_logits = last_logits;
  pending_.push_back(&w);
  work_cv_.notify_one();
  size_t reported = 0;
  while (true) {
    done_cv_.wait(lock, [&] { return w.finished || (progress && w.done != reported); });
    if (progress && w.done != reported) {
      reported = w.done;
      lock.unlock();  // the scheduler goes on meanwhile
      progress(reported);
      lock.lock();
    }
    if (w.finished) break;
  }
  return w.status;
}

Status LocalEngine::Generate(int seq, int32_t input, TokenSampler& sampler, int max_tokens,
                             const std::function<bool(int32_t)>& on_token) {
  if (max_tokens <= 0) return {};
  std::unique_lock lock(mu_);
  if (held_[seq].size() + 1 > n_ctx_seq_) {
    return MakeError(ErrorKind::kInvalidArgument,
                     fmt::format("sequence {} is full ({} tokens)", seq, n_ctx_seq_));
  }
  Work w;
  w.seq = seq;
  w.sampler = &sampler;
  w.next = input;
  w.max_tokens = max_tokens;
  pending_.push_back(&w);
  work_cv_.notify_one();
  size_t taken = 0;
  while (true) {
    done_cv_.wait(lock, [&] { return w.finished || w.out.size() > taken; });
    // Hand the new tokens over without the lock: the scheduler goes on meanwhile.
    while (taken < w.out.size() && !w.stop) {
      const int32_t token = w.out[taken++];
      lock.unlock();
      const bool more = on_token(token);
      lock.lock();
      if (!more) w.stop = true;
    }
    if (w.finished) break;
  }
  return w.status;
}

void LocalEngine::Loop() {
  std::unique_lock lock(mu_);
  while (true) {
    work_cv_.wait(lock, [&] { return stop_ || !pending_.empty(); });
    if (stop_) return;
    Step(lock);
  }
}

// One step: a batch of every pending work's next tokens, one llama_decode, then sampling.
bool LocalEngine::PrunePending() {
  for (Work* w : pending_) {
    if (w->sampler == nullptr && w->cancelled != nullptr && (*w->cancelled)()) {
      w->status = MakeError(ErrorKind::kIo, "cancelled");
      w->finished = true;
    }
    if (w->stop) w->finished = true;
  }
  std::erase_if(pending_, [](const Work* w) { return w->finished; });
  return !pending_.empty();
}

void LocalEngine::Step(std::unique_lock<std::mutex>& /*lock held*/) {
  if (!PrunePending()) {
    done_cv_.notify_all();
    return;
  }
  // Generating sequences (one token) first, so a long prompt does not stall their replies; then
  // prompt chunks in arrival order.
  std::stable_partition(pending_.begin(), pending_.end(),
                        [](const Work* w) { return w->Remaining() == 1; });
  struct Taken {
    Work* work;
    size_t n;
    int logits_at;  // batch index of the sampled token's logits; -1: none
  };
  std::vector<Taken> taken;
  common_batch_clear(batch_);
  size_t room = n_batch_;
  for (Work* w : pending_) {
    if (room == 0) break;
    const llama_pos pos0 = static_cast<llama_pos>(held_[w->seq].size());
    if (w->sampler != nullptr) {
      common_batch_add(batch_, w->next, pos0, {w->seq}, true);
      taken.push_back({w, 1, batch_.n_tokens - 1});
      room -= 1;
      continue;
    }
    const size_t n = std::min(room, w->Remaining());
    const bool last = w->last_logits != nullptr && n == w->Remaining();
    for (size_t k = 0; k < n; ++k)
      common_batch_add(batch_, w->tokens[w->done + k], pos0 + static_cast<llama_pos>(k), {w->seq},
                       last && k + 1 == n);
    taken.push_back({w, n, last ? batch_.n_tokens - 1 : -1});
    room -= n;
  }
  const int rc = llama_decode(ctx_.get(), batch_);
  ++counters_.decode_calls;
  std::vector<int> seqs;
  for (const Taken& t : taken) seqs.push_back(t.work->seq);
  std::sort(seqs.begin(), seqs.end());
  const uint64_t distinct = std::unique(seqs.begin(), seqs.end()) - seqs.begin();
  if (distinct > 1) ++counters_.multi_sequence_decodes;
  counters_.max_sequences_per_decode = std::max(counters_.max_sequences_per_decode, distinct);
  for (const Taken& t : taken) {
    Work* w = t.work;
    std::vector<int32_t>& held = held_[w->seq];
    if (rc != 0) {
      // Drop whatever of this step the cache kept (an earlier micro-batch may have landed).
      llama_memory_seq_rm(llama_get_memory(ctx_.get()), w->seq, static_cast<llama_pos>(held.size()),
                          -1);
      w->status = MakeError(ErrorKind::kIo, fmt::format("llama_decode failed ({})", rc));
      w->finished = true;
      continue;
    }
    counters_.decoded_tokens += t.n;
    if (w->sampler == nullptr) {
      held.insert(held.end(), w->tokens.begin() + w->done, w->tokens.begin() + w->done + t.n);
      w->done += t.n;
      w->finished = w->done == w->tokens.size();
      if (t.logits_at >= 0) {
        const float* logits = llama_get_logits_ith(ctx_.get(), t.logits_at);
        w->last_logits->assign(logits, logits + llama_vocab_n_tokens(vocab_));
      }
      continue;
    }
    held.push_back(w->next);
    const int32_t token = w->sampler->NextAt(ctx_.get(), t.logits_at);
    w->out.push_back(token);
    w->next = token;
    // The next step would decode `token`: not after the last one, an end of generation, or when
    // the context has no room left.
    w->finished = static_cast<int>(w->out.size()) >= w->max_tokens ||
                  llama_vocab_is_eog(vocab_, token) || held.size() + 1 >= n_ctx_seq_;
  }
  std::erase_if(pending_, [](const Work* w) { return w->finished; });
  done_cv_.notify_all();
}

bool LocalEngine::HoldsWindow(int seq, size_t n) const {
  if (n == 0) return true;
  const llama_pos pos_min = llama_memory_seq_pos_min(llama_get_memory(ctx_.get()), seq);
  // llama-server's test before it reuses a cached prefix (tools/server/server-context.cpp,
  // pos_min_thold): the next token at position n attends to [n - n_swa, n), so a sliding-window
  // cache must still hold that window (a full cache holds position 0).
  const long thold = std::max(0L, static_cast<long>(n) - static_cast<long>(n_swa_));
  return pos_min == 0 || (pos_min >= 0 && pos_min < thold);
}

bool LocalEngine::Trim(int seq, size_t keep) {
  std::lock_guard lock(mu_);
  llama_memory_t mem = llama_get_memory(ctx_.get());
  if (keep >= held_[seq].size()) return true;
  if ((keep > 0 && !can_trim_) ||
      !llama_memory_seq_rm(mem, seq, static_cast<llama_pos>(keep), -1) || !HoldsWindow(seq, keep)) {
    llama_memory_seq_rm(mem, seq, -1, -1);
    held_[seq].clear();
    return false;
  }
  held_[seq].resize(keep);
  return true;
}

size_t LocalEngine::SharablePrefix(int seq, std::span<const int32_t> tokens) const {
  std::lock_guard lock(mu_);
  size_t best = 0;
  for (size_t s = 0; s < held_.size(); ++s) {
    if (static_cast<int>(s) != seq)
      best = std::max(best, CommonPrefixLength<int32_t>(held_[s], tokens));
  }
  return best;
}

size_t LocalEngine::SharePrefix(int seq, std::span<const int32_t> tokens, size_t better_than) {
  std::lock_guard lock(mu_);
  int src = -1;
  size_t best = better_than;
  for (size_t s = 0; s < held_.size(); ++s) {
    if (static_cast<int>(s) == seq) continue;
    const size_t n = CommonPrefixLength<int32_t>(held_[s], tokens);
    if (n > best) {
      best = n;
      src = static_cast<int>(s);
    }
  }
  if (src < 0) return 0;
  llama_memory_t mem = llama_get_memory(ctx_.get());
  llama_memory_seq_rm(mem, seq, -1, -1);
  llama_memory_seq_cp(mem, src, seq, 0, static_cast<llama_pos>(best));
  if (best < held_[src].size() && !HoldsWindow(seq, best)) {
    // Part of another sequence's prefix, from a sliding-window cache that no longer holds the
    // window before its end: not usable.
    llama_memory_seq_rm(mem, seq, -1, -1);
    held_[seq].clear();
    return 0;
  }
  held_[seq].assign(tokens.begin(), tokens.begin() + static_cast<std::ptrdiff_t>(best));
  counters_.copied_tokens += best;
  return best;
}

bool LocalEngine::Load(int seq, const Checkpoint& checkpoint) {
  std::lock_guard lock(mu_);
  llama_memory_t mem = llama_get_memory(ctx_.get());
  llama_memory_seq_rm(mem, seq, -1, -1);
  held_[seq].clear();
  const size_t read = llama_state_seq_set_data(
      ctx_.get(), reinterpret_cast<const uint8_t*>(checkpoint.payload().data()),
      checkpoint.payload().size(), seq);
  if (read == 0) {
    llama_memory_seq_rm(mem, seq, -1, -1);
    return false;
  }
  held_[seq] = checkpoint.tokens;
  return true;
}

std::string LocalEngine::Encode(int seq, const CheckpointIdentity& identity,
                                std::string_view prefix_text, const std::vector<int32_t>& tokens,
                                double prefill_ms) {
  std::lock_guard lock(mu_);
  const size_t size = llama_state_seq_get_size(ctx_.get(), seq);
  return EncodeCheckpoint(
      identity, prefix_text, tokens, size,
      [&](char* dst) {
        llama_state_seq_get_data(ctx_.get(), reinterpret_cast<uint8_t*>(dst), size, seq);
      },
      prefill_ms);
}

std::vector<int32_t> LocalEngine::Held(int seq) const {
  std::lock_guard lock(mu_);
  return held_[seq];
}

Result<std::vector<float>> FullPrefillLogits(const LocalModel& model, const EngineOptions& engine,
                                             const std::vector<int32_t>& tokens) {
  STRATA_TRY_ASSIGN(auto local_engine, LocalEngine::Create(model, engine, 1));
  std::vector<float> logits;
  STRATA_TRY(local_engine->Decode(0, tokens, {}, &logits));
  return logits;
}

EngineCounters LocalEngine::counters() const {
  std::lock_guard lock(mu_);
  return counters_;
}

}  // namespace strata
