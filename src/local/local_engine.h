// local_engine.h: one llama.cpp context shared by every live sequence, with continuous batching,
// as llama-server's slot loop runs it.
//
// The context holds `n_seq` sequences of n_ctx_seq tokens each, every sequence in its own KV stream
// as llama-server -np N keeps its slots (a token attends over its own sequence's cells only), or,
// for a sliding-window, recurrent or hybrid memory, in one unified cache (SeparateStreams in
// llama_context.h), and runs on one thread pool (EngineOptions::n_threads threads,
// started once with the engine). One scheduler thread owns llama_decode: each step it takes the
// pending work of every sequence, the next token of each generating sequence first, then prompt
// chunks in arrival order until the batch (n_batch tokens) is full (llama-server's update_slots
// fills its batch the same way: tools/server/server-context.cpp of the pinned source), decodes
// them in ONE llama_decode call, and samples each generating sequence, and each whose prompt
// ended in that step, with the sequence's own sampler. A caller (one thread per
// sequence) submits its work and blocks until it is decoded. The decode and the sampling run
// without the engine's lock, so callers take their tokens and submit new work during a step (the
// next step includes it); other calls (a trim that drops tokens, restore, state, a copy in a
// unified cache) wait for the running step to end and go before the next one, and a copy across
// streams is queued for the scheduler to do before the next step's batch.
//
// The engine records the tokens each sequence's KV cache holds (positions 0..n-1), so a decode
// appends at the right position and a new request can share another live sequence's prefix,
// nothing recomputed: across streams the source's state is copied into the sequence and cut
// back (a memory copy of its K and V rows), in a unified cache llama_memory_seq_cp tags the same
// cells with both sequences. Checkpoints hold a sequence's state in the single-stream form
// (stream_state.h), so they load into an engine of any sequence count.
#pragma once

#include <llama.h>

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "local/llama_context.h"
#include "local/token_sampler.h"

namespace strata {

// Observable counts of the scheduler's work, since the engine started.
struct EngineCounters {
  uint64_t decode_calls = 0;            // llama_decode calls
  uint64_t multi_sequence_decodes = 0;  // of them, calls carrying tokens of 2+ sequences
  uint64_t max_sequences_per_decode = 0;
  uint64_t decoded_tokens = 0;  // tokens put through llama_decode (prompt and generated)
  uint64_t copied_tokens = 0;   // prefix tokens shared from another sequence (queued included)
  // Sequence operations (trim, copy, restore, state) that took the context between two steps:
  // each waited for the running step and holds the next one up while it runs.
  uint64_t context_takes = 0;
};

class LocalEngine {
 public:
  // Errors: those of NewLlamaContext (settings llama.cpp refuses), kInvalidArgument for
  // n_seq < 1.
  static Result<std::unique_ptr<LocalEngine>> Create(const LocalModel& model,
                                                     const EngineOptions& engine, int n_seq);
  ~LocalEngine();  // stops the scheduler; no call may be pending
  LocalEngine(const LocalEngine&) = delete;
  LocalEngine& operator=(const LocalEngine&) = delete;

  // Decodes `tokens` into sequence `seq` after what it holds, batched with the other sequences'
  // work, and blocks until all are decoded. `cancelled` (may be empty; called on the scheduler
  // thread while this caller is blocked) is polled before each step that would take more of these
  // tokens: true ends the call with kIo "cancelled" (the tokens decoded so far stay in the
  // sequence). Errors: kIo "llama_decode failed (N)" (the failed step's tokens are not kept),
  // kInvalidArgument when the sequence would exceed n_ctx_seq. `last_logits` (may be null) receives
  // the logits (vocabulary size) after the last of `tokens`; `progress` (may be empty) is called on
  // the calling thread with the count of `tokens` decoded after each step that took some.
  Status Decode(int seq, std::span<const int32_t> tokens,
                const std::function<bool()>& cancelled = {},
                std::vector<float>* last_logits = nullptr,
                const std::function<void(size_t done)>& progress = {});

