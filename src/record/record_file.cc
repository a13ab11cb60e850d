// record_file.cc: the append-only file `strata record` writes (record.h, RecordFile). Each line
// goes out in one write(2) on an O_APPEND descriptor under the process's mutex and an exclusive
// flock (other processes appending to the same file), so lines never interleave. A write cut short
// (a full disk) is undone with ftruncate; a write cut short by a kill leaves an unterminated tail,
// which the next Open sets aside before appending, so a torn line can only ever be the last one.
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "strata/record.h"

namespace strata {
namespace {

Error IoError(const std::filesystem::path& path, const std::string& what) {
  return Error{ErrorKind::kIo, what + ": " + std::strerror(errno), {path.string()}};
}

// flock(LOCK_EX) for a scope; released on every return (and by the kernel when the process dies).
class FileLock {
 public:
  explicit FileLock(int fd) : fd_(fd) {
    while (::flock(fd_, LOCK_EX) < 0 && errno == EINTR) {
    }
  }
  ~FileLock() { ::flock(fd_, LOCK_UN); }
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  int fd_;
};

bool WriteAll(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

// The offset just past the last LF of the first `size` bytes of `fd` (0 when there is none).
Result<off_t> EndOfLastLine(int fd, off_t size, const std::filesystem::path& path) {
  char buf[65536];
  off_t end = size;
  while (end > 0) {
    const off_t start =
        end > static_cast<off_t>(sizeof buf) ? end - static_cast<off_t>(sizeof buf) : 0;
    ssize_t n = ::pread(fd, buf, static_cast<size_t>(end - start), start);
    if (n < 0 && errno == EINTR) continue;
    if (n != end - start) return tl::unexpected(IoError(path, "cannot read the record file"));
    for (ssize_t i = n; i > 0; --i) {
      if (buf[i - 1] == '\n') return start + i;
    }
    end = start;
  }
  return 0;
}

// A file that does not end in LF holds a line a killed writer left unfinished: its bytes are
// appended to `<path>.torn` (kept, not lost) and cut off, so the next line starts a line of its
// own. Called under the file lock. Returns the number of bytes set aside.
Result<size_t> SetAsideTornTail(int fd, const std::filesystem::path& path) {
  struct stat st {};
  if (::fstat(fd, &st) < 0) return tl::unexpected(IoError(path, "cannot stat the record file"));
  if (st.st_size == 0) return 0;
  char last = 0;
  if (::pread(fd, &last, 1, st.st_size - 1) != 1)
    return tl::unexpected(IoError(path, "cannot read the record file"));
  if (last == '\n') return 0;
  STRATA_TRY_ASSIGN(off_t keep, EndOfLastLine(fd, st.st_size, path));
  std::string tail(static_cast<size_t>(st.st_size - keep), '\0');
  if (::pread(fd, tail.data(), tail.size(), keep) != static_cast<ssize_t>(tail.size()))
    return tl::unexpected(IoError(path, "cannot read the record file"));
  tail += '\n';
  std::filesystem::path torn = path;
  torn += ".torn";
  int out = ::open(torn.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (out < 0) return tl::unexpected(IoError(torn, "cannot set aside the torn last line"));
  const bool ok = WriteAll(out, tail) && ::fsync(out) == 0;
  ::close(out);
  if (!ok) return tl::unexpected(IoError(torn, "cannot set aside the torn last line"));
  if (::ftruncate(fd, keep) < 0)
    return tl::unexpected(IoError(path, "cannot cut off the torn last line"));
  return tail.size() - 1;
}

}  // namespace

Result<std::unique_ptr<RecordFile>> RecordFile::Open(const std::filesystem::path& path,
                                                     size_t* torn_bytes) {
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (fd < 0) return tl::unexpected(IoError(path, "cannot open the record file for appending"));
  auto file = std::unique_ptr<RecordFile>(new RecordFile(fd, path));
  FileLock lock(fd);
  STRATA_TRY_ASSIGN(size_t torn, SetAsideTornTail(fd, path));
  if (torn_bytes != nullptr) *torn_bytes = torn;
  return file;
}

RecordFile::~RecordFile() { ::close(fd_); }

Status RecordFile::Append(std::string_view line) {
  std::lock_guard<std::mutex> guard(mutex_);
  FileLock lock(fd_);
  struct stat st {};
  if (::fstat(fd_, &st) < 0) return tl::unexpected(IoError(path_, "cannot stat the record file"));
  // One write is one append on a local file system; a short write (a full disk) is retried for the
  // rest and, failing that, cut back so that no partial line stays behind.
  if (!WriteAll(fd_, line)) {
    Error e = IoError(path_, "cannot append to the record file");
    (void)::ftruncate(fd_, st.st_size);
    return tl::unexpected(std::move(e));
  }
  return {};
}

}  // namespace strata
