// checkpoint.h: KV bootstrap checkpoints, the directory that stores them, and the shared Redis
// tier behind it (the last part).
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

#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

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

// The shared store: a Redis tier of KV checkpoints shared by a fleet of `strata serve` processes
// (behind each one's local disk store, checkpoint.h), so a prefix one instance prefilled is
// restored by the others instead of prefilled again (docs/shared-store.md states the behaviour).
//
// Layout in Redis (every key starts with `prefix`, default "strata:"; K is the checkpoint key,
// CheckpointKey: 32 hex digits of SHA-256 of the identity, so names are content addressed; the
// `{K}` hash tag puts a checkpoint's keys in one Redis Cluster slot):
//   <prefix>kv:{K}:h       the header entry, a JSON object
//                          {"format":1,"key":K,"identity":{...IdentityJson},"token_count":T,
//                           "prefix_bytes":P,"image_bytes":N,"chunk_bytes":C,"chunks":n,
//                           "xxh3":"16 hex digits of XXH3-64 of the whole image"}
//                          (the publisher writes xxh3 for tools; a reader verifies the same
//                          bytes by the file's own header and body checksums, once)
//   <prefix>kv:{K}:<i>     chunk i (0-based) of the checkpoint file image (the bytes of the local
//                          <K>.kv file, format in checkpoint.h), C bytes each, the last one
//                          shorter; C is at most kMaxChunkBytes, far under Redis's 512 MiB value
//                          limit (proto-max-bulk-len) so one reply never holds a whole 16k-token
//                          state
//   <prefix>idx:<S>        a hash, one field per checkpoint of identity scope S (the checkpoint key
//                          of the identity with an empty prefix: same model, template, engine and
//                          settings): field K, value u64 prefix_bytes then T x i32 tokens, all
//                          little-endian. A new server adds these to its prefix index, so it finds
//                          the longest shared prefix among checkpoints other instances computed.
//   <prefix>lease:{K}      a lease (`SET key token NX PX lease_ms`) held by the one instance that
//                          prefills K; released (deleted only when it still holds the holder's
//                          random token) after the chunks and header are written, or expired by
//                          Redis when the holder crashed.
// A writer sets the chunks, then the header, then the index field: a reader that sees a header sees
// whole chunks, or chunks evicted by Redis (then the entry is incomplete and refused).
//
// Failure modes and what a caller (strata serve) does; none fails a request, nothing unverified is
// ever returned:
//   unreachable (connect refused, reset, Redis restarted or killed mid-transfer)  -> kUnreachable
//   slow (no reply within timeout_ms)                                          -> kTimeout
//   wrong or missing password (AUTH / NOAUTH / WRONGPASS), the server's certificate refused, a
//   client certificate refused or missing (a TLS alert from the server), unreadable cert files ->
//   kAuth full (maxmemory reached, an OOM error reply to a write)                       -> kFull
//   any other error reply or a reply of an unexpected type                        -> kProtocol
//   a chunk missing (evicted) or of the wrong length                              -> kIncomplete
//   the file's own checks fail (header or body checksum, sizes, prefix text)      -> kChecksum
//   the header's identity or key is not the expected one (another model, template, settings)
//                                                                                 -> kIdentity
//   the publish queue is over its byte bound                                      -> kQueueFull
// Each is counted by reason (SharedStoreCounters), warned once per reason change on `warn`, and the
// caller serves from its local tier and by prefill. After a connection failure no new connection is
// tried for retry_ms, so an unreachable Redis costs one timeout per retry_ms, not one per request.
// An incomplete, corrupt or foreign entry is deleted from Redis (header and index field) so it is
// not tried again.

