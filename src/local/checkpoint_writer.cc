// checkpoint_writer.cc: the background checkpoint writer's queue and thread (see
// checkpoint_writer.h).
#include "local/checkpoint_writer.h"

#include <algorithm>

namespace strata::serve {

CheckpointWriter::CheckpointWriter(CheckpointStore* store, PrefixIndex* index, Metrics* metrics,
                                   uint64_t max_queued_bytes)
    : store_(store), index_(index), metrics_(metrics), max_queued_bytes_(max_queued_bytes) {
  thread_ = std::thread([this] { Loop(); });
}

CheckpointWriter::~CheckpointWriter() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  thread_.join();  // Loop empties the queue before it returns
}

void CheckpointWriter::Submit(CheckpointWrite write) {
  std::unique_lock lock(mu_);
  cv_.wait(lock, [this] { return queue_.empty() || queued_bytes_ < max_queued_bytes_; });
  queued_bytes_ += write.image.size();
  queue_.push_back(std::move(write));
  cv_.notify_all();
}

void CheckpointWriter::Drain() {
  std::unique_lock lock(mu_);
  cv_.wait(lock, [this] { return queue_.empty() && writing_.empty(); });
}

bool CheckpointWriter::Pending(const std::string& key) const {
  std::lock_guard lock(mu_);
  auto same = [&key](const CheckpointWrite& w) { return w.key == key; };
  return std::any_of(queue_.begin(), queue_.end(), same) ||
         std::find(writing_.begin(), writing_.end(), key) != writing_.end();
}

void CheckpointWriter::Loop() {
  std::unique_lock lock(mu_);
  while (true) {
    cv_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stopping, and nothing left
    CheckpointWrite write = std::move(queue_.front());
    queue_.pop_front();
    queued_bytes_ -= write.image.size();
    writing_.push_back(write.key);
    cv_.notify_all();
    lock.unlock();
    auto saved = store_->Save(write.key, write.image);
    if (saved && *saved) {
      metrics_->CountCheckpointWrite(write.image.size());
      index_->Add(std::move(write.entry));
    }
    write = {};  // frees the image and releases the key lock
    lock.lock();
    writing_.clear();
    cv_.notify_all();
  }
}

}  // namespace strata::serve
