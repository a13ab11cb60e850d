// local_engine.cc: the shared context, its scheduler thread and the sequence operations (see
// local_engine.h).
#include "local/local_engine.h"

#include <common.h>
#include <fmt/format.h>
#include <ggml-cpu.h>

#include <algorithm>
#include <cstring>
#include <optional>

#include "base/common_prefix.h"
#include "local/stream_state.h"

namespace strata {

Result<std::unique_ptr<LocalEngine>> LocalEngine::Create(const LocalModel& model,
                                                         const EngineOptions& engine, int n_seq) {
  if (n_seq < 1)
    return MakeError(ErrorKind::kInvalidArgument, "an engine needs at least one sequence");
  std::unique_ptr<LocalEngine> e(new LocalEngine());
  STRATA_TRY_ASSIGN(e->ctx_, NewLlamaContext(model, engine, n_seq));
  // Threads that live as long as the engine (as llama-server's common_threadpools): without an
  // attached pool ggml starts and joins its threads in every graph compute, i.e. every step.
  const int n_threads = llama_n_threads(e->ctx_.get());
  const int n_threads_batch = llama_n_threads_batch(e->ctx_.get());
  ggml_threadpool_params tpp = ggml_threadpool_params_default(n_threads);
  ggml_threadpool_params tpp_batch = ggml_threadpool_params_default(n_threads_batch);
  if (n_threads != n_threads_batch) {
    e->threadpool_batch_ = ggml_threadpool_new(&tpp_batch);
    tpp.paused = true;  // resumed by the first single-token step (common_threadpools does this)
  }
  e->threadpool_ = ggml_threadpool_new(&tpp);
  if (e->threadpool_ != nullptr)
    llama_attach_threadpool(e->ctx_.get(), e->threadpool_, e->threadpool_batch_);
  e->vocab_ = llama_model_get_vocab(LlamaModel(model));
  e->n_swa_ = std::max(0, llama_model_n_swa(LlamaModel(model)));
  e->can_trim_ =
      !llama_model_is_recurrent(LlamaModel(model)) && !llama_model_is_hybrid(LlamaModel(model));
  e->streams_ = SeparateStreams(model, n_seq);
  e->n_ctx_seq_ = engine.n_ctx;
  e->n_batch_ = std::max<size_t>(1, std::min<size_t>(engine.n_batch, llama_n_batch(e->ctx_.get())));
  e->batch_ = llama_batch_init(static_cast<int32_t>(e->n_batch_), 0, 1);
  e->held_.resize(static_cast<size_t>(n_seq));
  e->broken_.resize(static_cast<size_t>(n_seq), false);
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
  ctx_.reset();  // before the threads it computes on
  if (threadpool_ != nullptr) ggml_threadpool_free(threadpool_);
  if (threadpool_batch_ != nullptr) ggml_threadpool_free(threadpool_batch_);
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
  w.track_steps = static_cast<bool>(progress);
  pending_.push_back(&w);
  work_cv_.notify_one();
  while (true) {
    done_cv_.wait(lock, [&] { return w.finished || !w.steps.empty(); });
    ReportSteps(w, progress, lock);
    if (w.finished) break;
  }
  return w.status;
}

Status LocalEngine::Generate(int seq, std::span<const int32_t> input, TokenSampler& sampler,
                             int max_tokens, const std::function<bool(int32_t)>& on_token,
                             const std::function<bool()>& cancelled,
                             const std::function<void(size_t)>& progress,
                             const std::function<bool(int32_t)>& ends) {
  if (input.empty())
    return MakeError(ErrorKind::kInvalidArgument, "generation needs at least one input token");
  if (max_tokens <= 0) return {};
  std::unique_lock lock(mu_);
  if (held_[seq].size() + input.size() > n_ctx_seq_) {
    return MakeError(ErrorKind::kInvalidArgument,
                     fmt::format("sequence {} would hold {} tokens; its context holds {}", seq,
                                 held_[seq].size() + input.size(), n_ctx_seq_));
  }
  Work w;
  w.seq = seq;
  w.tokens = input;
  w.cancelled = cancelled ? &cancelled : nullptr;
  w.sampler = &sampler;
  w.ends = ends ? &ends : nullptr;
  w.max_tokens = max_tokens;
  w.track_steps = static_cast<bool>(progress);
  pending_.push_back(&w);
  work_cv_.notify_one();
  size_t taken = 0;
  while (true) {
    // After a stop, only the end: the tokens sampled meanwhile are dropped.
    done_cv_.wait(
        lock, [&] { return w.finished || (!w.stop && w.out.size() > taken) || !w.steps.empty(); });
    ReportSteps(w, progress, lock);
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

void LocalEngine::ReportSteps(Work& w, const std::function<void(size_t)>& progress,
                              std::unique_lock<std::mutex>& lock) {
  while (!w.steps.empty()) {
    std::vector<size_t> steps = std::move(w.steps);
    w.steps.clear();
    lock.unlock();  // the scheduler goes on meanwhile
    for (size_t done : steps) progress(done);
    lock.lock();
  }
}

void LocalEngine::Loop() {
  std::unique_lock lock(mu_);
  while (true) {
    // A sequence operation waiting for the context goes first: steps would otherwise follow each
    // other without a gap and starve it.
    work_cv_.wait(lock, [&] { return stop_ || (!pending_.empty() && ctx_waiters_ == 0); });
    if (stop_) return;
    Step(lock);
  }
}

std::unique_lock<std::mutex> LocalEngine::LockContext() {
  std::unique_lock lock(mu_);
  ++ctx_waiters_;
  ctx_cv_.wait(lock, [&] { return !decoding_; });
  --ctx_waiters_;
  ++counters_.context_takes;
  RunCopies();
  work_cv_.notify_one();  // the scheduler runs its next step once this lock is released
  return lock;
}

// One step: a batch of every pending work's next tokens, one llama_decode, then sampling.
bool LocalEngine::PrunePending() {
  for (Work* w : pending_) {
    if (!w->Generating() && w->cancelled != nullptr && (*w->cancelled)()) {
      w->status = MakeError(ErrorKind::kIo, "cancelled");
      w->finished = true;
    }
    if (w->stop) w->finished = true;
    if (broken_[w->seq] && !w->finished) {
      // Its shared prefix was never copied: decoding after it would attend to nothing.
      w->status = MakeError(ErrorKind::kIo, "llama.cpp refused to copy the shared prefix");
      w->finished = true;
    }
  }
  std::erase_if(pending_, [](const Work* w) { return w->finished; });
  return !pending_.empty();
}

std::vector<LocalEngine::Taken> LocalEngine::FillBatch() {
  // The next token of every generating sequence first, so a long prompt does not stall their
  // replies; then prompt chunks in arrival order until the batch is full. That is llama-server's
  // update_slots: the sampled tokens of all generating slots, then each slot's prompt tokens, slot
  // after slot, while the batch holds fewer than n_batch.
  std::stable_partition(pending_.begin(), pending_.end(),
                        [](const Work* w) { return w->Generating(); });
  std::vector<Taken> taken;
  size_t room = n_batch_;
  for (Work* w : pending_) {
    if (room == 0) break;
    const size_t n = w->Generating() ? 0 : std::min(room, w->tokens.size() - w->done);
    taken.push_back({w, n, -1});
    room -= std::max<size_t>(n, 1);
  }
  // Into the batch in sequence order. With a stream per sequence llama.cpp cuts a batch into
  // micro-batches of consecutive sequence ids, in increasing order, with as many tokens of each
  // (llama_batch_allocr::split_equal, sequential): the generated tokens of sequences 0, 5, 1 in
  // arrival order would take three graph computations, in sequence order two (0 and 1, then 5).
  // A unified cache's split ignores the order.
  std::stable_sort(taken.begin(), taken.end(),
                   [](const Taken& a, const Taken& b) { return a.work->seq < b.work->seq; });
  common_batch_clear(batch_);
  for (Taken& t : taken) {
    Work* w = t.work;
    const llama_pos pos0 = static_cast<llama_pos>(held_[w->seq].size());
    if (t.n == 0) {
      common_batch_add(batch_, w->next, pos0, {w->seq}, true);
      t.logits_at = batch_.n_tokens - 1;
      continue;
    }
    const bool logits =
        t.n == w->tokens.size() - w->done && (w->last_logits != nullptr || w->sampler != nullptr);
    for (size_t k = 0; k < t.n; ++k)
      common_batch_add(batch_, w->tokens[w->done + k], pos0 + static_cast<llama_pos>(k), {w->seq},
                       logits && k + 1 == t.n);
    t.logits_at = logits ? batch_.n_tokens - 1 : -1;
  }
  return taken;
}

void LocalEngine::Apply(const std::vector<Taken>& taken, int rc) {
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
    if (t.n > 0) {
      counters_.decoded_tokens += t.n;
      held.insert(held.end(), w->tokens.begin() + w->done, w->tokens.begin() + w->done + t.n);
      w->done += t.n;
      if (w->track_steps) w->steps.push_back(w->done);
      if (w->sampler == nullptr) w->finished = w->done == w->tokens.size();
      if (w->sampler == nullptr || t.logits_at < 0) continue;
    } else {
      counters_.decoded_tokens += 1;
      held.push_back(w->next);
    }
    w->out.push_back(t.sampled);
    w->next = t.sampled;
    // The next step would decode the token: not after the last one, an end of generation, one
    // that ends the reply (a stop string), or when the context has no room left.
    w->finished = static_cast<int>(w->out.size()) >= w->max_tokens ||
                  llama_vocab_is_eog(vocab_, t.sampled) || t.ends || held.size() + 1 >= n_ctx_seq_;
  }
  std::erase_if(pending_, [](const Work* w) { return w->finished; });
  ctx_cv_.notify_all();
  done_cv_.notify_all();
}

void LocalEngine::Step(std::unique_lock<std::mutex>& lock) {
  RunCopies();
  if (!PrunePending()) {
    done_cv_.notify_all();
    return;
  }
  std::vector<Taken> taken = FillBatch();
  // The decode and the sampling run without the lock: callers take the tokens of earlier steps
  // and submit new work meanwhile (the next step takes it); the sequence operations wait for the
  // context (LockContext). Only this thread touches the taken works' samplers and logits buffers
  // until they are marked below.
  decoding_ = true;
  lock.unlock();
  const int rc = llama_decode(ctx_.get(), batch_);
  for (Taken& t : taken) {
    if (rc != 0 || t.logits_at < 0) continue;
    if (t.work->sampler != nullptr) {
      t.sampled = t.work->sampler->NextAt(ctx_.get(), t.logits_at);
      // Before Apply lets the next step take the token: a reply ended by it (a stop string) is
      // not decoded further.
      t.ends = t.work->ends != nullptr && (*t.work->ends)(t.sampled);
    } else {
      const float* logits = llama_get_logits_ith(ctx_.get(), t.logits_at);
      t.work->last_logits->assign(logits, logits + llama_vocab_n_tokens(vocab_));
    }
  }
  lock.lock();
  decoding_ = false;
  Apply(taken, rc);
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
  {
    // Nothing to drop (a prompt that continues all its sequence holds, the usual case after a
    // reuse): no wait for the running step, which would delay this request's prompt by that
    // step and let the next one start without it. Only this sequence's caller changes what it
    // holds.
    std::lock_guard lock(mu_);
    if (keep == 0) broken_[seq] = false;  // started over: the failed copy no longer matters
    if (keep >= held_[seq].size()) return true;
  }
  const auto lock = LockContext();
  llama_memory_t mem = llama_get_memory(ctx_.get());
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
  const auto best_source = [&](int* src) {
    size_t best = better_than;
    for (size_t s = 0; s < held_.size(); ++s) {
      if (static_cast<int>(s) == seq) continue;
      const size_t n = CommonPrefixLength<int32_t>(held_[s], tokens);
      if (n > best) {
        best = n;
        *src = static_cast<int>(s);
      }
    }
    return best;
  };
  int src = -1;
  if (streams_) {
    // Queued, not done here: the copy needs the context, and waiting for the running step would
    // hold this request's prompt back a step (and the next step could start without it). The
    // scheduler copies before the next step's batch, a sequence operation before it takes the
    // context, in the order queued, so each copy finds its source as it was when it was queued.
    std::lock_guard lock(mu_);
    const size_t best = best_source(&src);
    if (src < 0) return 0;
    copies_.push_back({src, seq, best});
    broken_[seq] = false;
    held_[seq].assign(tokens.begin(), tokens.begin() + static_cast<std::ptrdiff_t>(best));
    counters_.copied_tokens += best;
    return best;
  }
  const auto lock = LockContext();
  const size_t best = best_source(&src);
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

void LocalEngine::RunCopies() {
  llama_memory_t mem = llama_get_memory(ctx_.get());
  for (const QueuedCopy& c : copies_) {
    // Another stream: llama.cpp copies across streams only whole streams (all their cells), so
    // the source's state is copied (its cells' K and V rows, a memory copy) and cut back.
    llama_memory_seq_rm(mem, c.dst, -1, -1);
    if (!CopyAcrossStreams(c.src, c.dst) ||
        !llama_memory_seq_rm(mem, c.dst, static_cast<llama_pos>(c.n), -1)) {
      llama_memory_seq_rm(mem, c.dst, -1, -1);
      held_[c.dst].clear();
      broken_[c.dst] = true;
    }
  }
  copies_.clear();
}

bool LocalEngine::CopyAcrossStreams(int src, int dst) {
  const size_t size = llama_state_seq_get_size(ctx_.get(), src);
  std::vector<uint8_t> state(size);
  // The state names its stream's place; a context reads a sequence's cells into the stream of
  // the sequence it loads, whichever place they were written from.
  return size > 0 && llama_state_seq_get_data(ctx_.get(), state.data(), size, src) == size &&
         llama_state_seq_set_data(ctx_.get(), state.data(), size, dst) != 0;
}

bool LocalEngine::Load(int seq, const Checkpoint& checkpoint) {
  // A checkpoint holds the single-stream form (stream_state.h); a context with a stream per
  // sequence reads it in its own layout. Converted before the context is taken.
  std::optional<std::string> spread;
  std::string_view payload = checkpoint.payload();
  if (streams_) {
    spread = FromSingleStream(payload, static_cast<uint32_t>(n_seq()), static_cast<uint32_t>(seq));
    if (!spread) return false;
    payload = *spread;
  }
  const auto lock = LockContext();
  llama_memory_t mem = llama_get_memory(ctx_.get());
  llama_memory_seq_rm(mem, seq, -1, -1);
  held_[seq].clear();
  const size_t read = llama_state_seq_set_data(
      ctx_.get(), reinterpret_cast<const uint8_t*>(payload.data()), payload.size(), seq);
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
  // The context only for the size and the copy of the state: the image's allocation and its
  // checksums (tens of MB for a long prompt) do not hold up the steps. Only this sequence's caller
  // changes what it holds, so the size stays right between the two.
  size_t size = 0;
  {
    const auto lock = LockContext();
    size = llama_state_seq_get_size(ctx_.get(), seq);
  }
  if (!streams_) {
    return EncodeCheckpoint(
        identity, prefix_text, tokens, size,
        [&](char* dst) {
          const auto lock = LockContext();
          llama_state_seq_get_data(ctx_.get(), reinterpret_cast<uint8_t*>(dst), size, seq);
        },
        prefill_ms);
  }
  // A checkpoint holds the single-stream form (stream_state.h): the other streams' empty counts
  // are left out, so it loads into a context of any stream count.
  std::string state(size, '\0');
  {
    const auto lock = LockContext();
    llama_state_seq_get_data(ctx_.get(), reinterpret_cast<uint8_t*>(state.data()), size, seq);
  }
  std::optional<std::string> single =
      ToSingleStream(state, static_cast<uint32_t>(n_seq()), static_cast<uint32_t>(seq));
  // Always of that layout (SeparateStreams holds only for a plain KV cache); were it not, the
  // image would carry a payload no context loads, and every load refuses it (the store then
  // deletes it and the prefix is built again).
  const std::string& payload = single ? *single : state;
  return EncodeCheckpoint(
      identity, prefix_text, tokens, payload.size(),
      [&](char* dst) { std::memcpy(dst, payload.data(), payload.size()); }, prefill_ms);
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
