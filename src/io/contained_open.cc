// contained_open.cc: openat2(RESOLVE_BENEATH) with a component-by-component O_NOFOLLOW fallback,
// and the fstat check of what was opened. See contained_open.h.
#include "io/contained_open.h"

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

namespace strata {

namespace fs = std::filesystem;

namespace {

constexpr int kMaxSymlinks = 40;  // as the kernel's own path walk

// 1: openat2 works; 0: unknown yet; -1: not available (ENOSYS, or EPERM from a seccomp filter).
std::atomic<int> g_openat2_state{0};

OpenedPath Failed(OpenFailure failure, std::string detail) {
  OpenedPath out;
  out.failure = failure;
  out.detail = std::move(detail);
  return out;
}

OpenedPath FromErrno(int err) {
  switch (err) {
    case ENOENT:
    case ENOTDIR:
      return Failed(OpenFailure::kMissing, "no such file");
    case EXDEV:
      return Failed(OpenFailure::kOutsideRoot, "resolves outside the root");
    case ELOOP:
      return Failed(OpenFailure::kLoop, "too many symlinks (a loop?)");
    default:
      return Failed(OpenFailure::kIo, std::strerror(err));
  }
}

int IntentFlags(OpenIntent intent) {
  return intent == OpenIntent::kDirectory ? O_RDONLY | O_DIRECTORY | O_CLOEXEC
                                          : O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;
}

// fstat of what was opened: the type the caller wanted. O_NONBLOCK stays on a regular file: it
// only kept a FIFO's open from blocking, and clearing it costs two system calls per file read.
OpenedPath Checked(UniqueFd fd, OpenIntent intent) {
  OpenedPath out;
  if (::fstat(fd.get(), &out.st) != 0) return FromErrno(errno);
  const bool want_dir = intent == OpenIntent::kDirectory;
  if (want_dir ? !S_ISDIR(out.st.st_mode) : !S_ISREG(out.st.st_mode)) {
    const char* what = S_ISDIR(out.st.st_mode)    ? "a directory"
                       : S_ISFIFO(out.st.st_mode) ? "a FIFO"
                       : S_ISSOCK(out.st.st_mode) ? "a socket"
                                                  : "a device or other special file";
    return Failed(OpenFailure::kNotRegular, std::string("is ") +
                                                (want_dir ? "not a directory" : what) +
                                                (want_dir ? "" : ", not a regular file"));
  }
  out.fd = std::move(fd);
  return out;
}

// openat2 beneath `dir_fd`; returns -2 when the kernel does not have it.
int TryOpenat2(int dir_fd, const fs::path& relative, int flags) {
  if (g_openat2_state.load(std::memory_order_relaxed) < 0) return -2;
  open_how how{};
  how.flags = static_cast<uint64_t>(flags);
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
  for (;;) {
    long fd = ::syscall(SYS_openat2, dir_fd, relative.c_str(), &how, sizeof how);
    if (fd >= 0) {
      g_openat2_state.store(1, std::memory_order_relaxed);
      return static_cast<int>(fd);
    }
    if (errno == EINTR || errno == EAGAIN) continue;
    if (errno == ENOSYS || (errno == EPERM && g_openat2_state.load() == 0)) {
      g_openat2_state.store(-1, std::memory_order_relaxed);
      return -2;
    }
    return -1;
  }
}

void PushComponents(const fs::path& path, std::vector<std::string>* todo) {
  std::vector<std::string> parts;
  for (const auto& part : path.relative_path()) {
    if (!part.empty() && part != ".") parts.push_back(part.string());
  }
  todo->insert(todo->end(), parts.rbegin(), parts.rend());
}

// The fallback walk: one component at a time with O_NOFOLLOW; a symlink is read and its target
// walked in its place, refused when it climbs above the root or points outside it.
OpenedPath WalkBeneath(const fs::path& root, int root_fd, const fs::path& relative,
                       OpenIntent intent) {
  std::vector<UniqueFd> dirs;
  dirs.emplace_back(::fcntl(root_fd, F_DUPFD_CLOEXEC, 0));
  if (!dirs.back()) return FromErrno(errno);
  std::vector<std::string> todo;
  PushComponents(relative, &todo);
  int links = 0;
  while (!todo.empty()) {
    std::string part = std::move(todo.back());
    todo.pop_back();
    if (part == "..") {
      if (dirs.size() == 1) return FromErrno(EXDEV);
      dirs.pop_back();
      continue;
    }
    UniqueFd fd(::openat(dirs.back().get(), part.c_str(), O_PATH | O_NOFOLLOW | O_CLOEXEC));
    if (!fd) return FromErrno(errno);
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) return FromErrno(errno);
    if (S_ISLNK(st.st_mode)) {
      if (++links > kMaxSymlinks) return FromErrno(ELOOP);
      char buf[4096];
      ssize_t n = ::readlinkat(fd.get(), "", buf, sizeof buf);
      if (n < 0 || static_cast<size_t>(n) >= sizeof buf) return FromErrno(n < 0 ? errno : ELOOP);
      fs::path target(std::string(buf, static_cast<size_t>(n)));
      if (target.is_absolute()) {
        target = target.lexically_normal();
        if (!PathWithin(target, root) || target.string().starts_with("/proc/")) {
          return FromErrno(EXDEV);
        }
        dirs.resize(1);
        target = target.lexically_relative(root);
      }
      PushComponents(target, &todo);
      continue;
    }
    if (!todo.empty()) {
      if (!S_ISDIR(st.st_mode)) return FromErrno(ENOTDIR);
      dirs.push_back(std::move(fd));
      continue;
    }
    // The last component, reopened for real; O_NOFOLLOW: a link swapped in meanwhile is refused.
    UniqueFd real(::openat(dirs.back().get(), part.c_str(), IntentFlags(intent) | O_NOFOLLOW));
    if (!real) return FromErrno(errno);
    return Checked(std::move(real), intent);
  }
  UniqueFd here(::openat(dirs.back().get(), ".", IntentFlags(intent)));
  if (!here) return FromErrno(errno);
  return Checked(std::move(here), intent);
}

OpenedPath OpenBeneath(const fs::path& root, int root_fd, const fs::path& relative,
                       OpenIntent intent) {
  const fs::path rel = relative.empty() ? fs::path(".") : relative;
  int fd = TryOpenat2(root_fd, rel, IntentFlags(intent));
  // EXDEV: openat2 refuses every absolute symlink, even one that points back inside the root; the
  // walk follows those and refuses only what really leaves.
  if (fd == -2 || (fd < 0 && errno == EXDEV)) return WalkBeneath(root, root_fd, rel, intent);
  if (fd < 0) return FromErrno(errno);
  return Checked(UniqueFd(fd), intent);
}

OpenedPath OpenUnder(const fs::path& dir, const fs::path& absolute, OpenIntent intent) {
  UniqueFd dir_fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!dir_fd) return FromErrno(errno);
  return OpenBeneath(dir, dir_fd.get(), absolute.lexically_relative(dir), intent);
}

