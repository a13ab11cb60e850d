// checkpoint_store.cc: the checkpoint directory: content-addressed files, cross-process locks,
// least-recently-used eviction under a byte budget. See CheckpointStore in checkpoint.h.
//
// Recency is kept in each file's mtime, set explicitly from CLOCK_REALTIME (nanoseconds) on save
// and on every hit, because the kernel's own timestamps are tick-granular and would tie.
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <ctime>

#include "io/file_io.h"
#include "strata/checkpoint.h"

namespace strata {
namespace fs = std::filesystem;
namespace {

void TouchNow(const fs::path& path) {
  timespec now{};
  clock_gettime(CLOCK_REALTIME, &now);
  timespec times[2] = {now, now};
  utimensat(AT_FDCWD, path.c_str(), times, 0);
}

Result<int> OpenLocked(const fs::path& path) {
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    return MakeError(ErrorKind::kIo, fmt::format("cannot open lock: {}", std::strerror(errno)),
                     {path.string()});
  }
  while (::flock(fd, LOCK_EX) != 0) {
    if (errno != EINTR) {
      const int err = errno;
      ::close(fd);
      return MakeError(ErrorKind::kIo, fmt::format("cannot lock: {}", std::strerror(err)),
                       {path.string()});
    }
  }
  return fd;
}

// A read-only, private mapping of a whole file, populated up front (MAP_POPULATE maps the page
// cache pages in one call instead of one fault per page): the restore path reads the checkpoint
// through it without copying it into a buffer first.
class MappedFile {
 public:
  MappedFile(void* data, size_t size, dev_t dev, ino_t ino)
      : data_(data), size_(size), dev_(dev), ino_(ino) {}
  ~MappedFile() {
    if (data_ != nullptr && size_ > 0) ::munmap(data_, size_);
  }
  std::string_view bytes() const { return {static_cast<const char*>(data_), size_}; }
  // True when `path` still names the file that was mapped (not a newer one renamed over it).
  bool StillAt(const fs::path& path) const {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && st.st_dev == dev_ && st.st_ino == ino_;
  }

 private:
  void* data_;
  size_t size_;
  dev_t dev_;
  ino_t ino_;
};

// Why the entry at a key path is not a checkpoint file, or empty when it is a regular file.
std::string NotAFile(const struct stat& st) {
  if (S_ISREG(st.st_mode)) return {};
  if (S_ISDIR(st.st_mode)) return "a directory";
  if (S_ISFIFO(st.st_mode)) return "a FIFO";
  if (S_ISLNK(st.st_mode)) return "a symlink";
  return "a device or socket";
}

// Opens without blocking (a FIFO) or following a symlink, then checks the type: kConflict names
// what is there instead of a file.
Result<std::shared_ptr<MappedFile>> MapWhole(const fs::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;
    struct stat lst {};
    if ((err == ELOOP || err == EISDIR || err == ENXIO) && ::lstat(path.c_str(), &lst) == 0) {
      return MakeError(ErrorKind::kConflict, NotAFile(lst), {path.string()});
    }
    const ErrorKind kind = err == ENOENT ? ErrorKind::kNotFound : ErrorKind::kIo;
    return MakeError(kind, std::strerror(err), {path.string()});
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    const int err = errno;
    ::close(fd);
    if (!S_ISREG(st.st_mode)) return MakeError(ErrorKind::kConflict, NotAFile(st), {path.string()});
    return MakeError(ErrorKind::kIo, std::strerror(err), {path.string()});
  }
  const size_t size = static_cast<size_t>(st.st_size);
  void* data = nullptr;
  if (size > 0) {
    data = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
    if (data == MAP_FAILED) {
      const int err = errno;
      ::close(fd);
      return MakeError(ErrorKind::kIo, std::strerror(err), {path.string()});
    }
  }
  ::close(fd);  // the mapping stays valid; the file is never modified in place (atomic renames)
  return std::make_shared<MappedFile>(data, size, st.st_dev, st.st_ino);
}

}  // namespace

