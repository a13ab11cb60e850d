// prefix_engine.cc: live reuse, checkpoint restore, segmented prefill with checkpoints at the
// cuts, and the whole-prompt checkpoint after the reply (see prefix_engine.h).
#include "local/prefix_engine.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <memory>

#include "base/common_prefix.h"
#include "base/hash.h"

namespace strata::serve {
namespace {

// A cut this close to the reused prefix is prefilled through, not checkpointed.
constexpr size_t kMinCutTokens = 64;

// Trims `seq` to its first `keep` tokens (a memory that cannot trim is cleared).
void TrimTo(Sequence& seq, size_t keep) {
  if (!seq.engine->Trim(seq.id, keep)) seq.tokens.clear();
  if (seq.tokens.size() > keep) seq.tokens.resize(keep);
}

double MsSince(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

// Looks `key` up in the store and loads it into `seq` when it verifies. A refused file is
// deleted by the store; it leaves the index and counts as a rebuild.
bool TryRestore(const EngineShared& shared, const std::string& key, std::string_view prefix_text,
                Sequence& seq, PhaseTimes* times) {
  const CheckpointIdentity id = ServeIdentity(shared, prefix_text);
  Lookup found = shared.store->Find(key, id, prefix_text);
  if (!found.warning.empty()) times->store_warning = found.warning;
  if (found.state == LookupState::kAbsent && shared.tier != nullptr)
    found = shared.tier->Find(*shared.store, key, id, prefix_text);
  if (found.state == LookupState::kInvalid) {
    shared.index->Remove(key);
    shared.metrics->CountCheckpointRebuild();
    times->rebuild_reason = found.reason;
  }
  if (found.state != LookupState::kHit) return false;
  const auto t = std::chrono::steady_clock::now();
  const bool loaded = seq.engine->Load(seq.id, found.checkpoint);
  times->restore_read_ms += found.read_ms;
  times->restore_verify_ms += found.verify_ms;
  times->restore_load_ms += MsSince(t);
  if (!loaded) {
    seq.tokens.clear();
    times->rebuild_reason = "llama.cpp refused the stored state";
    return false;
  }
  seq.tokens = found.checkpoint.tokens;
  times->restored_prefill_ms = found.checkpoint.prefill_ms;
  shared.index->Add({key, found.checkpoint.prefix_text.size(), found.checkpoint.tokens,
                     found.checkpoint.prefix_text, found.file_bytes});
  return true;
}

void NotePartial(PhaseTimes* times, std::string outcome, const SharedEntry& c) {
  times->partial = std::move(outcome);
  times->partial_shared = c.shared;
  times->partial_checkpoint = c.entry.tokens.size();
  times->partial_bytes = c.entry.file_bytes;
}

// A stored checkpoint longer than the prompt's common part with it (another session's whole
// prompt, an earlier request that diverged later) restored and cut back to that part, when it
// shares more than `better_than` tokens and PartialRestorePays: a KV cache drops the positions
// after it (llama-server reuses its slot's common prefix the same way). A memory that cannot
// drop a tail (recurrent or hybrid; a sliding-window cache without the window before the cut)
// leaves the shared part to prefill. times->partial says which way it went. Returns the tokens
// `seq` holds after, 0 when no candidate served.
size_t RestoreShared(const EngineShared& shared, const std::vector<SharedEntry>& candidates,
                     Sequence& seq, size_t better_than, PhaseTimes* times) {
  for (const SharedEntry& c : candidates) {
    if (c.shared <= better_than) break;
    if (c.shared == c.entry.tokens.size() || c.entry.prefix_text.empty()) continue;
    if (!seq.engine->CanTrim()) {
      NotePartial(times, "memory", c);
      return 0;
    }
    // Candidates come most shared first, then shortest: a later one may share less at a much
    // smaller file and pay.
    if (!PartialRestorePays(c.shared, c.entry.file_bytes)) {
      if (times->partial.empty()) NotePartial(times, "cost", c);
      continue;
    }
    if (!TryRestore(shared, c.entry.key, c.entry.prefix_text, seq, times)) continue;
    if (!seq.engine->Trim(seq.id, c.shared)) {
      seq.tokens.clear();
      NotePartial(times, "memory", c);
      return 0;
    }
    seq.tokens.resize(c.shared);
    NotePartial(times, "restored", c);
    return c.shared;
  }
  return 0;
}

// The most tokens RestoreShared could give from `candidates` (most shared first).
size_t BestShared(const std::vector<SharedEntry>& candidates) {
  for (const SharedEntry& c : candidates)
    if (c.shared < c.entry.tokens.size() && !c.entry.prefix_text.empty() &&
        PartialRestorePays(c.shared, c.entry.file_bytes))
      return c.shared;
  return 0;
}

// Step 2: how many prompt tokens `seq` holds after reuse; *restored tells whether they came from
// the store.
size_t Reuse(const EngineShared& shared, const PromptPlan& plan, const PreparedPrompt& prepared,
             Sequence& seq, bool* restored, PhaseTimes* times) {
  const std::string& text = plan.prompt.text;
  const size_t live = CommonPrefixLength<int32_t>(seq.tokens, prepared.tokens);
  *restored = false;
  if (shared.tier != nullptr) shared.tier->Sync(*shared.index, ServeIdentity(shared, ""), false);
  const std::vector<IndexEntry> exact = shared.index->Matches(prepared.tokens);
  const size_t best_exact = exact.empty() ? 0 : exact.front().tokens.size();
  const std::vector<SharedEntry> sharing = shared.index->Sharing(prepared.tokens);
  // Another live sequence's prefix (a concurrent session with the same system prompt and tools)
  // is copied inside the KV cache: cheaper than reading a checkpoint of the same length, but not
  // when a stored one gives more (opencode's title request, live beside its main request after
  // a restart, shares only the template's first tokens with it).
  if (seq.engine->SharablePrefix(seq.id, prepared.tokens) >=
      std::max({live + 1, best_exact, BestShared(sharing)})) {
    if (size_t n = seq.engine->SharePrefix(seq.id, prepared.tokens, live)) {
      seq.tokens.assign(prepared.tokens.begin(), prepared.tokens.begin() + n);
      return n;
    }
  }
  if (size_t n = RestoreShared(shared, sharing, seq, std::max(live, best_exact), times)) {
    *restored = true;
    return n;
  }
  for (const IndexEntry& e : exact) {
    if (e.tokens.size() <= live) break;
    if (e.prefix_bytes > text.size()) continue;
    if (TryRestore(shared, e.key, std::string_view(text).substr(0, e.prefix_bytes), seq, times)) {
      *restored = true;
      return e.tokens.size();
    }
  }
  for (auto it = prepared.cuts.rbegin(); it != prepared.cuts.rend(); ++it) {
    if (it->second <= live) break;
    const std::string_view prefix = std::string_view(text).substr(0, it->first);
    const std::string key = CheckpointKey(ServeIdentity(shared, prefix));
    if (shared.index->Contains(key)) continue;  // tried above
    if (TryRestore(shared, key, prefix, seq, times)) {
      *restored = true;
      return it->second;
    }
  }
  return CommonPrefixLength<int32_t>(seq.tokens, prepared.tokens);  // a failed load cleared it
}

Status PrefillRange(const PreparedPrompt& prepared, size_t from, size_t to, Sequence& seq,
                    Usage* usage, const std::function<bool()>& cancelled, PhaseTimes* times,
                    const PrefillProgressFn& progress) {
  const auto t = std::chrono::steady_clock::now();
  std::vector<int32_t> segment(prepared.tokens.begin() + from, prepared.tokens.begin() + to);
  Status st = seq.engine->Decode(seq.id, segment, cancelled, nullptr,
                                 SegmentProgress(progress, from, prepared.tokens.size()));
  times->prefill_ms += MsSince(t);
  if (!st) {
    seq.tokens.clear();  // unknown state: the next request starts over
    seq.engine->Trim(seq.id, 0);
    return st;
  }
  seq.tokens.insert(seq.tokens.end(), segment.begin(), segment.end());
  usage->prefilled_tokens += segment.size();
  return {};
}

// Takes the state of `seq` (holding exactly the prompt's first `tokens` tokens) as the
// checkpoint of text[0, bytes) and has it written: by the writer, which releases `lock` (may be
// empty) after the file is in place, or here when the server has no writer. False when the
// store refused it (why goes to times->store_warning).
bool SaveState(const EngineShared& shared, const std::string& text, size_t bytes, Sequence& seq,
               double prefill_ms, std::shared_ptr<CheckpointStore::KeyLock> lock, PhaseTimes* times,
               CutLease* lease = nullptr) {
  const std::string_view prefix = std::string_view(text).substr(0, bytes);
  const CheckpointIdentity id = ServeIdentity(shared, prefix);
  CheckpointWrite write;
  write.key = CheckpointKey(id);
  write.image = seq.engine->Encode(seq.id, id, prefix, seq.tokens, prefill_ms);
  write.entry = {write.key, bytes, seq.tokens, std::string(prefix), write.image.size()};
  write.lock = std::move(lock);
  // The fleet's copy goes to the tier's own publisher thread (a copy: the local write may still
  // be queued), which releases a lease this instance held once the checkpoint is in Redis.
  if (shared.tier != nullptr) {
    shared.tier->Publish(id, write.key, bytes, seq.tokens, write.image,
                         lease != nullptr && lease->HandOff());
  }
  if (shared.writer != nullptr) {
    shared.writer->Submit(std::move(write));
    return true;
  }
  auto saved = shared.store->Save(write.key, write.image);
  if (!saved || !*saved) {
    // A store that cannot write (read-only, disk full) costs the next session a prefill, not this
    // request its reply: the prefix is live in the sequence.
    const std::string why = !shared.store->degraded().empty() ? shared.store->degraded()
                            : saved                           ? "checkpoint not stored"
                                    : "checkpoint not stored: " + saved.error().message;
    times->store_warning += (times->store_warning.empty() ? "" : "; ") + why;
    return false;
  }
  shared.metrics->CountCheckpointWrite(write.image.size());
  shared.index->Add(std::move(write.entry));
  return true;
}

// Step 3 for one cut: prefill to it and store it, unless another process stored it meanwhile
// (then restore that). Returns the tokens `seq` holds after.
Result<size_t> BuildCut(const EngineShared& shared, const PromptPlan& plan,
                        const PreparedPrompt& prepared, std::pair<size_t, size_t> cut, size_t keep,
                        Sequence& seq, Usage* usage, const std::function<bool()>& cancelled,
                        PhaseTimes* times, const PrefillProgressFn& progress) {
  const std::string& text = plan.prompt.text;
  const std::string_view prefix = std::string_view(text).substr(0, cut.first);
  const std::string key = CheckpointKey(ServeIdentity(shared, prefix));
  STRATA_TRY_ASSIGN(CheckpointStore::KeyLock locked, shared.store->LockKey(key));
  auto lock = std::make_shared<CheckpointStore::KeyLock>(std::move(locked));
  // A concurrent request that built this cut while this one waited for the lock holds it live:
  // copied inside the KV cache, no file read and no prefill.
  const std::span<const int32_t> cut_tokens = std::span(prepared.tokens).first(cut.second);
  if (seq.engine->SharePrefix(seq.id, cut_tokens, cut.second - 1) == cut.second) {
    seq.tokens.assign(cut_tokens.begin(), cut_tokens.end());
    return cut.second;
  }
  if (TryRestore(shared, key, prefix, seq, times)) {
    usage->restored_tokens = cut.second;
    return cut.second;
  }
  // Across the fleet: one instance prefills a new cut, the others wait for its checkpoint.
  std::unique_ptr<CutLease> lease = shared.tier ? shared.tier->AwaitLease(key) : nullptr;
  if (lease && lease->published() && TryRestore(shared, key, prefix, seq, times)) {
    usage->restored_tokens = cut.second;
    return cut.second;
  }
  TrimTo(seq, keep);
  if (shared.before_cut_prefill) shared.before_cut_prefill();
  const double prefill_before = times->prefill_ms;
  STRATA_TRY(PrefillRange(prepared, keep, cut.second, seq, usage, cancelled, times, progress));
  const auto t = std::chrono::steady_clock::now();
  if (SaveState(shared, text, cut.first, seq, times->prefill_ms - prefill_before, std::move(lock),
                times, lease.get()))
    usage->stored_tokens = cut.second;
  times->checkpoint_ms += MsSince(t);
  return cut.second;
}

// The prefix text of a checkpoint file (format version 1, docs/chat.md: 16 fixed bytes with the
// header length H at offset 12, the header, its 8-byte checksum, then the text), unverified: Find
// verifies it (identity digest, body checksum) before the file is used. Empty when unreadable.
std::string ReadPrefixText(const std::filesystem::path& file, uint64_t prefix_bytes) {
  std::error_code ec;
  if (prefix_bytes > std::filesystem::file_size(file, ec) || ec) return "";
  std::ifstream in(file, std::ios::binary);
  unsigned char head[16];
  if (!in.read(reinterpret_cast<char*>(head), sizeof head)) return "";
  const uint64_t header_len =
      head[12] | (head[13] << 8) | (head[14] << 16) | (static_cast<uint64_t>(head[15]) << 24);
  std::string text(prefix_bytes, '\0');
  in.seekg(static_cast<std::streamoff>(16 + header_len + 8));
  if (!in.read(text.data(), static_cast<std::streamsize>(prefix_bytes))) return "";
  return text;
}

}  // namespace

std::function<void(size_t done)> SegmentProgress(const PrefillProgressFn& progress, size_t from,
                                                 size_t total) {
  if (!progress) return {};
  return [progress, from, total](size_t done) { progress(from + done, total); };
}

CheckpointIdentity ServeIdentity(const EngineShared& shared, std::string_view prefix_text) {
  CheckpointIdentity id =
      MakeIdentity(*shared.model, shared.engine, shared.reasoning_mode, prefix_text);
  id.chat_template = shared.template_digest;
  return id;
}

size_t RebuildIndex(const EngineShared& shared) {
  CheckpointIdentity base = ServeIdentity(shared, "");
  size_t added = 0;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(shared.store->dir(), ec)) {
    if (entry.path().extension() != ".kv") continue;
    // Only regular files: opening a FIFO at a key would block (the store refuses those at lookup).
    std::error_code type_ec;
    if (!std::filesystem::is_regular_file(entry.symlink_status(type_ec))) continue;
    auto summary = ReadCheckpointSummary(entry.path());
    if (!summary) continue;
    CheckpointIdentity id = summary->identity;
    id.prefix_sha256 = base.prefix_sha256;
    if (!(id == base) || summary->key != entry.path().stem().string()) continue;
    shared.index->Add({summary->key, summary->prefix_bytes, std::move(summary->tokens),
                       ReadPrefixText(entry.path(), summary->prefix_bytes), summary->file_bytes});
    ++added;
  }
  if (shared.tier != nullptr) added += shared.tier->Sync(*shared.index, base, true);
  return added;
}

ApiResult<PreparedPrompt> TokenizePrompt(const EngineShared& shared, const PromptPlan& plan) {
  PreparedPrompt out;
  auto tokens = TokenizeText(*shared.model, plan.prompt.text, /*add_special=*/true);
  if (!tokens)
    return tl::unexpected(ApiError{400, "invalid_request_error", tokens.error().message, ""});
  out.tokens = std::move(*tokens);
  if (out.tokens.empty())
    return tl::unexpected(
        ApiError{400, "invalid_request_error", "the prompt renders empty", "messages"});
  if (out.tokens.size() + 1 > shared.engine.n_ctx) {
    return tl::unexpected(ApiError{
        413, "request_too_large",
        fmt::format("the prompt has {} tokens; the context holds {} (prompt plus at least one "
                    "generated token must fit): shorten the conversation or start the server "
                    "with a larger --ctx",
                    out.tokens.size(), shared.engine.n_ctx),
        "messages"});
  }
  for (size_t bytes : plan.cuts) {
    auto cut =
        TokenizeText(*shared.model, std::string_view(plan.prompt.text).substr(0, bytes), true);
    if (!cut || cut->empty() || cut->size() >= out.tokens.size()) continue;
    if (CommonPrefixLength<int32_t>(*cut, out.tokens) == cut->size())
      out.cuts.emplace_back(bytes, cut->size());
  }
  return out;
}

Result<size_t> PreparePrefix(const EngineShared& shared, const PromptPlan& plan,
                             const PreparedPrompt& prepared, Sequence& seq, Usage* usage,
                             const std::function<bool()>& cancelled, PhaseTimes* times,
                             const PrefillProgressFn& progress) {
  const size_t n = prepared.tokens.size();
  bool restored = false;
  const auto t = std::chrono::steady_clock::now();
  size_t keep = std::min(Reuse(shared, plan, prepared, seq, &restored, times), n - 1);
  times->lookup_ms += MsSince(t);
  // Dropping the last reused token (decoded again for its logits) can fail on a memory that
  // cannot drop a tail: the sequence is then empty and everything is prefilled.
  TrimTo(seq, keep);
  keep = std::min(keep, seq.tokens.size());
  if (restored && keep > 0) {
    shared.metrics->CountCheckpointHit();
    usage->restored_tokens = keep;
  } else if (keep == 0) {
    shared.metrics->CountCheckpointMiss();
  }
  if (!times->partial.empty()) shared.metrics->CountPartialRestore(times->partial);
  if (progress) progress(keep, n);  // what is reused, before any prefill
  const size_t reused = keep;
  for (const auto& cut : prepared.cuts) {
    if (cut.second <= keep) continue;
    // A cut just past a reused prefix (the end of the assistant turn after the previous
    // request's whole prompt, say) is not worth a separate decode call and file: that prefix is
    // already stored or live, and it would save fewer than kMinCutTokens tokens.
    if (reused > 0 && cut.second - reused < kMinCutTokens) continue;
    STRATA_TRY_ASSIGN(
        keep, BuildCut(shared, plan, prepared, cut, keep, seq, usage, cancelled, times, progress));
  }
  // The rest is decoded by the caller: Generate, in the steps that end with the first token.
  usage->prefilled_tokens += n - keep;
  usage->prompt_tokens = n;
  usage->cached_tokens = n - usage->prefilled_tokens;
  return keep;
}

void StorePrompt(const EngineShared& shared, const PromptPlan& plan, const PreparedPrompt& prepared,
                 Sequence& seq, PhaseTimes* times) {
  const auto t = std::chrono::steady_clock::now();
  TrimTo(seq, prepared.tokens.size());
  if (seq.tokens != prepared.tokens) return;
  const std::string key = CheckpointKey(ServeIdentity(shared, plan.prompt.text));
  if (shared.index->Contains(key) || (shared.writer != nullptr && shared.writer->Pending(key)))
    return;
  SaveState(shared, plan.prompt.text, plan.prompt.text.size(), seq, 0, nullptr, times);
  times->store_ms += MsSince(t);
}

}  // namespace strata::serve
