// sequence_pool.h: the live tier: --parallel N sequences of one LocalEngine (one llama.cpp
// context, continuous batching: local_engine.h), each remembering the tokens its KV cache holds,
// so a conversation continuing on its sequence prefills only the new tokens (like llama-server's
// slot cache). A request takes the
// free sequence whose tokens share the longest prefix with its own (ties: the least recently
// used); when none is free it waits in a bounded queue (first come, first served), and a request
// arriving at a full queue is refused at once (the server answers 503).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include "local/local_engine.h"

namespace strata::serve {

struct Sequence {
  int id = 0;
  LocalEngine* engine = nullptr;  // sequence `id` of this engine
  std::vector<int32_t> tokens;    // what its KV cache holds, in order (the holder's copy)
  uint64_t last_used = 0;
};

class SequencePool {
 public:
  static Result<std::unique_ptr<SequencePool>> Create(const LocalModel& model,
                                                      const EngineOptions& engine, int parallel,
                                                      int max_queue);

  // Hands a sequence back to the pool when destroyed.
  class Lease {
   public:
    Lease() = default;
    Lease(SequencePool* pool, Sequence* seq) : pool_(pool), seq_(seq) {}
    Lease(Lease&& o) noexcept : pool_(o.pool_), seq_(o.seq_) { o.pool_ = nullptr; }
    Lease& operator=(Lease&& o) noexcept {
      if (this != &o) {
        this->~Lease();
        pool_ = o.pool_;
        seq_ = o.seq_;
        o.pool_ = nullptr;
      }
      return *this;
    }
    ~Lease();
    Sequence* operator->() const { return seq_; }
    Sequence& operator*() const { return *seq_; }
    explicit operator bool() const { return pool_ != nullptr; }

   private:
    SequencePool* pool_ = nullptr;
    Sequence* seq_ = nullptr;
  };

  enum class Refusal { kNone, kQueueFull, kCancelled };
  // Waits for a sequence (see above). `cancelled` is polled while waiting (every 100 ms).
  Lease Acquire(std::span<const int32_t> tokens, const std::function<bool()>& cancelled,
                Refusal* refusal);

  int size() const { return static_cast<int>(sequences_.size()); }
  int busy() const;
  // Whether sequence `id` (0 to size() - 1) is leased to a request now.
  bool IsBusy(int id) const;
  LocalEngine& engine() const { return *engine_; }
  int waiting() const;

 private:
  SequencePool() = default;
  void Release(Sequence* seq);
  Sequence* PickFree(std::span<const int32_t> tokens);

  std::unique_ptr<LocalEngine> engine_;
  std::vector<std::unique_ptr<Sequence>> sequences_;
  std::vector<bool> busy_;
  int max_queue_ = 0;
  uint64_t clock_ = 0;  // use counter (recency), not time
  uint64_t next_ticket_ = 0;
  std::deque<uint64_t> queue_;  // tickets of waiting requests, in arrival order
  mutable std::mutex mu_;
  std::condition_variable cv_;
};

}  // namespace strata::serve