// Outside the root: only where `access` allows, and then still beneath the allowed directory.
OpenedPath OpenAllowed(const fs::path& absolute, OpenIntent intent,
                       const OutsideRootAccess& access) {
  if (access.allow_any) {
    UniqueFd fd(::open(absolute.c_str(), IntentFlags(intent)));
    if (!fd) return FromErrno(errno);
    return Checked(std::move(fd), intent);
  }
  std::error_code ec;
  fs::path resolved = fs::canonical(absolute, ec);
  if (ec) return FromErrno(ec.value() == ENOENT ? ENOENT : EXDEV);
  for (const fs::path& dir : access.dirs) {
    fs::path allowed = fs::weakly_canonical(fs::absolute(dir, ec), ec);
    if (ec || !PathWithin(resolved, allowed)) continue;
    OpenedPath opened = OpenUnder(allowed, resolved, intent);
    if (opened.failure != OpenFailure::kOutsideRoot) return opened;
  }
  return Failed(OpenFailure::kOutsideRoot, "resolves to " + resolved.string());
}

}  // namespace

UniqueFd& UniqueFd::operator=(UniqueFd&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.release();
  }
  return *this;
}

UniqueFd::~UniqueFd() {
  if (fd_ >= 0) ::close(fd_);
}

int UniqueFd::release() {
  int fd = fd_;
  fd_ = -1;
  return fd;
}

void UseOpenat2ForTesting(bool use) { g_openat2_state.store(use ? 0 : -1); }

