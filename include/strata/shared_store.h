// shared_store.h: a Redis tier of KV checkpoints shared by a fleet of `strata serve` processes
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
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "strata/checkpoint.h"
#include "strata/export.h"
#include "strata/status.h"

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
