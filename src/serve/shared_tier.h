// shared_tier.h: the hooks through which the prefix engine uses the shared checkpoint tier
// (include/strata/checkpoint.h): a lookup behind the local store that writes what it restores
// into the local store, publishing after a local save, the index entries other instances
// published, the lease around a new cut's prefill, and the tier's lines of /metrics.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "local/prefix_engine.h"
#include "strata/checkpoint.h"
#include "strata/serve.h"

namespace strata::serve {

class PrefixIndex;

// The prefix engine's CheckpointTier over Redis: its methods call the functions below.
struct SharedTier : CheckpointTier {
  Lookup Find(CheckpointStore& local, const std::string& key, const CheckpointIdentity& expected,
              std::string_view prefix_text) override;
  void Publish(const CheckpointIdentity& identity, const std::string& key, size_t prefix_bytes,
               const std::vector<int32_t>& tokens, std::string image, bool release_lease) override;
  size_t Sync(PrefixIndex& index, const CheckpointIdentity& scope, bool force) override;
  std::unique_ptr<CutLease> AwaitLease(const std::string& key) override;

  std::unique_ptr<SharedStore> store;
  int lease_wait_ms = 30000;
  std::atomic<uint64_t> leases_held{0}, leases_waited{0}, leases_timed_out{0};
  std::mutex sync_mu;                // guards the two below
  std::vector<std::string> learned;  // sorted keys added to the index from Redis
  std::chrono::steady_clock::time_point next_sync{};
};

// Null when options.shared_store is empty. Errors: kInvalidArgument (the URL).
Result<std::unique_ptr<SharedTier>> OpenSharedTier(const ServeOptions& options);

// After the local store found nothing: fetches and verifies `key` from Redis and writes it into
// `local` (a warning-free best effort). kHit with the checkpoint, kInvalid with the reason when
// Redis held a corrupt or foreign entry, else kAbsent.
Lookup SharedLookup(SharedTier& tier, CheckpointStore& local, const std::string& key,
                    const CheckpointIdentity& expected, std::string_view prefix_text);

// Publishes a checkpoint the engine just encoded (off the request path).
void SharedPublish(SharedTier& tier, const CheckpointIdentity& identity, const std::string& key,
                   size_t prefix_bytes, const std::vector<int32_t>& tokens, std::string image,
                   bool release_lease);

// Adds index entries other instances published for `scope_identity`'s scope; at most once a
// second unless `force`. Returns how many were added.
size_t SyncSharedIndex(SharedTier& tier, PrefixIndex& index,
                       const CheckpointIdentity& scope_identity, bool force);

// The lease around building `key`: kHeld (this instance prefills, then publishes with
// release_lease), kPublished (another instance published it meanwhile: restore it), kNone (Redis
// failed, or the wait bound passed: prefill without a lease).
enum class LeaseOutcome { kHeld, kPublished, kNone };
class SharedLease : public CutLease {
 public:
  SharedLease() = default;
  SharedLease(SharedTier* tier, std::string key, LeaseOutcome outcome)
      : tier_(tier), key_(std::move(key)), outcome_(outcome) {}
  SharedLease(SharedLease&& o) noexcept
      : tier_(o.tier_), key_(std::move(o.key_)), outcome_(o.outcome_) {
    o.outcome_ = LeaseOutcome::kNone;
  }
  SharedLease& operator=(SharedLease&&) = delete;
  ~SharedLease() override;
  LeaseOutcome outcome() const { return outcome_; }
  bool published() const override { return outcome_ == LeaseOutcome::kPublished; }
  // True once: the caller hands the release to the publisher.
  bool HandOff() override;

 private:
  SharedTier* tier_ = nullptr;
  std::string key_;
  LeaseOutcome outcome_ = LeaseOutcome::kNone;
};
SharedLease AwaitSharedLease(SharedTier& tier, const std::string& key);

// The strata_shared_store_* lines of /metrics (empty without a tier).
std::string RenderSharedTier(const SharedTier* tier);

}  // namespace strata::serve
