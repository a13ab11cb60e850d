// file_io.cc: whole-file reads and temp-file-plus-rename writes.
#include "io/file_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace strata {

namespace fs = std::filesystem;

namespace {

tl::unexpected<Error> IoError(const fs::path& path, const std::string& what) {
  return MakeError(ErrorKind::kIo, path.string() + ": " + what, {path.string()});
}

// The file a write to `path` must replace: `path` itself, or the file a symlink there points to.
Result<fs::path> WriteTarget(const fs::path& path) {
  std::error_code ec;
  if (!fs::is_symlink(fs::symlink_status(path, ec))) return path;
  fs::path resolved = fs::canonical(path, ec);
  if (ec) {
    return IoError(path, "is a symlink to a missing file or a symlink loop (" + ec.message() +
                             "); remove or fix the link");
  }
  return resolved;
}

Result<StagedFile> Stage(const fs::path& path, std::string_view bytes) {
  auto target = WriteTarget(path);
  if (!target) return tl::unexpected(target.error());
  std::error_code ec;
  fs::path dir = target->parent_path();
  if (!dir.empty()) {
    fs::create_directories(dir, ec);
    if (ec)
      return IoError(*target, "cannot create directory " + dir.string() + ": " + ec.message());
  }
  mode_t mode = 0644;
  struct stat st {};
  if (::stat(target->c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode))
      return IoError(*target, "is a directory; remove it or choose another path");
    mode = st.st_mode & 07777;
  }
  std::string tmpl = (dir.empty() ? fs::path(".") : dir).string() + "/." +
                     target->filename().string() + ".strata-tmp-XXXXXX";
  int fd = ::mkstemp(tmpl.data());
  if (fd < 0)
    return IoError(*target, std::string("cannot create a temporary file: ") + std::strerror(errno));
  auto fail = [&](const char* what) {
    int saved = errno;
    ::close(fd);
    ::unlink(tmpl.c_str());
    return IoError(*target, std::string(what) + ": " + std::strerror(saved));
  };
  size_t written = 0;
  while (written < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail("write failed");
    }
    written += static_cast<size_t>(n);
  }
  if (::fchmod(fd, mode) != 0) return fail("chmod failed");
  if (::fsync(fd) != 0) return fail("fsync failed");
  ::close(fd);
  return StagedFile{*target, tmpl};
}

void Discard(const std::vector<StagedFile>& staged) {
  for (const auto& file : staged) ::unlink(file.temporary.c_str());
}

}  // namespace

Result<std::string> ReadFileBytes(const fs::path& path, size_t max_bytes) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) {
      std::error_code ec;
      if (fs::is_symlink(fs::symlink_status(path, ec))) {
        return IoError(path, "is a symlink to a missing file; remove or fix the link");
      }
      return MakeError(ErrorKind::kNotFound, "no such file: " + path.string(), {path.string()});
    }
    return IoError(path, std::string("cannot read: ") + std::strerror(errno));
  }
  if (S_ISDIR(st.st_mode)) return IoError(path, "is a directory, not a file");
  if (!S_ISREG(st.st_mode)) return IoError(path, "is not a regular file (a device or pipe?)");
  if (static_cast<size_t>(st.st_size) > max_bytes) {
    return IoError(path, "is " + std::to_string(st.st_size) + " bytes, over the limit of " +
                             std::to_string(max_bytes) + " bytes for this file");
  }
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return IoError(path, std::string("cannot read: ") + std::strerror(errno));
  std::string out;
  out.resize(static_cast<size_t>(st.st_size));
  size_t got = 0;
  char probe[4096];  // after the stat'ed size: is there more (the file grew) or is this the end?
  while (got < max_bytes) {
    const bool in_size = got < out.size();
    char* into = in_size ? out.data() + got : probe;
    size_t want = in_size ? out.size() - got : std::min(sizeof probe, max_bytes - got);
    ssize_t n = ::read(fd, into, want);
    if (n < 0) {
      if (errno == EINTR) continue;
      int saved = errno;
      ::close(fd);
      return IoError(path, std::string("read failed: ") + std::strerror(saved));
    }
    if (n == 0) break;
    if (!in_size) out.append(probe, static_cast<size_t>(n));  // the file grew while read
    got += static_cast<size_t>(n);
  }
  ::close(fd);
  out.resize(got);
  return out;
}

Status WriteFileAtomic(const fs::path& path, std::string_view bytes) {
  auto staged = Stage(path, bytes);
  if (!staged) return tl::unexpected(staged.error());
  if (::rename(staged->temporary.c_str(), staged->target.c_str()) != 0) {
    int saved = errno;
    ::unlink(staged->temporary.c_str());
    return IoError(staged->target, std::string("rename failed: ") + std::strerror(saved));
  }
  return {};
}

Status WriteFilesAtomic(const std::vector<std::pair<fs::path, std::string>>& files) {
  std::vector<StagedFile> staged;
  for (const auto& [path, bytes] : files) {
    auto file = Stage(path, bytes);
    if (!file) {
      Discard(staged);
      return tl::unexpected(file.error());
    }
    staged.push_back(*file);
  }
  for (size_t i = 0; i < staged.size(); ++i) {
    if (::rename(staged[i].temporary.c_str(), staged[i].target.c_str()) != 0) {
      int saved = errno;
      Discard({staged.begin() + static_cast<long>(i), staged.end()});
      return IoError(staged[i].target, std::string("rename failed: ") + std::strerror(saved));
    }
  }
  return {};
}

Result<std::string> ReadInputBytes(const fs::path& path, size_t max_bytes) {
  if (path != "-") return ReadFileBytes(path, max_bytes);
  std::string out;
  char buffer[65536];
  for (;;) {
    ssize_t n = ::read(STDIN_FILENO, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return IoError("<stdin>", std::string("read failed: ") + std::strerror(errno));
    if (n == 0) return out;
    if (out.size() + static_cast<size_t>(n) > max_bytes) {
      return MakeError(
          ErrorKind::kLimit,
          "<stdin>: more than " + std::to_string(max_bytes) + " bytes; pass a file instead",
          {"<stdin>"});
    }
    out.append(buffer, static_cast<size_t>(n));
  }
}

}  // namespace strata
