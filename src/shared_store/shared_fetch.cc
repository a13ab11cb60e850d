// shared_fetch.cc: SharedStore::Fetch and HasEntry: reads a checkpoint's header entry, checks its
// key and identity before any chunk is read, receives the chunks straight into one buffer of the
// image's size (RedisConnection::GetInto, several GETs in flight), and verifies the image once (the
// file's own checks, which cover every byte) before it is returned. An entry that fails is
// forgotten (shared_store.h).
#include <fmt/format.h>
#include <sys/mman.h>

#include <algorithm>
#include <optional>

#include "shared_store/shared_store_impl.h"

namespace strata {

using shared_store::Str;

namespace {

// Which identity member differs, for the log.
std::string IdentityDifference(const CheckpointIdentity& a, const CheckpointIdentity& b) {
  if (a.model != b.model) return "model";
  if (a.tokenizer != b.tokenizer) return "tokenizer";
  if (a.chat_template != b.chat_template) return "chat template";
  if (a.engine != b.engine) return "engine";
  if (a.prefix_sha256 != b.prefix_sha256) return "prefix";
  return "settings (context, KV types, batch, flash attention or reasoning mode)";
}

// Chunk GETs in flight while reading: about kReadAheadBytes, within [2, 16] chunks (Redis holds
// the replies of the GETs it has read in its output buffer).
size_t ReadDepth(size_t chunk_bytes) {
  return std::clamp<size_t>(shared_store::kReadAheadBytes / std::max<size_t>(chunk_bytes, 1), 2,
                            16);
}

// A buffer of `bytes` for an image: anonymous memory populated in one call before the chunks
// arrive (not one page fault per 4 KiB inside recv). Not on transparent huge pages: their
// compaction made the first fetch of a 128 MiB image several hundred ms slower. Null when the
// memory is not there.
std::shared_ptr<char> ImageBuffer(size_t bytes) {
  const size_t len = std::max<size_t>(bytes, 1);
  void* p = ::mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return nullptr;
#ifdef MADV_POPULATE_WRITE
  (void)::madvise(p, len, MADV_POPULATE_WRITE);  // Linux 5.14; older kernels fault in recv
#endif
  return std::shared_ptr<char>(static_cast<char*>(p), [len](char* q) { ::munmap(q, len); });
}

// Receives the chunks of `header` into `image` (image_bytes long); a failure (lost connection, a
// missing or short chunk) is returned.
std::optional<SharedFetch> ReadChunks(SharedStore::Impl& s, std::string_view key,
                                      const SharedHeader& header, std::string_view scope,
                                      char* image) {
  const auto ranges = ChunkRanges(header.image_bytes, header.chunk_bytes);
  std::vector<shared_store::BulkTarget> targets;
  targets.reserve(ranges.size());
  for (size_t i = 0; i < ranges.size(); ++i)
    targets.push_back(
        {SharedChunkKey(s.options.prefix, key, i), image + ranges[i].first, ranges[i].second});
  auto read = s.reader.GetInto(targets, ReadDepth(header.chunk_bytes), s.options.on_chunk_read);
  if (!read) return s.Failed(read.error().kind, read.error().message);
  if (!*read) return std::nullopt;
  const shared_store::BulkShort& bad = **read;
  s.Forget(key, scope);
  return s.Failed(SharedError::kIncomplete,
                  fmt::format("{}: chunk {} of {} is {} (evicted?)",
                              SharedHeaderKey(s.options.prefix, key), bad.index, ranges.size(),
                              bad.bytes < 0 ? std::string("missing")
                                            : fmt::format("{} bytes, expected {}", bad.bytes,
                                                          ranges[bad.index].second)));
}

}  // namespace

bool SharedStore::HasEntry(std::string_view key) {
  std::lock_guard lock(impl_->read_mu);
  auto r = impl_->reader.Command({"EXISTS", SharedHeaderKey(impl_->options.prefix, key)});
  if (!r) {
    impl_->Count(r.error());
    return false;
  }
  return (*r)->type == REDIS_REPLY_INTEGER && (*r)->integer == 1;
}

SharedFetch SharedStore::Fetch(std::string_view key, const CheckpointIdentity& expected,
                               std::string_view expected_prefix_text) {
  Impl& s = *impl_;
  std::lock_guard lock(s.read_mu);
  const std::string header_key = SharedHeaderKey(s.options.prefix, key);
  auto got = s.reader.Command({"GET", header_key});
  if (!got) return s.Failed(got.error().kind, got.error().message);
  if ((*got)->type == REDIS_REPLY_NIL) {
    std::lock_guard count(s.mu);
    ++s.counters.misses;
    return {};
  }
  const std::string scope = SharedScope(expected);
  auto header = DecodeSharedHeader(Str(*got));
  if (!header) {
    s.Forget(key, scope);
    return s.Failed(SharedError::kChecksum,
                    fmt::format("{}: {}", header_key, header.error().message));
  }
  if (header->key != key || !(header->identity == expected)) {
    s.Forget(key, scope);
    return s.Failed(
        SharedError::kIdentity,
        fmt::format("{}: the header entry is of another checkpoint ({} differs); "
                    "refused before reading its chunks",
                    header_key,
                    header->key != key ? "key" : IdentityDifference(header->identity, expected)));
  }
  // One buffer of the image's size; the chunks are received into it.
  std::shared_ptr<char> image = ImageBuffer(header->image_bytes);
  if (!image)
    return s.Failed(SharedError::kProtocol,
                    fmt::format("{}: cannot allocate {} bytes", header_key, header->image_bytes));
  if (auto failed = ReadChunks(s, key, *header, scope, image.get())) return std::move(*failed);
  // One checksum pass: the file's own checks cover every byte of the image (the header bytes by
  // the header checksum, the body by body_xxh3, the sizes exactly), so the header entry's xxh3
  // of the same bytes is not computed again.
  const std::string_view bytes(image.get(), header->image_bytes);
  auto decoded = DecodeCheckpoint(bytes, image, expected, expected_prefix_text);
  if (!decoded) {
    s.Forget(key, scope);
    return s.Failed(SharedError::kChecksum,
                    fmt::format("{}: {}", header_key, decoded.error().message));
  }
  SharedFetch out;
  out.state = SharedFetch::kHit;
  out.checkpoint = std::move(*decoded);
  std::lock_guard count(s.mu);
  ++s.counters.hits;
  s.counters.read_bytes += bytes.size();
  return out;
}

}  // namespace strata
