// prefix_engine.h: puts a request's prompt into a live sequence while prefilling as little as
// possible, and stores the checkpoints later requests will share.
//
//   1. The prompt text is tokenized (with BOS, special tokens parsed, as llama-server does); each
//      cut of the plan is kept when its own tokens are a prefix of the prompt's.
//   2. Reuse: the longest of the sequence's live prefix, another live sequence's prefix (copied
//      into this sequence inside the engine, LocalEngine::SharePrefix, when at least as long as
//      the best stored one), a longer stored checkpoint sharing the longest common prefix with the prompt
//      (restored and cut back to it when PartialRestorePays and the memory can drop a tail;
//      PhaseTimes::partial reports either way), and the longest stored checkpoint whose
//      tokens are an exact prefix (from the PrefixIndex, or found by key for this request's cuts,
//      which covers files another process wrote since the index was built). A checkpoint is
//      loaded only after CheckpointStore::Find verified its identity, prefix text and checksums;
//      a file that fails is deleted, dropped from the index and counted as a rebuild.
//   3. The rest is prefilled in segments ending at the cuts (a cut fewer than 64 tokens past a
//      reused prefix is prefilled through: that prefix is stored already); at a cut with no
//      stored checkpoint the state is taken (under the store's key lock, looking again first,
//      so two processes build a new prefix once; a concurrent request of this process that
//      built it meanwhile holds it live, and it is copied from that sequence) and handed to the
//      CheckpointWriter, which writes the file and then releases the lock; prefill goes on
//      meanwhile. The tokens after the last cut or reused prefix are left to Generate, which
//      decodes them and samples the first token in the step that decodes the last of them.
//   4. After the reply, StorePrompt trims the generated tokens off the sequence and hands the
//      whole prompt's checkpoint to the writer (the next request of the conversation extends it).
// With a shared tier (--shared-store), a lookup the local store misses asks Redis, and a new cut
// is built under a fleet lease (one instance prefills, the others wait for its checkpoint); every
// checkpoint taken is also published there (shared_tier.h).
// The identity is MakeIdentity's (model, tokenizer, engine, context and KV settings, reasoning
// mode) with the digest of the template in use: `strata serve` and `strata chat` (both clients of
// this engine) give the same prefix of the same model the same checkpoint.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "local/checkpoint_writer.h"
#include "local/llama_context.h"
#include "local/metrics.h"
#include "local/prefix_index.h"
#include "local/prompt_plan.h"
#include "local/sequence_pool.h"
#include "wire/reply_writer.h"  // Usage

