// shared_store.cc: the shared tier's reads (header, chunks, verification), its writes (a
// publisher thread with its own connection and a byte-bounded queue), the index entries, the
// lease, and the counting and warning of failures. See include/strata/checkpoint.h.
#include "strata/checkpoint.h"

#include <fmt/format.h>

#include <cstdio>

#include "shared_store/shared_store_impl.h"

namespace strata {

using shared_store::RedisFailure;

void SharedStore::Impl::Count(const RedisFailure& f) {
  std::string line;
  {
    std::lock_guard lock(mu);
    ++counters.errors[static_cast<size_t>(f.kind)];
    if (last_warned == static_cast<int>(f.kind)) return;
    last_warned = static_cast<int>(f.kind);
    line = fmt::format(
        "strata serve: shared store {}: {}; serving from the local store and by "
        "prefill",
        SharedErrorName(f.kind), f.message);
  }
  if (options.warn)
    options.warn(line);
  else
    std::fprintf(stderr, "%s\n", line.c_str());
}

SharedFetch SharedStore::Impl::Failed(SharedError kind, std::string reason) {
  Count({kind, reason});
  {
    std::lock_guard lock(mu);
    ++counters.misses;
  }
  SharedFetch out;
  out.state = SharedFetch::kFailed;
  out.error = kind;
  out.reason = std::move(reason);
  return out;
}

// Removes an entry that must not be tried again (its header and index field; chunks expire by
// the LRU policy or are overwritten by the next publish). Caller holds read_mu.
void SharedStore::Impl::Forget(std::string_view key, std::string_view scope) {
  const std::string header = SharedHeaderKey(options.prefix, key);
  const std::string index = SharedIndexKey(options.prefix, scope);
  (void)reader.Pipeline({{"DEL", header}, {"HDEL", index, key}});
}

Result<std::unique_ptr<SharedStore>> SharedStore::Open(SharedStoreOptions options) {
  if (options.chunk_bytes == 0 || options.chunk_bytes > kMaxChunkBytes)
    return MakeError(ErrorKind::kInvalidArgument,
                     fmt::format("shared store: chunk size {} is not in 1 .. {} bytes",
                                 options.chunk_bytes, kMaxChunkBytes));
  if (options.url.host.empty())
    return MakeError(ErrorKind::kInvalidArgument, "shared store: no host");
  if (options.timeout_ms <= 0) options.timeout_ms = 1;
  if (options.tls_ca_file.empty()) options.tls_ca_file = options.url.tls_ca_file;
  auto impl = std::make_unique<Impl>(std::move(options));
  Impl* p = impl.get();
  impl->publisher = std::thread([p] { p->PublishLoop(); });
  return std::unique_ptr<SharedStore>(new SharedStore(std::move(impl)));
}

SharedStore::SharedStore(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

SharedStore::~SharedStore() {
  {
    std::lock_guard lock(impl_->mu);
    impl_->stopping = true;
  }
  impl_->cv.notify_all();
  if (impl_->publisher.joinable()) impl_->publisher.join();
}

const SharedStoreOptions& SharedStore::options() const { return impl_->options; }

SharedStoreCounters SharedStore::counters() const {
  std::lock_guard lock(impl_->mu);
  return impl_->counters;
}

}  // namespace strata
