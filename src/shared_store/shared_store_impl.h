// shared_store_impl.h: what a SharedStore holds (the two connections, counters, lease tokens,
// the publish queue and its thread), shared by shared_store.cc (lifetime, counting, warnings),
// shared_fetch.cc (reads) and shared_publish.cc (writes, index entries, leases).
#pragma once

#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "shared_store/redis_connection.h"
#include "strata/checkpoint.h"

namespace strata {

namespace shared_store {

inline constexpr size_t kPipelineChunks = 4;  // chunk SETs in flight per round trip (publishing)
inline constexpr size_t kReadAheadBytes = 16u << 20;  // chunk bytes requested ahead while reading

struct PublishJob {
  CheckpointIdentity identity;
  SharedIndexEntry entry;
  std::string image;
  bool release_lease = false;
};

// The bytes of a string or status reply; empty for any other type.
inline std::string_view Str(const Reply& r) {
  return r && (r->type == REDIS_REPLY_STRING || r->type == REDIS_REPLY_STATUS)
             ? std::string_view(r->str, r->len)
             : std::string_view();
}

}  // namespace shared_store

struct SharedStore::Impl {
  explicit Impl(SharedStoreOptions o) : options(std::move(o)), reader(options), writer(options) {}

  SharedStoreOptions options;
  std::mutex read_mu;  // guards `reader`
  shared_store::RedisConnection reader;
  shared_store::RedisConnection writer;  // the publisher thread's own

  mutable std::mutex mu;  // guards everything below
  SharedStoreCounters counters;
  std::map<std::string, std::string, std::less<>> lease_tokens;  // key -> our token
  std::deque<shared_store::PublishJob> queue;
  uint64_t queued_bytes = 0;
  bool busy = false, stopping = false;
  std::condition_variable cv;
  int last_warned = -1;
  std::thread publisher;

  void Count(const shared_store::RedisFailure& f);
  SharedFetch Failed(SharedError kind, std::string reason);
  void Forget(std::string_view key, std::string_view scope);
  void PublishLoop();
  void Write(const shared_store::PublishJob& job);
  void Release(shared_store::RedisConnection& conn, std::string_view key);
};

}  // namespace strata
