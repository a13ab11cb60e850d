// checkpoint.h: KV bootstrap checkpoints and the directory that stores them.
//
// A checkpoint is the llama.cpp sequence state after prefilling a session's deterministic prefix.
// Its identity covers everything that can change those KV bytes: the rendered prefix text, the
// model (metadata plus sampled weight bytes, so two models of identical shapes but different
// weights differ; llama.cpp's own state loader checks only shapes and types), the tokenizer and
// chat template, the reasoning mode, the context size, the K/V cache types, the batch settings,
// flash attention, and the llama.cpp build. The store names each file by a hash of that identity
// (content addressing), and the file header repeats the identity and the exact prefix text so a
// load compares them byte for byte before trusting the payload.
//
// File format (version 1, little-endian; docs/chat.md has the full description):
//   0   8 bytes  magic "STRATAKV"
//   8   u32      format version (kCheckpointFormatVersion)
//   12  u32      header length H
//   16  H bytes  header: JSON object {identity, key, prefix_bytes, token_count, payload_bytes,
//                body_xxh3}, readable with `head -c` for debugging
//   16+H u64     XXH3-64 of bytes [0, 16+H)
//   then the body: prefix text (prefix_bytes), prefix tokens (token_count x i32), llama.cpp
//   sequence state (payload_bytes); body_xxh3 is the XXH3-64 of the whole body.
// Any mismatch (magic, version, checksums, sizes, identity, prefix text) makes the file invalid:
// the session discards it, prefills again and reports `rebuilt` with the reason.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "strata/export.h"
#include "strata/status.h"

namespace STRATA_EXPORT strata {

inline constexpr char kCheckpointMagic[9] = "STRATAKV";
inline constexpr uint32_t kCheckpointFormatVersion = 1;

// Everything that must be equal for a stored state to be reused. Strings are printable (hex
// digests or names) so the header stays readable.
struct CheckpointIdentity {
  std::string engine;          // llama.cpp build, e.g. "llama.cpp 0.5.0-dev de3ff81"
  std::string model;           // ModelFingerprint::digest (metadata + sampled weights)
  std::string tokenizer;       // digest of the tokenizer.* metadata
  std::string chat_template;   // digest of the chat template text
  std::string reasoning_mode;  // e.g. "off", "on"
  uint32_t n_ctx = 0;          // context size in tokens
  std::string type_k, type_v;  // KV cache element types, e.g. "f16"
  bool flash_attn = false;
  uint32_t n_batch = 0, n_ubatch = 0;  // prefill batch sizes (change the arithmetic order)
  std::string prefix_sha256;           // SHA-256 of the rendered prefix text (hex)

  bool operator==(const CheckpointIdentity&) const = default;
};

// Canonical JSON text of the identity (sorted keys, no spaces); the key hashes exactly this.
std::string IdentityJson(const CheckpointIdentity& identity);
Result<CheckpointIdentity> IdentityFromJson(std::string_view json);
// First 32 hex digits of SHA-256(IdentityJson(identity)): the checkpoint's file name stem.
std::string CheckpointKey(const CheckpointIdentity& identity);

// A decoded, verified checkpoint.
struct Checkpoint {
  CheckpointIdentity identity;
  std::string prefix_text;
  std::vector<int32_t> tokens;  // the prefix tokens, in order
  double prefill_ms = 0;        // how long the prefix took to prefill when it was stored
  // The verified file bytes; the payload is a slice of them (no copy). `storage` keeps them alive
  // (a read-only mapping of the file, or a string).
  std::shared_ptr<const void> storage;
  std::string_view image;
  size_t payload_offset = 0, payload_size = 0;
  // llama_state_seq_get_data bytes.
  std::string_view payload() const { return image.substr(payload_offset, payload_size); }
};

// Serialises a checkpoint. `payload_bytes` is reserved at the end of the returned buffer and
// filled by `fill(char* dst)` (so a large engine state is written once, in place); the checksums
// are computed after. `prefill_ms`, the time the prefix took to prefill, is recorded in the header
// (not identity) so a hit can report the time it saved. Returns the whole file image.
template <class Fill>
std::string EncodeCheckpoint(const CheckpointIdentity& identity, std::string_view prefix_text,
                             const std::vector<int32_t>& tokens, size_t payload_bytes, Fill fill,
                             double prefill_ms = 0);
std::string EncodeCheckpointHeader(const CheckpointIdentity& identity, std::string_view prefix_text,
                                   size_t token_count, size_t payload_bytes, double prefill_ms = 0);
void SealCheckpoint(std::string& image, size_t header_end);  // writes the body checksum field

// Verifies `image` against the expected identity and prefix text. Errors are kCorrupt with a
// reason a person can read ("truncated: ...", "format version 2, expected 1", "payload checksum
// mismatch", "identity differs: model", "prefix text differs").
// `storage` owns the bytes `image` points into (may be null when the caller keeps them alive).
Result<Checkpoint> DecodeCheckpoint(std::string_view image, std::shared_ptr<const void> storage,
                                    const CheckpointIdentity& expected,
                                    std::string_view expected_prefix_text);

// The header and prefix tokens of a stored checkpoint file, read without its payload (for the
// prefix index `strata serve` rebuilds at start). Only the header checksum is verified here;
// CheckpointStore::Find verifies the whole file before anything is loaded from it. Errors: kIo
// when the file cannot be read, kCorrupt when its header is not a valid checkpoint header.
struct CheckpointSummary {
  CheckpointIdentity identity;
  std::string key;
  uint64_t prefix_bytes = 0;    // length of the prefix text
  std::vector<int32_t> tokens;  // the prefix tokens, in order
  uint64_t file_bytes = 0;
};
Result<CheckpointSummary> ReadCheckpointSummary(const std::filesystem::path& file);

struct CheckpointStoreOptions {
  std::filesystem::path dir;          // created when missing
  uint64_t byte_budget = 4ull << 30;  // total size of *.kv files kept
};

// The default directory, one rule: $STRATA_CACHE_DIR/kv, else
// ${XDG_CACHE_HOME:-$HOME/.cache}/strata/kv
// ($STRATA_CACHE_DIR is strata's cache root, as in the setup scripts). The older variable
// STRATA_CHECKPOINT_DIR (the kv directory itself) still works when STRATA_CACHE_DIR is unset;
// CheckpointDirNote says so.
std::filesystem::path DefaultCheckpointDir();
// A note for the user about the variables DefaultCheckpointDir read: empty, or that the older
// STRATA_CHECKPOINT_DIR was used (or ignored because STRATA_CACHE_DIR is set).
std::string CheckpointDirNote();

// What a lookup found.
enum class LookupState { kHit, kAbsent, kInvalid };
struct Lookup {
  LookupState state = LookupState::kAbsent;
  std::string reason;   // kInvalid: why the file was refused (it has been deleted)
  std::string warning;  // a non-file at the key (FIFO, directory, symlink): refused unopened
  Checkpoint checkpoint;
  uint64_t file_bytes = 0;
  double read_ms = 0, verify_ms = 0;  // reading the file; checking header, checksums and text
};

// Owns a checkpoint directory and its locks. Files are <key>.kv, written with WriteFileAtomic (a
// reader sees a whole file or none); a temporary of a killed writer (io/file_io.h's rule) is
// removed when a store opens the directory, and live ones count against the budget.
//
// A store degrades, it never fails the user's work: a directory that cannot be created or written
// (read-only, permissions) opens read-only (lookups still hit; nothing is stored; `degraded()`
// says why), a full disk makes Save an error the session reports as a warning, and a FIFO,
// directory or symlink at <key>.kv is refused without blocking (opened with O_NONBLOCK and
// O_NOFOLLOW, its type checked) and removed when it can be. Recency is the file's mtime, set from
// the realtime clock on every save and hit; Save evicts the least recently used files until the
// *.kv total fits the budget. Locks are flock(2) on files under <dir>/locks: KeyLock serialises the
// builders of one key across processes (256 stripes by key prefix), and eviction holds
// <dir>/locks/store.
class CheckpointStore {
 public:
  static Result<std::unique_ptr<CheckpointStore>> Open(CheckpointStoreOptions options);
  ~CheckpointStore();
  CheckpointStore(const CheckpointStore&) = delete;
  CheckpointStore& operator=(const CheckpointStore&) = delete;