namespace STRATA_EXPORT strata {

// A parsed `redis://[:password@]host[:port][/db]` or `rediss://...` (TLS) URL. A user name
// (`redis://user:password@host`) is sent with AUTH user password (Redis 6 ACL). Port default
// 6379, db default 0. Percent-escapes in the password and in query values are decoded (a `?` in
// the password must be written %3F: the query starts at the first `?`).
// rediss:// takes query parameters naming PEM files (`rediss://host:6380/0?tls_cert_file=c.pem&
// tls_key_file=k.pem&tls_ca_file=ca.pem`):
//   tls_ca_file    the CA certificates to verify the server with (as SharedStoreOptions'; the
//                  option, when set, wins)
//   tls_cert_file  a client certificate (it may be followed by its intermediate certificates),
//                  sent when the server asks for one (Redis `tls-auth-clients yes` or `optional`)
//   tls_key_file   the client certificate's private key (unencrypted); required with
//                  tls_cert_file, and the other way round
struct SharedStoreUrl {
  bool tls = false;
  std::string user, password;
  std::string host;
  int port = 6379;
  int db = 0;
  std::string tls_ca_file, tls_cert_file, tls_key_file;
};
// Errors: kInvalidArgument naming what is wrong (scheme, empty host, port or db not a number, a
// query parameter that is unknown, empty, given on redis:// or a certificate without its key).
Result<SharedStoreUrl> ParseSharedStoreUrl(std::string_view url);
// The URL without its password (for logs and warnings): `redis://:***@host:port/db`.
std::string RedactedUrl(const SharedStoreUrl& url);

inline constexpr size_t kMaxChunkBytes = 64u << 20;

struct SharedStoreOptions {
  SharedStoreUrl url;
  std::string prefix = "strata:";  // key prefix (several fleets can share one Redis)
  size_t chunk_bytes = 4u << 20;   // payload chunk size, 1 .. kMaxChunkBytes
  int timeout_ms = 2000;           // connect and per-command timeout
  int retry_ms = 1000;             // after a connection failure, no new attempt for this long
  int lease_ms = 120000;           // lease expiry (PX): bounds how long a crashed holder blocks
  uint64_t publish_queue_bytes = 1ull << 30;  // images waiting to be published; more are dropped
  // TLS (rediss://): a CA file to verify the server with (empty: the URL's tls_ca_file, else the
  // system's default paths), and whether to verify at all (off only for tests with a self-signed
  // certificate). The client certificate and key are the URL's (SharedStoreUrl).
  std::string tls_ca_file;
  bool tls_verify = true;
  std::function<void(std::string_view)> warn;       // default: stderr
  std::function<void(size_t chunk)> on_chunk_read;  // test hook: after each chunk is read
};

enum class SharedError {
  kUnreachable,
  kTimeout,
  kAuth,
  kFull,
  kProtocol,
  kIncomplete,
  kChecksum,
  kIdentity,
  kQueueFull,
  kCount
};
// "unreachable", "timeout", "auth", "full", "protocol", "incomplete", "checksum", "identity",
// "queue_full" (the metric label).
const char* SharedErrorName(SharedError error);

struct SharedStoreCounters {
  uint64_t hits = 0, misses = 0;  // Fetch found a verified checkpoint / nothing (or a failure)
  uint64_t read_bytes = 0;        // image bytes of hits
  uint64_t published = 0, published_bytes = 0;
  uint64_t leases_held = 0;  // AcquireLease granted
  std::array<uint64_t, static_cast<size_t>(SharedError::kCount)> errors{};
};

struct SharedFetch {
  enum State { kHit, kAbsent, kFailed } state = kAbsent;
  SharedError error = SharedError::kProtocol;  // kFailed: why
  std::string reason;                          // kFailed: a sentence for the log
  Checkpoint checkpoint;                       // kHit: verified; owns its image
};

struct SharedIndexEntry {
  std::string key;
  uint64_t prefix_bytes = 0;
  std::vector<int32_t> tokens;
};

// One instance's connection to the shared tier. Thread-safe: request threads share one connection
// (serialised), the publisher thread has its own. hiredis writes with write(2): a process using
// this class must ignore SIGPIPE (strata serve does), or a write to a connection Redis closed
// kills it instead of failing as kUnreachable.
class SharedStore {
 public:
  // Validates the options; connects lazily (an unreachable Redis is not an error here: the first
  // use reports it). Errors: kInvalidArgument (chunk size out of range, empty host).
  static Result<std::unique_ptr<SharedStore>> Open(SharedStoreOptions options);
  ~SharedStore();  // publishes what is queued (bounded by timeout_ms per command), then closes
  SharedStore(const SharedStore&) = delete;
  SharedStore& operator=(const SharedStore&) = delete;

