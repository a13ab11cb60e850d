// shared_tier.cc: strata serve's use of the shared checkpoint tier (see shared_tier.h): the
// lookup that writes the local tier, publishing, index sync, the lease wait, and its metrics.
#include "serve/shared_tier.h"

#include <fmt/format.h>

#include <algorithm>
#include <thread>

#include "local/prefix_index.h"

namespace strata::serve {
namespace {

constexpr auto kLeasePoll = std::chrono::milliseconds(20);
constexpr auto kIndexSyncEvery = std::chrono::seconds(1);

}  // namespace

Result<std::unique_ptr<SharedTier>> OpenSharedTier(const ServeOptions& options) {
  if (options.shared_store.empty()) return nullptr;
  SharedStoreOptions o;
  STRATA_TRY_ASSIGN(o.url, ParseSharedStoreUrl(options.shared_store));
  o.timeout_ms = options.shared_store_timeout_ms;
  o.lease_ms = options.shared_lease_ms;
  o.tls_ca_file = options.shared_store_ca_file;
  o.tls_verify = options.shared_store_tls_verify;
  auto tier = std::make_unique<SharedTier>();
  tier->lease_wait_ms = options.shared_lease_wait_ms;
  STRATA_TRY_ASSIGN(tier->store, SharedStore::Open(std::move(o)));
  return tier;
}

Lookup SharedLookup(SharedTier& tier, CheckpointStore& local, const std::string& key,
                    const CheckpointIdentity& expected, std::string_view prefix_text) {
  Lookup out;
  SharedFetch fetched = tier.store->Fetch(key, expected, prefix_text);
  if (fetched.state == SharedFetch::kFailed &&
      (fetched.error == SharedError::kChecksum || fetched.error == SharedError::kIdentity)) {
    out.state = LookupState::kInvalid;
    out.reason = "shared store: " + fetched.reason;
  }
  if (fetched.state != SharedFetch::kHit) return out;
  (void)local.Save(key, fetched.checkpoint.image);  // the local tier; a full disk only warns later
  out.state = LookupState::kHit;
  out.file_bytes = fetched.checkpoint.image.size();
  out.checkpoint = std::move(fetched.checkpoint);
  return out;
}

void SharedPublish(SharedTier& tier, const CheckpointIdentity& identity, const std::string& key,
                   size_t prefix_bytes, const std::vector<int32_t>& tokens, std::string image,
                   bool release_lease) {
  tier.store->Publish(identity, {key, prefix_bytes, tokens}, std::move(image), release_lease);
}

size_t SyncSharedIndex(SharedTier& tier, PrefixIndex& index,
                       const CheckpointIdentity& scope_identity, bool force) {
  std::lock_guard lock(tier.sync_mu);
  const auto now = std::chrono::steady_clock::now();
  if (!force && now < tier.next_sync) return 0;
  tier.next_sync = now + kIndexSyncEvery;
  auto entries = tier.store->IndexEntries(SharedScope(scope_identity), tier.learned);
  for (SharedIndexEntry& e : entries) {
    tier.learned.push_back(e.key);
    index.Add({std::move(e.key), e.prefix_bytes, std::move(e.tokens), {}});
  }
  std::sort(tier.learned.begin(), tier.learned.end());
  return entries.size();
}

SharedLease::~SharedLease() {
  if (outcome_ == LeaseOutcome::kHeld && tier_ != nullptr) tier_->store->ReleaseLease(key_);
}

bool SharedLease::HandOff() {
  if (outcome_ != LeaseOutcome::kHeld) return false;
  outcome_ = LeaseOutcome::kNone;
  return true;
}

Lookup SharedTier::Find(CheckpointStore& local, const std::string& key,
                        const CheckpointIdentity& expected, std::string_view prefix_text) {
  return SharedLookup(*this, local, key, expected, prefix_text);
}

void SharedTier::Publish(const CheckpointIdentity& identity, const std::string& key,
                         size_t prefix_bytes, const std::vector<int32_t>& tokens, std::string image,
                         bool release_lease) {
  SharedPublish(*this, identity, key, prefix_bytes, tokens, std::move(image), release_lease);
}

size_t SharedTier::Sync(PrefixIndex& index, const CheckpointIdentity& scope, bool force) {
  return SyncSharedIndex(*this, index, scope, force);
}

std::unique_ptr<CutLease> SharedTier::AwaitLease(const std::string& key) {
  return std::make_unique<SharedLease>(AwaitSharedLease(*this, key));
}

// Takes the lease, or waits for its holder's checkpoint; a lease that disappears without a
// checkpoint (the holder failed, or crashed and the lease expired) is taken over.
SharedLease AwaitSharedLease(SharedTier& tier, const std::string& key) {
  SharedStore& store = *tier.store;
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(tier.lease_wait_ms);
  for (;;) {
    const SharedStore::LeaseState state = store.AcquireLease(key);
    if (state == SharedStore::LeaseState::kUnavailable) return {};
    if (state == SharedStore::LeaseState::kHeld) {
      // Published between the caller's lookup and our SET (its holder has released the lease):
      // even a first SET that succeeds may come after another instance's whole prefill.
      if (store.HasEntry(key)) {
        store.ReleaseLease(key);
        ++tier.leases_waited;
        return {&tier, key, LeaseOutcome::kPublished};
      }
      ++tier.leases_held;
      return {&tier, key, LeaseOutcome::kHeld};
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      ++tier.leases_timed_out;
      return {};
    }
    std::this_thread::sleep_for(kLeasePoll);
    if (store.HasEntry(key)) {
      ++tier.leases_waited;
      return {&tier, key, LeaseOutcome::kPublished};
    }
  }
}

std::string RenderSharedTier(const SharedTier* tier) {
  if (tier == nullptr) return {};
  const SharedStoreCounters c = tier->store->counters();
  std::string out;
  auto counter = [&out](const char* name, const char* help, uint64_t v) {
    out += fmt::format("# HELP {0} {1}\n# TYPE {0} counter\n{0} {2}\n", name, help, v);
  };
  counter("strata_shared_store_hits_total", "checkpoints restored from the shared store", c.hits);
  counter("strata_shared_store_misses_total", "shared store lookups that restored nothing",
          c.misses);
  counter("strata_shared_store_read_bytes_total", "checkpoint bytes read from the shared store",
          c.read_bytes);
  counter("strata_shared_store_published_total", "checkpoints written to the shared store",
          c.published);
  counter("strata_shared_store_published_bytes_total",
          "checkpoint bytes written to the shared store", c.published_bytes);
  out +=
      "# HELP strata_shared_store_leases_total prefix builds by lease outcome: held (this "
      "instance prefilled), waited (another instance's checkpoint restored), timeout\n"
      "# TYPE strata_shared_store_leases_total counter\n";
  out += fmt::format("strata_shared_store_leases_total{{outcome=\"held\"}} {}\n",
                     tier->leases_held.load());
  out += fmt::format("strata_shared_store_leases_total{{outcome=\"waited\"}} {}\n",
                     tier->leases_waited.load());
  out += fmt::format("strata_shared_store_leases_total{{outcome=\"timeout\"}} {}\n",
                     tier->leases_timed_out.load());
  out +=
      "# HELP strata_shared_store_errors_total shared store failures by reason\n"
      "# TYPE strata_shared_store_errors_total counter\n";
  for (size_t i = 0; i < c.errors.size(); ++i)
    out += fmt::format("strata_shared_store_errors_total{{reason=\"{}\"}} {}\n",
                       SharedErrorName(static_cast<SharedError>(i)), c.errors[i]);
  return out;
}

}  // namespace strata::serve