  const std::filesystem::path& dir() const { return options_.dir; }
  // Empty, or why nothing can be stored (the directory is read-only or could not be created).
  const std::string& degraded() const { return degraded_; }
  uint64_t byte_budget() const { return options_.byte_budget; }
  std::filesystem::path PathFor(std::string_view key) const;

  // Reads and verifies <key>.kv. An invalid file is deleted and reported (kInvalid + reason); on
  // a hit the file's recency is refreshed. Never fails: unreadable files count as invalid.
  Lookup Find(std::string_view key, const CheckpointIdentity& expected,
              std::string_view expected_prefix_text);

  // An exclusive cross-process lock held while a key is built; released on destruction. A store
  // whose lock files cannot be created hands out an empty lock (builders then may race; each
  // writes a whole file).
  class KeyLock {
   public:
    KeyLock() = default;
    explicit KeyLock(int fd) : fd_(fd) {}
    KeyLock(KeyLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
    KeyLock& operator=(KeyLock&& other) noexcept;
    ~KeyLock();

   private:
    int fd_ = -1;
  };
  Result<KeyLock> LockKey(std::string_view key);

  // Writes the encoded image as <key>.kv and evicts least recently used files (never this one)
  // until the budget holds. An image larger than the whole budget is not stored (returns false).
  // Errors: kIo (disk full, read-only store, a non-file at the key) naming the path and the reason.
  Result<bool> Save(std::string_view key, std::string_view image);

  // Total bytes of *.kv files and of live temporaries, and the keys ordered from least to most
  // recently used.
  struct Listing {
    uint64_t total_bytes = 0;
    std::vector<std::string> keys_lru_first;
  };
  Listing List() const;

 private:
  explicit CheckpointStore(CheckpointStoreOptions options) : options_(std::move(options)) {}
  Status EvictToBudget(std::string_view keep);
  CheckpointStoreOptions options_;
  std::string degraded_;
};

template <class Fill>
std::string EncodeCheckpoint(const CheckpointIdentity& identity, std::string_view prefix_text,
                             const std::vector<int32_t>& tokens, size_t payload_bytes, Fill fill,
                             double prefill_ms) {
  std::string image =
      EncodeCheckpointHeader(identity, prefix_text, tokens.size(), payload_bytes, prefill_ms);
  const size_t header_end = image.size();
  image.append(prefix_text);
  const size_t token_at = image.size();
  image.resize(token_at + tokens.size() * sizeof(int32_t) + payload_bytes);
  for (size_t i = 0; i < tokens.size(); ++i) {
    const uint32_t v = static_cast<uint32_t>(tokens[i]);
    for (int b = 0; b < 4; ++b)
      image[token_at + i * 4 + b] = static_cast<char>((v >> (8 * b)) & 0xff);
  }
  fill(image.data() + token_at + tokens.size() * sizeof(int32_t));
  SealCheckpoint(image, header_end);
  return image;
}

}  // namespace strata
