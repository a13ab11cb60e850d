// checkpoint_writer.h: writes encoded checkpoint images to the store on one background thread,
// so no request waits for a file write (the disk write and its fsync take far longer than taking
// the state: llama_state_seq_get_data into memory). A request hands over the image, its key, the
// prefix it covers and, for a cut built under the store's key lock, that lock: the lock is
// released only after the file is renamed into place, so another process waiting on the key
// finds the file (a prefix is still prefilled once across processes). After a write the entry
// joins the prefix index and the write is counted.
//
// Writes run in submission order. Submit waits while the queued images exceed the byte bound
// (memory stays bounded when the disk is slower than the requests). Drain waits for every
// queued write; the destructor drains, so a server stopped by a signal leaves its checkpoints.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "local/metrics.h"
#include "local/prefix_index.h"
#include "strata/checkpoint.h"

namespace strata::serve {

struct CheckpointWrite {
  std::string key;
  std::string image;                               // EncodeCheckpoint's bytes
  IndexEntry entry;                                // added to the index once the file is written
  std::shared_ptr<CheckpointStore::KeyLock> lock;  // may be empty; released after the write
};

class CheckpointWriter {
 public:
  // `store`, `index` and `metrics` outlive the writer. `max_queued_bytes`: images waiting beyond
  // this make Submit wait (one image is always accepted).
  CheckpointWriter(CheckpointStore* store, PrefixIndex* index, Metrics* metrics,
                   uint64_t max_queued_bytes);
  ~CheckpointWriter();
  CheckpointWriter(const CheckpointWriter&) = delete;
  CheckpointWriter& operator=(const CheckpointWriter&) = delete;

  void Submit(CheckpointWrite write);
  // Waits until every write submitted before the call is done.
  void Drain();
  // Whether `key` is queued or being written (the index does not know it yet).
  bool Pending(const std::string& key) const;

 private:
  void Loop();

  CheckpointStore* store_;
  PrefixIndex* index_;
  Metrics* metrics_;
  uint64_t max_queued_bytes_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<CheckpointWrite> queue_;
  std::vector<std::string> writing_;  // the key being written (0 or 1)
  uint64_t queued_bytes_ = 0;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace strata::serve