fs::path DefaultCheckpointDir() {
  const char* cache = std::getenv("STRATA_CACHE_DIR");
  if (cache != nullptr && *cache) return fs::path(cache) / "kv";
  if (const char* dir = std::getenv("STRATA_CHECKPOINT_DIR"); dir && *dir) return dir;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    return fs::path(xdg) / "strata" / "kv";
  const char* home = std::getenv("HOME");
  return fs::path(home && *home ? home : "/tmp") / ".cache" / "strata" / "kv";
}

std::string CheckpointDirNote() {
  const char* old = std::getenv("STRATA_CHECKPOINT_DIR");
  if (old == nullptr || *old == 0) return {};
  const char* cache = std::getenv("STRATA_CACHE_DIR");
  if (cache != nullptr && *cache) {
    return "STRATA_CHECKPOINT_DIR is ignored because STRATA_CACHE_DIR is set (checkpoints are in "
           "$STRATA_CACHE_DIR/kv)";
  }
  return "STRATA_CHECKPOINT_DIR is the older name: set STRATA_CACHE_DIR (checkpoints go to "
         "$STRATA_CACHE_DIR/kv) or pass --store";
}

Result<std::unique_ptr<CheckpointStore>> CheckpointStore::Open(CheckpointStoreOptions options) {
  std::error_code ec;
  fs::create_directories(options.dir / "locks", ec);
  auto store = std::unique_ptr<CheckpointStore>(new CheckpointStore(std::move(options)));
  const fs::path& dir = store->options_.dir;
  if (ec || ::access((dir / "locks").c_str(), W_OK) != 0 || ::access(dir.c_str(), W_OK) != 0) {
    const std::string why = ec ? ec.message() : std::strerror(errno);
    store->degraded_ =
        (fs::is_directory(dir) ? "checkpoint directory " + dir.string() + " is not writable: "
                               : "cannot create checkpoint directory " + dir.string() + ": ") +
        why +
        "; answering without storing checkpoints (pass a writable --store or set "
        "STRATA_CACHE_DIR)";
    return store;
  }
  CleanStaleTemporaries(dir);
  CleanStaleTemporaries(dir / "models");
  // A writer killed between its rename and its eviction left the store over budget; a run that
  // only reads (a hit) would never save, so the budget is restored here.
  (void)store->EvictToBudget("");
  return store;
}

CheckpointStore::~CheckpointStore() = default;

fs::path CheckpointStore::PathFor(std::string_view key) const {
  return options_.dir / (std::string(key) + ".kv");
}

Lookup CheckpointStore::Find(std::string_view key, const CheckpointIdentity& expected,
                             std::string_view expected_prefix_text) {
  Lookup lookup;
  const fs::path path = PathFor(key);
  const auto t0 = std::chrono::steady_clock::now();
  auto bytes = MapWhole(path);
  const auto t1 = std::chrono::steady_clock::now();
  lookup.read_ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
  if (!bytes) {
    if (bytes.error().kind == ErrorKind::kNotFound) return lookup;  // kAbsent
    lookup.state = LookupState::kInvalid;
    lookup.reason = "unreadable: " + bytes.error().message;
    if (bytes.error().kind == ErrorKind::kConflict) {
      // Not a file: refused unopened; a FIFO, socket or symlink is removed (a directory only
      // when empty), so the next save can store the key.
      std::error_code ec;
      const bool is_dir = bytes.error().message == "a directory";
      const bool removed = is_dir ? ::rmdir(path.c_str()) == 0 : fs::remove(path, ec);
      lookup.reason =
          path.filename().string() + " is " + bytes.error().message + ", not a checkpoint file";
      lookup.warning = "checkpoint store: " + path.string() + " is " + bytes.error().message +
                       ", not a checkpoint file; " +
                       (removed ? "removed" : "refused (remove it to store this prefix)");
    }
    return lookup;
  }
  lookup.file_bytes = (*bytes)->bytes().size();
  auto decoded = DecodeCheckpoint((*bytes)->bytes(), *bytes, expected, expected_prefix_text);
  lookup.verify_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t1).count();
  if (!decoded) {
    lookup.state = LookupState::kInvalid;
    lookup.reason = decoded.error().message;
    // Delete it unless another process has meanwhile renamed a rebuilt file over it.
    std::error_code ec;
    if ((*bytes)->StillAt(path)) fs::remove(path, ec);
    return lookup;
  }
  lookup.state = LookupState::kHit;
  lookup.checkpoint = std::move(*decoded);
  TouchNow(path);
  return lookup;
}