  // Generates into `seq`: decodes `input` (the prompt tokens the sequence does not hold yet, at
  // least its last one) as prompt chunks, samples a token with `sampler` (this request's own
  // chain) in the step that decodes the last of them (as llama-server samples in the step that
  // ends a slot's prompt: no step between the prompt and the first token), decodes it in the next
  // step, and so on, one token per step batched with the other sequences, without waiting for
  // the caller: each sampled token is handed to `on_token` on the calling thread, in order; false
  // from it stops the generation (tokens sampled meanwhile are dropped, and may have been decoded
  // into the sequence: Held() tells what it holds). The scheduler itself stops after `max_tokens`
  // tokens, after an end-of-generation token, after a token `ends` (may be empty) says ends the
  // reply (both handed over, never decoded), and when the sequence's context is full (the last
  // token is never decoded). `ends` runs on the scheduler thread, once per sampled token, in
  // order, between the sampling and the step that would decode the token (so it sees each token
  // before the scheduler goes on, which `on_token` does not: llama-server checks its stop strings
  // there too, in process_token); it must not call into the engine. `cancelled` (may be empty) is
  // polled as Decode's while `input` is decoded, and `progress` (may be empty) called as Decode's
  // with the count of `input` decoded after each step that took some. Errors: kIo
  // "llama_decode failed (N)" or "cancelled", kInvalidArgument when `input` is empty or does not
  // fit the sequence's context.
  Status Generate(int seq, std::span<const int32_t> input, TokenSampler& sampler, int max_tokens,
                  const std::function<bool(int32_t token)>& on_token,
                  const std::function<bool()>& cancelled = {},
                  const std::function<void(size_t done)>& progress = {},
                  const std::function<bool(int32_t token)>& ends = {});
  Status Generate(int seq, int32_t input, TokenSampler& sampler, int max_tokens,
                  const std::function<bool(int32_t token)>& on_token) {
    return Generate(seq, std::span<const int32_t>(&input, 1), sampler, max_tokens, on_token);
  }

  // Drops positions [keep, end) of `seq` (0: all); when `seq` holds no more than `keep`, returns
  // at once (no wait for the running step). False (and the sequence cleared) when the
  // memory cannot drop a tail (recurrent or hybrid state) or, for a sliding-window cache, no
  // longer holds the window before `keep` (llama-server's rule, HoldsWindow).
  bool Trim(int seq, size_t keep);
  // False when no tail of a sequence can be dropped (recurrent or hybrid memory): a longer
  // checkpoint cannot be cut back to a shared part. A sliding-window cache can trim only when
  // the window before the cut is still held, known after the state is loaded (Trim tells).
  bool CanTrim() const { return can_trim_; }

  // The longest prefix of `tokens` another sequence holds, when longer than `better_than`: copied
  // into `seq` (which is cleared first) and its length returned; 0 (seq untouched) otherwise.
  // With a stream per sequence the copy is queued, not waited for: the scheduler does it before
  // the next step's batch (or the next sequence operation before it takes the context), so a
  // request arriving during a step joins the next one with its prompt. Held() tells the tokens
  // at once. Should llama.cpp refuse the copy, the sequence is left empty and its next Decode or
  // Generate fails with kIo (Trim(seq, 0) starts it over).
  size_t SharePrefix(int seq, std::span<const int32_t> tokens, size_t better_than);
  // The length SharePrefix would copy now (another call may change it).
  size_t SharablePrefix(int seq, std::span<const int32_t> tokens) const;

  // Loads a verified checkpoint (holding `checkpoint.tokens`) into `seq`; false (and the sequence
  // cleared) when llama.cpp refuses the bytes.
  bool Load(int seq, const Checkpoint& checkpoint);

  // The file image of a checkpoint of `seq`, which must hold exactly `tokens`.
  std::string Encode(int seq, const CheckpointIdentity& identity, std::string_view prefix_text,
                     const std::vector<int32_t>& tokens, double prefill_ms);

  std::vector<int32_t> Held(int seq) const;  // the tokens `seq` holds
  int n_seq() const { return static_cast<int>(held_.size()); }
  // Whether each sequence has its own KV stream (SeparateStreams), not one unified cache.
  bool separate_streams() const { return streams_; }
  uint32_t n_ctx_seq() const { return n_ctx_seq_; }
  EngineCounters counters() const;

