// file_io.cc: whole-file reads, temp-file-plus-rename writes (plain and contained below a root),
// and the sweep of temporaries left by killed processes.
#include "io/file_io.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>
#include <optional>

namespace strata {

namespace fs = std::filesystem;

namespace {

tl::unexpected<Error> IoError(const fs::path& path, const std::string& what) {
  return MakeError(ErrorKind::kIo, path.string() + ": " + what, {path.string()});
}

// The file a write to `path` must replace: `path` itself, or the file a symlink there points to.
// A target that exists and is not a regular file (a device such as /dev/null, a FIFO, a socket, a
// directory) is refused: renaming a temporary over it would replace the node, not write through it.
Status RegularOrAbsent(const fs::path& label, const fs::path& target) {
  std::error_code ec;
  const fs::file_status st = fs::status(target, ec);
  if (ec || !fs::exists(st) || fs::is_regular_file(st)) return {};
  const char* kind = fs::is_directory(st)        ? "a directory"
                     : fs::is_character_file(st) ? "a character device"
                     : fs::is_block_file(st)     ? "a block device"
                     : fs::is_fifo(st)           ? "a FIFO"
                     : fs::is_socket(st)         ? "a socket"
                                                 : "not a regular file";
  return IoError(label, std::string("is ") + kind +
                            ": strata writes a file whole (a temporary renamed over it) and will "
                            "not replace it; name a regular file");
}

Result<fs::path> WriteTarget(const fs::path& path) {
  std::error_code ec;
  if (!fs::is_symlink(fs::symlink_status(path, ec))) {
    STRATA_TRY(RegularOrAbsent(path, path));
    return path;
  }
  fs::path resolved = fs::canonical(path, ec);
  if (ec) {
    return IoError(path, "is a symlink to a missing file or a symlink loop (" + ec.message() +
                             "); remove or fix the link");
  }
  STRATA_TRY(RegularOrAbsent(path, resolved));
  return resolved;
}

std::string RandomSuffix() {
  static constexpr char kChars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  unsigned char raw[6] = {};
  if (::getrandom(raw, sizeof raw, 0) != static_cast<ssize_t>(sizeof raw)) {
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC, &now);
    uint64_t v = static_cast<uint64_t>(now.tv_nsec) ^ (static_cast<uint64_t>(::getpid()) << 20);
    for (auto& c : raw) c = static_cast<unsigned char>((v >>= 5) & 0xff);
  }
  std::string out;
  for (unsigned char c : raw) out.push_back(kChars[c % (sizeof kChars - 1)]);
  return out;
}

// A temporary being written: the directory it is in, its name, and the descriptor whose flock
// marks it live until it is renamed or removed.
struct Staged {
  std::shared_ptr<UniqueFd> dir;
  std::string temporary, target;  // names in `dir`
  fs::path label;                 // the target's path, for messages
  UniqueFd fd;
};

Status WriteAll(int fd, std::string_view bytes, const fs::path& label) {
  size_t written = 0;
  bool crash_checked = false;
  while (written < bytes.size()) {
    size_t chunk = bytes.size() - written;
    if (!crash_checked && bytes.size() > 1) chunk = std::min(chunk, bytes.size() / 2);
    ssize_t n = ::write(fd, bytes.data() + written, chunk);
    if (n < 0) {
      if (errno == EINTR) continue;
      return IoError(label, std::string("write failed: ") + std::strerror(errno));
    }
    written += static_cast<size_t>(n);
    if (!crash_checked) CrashPointForTesting("temp-half-written");
    crash_checked = true;
  }
  return {};
}

// Creates, locks and fills a temporary for `target` in `dir`.
Result<Staged> StageAt(std::shared_ptr<UniqueFd> dir, const std::string& target,
                       std::string_view bytes, const fs::path& label) {
  mode_t mode = 0644;
  struct stat st {};
  if (::fstatat(dir->get(), target.c_str(), &st, 0) == 0) {
    if (S_ISDIR(st.st_mode))
      return IoError(label, "is a directory; remove it or choose another path");
    mode = st.st_mode & 07777;
  }
  Staged staged{dir, {}, target, label, UniqueFd()};
  for (int attempt = 0; attempt < 100 && !staged.fd; ++attempt) {
    staged.temporary = "." + target + ".strata-tmp-" + RandomSuffix();
    UniqueFd fd(::openat(dir->get(), staged.temporary.c_str(),
                         O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0600));
    if (!fd) {
      if (errno == EEXIST) continue;
      return IoError(label, std::string("cannot create a temporary file: ") + std::strerror(errno));
    }
    while (::flock(fd.get(), LOCK_EX) != 0 && errno == EINTR) {
    }
    // A sweeper that saw it before the lock may have removed it: then start again.
    if (::fstat(fd.get(), &st) == 0 && st.st_nlink > 0) staged.fd = std::move(fd);
  }
  if (!staged.fd) return IoError(label, "cannot create a temporary file");
  auto fail = [&](const char* what) {
    int saved = errno;
    ::unlinkat(dir->get(), staged.temporary.c_str(), 0);
    return IoError(label, std::string(what) + ": " + std::strerror(saved));
  };
  if (auto written = WriteAll(staged.fd.get(), bytes, label); !written) {
    ::unlinkat(dir->get(), staged.temporary.c_str(), 0);
    return tl::unexpected(written.error());
  }
  if (::fchmod(staged.fd.get(), mode) != 0) return fail("chmod failed");
  if (::fsync(staged.fd.get()) != 0) return fail("fsync failed");
  return staged;
}

void Discard(std::vector<Staged>* staged, size_t from) {
  for (size_t i = from; i < staged->size(); ++i) {
    ::unlinkat((*staged)[i].dir->get(), (*staged)[i].temporary.c_str(), 0);
  }
}

// Renames every staged temporary over its target, in order; the locks are held until the last.
Status Commit(std::vector<Staged>* staged) {
  if (staged->size() > 1) CrashPointForTesting("staged");
  for (size_t i = 0; i < staged->size(); ++i) {
    Staged& file = (*staged)[i];
    if (::renameat(file.dir->get(), file.temporary.c_str(), file.dir->get(), file.target.c_str()) !=
        0) {
      int saved = errno;
      Discard(staged, i);
      return IoError(file.label, std::string("rename failed: ") + std::strerror(saved));
    }
    if (i == 0 && staged->size() > 1) CrashPointForTesting("renamed-one");
  }
  for (Staged& file : *staged) ::fsync(file.dir->get());  // the renames themselves durable
  return {};
}

// Stages a write to `path` opened by name (no containment): a symlink there is written through.
Result<Staged> StageByPath(const fs::path& path, std::string_view bytes) {
  STRATA_TRY_ASSIGN(fs::path target, WriteTarget(path));
  std::error_code ec;
  fs::path dir = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  fs::create_directories(dir, ec);
  if (ec) return IoError(target, "cannot create directory " + dir.string() + ": " + ec.message());
  auto dir_fd = std::make_shared<UniqueFd>(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!*dir_fd)
    return IoError(target, std::string("cannot open its directory: ") + std::strerror(errno));
  return StageAt(dir_fd, target.filename().string(), bytes, target);
}

tl::unexpected<Error> Refused(const fs::path& label, const fs::path& root, const std::string& why) {
  return MakeError(ErrorKind::kConflict,
                   label.string() + ": " + OutsideRootMessage("the write target" + why, root),
                   {label.string()});
}

// Where a contained write of `relative` lands: the directory descriptor and the name in it (a
// symlink at the name is followed when it resolves below the root). nullopt: outside the root.
Result<std::optional<std::pair<std::shared_ptr<UniqueFd>, std::string>>> ContainedTarget(
    const fs::path& root, int root_fd, const fs::path& relative) {
  using Found = std::optional<std::pair<std::shared_ptr<UniqueFd>, std::string>>;
  OpenedPath dir = OpenContainedDirectory(root, root_fd, relative.parent_path(), true);
  if (dir.failure == OpenFailure::kOutsideRoot) return Found();
  if (!dir.ok()) return IoError(root / relative, "cannot open its directory: " + dir.detail);
  std::string name = relative.filename().string();
  struct stat st {};
  if (::fstatat(dir.fd.get(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0 ||
      !S_ISLNK(st.st_mode)) {
    return Found(std::make_pair(std::make_shared<UniqueFd>(std::move(dir.fd)), name));
  }
  OpenedPath linked = OpenContained(root, relative, OpenIntent::kRegularFile);
  if (linked.failure == OpenFailure::kOutsideRoot) return Found();
  if (!linked.ok()) {
    return IoError(root / relative, "is a symlink that cannot be followed (" + linked.detail +
                                        "); remove or fix the link");
  }
  char buf[4096];
  std::string proc = "/proc/self/fd/" + std::to_string(linked.fd.get());
  ssize_t n = ::readlink(proc.c_str(), buf, sizeof buf - 1);
  if (n <= 0) return IoError(root / relative, "cannot tell where the symlink points");
  fs::path real(std::string(buf, static_cast<size_t>(n)));
  if (!PathWithin(real, root)) return Found();
  OpenedPath real_dir =
      OpenContainedDirectory(root, root_fd, real.parent_path().lexically_relative(root), false);
  struct stat now {};
  if (!real_dir.ok() ||
      ::fstatat(real_dir.fd.get(), real.filename().c_str(), &now, AT_SYMLINK_NOFOLLOW) != 0 ||
      now.st_ino != linked.st.st_ino || now.st_dev != linked.st.st_dev) {
    return IoError(root / relative, "the symlink changed while it was followed; run again");
  }
  return Found(
      std::make_pair(std::make_shared<UniqueFd>(std::move(real_dir.fd)), real.filename().string()));
}

bool Allowed(const fs::path& path, const OutsideRootAccess& access) {
  if (access.allow_any) return true;
  std::error_code ec;
  fs::path resolved = fs::weakly_canonical(path, ec);
  for (const fs::path& dir : access.dirs) {
    if (!ec && PathWithin(resolved, fs::weakly_canonical(fs::absolute(dir, ec), ec))) return true;
  }
  return false;
}

}  // namespace

Result<std::string> ReadOpenedFile(int fd, size_t size, size_t max_bytes, const fs::path& path) {
  if (size > max_bytes) {
    return IoError(path, "is " + std::to_string(size) + " bytes, over the limit of " +
                             std::to_string(max_bytes) + " bytes for this file");
  }
  std::string out;
  out.resize(size);
  size_t got = 0;
  // Each read asks for the rest of the stat'ed size and a probe after it: a short read is the end
  // (one system call for a file that did not change); bytes in the probe mean the file grew.
  char probe[4096];
  while (got < max_bytes) {
    const size_t in_size = got < out.size() ? out.size() - got : 0;
    iovec parts[2] = {{out.data() + got, in_size},
                      {probe, std::min(sizeof probe, max_bytes - got - in_size)}};
    const size_t want = parts[0].iov_len + parts[1].iov_len;
    ssize_t n =
        ::preadv(fd, in_size > 0 ? parts : parts + 1, in_size > 0 ? 2 : 1, static_cast<off_t>(got));
    if (n < 0 && errno == EAGAIN) {  // a filesystem that honours O_NONBLOCK on a file
      ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
      continue;
    }
    if (n < 0) {
      if (errno == EINTR) continue;
      return IoError(path, std::string("read failed: ") + std::strerror(errno));
    }
    const size_t read = static_cast<size_t>(n);
    if (read > in_size) out.append(probe, read - in_size);  // the file grew while read
    got += read;
    if (read == 0 || (read < want && got >= size)) break;
  }
  out.resize(got);
  return out;
}

Result<std::string> ReadFileBytes(const fs::path& path, size_t max_bytes) {
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
  if (!fd) {
    if (errno == ENOENT || errno == ENOTDIR) {
      std::error_code ec;
      if (fs::is_symlink(fs::symlink_status(path, ec))) {
        return IoError(path, "is a symlink to a missing file; remove or fix the link");
      }
      return MakeError(ErrorKind::kNotFound, "no such file: " + path.string(), {path.string()});
    }
    if (errno == EISDIR) return IoError(path, "is a directory, not a file");
    return IoError(path, std::string("cannot read: ") + std::strerror(errno));
  }
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) return IoError(path, std::strerror(errno));
  if (S_ISDIR(st.st_mode)) return IoError(path, "is a directory, not a file");
  if (!S_ISREG(st.st_mode)) return IoError(path, "is not a regular file (a device or pipe?)");
  return ReadOpenedFile(fd.get(), static_cast<size_t>(st.st_size), max_bytes, path);
}

Status WriteFileAtomic(const fs::path& path, std::string_view bytes) {
  std::vector<Staged> staged;
  STRATA_TRY_ASSIGN(Staged file, StageByPath(path, bytes));
  staged.push_back(std::move(file));
  return Commit(&staged);
}

Status WriteFilesAtomic(const std::vector<std::pair<fs::path, std::string>>& files) {
  std::vector<Staged> staged;
  for (const auto& [path, bytes] : files) {
    auto file = StageByPath(path, bytes);
    if (!file) {
      Discard(&staged, 0);
      return tl::unexpected(file.error());
    }
    staged.push_back(std::move(*file));
  }
  return Commit(&staged);
}

Result<std::string> ReadFileContained(const fs::path& root, const fs::path& relative,
                                      const OutsideRootAccess& access, size_t max_bytes) {
  return ReadFileContainedAt(root, -1, relative, access, max_bytes);
}

Result<std::string> ReadFileContainedAt(const fs::path& root, int root_fd, const fs::path& relative,
                                        const OutsideRootAccess& access, size_t max_bytes) {
  OpenedPath opened = OpenContainedAt(root, root_fd, relative, OpenIntent::kRegularFile, access);
  const fs::path full = (root / relative).lexically_normal();
  switch (opened.failure) {
    case OpenFailure::kNone:
      return ReadOpenedFile(opened.fd.get(), static_cast<size_t>(opened.st.st_size), max_bytes,
                            full);
    case OpenFailure::kMissing:
      return MakeError(ErrorKind::kNotFound, "no such file: " + full.string(), {full.string()});
    case OpenFailure::kOutsideRoot:
      return MakeError(ErrorKind::kConflict, OutsideRootMessage(relative.string(), root),
                       {relative.string()});
    default:
      return MakeError(ErrorKind::kIo, full.string() + ": " + opened.detail, {full.string()});
  }
}

Status WriteFilesContained(const fs::path& root,
                           const std::vector<std::pair<fs::path, std::string>>& files,
                           const OutsideRootAccess& access) {
  UniqueFd root_fd(::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!root_fd) return IoError(root, std::string("cannot open: ") + std::strerror(errno));
  std::vector<Staged> staged;
  for (const auto& [relative, bytes] : files) {
    const fs::path full = (root / relative).lexically_normal();
    Result<Staged> file = IoError(full, "not staged");
    auto target = PathWithin(full, root)
                      ? ContainedTarget(root, root_fd.get(), full.lexically_relative(root))
                      : decltype(ContainedTarget(root, 0, {}))(std::nullopt);
    if (!target) {
      file = tl::unexpected(target.error());
    } else if (*target) {
      file = StageAt((*target)->first, (*target)->second, bytes, full);
    } else if (Allowed(full, access)) {
      file = StageByPath(full, bytes);
    } else {
      file = Refused(relative, root, " or its directory");
    }
    if (!file) {
      Discard(&staged, 0);
      return tl::unexpected(file.error());
    }
    staged.push_back(std::move(*file));
  }
  return Commit(&staged);
}

bool IsStrataTemporary(std::string_view name) {
  constexpr std::string_view kMark = ".strata-tmp-";
  if (name.size() < 2 + kMark.size() + 6 || name.front() != '.') return false;
  const size_t at = name.size() - 6 - kMark.size();
  if (name.substr(at, kMark.size()) != kMark) return false;
  for (char c : name.substr(name.size() - 6)) {
    if (!std::isalnum(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

TemporarySweep CleanStaleTemporariesAt(int dir_fd, bool dry_run) {
  TemporarySweep sweep;
  UniqueFd listing(::openat(dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  DIR* dir = listing ? ::fdopendir(listing.release()) : nullptr;
  if (dir == nullptr) return sweep;
  const time_t now = ::time(nullptr);
  while (const dirent* entry = ::readdir(dir)) {
    const std::string name = entry->d_name;
    if (!IsStrataTemporary(name)) continue;
    UniqueFd fd(::openat(dir_fd, name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
    struct stat st {};
    if (!fd || ::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
    const bool unlocked = ::flock(fd.get(), LOCK_EX | LOCK_NB) == 0;
    const bool lock_unknown = !unlocked && errno != EWOULDBLOCK;
    if (!unlocked && !(lock_unknown && now - st.st_mtime > kStaleTemporaryAgeSeconds)) {
      ++sweep.live;
      sweep.live_bytes += static_cast<uint64_t>(st.st_size);
      continue;
    }
    struct stat again {};
    if (::fstatat(dir_fd, name.c_str(), &again, AT_SYMLINK_NOFOLLOW) != 0 ||
        again.st_ino != st.st_ino || again.st_dev != st.st_dev) {
      continue;  // renamed over its target meanwhile
    }
    if (!dry_run && ::unlinkat(dir_fd, name.c_str(), 0) != 0) continue;
    ++sweep.removed;
    sweep.removed_bytes += static_cast<uint64_t>(st.st_size);
    sweep.stale_names.push_back(name);
  }
  ::closedir(dir);
  std::sort(sweep.stale_names.begin(), sweep.stale_names.end());
  return sweep;
}

TemporarySweep CleanStaleTemporaries(const fs::path& dir, bool dry_run) {
  UniqueFd fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!fd) return {};
  return CleanStaleTemporariesAt(fd.get(), dry_run);
}

void CrashPointForTesting(std::string_view point) {
  static const char* const kAt = std::getenv("STRATA_TEST_CRASH_AT");
  if (kAt != nullptr && point == kAt) ::raise(SIGKILL);
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