CheckpointStore::KeyLock& CheckpointStore::KeyLock::operator=(KeyLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.fd_;
    other.fd_ = -1;
  }
  return *this;
}

CheckpointStore::KeyLock::~KeyLock() {
  if (fd_ >= 0) ::close(fd_);  // closing the last descriptor releases the flock
}

Result<CheckpointStore::KeyLock> CheckpointStore::LockKey(std::string_view key) {
  // Lock files are never deleted (deleting a lock file races with its next opener); 256 stripes
  // bound their number.
  const std::string stripe(key.substr(0, std::min<size_t>(2, key.size())));
  if (!degraded_.empty()) return KeyLock();
  auto fd = OpenLocked(options_.dir / "locks" / ("key-" + stripe));
  if (!fd) return KeyLock();  // unlocked: concurrent builders each write a whole file
  return KeyLock(*fd);
}

Result<bool> CheckpointStore::Save(std::string_view key, std::string_view image) {
  if (image.size() > options_.byte_budget) return false;
  const fs::path path = PathFor(key);
  if (!degraded_.empty()) return MakeError(ErrorKind::kIo, degraded_, {path.string()});
  if (auto st = WriteFileAtomic(path, image); !st) return tl::unexpected(st.error());
  TouchNow(path);
  if (auto st = EvictToBudget(key); !st) return tl::unexpected(st.error());
  return true;
}

CheckpointStore::Listing CheckpointStore::List() const {
  struct Entry {
    timespec mtime;
    std::string key;
  };
  std::vector<Entry> entries;
  Listing listing;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(options_.dir, ec)) {
    const bool temporary = IsStrataTemporary(e.path().filename().string());
    if (e.path().extension() != ".kv" && !temporary) continue;
    struct stat st {};
    if (::lstat(e.path().c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;  // evicted meanwhile
    listing.total_bytes += static_cast<uint64_t>(st.st_size);
    if (temporary) continue;  // counted, not evictable: its writer renames or removes it
    entries.push_back({st.st_mtim, e.path().stem().string()});
  }
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    if (a.mtime.tv_sec != b.mtime.tv_sec) return a.mtime.tv_sec < b.mtime.tv_sec;
    if (a.mtime.tv_nsec != b.mtime.tv_nsec) return a.mtime.tv_nsec < b.mtime.tv_nsec;
    return a.key < b.key;
  });
  for (auto& e : entries) listing.keys_lru_first.push_back(std::move(e.key));
  return listing;
}

Status CheckpointStore::EvictToBudget(std::string_view keep) {
  auto fd = OpenLocked(options_.dir / "locks" / "store");
  if (!fd) return tl::unexpected(fd.error());
  KeyLock hold(*fd);
  CleanStaleTemporaries(options_.dir);
  Listing listing = List();
  uint64_t total = listing.total_bytes;
  for (const std::string& key : listing.keys_lru_first) {
    if (total <= options_.byte_budget) break;
    if (key == keep) continue;
    const fs::path path = PathFor(key);
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) continue;
    std::error_code ec;
    // A reader that already opened the file keeps reading it; new readers see it absent.
    if (fs::remove(path, ec)) total -= static_cast<uint64_t>(st.st_size);
  }
  return {};
}

}  // namespace strata