namespace {

// True when `s` has no ".", ".." or empty component (a leading or trailing separator aside): its
// lexically normal form is itself, so it can be compared as a string.
bool IsLexicallyNormal(std::string_view s) {
  if (s.empty()) return false;
  size_t start = 0;
  while (start <= s.size()) {
    size_t end = s.find('/', start);
    if (end == std::string_view::npos) end = s.size();
    std::string_view part = s.substr(start, end - start);
    if (part == "." || part == "..") return false;
    if (part.empty() && start != 0 && end != s.size()) return false;  // "//"
    start = end + 1;
  }
  return true;
}

}  // namespace

bool PathWithin(const fs::path& path, const fs::path& dir) {
  // The fast path (most calls: canonical roots and paths built from them) compares strings.
  std::string_view ps = path.native(), ds = dir.native();
  if (IsLexicallyNormal(ps) && IsLexicallyNormal(ds) && (ps[0] == '/') == (ds[0] == '/')) {
    while (ds.size() > 1 && ds.back() == '/') ds.remove_suffix(1);
    while (ps.size() > 1 && ps.back() == '/') ps.remove_suffix(1);
    if (ds == "/") return true;
    return ps.starts_with(ds) && (ps.size() == ds.size() || ps[ds.size()] == '/');
  }
  const fs::path p = path.lexically_normal(), d = dir.lexically_normal();
  auto it = p.begin();
  for (const auto& part : d) {
    if (part.empty()) continue;  // a trailing separator
    if (it == p.end() || *it != part) return false;
    ++it;
  }
  return true;
}

std::string OutsideRootMessage(const std::string& what, const fs::path& root) {
  return what + " resolves outside " + root.string() + "; refused (" + kOutsideRootAdvice + ")";
}

OpenedPath OpenContained(const fs::path& root, const fs::path& path, OpenIntent intent,
                         const OutsideRootAccess& access) {
  return OpenContainedAt(root, -1, path, intent, access);
}

OpenedPath OpenContainedAt(const fs::path& root, int root_fd, const fs::path& path,
                           OpenIntent intent, const OutsideRootAccess& access) {
  fs::path absolute = path.is_absolute() ? path : root / path;
  if (!IsLexicallyNormal(absolute.native())) absolute = absolute.lexically_normal();
  fs::path base = root;
  if (!PathWithin(absolute, base)) {
    // One side spelled through a symlink above the root (/tmp/x/shared -> /work/shared): compare
    // canonical spellings. Only the relative path comes from this; the kernel's RESOLVE_BENEATH
    // (or the O_NOFOLLOW walk) below still decides what may be opened.
    std::error_code ec;
    fs::path canonical_root = fs::weakly_canonical(root, ec);
    fs::path canonical_dir = fs::weakly_canonical(absolute.parent_path(), ec);
    if (!ec && PathWithin(canonical_dir / absolute.filename(), canonical_root)) {
      absolute = canonical_dir / absolute.filename();
      base = canonical_root;
    }
  }
  OpenedPath opened = Failed(OpenFailure::kOutsideRoot, "lies outside the root");
  if (PathWithin(absolute, base)) {
    UniqueFd owned;
    if (root_fd < 0 || base != root) {
      owned = UniqueFd(::open(base.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
      if (!owned) return FromErrno(errno);
      root_fd = owned.get();
    }
    opened = OpenBeneath(base, root_fd, absolute.lexically_relative(base), intent);
  }
  if (opened.failure != OpenFailure::kOutsideRoot) return opened;
  if (!access.allow_any && access.dirs.empty()) return opened;
  return OpenAllowed(absolute, intent, access);
}

OpenedPath OpenContainedDirectory(const fs::path& root, int root_fd, const fs::path& relative,
                                  bool create) {
  fs::path prefix;
  for (const auto& part : relative.lexically_normal()) {
    if (part.empty() || part == ".") continue;
    fs::path parent = prefix;
    prefix /= part;
    OpenedPath dir = OpenBeneath(root, root_fd, prefix, OpenIntent::kDirectory);
    if (dir.failure != OpenFailure::kMissing || !create) {
      if (!dir.ok()) return dir;
      continue;
    }
    OpenedPath above = OpenBeneath(root, root_fd, parent, OpenIntent::kDirectory);
    if (!above.ok()) return above;
    if (::mkdirat(above.fd.get(), part.c_str(), 0755) != 0 && errno != EEXIST) {
      return FromErrno(errno);
    }
  }
  return OpenBeneath(root, root_fd, prefix, OpenIntent::kDirectory);
}

}  // namespace strata