  // Reads K's header and chunks and verifies them (the header's key and identity against
  // `expected` before any chunk is read, every chunk's length, then DecodeCheckpoint with
  // `expected_prefix_text`: its header and body checksums cover every byte of the image, so the
  // header entry's xxh3 of the same bytes is not computed again: one checksum pass). The chunks
  // are received straight into one buffer of image_bytes (one copy), several GETs in flight.
  SharedFetch Fetch(std::string_view key, const CheckpointIdentity& expected,
                    std::string_view expected_prefix_text);
  // True when K's header entry exists (a cheap check while waiting for a lease holder).
  bool HasEntry(std::string_view key);

  // Queues `image` (the whole checkpoint file image of `identity`, key entry.key) for publishing,
  // with its index entry in scope SharedScope(identity); returns at once. A checkpoint already in
  // Redis is not written again. When `release_lease` is true the lease of K is released after the
  // write (or its failure).
  void Publish(const CheckpointIdentity& identity, SharedIndexEntry entry, std::string image,
               bool release_lease);
  // Waits until the publish queue is empty (tests, benchmarks).
  void Flush();

  // The index entries of `scope` whose keys are not in `known` (sorted keys).
  std::vector<SharedIndexEntry> IndexEntries(std::string_view scope,
                                             const std::vector<std::string>& known);

  // `SET <prefix>lease:{K} token NX PX lease_ms`. kHeld: this instance holds it and must prefill
  // (then Publish with release_lease, or ReleaseLease); kBusy: another holder; kUnavailable: Redis
  // failed (prefill without waiting).
  enum class LeaseState { kHeld, kBusy, kUnavailable };
  LeaseState AcquireLease(std::string_view key);
  void ReleaseLease(std::string_view key);

  SharedStoreCounters counters() const;
  const SharedStoreOptions& options() const;

  struct Impl;

 private:
  explicit SharedStore(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// The identity scope of `identity`: CheckpointKey of it with an empty prefix_sha256 (the same for
// every prefix of one model, template, engine and settings); names the index hash.
std::string SharedScope(const CheckpointIdentity& identity);

// The Redis key names of the layout above (for tests and tools).
std::string SharedHeaderKey(std::string_view prefix, std::string_view key);
std::string SharedChunkKey(std::string_view prefix, std::string_view key, size_t chunk);
std::string SharedIndexKey(std::string_view prefix, std::string_view scope);
std::string SharedLeaseKey(std::string_view prefix, std::string_view key);

// The header entry codec (the JSON above) and the index entry codec.
struct SharedHeader {
  std::string key;
  CheckpointIdentity identity;
  uint64_t token_count = 0, prefix_bytes = 0, image_bytes = 0, chunk_bytes = 0, chunks = 0;
  uint64_t xxh3 = 0;
};
std::string EncodeSharedHeader(const SharedHeader& header);
// Errors: kCorrupt naming the member that is missing or wrong.
Result<SharedHeader> DecodeSharedHeader(std::string_view json);
std::string EncodeIndexEntry(uint64_t prefix_bytes, const std::vector<int32_t>& tokens);
// Errors: kCorrupt when the length is not 8 + 4k bytes.
Result<SharedIndexEntry> DecodeIndexEntry(std::string_view key, std::string_view bytes);
// The [offset, length) of each chunk of an image of `image_bytes` bytes (none for 0 bytes).
std::vector<std::pair<size_t, size_t>> ChunkRanges(size_t image_bytes, size_t chunk_bytes);

}  // namespace strata
