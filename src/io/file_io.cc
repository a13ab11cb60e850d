// file_io.cc: whole-file reads and temp-file-plus-rename writes.
#include "strata/file_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace strata {

namespace fs = std::filesystem;

Result<std::string> ReadFileBytes(const fs::path& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) {
    return MakeError(ErrorKind::kNotFound, "no such file: " + path.string(), {path.string()});
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return MakeError(ErrorKind::kIo, "cannot read " + path.string() + ": " + std::strerror(errno),
                     {path.string()});
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) {
    return MakeError(ErrorKind::kIo, "read failed: " + path.string(), {path.string()});
  }
  return buffer.str();
}

Status WriteFileAtomic(const fs::path& path, std::string_view bytes) {
  auto fail = [&](const std::string& what) {
    return MakeError(ErrorKind::kIo,
                     "cannot write " + path.string() + ": " + what + ": " + std::strerror(errno),
                     {path.string()});
  };
  std::error_code ec;
  fs::path dir = path.parent_path();
  if (!dir.empty()) {
    fs::create_directories(dir, ec);
    if (ec) {
      return MakeError(ErrorKind::kIo,
                       "cannot create directory " + dir.string() + ": " + ec.message(),
                       {path.string()});
    }
  }
  mode_t mode = 0644;
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) mode = st.st_mode & 07777;

  std::string tmpl = (dir.empty() ? fs::path(".") : dir).string() + "/." +
                     path.filename().string() + ".strata-tmp-XXXXXX";
  int fd = ::mkstemp(tmpl.data());
  if (fd < 0) return fail("mkstemp");
  size_t written = 0;
  while (written < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      auto err = fail("write");
      ::close(fd);
      ::unlink(tmpl.c_str());
      return err;
    }
    written += static_cast<size_t>(n);
  }
  if (::fchmod(fd, mode) != 0 || ::fsync(fd) != 0) {
    auto err = fail("fsync");
    ::close(fd);
    ::unlink(tmpl.c_str());
    return err;
  }
  ::close(fd);
  if (::rename(tmpl.c_str(), path.c_str()) != 0) {
    auto err = fail("rename");
    ::unlink(tmpl.c_str());
    return err;
  }
  return {};
}

}  // namespace strata
