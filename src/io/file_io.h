// file_io.h: whole-file reads and atomic writes.
//
// Every file strata writes goes through these: the bytes land in a temporary file in the target's
// directory, are flushed, and replace the target with one rename(2), so a reader sees the old file
// or the new one, never a partial write, and a crash leaves the old file intact. A write that
// touches several files stages them all first and renames only when every one was staged, so a
// failure leaves none of them changed. A symlink at the target is written through (its target
// file is replaced), never replaced by a regular file; a dangling or looping symlink is an error.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "strata/status.h"

namespace strata {

// Reads the whole regular file at `path` as bytes (symlinks followed). Errors: kNotFound when it
// does not exist; kIo when it is a directory, a device or another non-regular file, when it is
// larger than `max_bytes`, or when the read fails (the message names the path and what to do).
Result<std::string> ReadFileBytes(const std::filesystem::path& path,
                                  size_t max_bytes = size_t{256} * 1024 * 1024);

// ReadFileBytes, except that the path "-" reads standard input to its end (for CLI inputs such as
// `strata replay --transcript -`). Errors as ReadFileBytes; stdin over `max_bytes` is kLimit.
Result<std::string> ReadInputBytes(const std::filesystem::path& path,
                                   size_t max_bytes = size_t{256} * 1024 * 1024);

// Replaces `path` with `bytes` atomically, creating missing parent directories. The file mode is
// 0644 (or the existing file's mode). Errors: kIo naming the path; the target is unchanged then.
Status WriteFileAtomic(const std::filesystem::path& path, std::string_view bytes);

// A file written to a temporary name beside its target, not yet renamed over it.
struct StagedFile {
  std::filesystem::path target;     // where it goes (a symlink at `path` resolved)
  std::filesystem::path temporary;  // where it is now
};

// Writes several files all-or-nothing: stages every (path, bytes) pair, then renames them in order.
// When staging any of them fails, every staged temporary is removed and no target changes.
// Errors: kIo naming the path that failed.
Status WriteFilesAtomic(const std::vector<std::pair<std::filesystem::path, std::string>>& files);

}  // namespace strata