 private:
  struct Work {
    int seq = 0;
    std::span<const int32_t> tokens;  // the prompt tokens to decode
    size_t done = 0;
    const std::function<bool()>* cancelled = nullptr;
    std::vector<float>* last_logits = nullptr;  // Decode: the last token's logits go here
    // With a progress callback: `done` after each step that took prompt tokens, until the caller
    // reports them (a caller woken late still reports every step).
    bool track_steps = false;
    std::vector<size_t> steps;
    // Generation (after the prompt tokens): `next` is decoded each step and the sampled token
    // appended to `out`.
    TokenSampler* sampler = nullptr;
    const std::function<bool(int32_t)>* ends = nullptr;  // true: the token ends the reply
    int32_t next = -1;
    int max_tokens = 0;
    std::vector<int32_t> out;
    bool stop = false;  // the caller wants no more tokens
    Status status;
    bool finished = false;
    bool Generating() const { return sampler != nullptr && done == tokens.size(); }
  };

  LocalEngine() = default;
  void Loop();
  // Hands `w`'s recorded steps to `progress` without the lock (mu_ held on entry and exit).
  static void ReportSteps(Work& w, const std::function<void(size_t)>& progress,
                          std::unique_lock<std::mutex>& lock);
  // Copies all of `src`'s cells into `dst` (another stream) through the sequence state; false when
  // llama.cpp refused it. The context must be this caller's (LockContext).
  bool CopyAcrossStreams(int src, int dst);
  // Runs the copies SharePrefix queued (streams), in order (mu_ held, no step decoding). One that
  // llama.cpp refuses leaves its sequence empty and broken: its pending work fails.
  void RunCopies();
  struct QueuedCopy {
    int src = 0, dst = 0;
    size_t n = 0;  // the shared tokens
  };
  // True when `seq`'s cache holds what decoding position `n` needs (mu_ held).
  bool HoldsWindow(int seq, size_t n) const;
  void Step(std::unique_lock<std::mutex>& lock);
  // What a step put in the batch for one work.
  struct Taken {
    Work* work;
    size_t n;       // prompt tokens taken; 0: the generated token `next`
    int logits_at;  // batch index of the logits to sample or keep; -1: none
    int32_t sampled = -1;
    bool ends = false;  // the work's `ends` said the sampled token ends its reply
  };
  std::vector<Taken> FillBatch();                              // lock held
  void Apply(const std::vector<Taken>& taken, int decode_rc);  // lock held
  // Drops cancelled, stopped and finished work from pending_; false when none is left.
  bool PrunePending();
  // mu_, once no step is decoding: the context is this caller's until the lock is released.
  std::unique_lock<std::mutex> LockContext();

  LlamaContextPtr ctx_;
  ggml_threadpool* threadpool_ = nullptr;        // the context's compute threads
  ggml_threadpool* threadpool_batch_ = nullptr;  // for prompt batches when n_threads_batch differs
  const llama_vocab* vocab_ = nullptr;
  uint32_t n_ctx_seq_ = 0;
  int n_swa_ = 0;         // the model's attention window (0: none)
  bool can_trim_ = true;  // false for recurrent and hybrid memory
  bool streams_ = false;  // a KV stream per sequence (SeparateStreams)
  size_t n_batch_ = 0;
  llama_batch batch_{};
  std::vector<std::vector<int32_t>> held_;
  std::vector<QueuedCopy> copies_;  // SharePrefix's, not done yet (streams)
  std::vector<bool> broken_;        // a queued copy into the sequence failed
  std::deque<Work*> pending_;
  EngineCounters counters_;
  bool stop_ = false;
  bool decoding_ = false;        // a step runs llama_decode and sampling without mu_
  mutable int ctx_waiters_ = 0;  // sequence operations waiting for the context
  mutable std::mutex mu_;
  mutable std::condition_variable work_cv_;  // the scheduler waits for work
  std::condition_variable done_cv_;          // callers wait for their work
  mutable std::condition_variable ctx_cv_;   // sequence operations wait for a step to end
  std::thread scheduler_;
};

// Logits after decoding `tokens` in a fresh one-sequence engine with `engine` settings (the
// reference for "restore + suffix equals a full prefill"): the whole sequence goes through
// llama_decode in one call when it fits n_batch.
Result<std::vector<float>> FullPrefillLogits(const LocalModel& model, const EngineOptions& engine,
                                             const std::vector<int32_t>& tokens);

}  // namespace strata
