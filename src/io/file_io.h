// file_io.h: whole-file reads, atomic writes, and the temporary-file rule.
//
// Every file strata writes goes through these: the bytes land in a temporary file in the target's
// directory, are flushed, and replace the target with one rename(2), so a reader sees the old file
// or the new one, never a partial write, and a crash leaves the old file intact. A write that
// touches several files stages them all first and renames only when every one was staged, so a
// failure leaves none of them changed. A symlink at the target is written through (its target
// file is replaced), never replaced by a regular file; a dangling or looping symlink is an error.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "io/contained_open.h"
#include "strata/status.h"

namespace strata {

// Reads the whole regular file at `path` as bytes (symlinks followed). The file is opened with
// O_NONBLOCK and checked with fstat, so a FIFO is refused instead of blocking. Errors: kNotFound
// when it does not exist; kIo when it is a directory, a device or another non-regular file, when it
// is larger than `max_bytes`, or when the read fails (the message names the path and what to do).
Result<std::string> ReadFileBytes(const std::filesystem::path& path,
                                  size_t max_bytes = size_t{256} * 1024 * 1024);

// ReadFileBytes, except that the path "-" reads standard input to its end (for CLI inputs such as
// `strata replay --transcript -`). Errors as ReadFileBytes; stdin over `max_bytes` is kLimit.
Result<std::string> ReadInputBytes(const std::filesystem::path& path,
                                   size_t max_bytes = size_t{256} * 1024 * 1024);

// Replaces `path` with `bytes` atomically, creating missing parent directories. The file mode is
// 0644 (or the existing file's mode). Errors: kIo naming the path; the target is unchanged then.
Status WriteFileAtomic(const std::filesystem::path& path, std::string_view bytes);

// Writes several files all-or-nothing: stages every (path, bytes) pair, then renames them in order.
// When staging any of them fails, every staged temporary is removed and no target changes.
// Errors: kIo naming the path that failed.
Status WriteFilesAtomic(const std::vector<std::pair<std::filesystem::path, std::string>>& files);

// WriteFilesAtomic for paths relative to `root` (absolute, canonical), each opened through a
// descriptor of the root (contained_open.h): a target or a parent directory that resolves
// outside the root (a symlinked `.github -> /elsewhere`, `CLAUDE.md -> /outside/passwd`) is
// refused unless `access` allows it, before anything is staged. Missing parent directories are
// created below the root. Errors: kIo naming the path; kConflict for a refusal (the message names
// --allow-outside-root and --allow-dir).
Status WriteFilesContained(const std::filesystem::path& root,
                           const std::vector<std::pair<std::filesystem::path, std::string>>& files,
                           const OutsideRootAccess& access);

// The bytes of `relative` (at most `max_bytes`), a regular file opened through a descriptor of
// `root` (absolute, canonical). Errors: kNotFound; kConflict when it resolves outside the root
// and `access` does not allow it (the message names `relative`, the root and the allow options);
// kIo (a FIFO, a device, a read failure, or more than max_bytes), each naming the path.
Result<std::string> ReadFileContained(const std::filesystem::path& root,
                                      const std::filesystem::path& relative,
                                      const OutsideRootAccess& access, size_t max_bytes);

// ReadFileContained through `root_fd`, an open directory descriptor of `root` (-1: opened here);
// see OpenContainedAt.
Result<std::string> ReadFileContainedAt(const std::filesystem::path& root, int root_fd,
                                        const std::filesystem::path& relative,
                                        const OutsideRootAccess& access, size_t max_bytes);

// Reads a file that is already open (`fd`, a regular file of `size` bytes by fstat) from offset 0
// with pread (so it can be read again), at most `max_bytes`; `label` names it in errors.
Result<std::string> ReadOpenedFile(int fd, size_t size, size_t max_bytes,
                                   const std::filesystem::path& label);

// Temporary files. Every temporary strata writes is named `.<name>.strata-tmp-<6 letters or
// digits>` beside its target `<name>`, and its writer holds an exclusive flock(2) on it from
// creation until it is renamed or removed. A temporary whose lock nobody holds was left by a
// killed process: CleanStaleTemporaries removes it (the checkpoint store at Open, compile before
// it stages). Those the lock cannot tell about (a filesystem without flock) are removed once older
// than kStaleTemporaryAgeSeconds.
inline constexpr int kStaleTemporaryAgeSeconds = 3600;
bool IsStrataTemporary(std::string_view file_name);

struct TemporarySweep {
  size_t removed = 0;  // stale temporaries removed
  uint64_t removed_bytes = 0;
  size_t live = 0;  // temporaries a live writer still holds
  uint64_t live_bytes = 0;
  std::vector<std::string> stale_names;  // removed (or, with `dry_run`, found stale)
};
// Sweeps the directory `dir` (not its subdirectories). `dry_run`: report, remove nothing.
TemporarySweep CleanStaleTemporaries(const std::filesystem::path& dir, bool dry_run = false);
TemporarySweep CleanStaleTemporariesAt(int dir_fd, bool dry_run = false);

// A crash point for the crash tests: when the environment variable STRATA_TEST_CRASH_AT equals
// `point`, the process kills itself with SIGKILL here. Points: "temp-half-written" (a temporary
// half written), "staged" (every file of a write staged, none renamed), "renamed-one" (the first
// of several renames done). Unset in normal use; it never changes an output byte.
void CrashPointForTesting(std::string_view point);

}  // namespace strata
