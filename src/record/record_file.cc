// record_file.cc: the append-only file `strata record` writes (record.h, RecordFile): one write(2)
// per line on an O_APPEND descriptor, under a lock, so lines never interleave or tear.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "strata/record.h"

namespace strata {

Result<std::unique_ptr<RecordFile>> RecordFile::Open(const std::filesystem::path& path) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (fd < 0) {
    return MakeError(
        ErrorKind::kIo,
        std::string("cannot open the record file for appending: ") + std::strerror(errno),
        {path.string()});
  }
  return std::unique_ptr<RecordFile>(new RecordFile(fd, path));
}

RecordFile::~RecordFile() { ::close(fd_); }

Status RecordFile::Append(std::string_view line) {
  std::lock_guard<std::mutex> lock(mutex_);
  // One write is one append on a local file system; a short write (a full disk) is retried for
  // the rest, which can only leave the last line of the file incomplete.
  while (!line.empty()) {
    ssize_t n = ::write(fd_, line.data(), line.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      return MakeError(ErrorKind::kIo,
                       std::string("cannot append to the record file: ") + std::strerror(errno),
                       {path_.string()});
    }
    line.remove_prefix(static_cast<size_t>(n));
  }
  return {};
}

}  // namespace strata
