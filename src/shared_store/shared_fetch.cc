// shared_fetch.cc: SharedStore::Fetch and HasEntry: reads a checkpoint's header entry, checks its
// key and identity before any chunk is read, streams the chunks (kPipelineChunks per round trip),
// and verifies the image (XXH3 of the header entry, then the file's own checks) before it is
// returned. An entry that fails is forgotten (shared_store.h).
#include <fmt/format.h>
#include <xxhash.h>

#include <optional>

#include "shared_store/shared_store_impl.h"

namespace strata {

using shared_store::kPipelineChunks;
using shared_store::Reply;
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

// Appends the chunks of `header` to `image`; a failure (lost connection, a missing or short
// chunk) is returned.
std::optional<SharedFetch> ReadChunks(SharedStore::Impl& s, std::string_view key,
                                      const SharedHeader& header, std::string_view scope,
                                      std::string& image) {
  const std::string header_key = SharedHeaderKey(s.options.prefix, key);
  image.reserve(header.image_bytes);
  const auto ranges = ChunkRanges(header.image_bytes, header.chunk_bytes);
  for (size_t first = 0; first < ranges.size(); first += kPipelineChunks) {
    const size_t last = std::min(ranges.size(), first + kPipelineChunks);
    std::vector<std::string> names;
    for (size_t i = first; i < last; ++i) names.push_back(SharedChunkKey(s.options.prefix, key, i));
    std::vector<std::vector<std::string_view>> cmds;
    cmds.reserve(names.size());
    for (const std::string& n : names) cmds.push_back({"GET", n});
    auto replies = s.reader.Pipeline(cmds);
    if (!replies)
      return s.Failed(
          replies.error().kind,
          fmt::format("{} after {} of {} chunks", replies.error().message, first, ranges.size()));
    for (size_t i = first; i < last; ++i) {
      const Reply& r = (*replies)[i - first];
      if (r->type != REDIS_REPLY_STRING || r->len != ranges[i].second) {
        s.Forget(key, scope);
        return s.Failed(
            SharedError::kIncomplete,
            fmt::format("{}: chunk {} of {} is {} (evicted?)", header_key, i, ranges.size(),
                        r->type == REDIS_REPLY_STRING
                            ? fmt::format("{} bytes, expected {}", r->len, ranges[i].second)
                            : std::string("missing")));
      }
      image.append(r->str, r->len);
      if (s.options.on_chunk_read) s.options.on_chunk_read(i);
    }
  }
  return std::nullopt;
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
  auto image = std::make_shared<std::string>();
  if (auto failed = ReadChunks(s, key, *header, scope, *image)) return std::move(*failed);
  if (XXH3_64bits(image->data(), image->size()) != header->xxh3) {
    s.Forget(key, scope);
    return s.Failed(
        SharedError::kChecksum,
        fmt::format("{}: the chunks' XXH3 differs from the header entry's", header_key));
  }
  auto decoded = DecodeCheckpoint(*image, image, expected, expected_prefix_text);
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
  s.counters.read_bytes += image->size();
  return out;
}

}  // namespace strata
