// sequence_pool.cc: live sequences with prefix-affine assignment and a bounded FIFO queue (see
// sequence_pool.h).
#include "local/sequence_pool.h"

#include <algorithm>
#include <chrono>

#include "base/common_prefix.h"

namespace strata::serve {

Result<std::unique_ptr<SequencePool>> SequencePool::Create(const LocalModel& model,
                                                           const EngineOptions& engine,
                                                           int parallel, int max_queue) {
  std::unique_ptr<SequencePool> pool(new SequencePool());
  pool->max_queue_ = std::max(0, max_queue);
  STRATA_TRY_ASSIGN(pool->engine_, LocalEngine::Create(model, engine, std::max(1, parallel)));
  for (int i = 0; i < std::max(1, parallel); ++i) {
    auto seq = std::make_unique<Sequence>();
    seq->id = i;
    seq->engine = pool->engine_.get();
    pool->sequences_.push_back(std::move(seq));
    pool->busy_.push_back(false);
  }
  return pool;
}

SequencePool::Lease::~Lease() {
  if (pool_ != nullptr) pool_->Release(seq_);
}

Sequence* SequencePool::PickFree(std::span<const int32_t> tokens) {
  Sequence* best = nullptr;
  size_t best_shared = 0;
  for (size_t i = 0; i < sequences_.size(); ++i) {
    if (busy_[i]) continue;
    Sequence* s = sequences_[i].get();
    const size_t shared = CommonPrefixLength<int32_t>(s->tokens, tokens);
    if (best == nullptr || shared > best_shared ||
        (shared == best_shared && s->last_used < best->last_used)) {
      best = s;
      best_shared = shared;
    }
  }
  return best;
}

SequencePool::Lease SequencePool::Acquire(std::span<const int32_t> tokens,
                                          const std::function<bool()>& cancelled,
                                          Refusal* refusal) {
  std::unique_lock lock(mu_);
  *refusal = Refusal::kNone;
  Sequence* seq = queue_.empty() ? PickFree(tokens) : nullptr;
  if (seq == nullptr) {
    if (static_cast<int>(queue_.size()) >= max_queue_) {
      *refusal = Refusal::kQueueFull;
      return {};
    }
    const uint64_t ticket = next_ticket_++;
    queue_.push_back(ticket);
    while (true) {
      if (queue_.front() == ticket && (seq = PickFree(tokens)) != nullptr) break;
      if (cancelled && cancelled()) {
        queue_.erase(std::find(queue_.begin(), queue_.end(), ticket));
        cv_.notify_all();
        *refusal = Refusal::kCancelled;
        return {};
      }
      cv_.wait_for(lock, std::chrono::milliseconds(100));
    }
    queue_.pop_front();
    cv_.notify_all();
  }
  busy_[seq->id] = true;
  seq->last_used = ++clock_;
  return Lease(this, seq);
}

void SequencePool::Release(Sequence* seq) {
  std::lock_guard lock(mu_);
  busy_[seq->id] = false;
  cv_.notify_all();
}

int SequencePool::busy() const {
  std::lock_guard lock(mu_);
  return static_cast<int>(std::count(busy_.begin(), busy_.end(), true));
}

bool SequencePool::IsBusy(int id) const {
  std::lock_guard lock(mu_);
  return busy_[static_cast<size_t>(id)];
}

int SequencePool::waiting() const {
  std::lock_guard lock(mu_);
  return static_cast<int>(queue_.size());
}

}  // namespace strata::serve