namespace strata::serve {

// The lease around building a new cut across a fleet (serve/shared_tier.h: SharedLease).
class CutLease {
 public:
  virtual ~CutLease() = default;
  virtual bool published() const = 0;  // another instance published the cut meanwhile
  virtual bool HandOff() = 0;          // true once: the publisher releases the lease
};

// A checkpoint tier behind the local store, shared by a fleet (serve/shared_tier.h implements it
// over Redis; the prefix engine depends only on this interface).
class CheckpointTier {
 public:
  virtual ~CheckpointTier() = default;
  // After the local store found nothing: kHit (written into `local`), kInvalid, or kAbsent.
  virtual Lookup Find(CheckpointStore& local, const std::string& key,
                      const CheckpointIdentity& expected, std::string_view prefix_text) = 0;
  // Publishes a checkpoint just encoded (off the request path).
  virtual void Publish(const CheckpointIdentity& identity, const std::string& key,
                       size_t prefix_bytes, const std::vector<int32_t>& tokens, std::string image,
                       bool release_lease) = 0;
  // Adds the index entries other instances published; returns how many.
  virtual size_t Sync(PrefixIndex& index, const CheckpointIdentity& scope, bool force) = 0;
  virtual std::unique_ptr<CutLease> AwaitLease(const std::string& key) = 0;
};

struct EngineShared {
  const LocalModel* model = nullptr;
  EngineOptions engine;
  CheckpointStore* store = nullptr;
  PrefixIndex* index = nullptr;
  Metrics* metrics = nullptr;
  CheckpointWriter* writer = nullptr;  // null: checkpoints are written before returning
  std::string template_digest;         // SHA-256 of the chat template text in use
  CheckpointTier* tier = nullptr;      // the shared (Redis) tier behind the store; null: none
  std::string reasoning_mode = "off";  // in the identity (the template renders with thinking)
  // Called with a new cut's key lock held, just before its prefill (tests widen a race with it).
  std::function<void()> before_cut_prefill;
};

// One request's prefill progress: prompt tokens in the sequence (reused included) of the prompt's,
// for a progress bar or a log line.
using PrefillProgressFn = std::function<void(size_t done, size_t total)>;

// LocalEngine's count for one call (tokens of a segment decoded so far) as prompt progress, the
// segment starting at prompt token `from` of `total`. Empty when `progress` is.
std::function<void(size_t done)> SegmentProgress(const PrefillProgressFn& progress, size_t from,
                                                 size_t total);

// Where one request's time went, milliseconds (steady clock), for the request log line.
struct PhaseTimes {
  double render_ms = 0;    // the chat template: the prompt and its cuts
  double tokenize_ms = 0;  // the prompt and its cuts
  double queue_ms = 0;     // waiting for a live sequence
  double lookup_ms = 0;    // index and store lookups, restore included
  double restore_read_ms = 0, restore_verify_ms = 0, restore_load_ms = 0;  // the restored file
  double prefill_ms = 0;                                                   // decoding prompt tokens
  double checkpoint_ms = 0;  // taking the state of the cuts stored before the first token
  double sample_ms = 0;      // from the end of prefill to the first token (sampling)
  double store_ms = 0;       // taking the whole prompt's state after the reply
  double restore_ms() const { return restore_read_ms + restore_verify_ms + restore_load_ms; }
  double restored_prefill_ms = 0;  // what the restored checkpoint's prefill took when it was built
  // Not times: a stored checkpoint longer than the shared part was the best reuse; `partial`
  // says what became of it: "restored" (loaded and cut back to the shared tokens), "cost"
  // (PartialRestorePays said prefilling the shared part is cheaper), "memory" (the model's
  // memory cannot drop a tail: recurrent, hybrid, or a sliding window without the window before
  // the cut; the shared part is prefilled). Empty: no such checkpoint.
  std::string partial;
  size_t partial_shared = 0, partial_checkpoint = 0;  // tokens shared, tokens of the checkpoint
  uint64_t partial_bytes = 0;                         // the checkpoint file's size
  // Not times: why a stored checkpoint was refused (deleted, then rebuilt), and what kept the
  // store from being used as it should (a non-file at a key, a failed write); empty: nothing.
  std::string rebuild_reason;
  std::string store_warning;
};

// The restore rule for a stored checkpoint file of `file_bytes` bytes of which a request shares
// only the first `shared` tokens: restoring maps, verifies and loads the whole file, a cost
// proportional to its bytes; prefilling computes the shared tokens, a cost proportional to
// them. The checkpoint is restored and cut back when
//   file_bytes <= shared * kRestoreBytesPerPrefillToken      (256 KiB per shared token)
// Why 256 KiB: a file is read, hashed and copied at gigabytes per second (256 KiB in well under
// 0.1 ms), while prefilling one token costs at least 2 x parameters FLOPs; a model whose KV state
// takes 256 KiB per token has a hidden size in the thousands (about 6 x hidden FLOPs per KV byte),
// so a token's prefill is gigaflops: on a CPU tens of milliseconds, on a GPU a tenth of one. Bytes,
// not tokens, so the rule scales with the model's KV size (a model with a small KV state per
// token restores long files for short shares, one with a large state only short files).
// Deterministic: file sizes and token counts only, no clock. Unknown sizes (0) never pay.
inline constexpr uint64_t kRestoreBytesPerPrefillToken = uint64_t{256} * 1024;
constexpr bool PartialRestorePays(size_t shared, uint64_t file_bytes) {
  return file_bytes > 0 && file_bytes <= shared * kRestoreBytesPerPrefillToken;
}

// The checkpoint identity of `prefix_text` under the server's settings.
CheckpointIdentity ServeIdentity(const EngineShared& shared, std::string_view prefix_text);

// Adds the store's checkpoints of this server's identity (any prefix) to the index; returns how
// many.
size_t RebuildIndex(const EngineShared& shared);

struct PreparedPrompt {
  std::vector<int32_t> tokens;
  std::vector<std::pair<size_t, size_t>> cuts;  // (text bytes, tokens), ascending
};

// Step 1. Errors: 413 when the prompt (plus one generated token) exceeds the context, with both
// counts in the message.
ApiResult<PreparedPrompt> TokenizePrompt(const EngineShared& shared, const PromptPlan& plan);

// Steps 2 and 3 on `seq`; fills usage (prompt, cached, restored, prefilled, stored: a checkpoint
// handed to the writer counts as stored) and the lookup, restore, prefill and checkpoint times.
// `cancelled` is polled between batches. Returns tail_from: the tokens from it on (those after
// the last cut or reused prefix, at least the last prompt token) are left to the caller, counted
// as prefilled. Generate decodes them and samples the first token in the step that ends the
// prompt, as llama-server does (prefill_ms leaves them out; they are in sample_ms); a caller that
// wants the prompt's logits instead decodes them with LocalEngine::Decode (SegmentProgress from
// tail_from carries `progress` on through it). `progress` (may be empty) gets the reused tokens
// once, before any prefill, then each decode step's count. Errors: kIo (llama.cpp, or
// "cancelled").
Result<size_t> PreparePrefix(const EngineShared& shared, const PromptPlan& plan,
                             const PreparedPrompt& prepared, Sequence& seq, Usage* usage,
                             const std::function<bool()>& cancelled, PhaseTimes* times,
                             const PrefillProgressFn& progress = {});

// Step 4; fills times->store_ms.
void StorePrompt(const EngineShared& shared, const PromptPlan& plan, const PreparedPrompt& prepared,
                 Sequence& seq, PhaseTimes* times);

}  // namespace strata::serve
