// contained_open.h: opening project paths so that nothing outside the project root is read or
// written, by a symlink or by a race.
//
// Every path strata reads or writes inside a project is opened relative to a descriptor of the
// project root: with openat2(RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS) where the kernel has it
// (Linux 5.6 and later), else one component at a time with O_NOFOLLOW, following each symlink by
// hand and refusing one that leaves the root. What was opened is then checked with fstat (a
// regular file, or a directory), never the name: a link swapped between a check and the use
// changes nothing, because the check is the open. Outside the root a path opens only when
// OutsideRootAccess allows it (the CLI's --allow-outside-root and --allow-dir DIR); the refusal
// message names both options.
#pragma once

#include <sys/stat.h>

#include <filesystem>
#include <string>
#include <vector>

namespace strata {

// Where, besides the project root, a path may be opened.
struct OutsideRootAccess {
  bool allow_any = false;                   // --allow-outside-root: anywhere
  std::vector<std::filesystem::path> dirs;  // --allow-dir DIR: at or below these directories
};

// The option names a refusal tells the user about.
inline constexpr char kOutsideRootAdvice[] =
    "allow it with --allow-outside-root or --allow-dir DIR";

// An owned file descriptor (closed on destruction).
class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : fd_(fd) {}
  UniqueFd(UniqueFd&& other) noexcept : fd_(other.release()) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept;
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  ~UniqueFd();
  int get() const { return fd_; }
  int release();
  explicit operator bool() const { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

enum class OpenFailure {
  kNone,
  kMissing,      // no such file (or a dangling symlink)
  kOutsideRoot,  // resolves outside the root and no allowance covers it
  kNotRegular,   // a directory, FIFO, device or socket where a file was wanted (or the reverse)
  kLoop,         // too many symlinks
  kIo,           // any other refusal by the filesystem
};

enum class OpenIntent { kRegularFile, kDirectory };

struct OpenedPath {
  // Open for reading (a file) or as a directory. A file keeps the O_NONBLOCK it was opened with
  // (Linux ignores it for regular files; ReadOpenedFile clears it should a filesystem not).
  UniqueFd fd;
  struct stat st {};
  OpenFailure failure = OpenFailure::kNone;
  std::string detail;  // for a failure: what happened, in words (no path)
  bool ok() const { return failure == OpenFailure::kNone; }
};

// Opens `path` (absolute, or relative to `root`), which must resolve at or below `root` (an
// absolute, canonical directory) unless `access` allows where it resolves. A FIFO or device is
// refused without blocking (opened with O_NONBLOCK, then checked).
OpenedPath OpenContained(const std::filesystem::path& root, const std::filesystem::path& path,
                         OpenIntent intent, const OutsideRootAccess& access = {});

// OpenContained through `root_fd`, a directory descriptor of `root` the caller keeps open for many
// opens (one open and close of the root fewer each); -1 opens the root itself.
OpenedPath OpenContainedAt(const std::filesystem::path& root, int root_fd,
                           const std::filesystem::path& path, OpenIntent intent,
                           const OutsideRootAccess& access = {});

// Opens the directory `relative` below the root descriptor `root_fd` (root path `root`), making
// each missing component with mkdirat (mode 0755). Refuses one that resolves outside the root.
OpenedPath OpenContainedDirectory(const std::filesystem::path& root, int root_fd,
                                  const std::filesystem::path& relative, bool create);

// Tests: false makes every open take the O_NOFOLLOW walk (as on a kernel without openat2); true
// goes back to probing openat2.
void UseOpenat2ForTesting(bool use);

// True when `path` equals `dir` or lies below it, comparing lexically normal components.
bool PathWithin(const std::filesystem::path& path, const std::filesystem::path& dir);

// The message for a refusal: "<what> resolves outside <root>; refused (allow it with ...)".
std::string OutsideRootMessage(const std::string& what, const std::filesystem::path& root);

}  // namespace strata
