// shared_publish.cc: the writes of the shared tier: the publisher thread (chunks, then header,
// then index field; a checkpoint already present is not written again), the index entries a
// server adds to its prefix index, and the lease (SET NX PX, released by a compare-and-delete
// script). See include/strata/checkpoint.h.
#include <fmt/format.h>
#include <xxhash.h>

#include <algorithm>
#include <random>

#include "shared_store/shared_store_impl.h"

namespace strata {

using shared_store::kPipelineChunks;
using shared_store::PublishJob;
using shared_store::RedisConnection;
using shared_store::Str;

namespace {

constexpr const char* kReleaseScript =
    "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end "
    "return 0";

std::string RandomToken() {
  std::random_device rd;
  return fmt::format("{:08x}{:08x}{:08x}{:08x}", rd(), rd(), rd(), rd());
}

}  // namespace

void SharedStore::Publish(const CheckpointIdentity& identity, SharedIndexEntry entry,
                          std::string image, bool release_lease) {
  Impl& s = *impl_;
  {
    std::lock_guard lock(s.mu);
    if (s.queued_bytes + image.size() <= s.options.publish_queue_bytes) {
      s.queued_bytes += image.size();
      s.queue.push_back({identity, std::move(entry), std::move(image), release_lease});
      s.cv.notify_all();
      return;
    }
  }
  s.Count({SharedError::kQueueFull,
           fmt::format("{} bytes already wait to be published; {} not published",
                       s.options.publish_queue_bytes, entry.key)});
  if (release_lease) ReleaseLease(entry.key);
}

void SharedStore::Flush() {
  std::unique_lock lock(impl_->mu);
  impl_->cv.wait(lock, [this] { return impl_->queue.empty() && !impl_->busy; });
}

void SharedStore::Impl::PublishLoop() {
  std::unique_lock lock(mu);
  for (;;) {
    cv.wait(lock, [this] { return stopping || !queue.empty(); });
    if (queue.empty()) return;  // stopping, and everything queued is written
    PublishJob job = std::move(queue.front());
    queue.pop_front();
    busy = true;
    lock.unlock();
    Write(job);
    if (job.release_lease) Release(writer, job.entry.key);
    lock.lock();
    queued_bytes -= job.image.size();
    busy = false;
    cv.notify_all();
  }
}

void SharedStore::Impl::Write(const PublishJob& job) {
  const std::string& key = job.entry.key;
  const std::string header_key = SharedHeaderKey(options.prefix, key);
  auto exists = writer.Command({"EXISTS", header_key});
  if (!exists) return Count(exists.error());
  if ((*exists)->type == REDIS_REPLY_INTEGER && (*exists)->integer == 1) return;
  SharedHeader h;
  h.key = key;
  h.token_count = job.entry.tokens.size();
  h.prefix_bytes = job.entry.prefix_bytes;
  h.image_bytes = job.image.size();
  h.chunk_bytes = options.chunk_bytes;
  const auto ranges = ChunkRanges(job.image.size(), options.chunk_bytes);
  h.chunks = ranges.size();
  h.xxh3 = XXH3_64bits(job.image.data(), job.image.size());
  h.identity = job.identity;
  for (size_t first = 0; first < ranges.size(); first += kPipelineChunks) {
    std::vector<std::string> names;
    std::vector<std::vector<std::string_view>> cmds;
    for (size_t i = first; i < std::min(ranges.size(), first + kPipelineChunks); ++i)
      names.push_back(SharedChunkKey(options.prefix, key, i));
    for (size_t i = 0; i < names.size(); ++i) {
      const auto [at, len] = ranges[first + i];
      cmds.push_back({"SET", names[i], std::string_view(job.image).substr(at, len)});
    }
    if (auto st = writer.Pipeline(cmds); !st) return Count(st.error());
  }
  const std::string header = EncodeSharedHeader(h);
  const std::string index_key = SharedIndexKey(options.prefix, SharedScope(job.identity));
  const std::string entry = EncodeIndexEntry(job.entry.prefix_bytes, job.entry.tokens);
  auto st = writer.Pipeline({{"SET", header_key, header}, {"HSET", index_key, key, entry}});
  if (!st) return Count(st.error());
  std::lock_guard lock(mu);
  ++counters.published;
  counters.published_bytes += job.image.size();
}

void SharedStore::Impl::Release(RedisConnection& conn, std::string_view key) {
  std::string token;
  {
    std::lock_guard lock(mu);
    auto it = lease_tokens.find(key);
    if (it == lease_tokens.end()) return;
    token = std::move(it->second);
    lease_tokens.erase(it);
  }
  auto st = conn.Command({"EVAL", kReleaseScript, "1", SharedLeaseKey(options.prefix, key), token});
  if (!st) Count(st.error());  // the lease expires after lease_ms
}

std::vector<SharedIndexEntry> SharedStore::IndexEntries(std::string_view scope,
                                                        const std::vector<std::string>& known) {
  Impl& s = *impl_;
  std::lock_guard lock(s.read_mu);
  const std::string index_key = SharedIndexKey(s.options.prefix, scope);
  auto keys = s.reader.Command({"HKEYS", index_key});
  if (!keys) {
    s.Count(keys.error());
    return {};
  }
  std::vector<std::string> wanted;
  for (size_t i = 0; (*keys)->type == REDIS_REPLY_ARRAY && i < (*keys)->elements; ++i) {
    std::string k((*keys)->element[i]->str, (*keys)->element[i]->len);
    if (!std::binary_search(known.begin(), known.end(), k)) wanted.push_back(std::move(k));
  }
  std::vector<std::vector<std::string_view>> cmds;
  cmds.reserve(wanted.size());
  for (const std::string& k : wanted) cmds.push_back({"HGET", index_key, k});
  std::vector<SharedIndexEntry> out;
  if (cmds.empty()) return out;
  auto values = s.reader.Pipeline(cmds);
  if (!values) {
    s.Count(values.error());
    return out;
  }
  for (size_t i = 0; i < wanted.size(); ++i) {
    auto e = DecodeIndexEntry(wanted[i], Str((*values)[i]));
    if (e) out.push_back(std::move(*e));
  }
  return out;
}

SharedStore::LeaseState SharedStore::AcquireLease(std::string_view key) {
  Impl& s = *impl_;
  const std::string token = RandomToken();
  const std::string ms = std::to_string(s.options.lease_ms);
  std::lock_guard lock(s.read_mu);
  auto r = s.reader.Command({"SET", SharedLeaseKey(s.options.prefix, key), token, "NX", "PX", ms});
  if (!r) {
    s.Count(r.error());
    return LeaseState::kUnavailable;
  }
  if ((*r)->type == REDIS_REPLY_NIL) return LeaseState::kBusy;
  std::lock_guard count(s.mu);
  ++s.counters.leases_held;
  s.lease_tokens[std::string(key)] = token;
  return LeaseState::kHeld;
}

void SharedStore::ReleaseLease(std::string_view key) {
  std::lock_guard lock(impl_->read_mu);
  impl_->Release(impl_->reader, key);
}

}  // namespace strata
