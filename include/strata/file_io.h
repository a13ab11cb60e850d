// file_io.h: whole-file reads and atomic writes.
//
// Every file strata writes goes through WriteFileAtomic: the bytes land in a temporary file in the
// target's directory, are flushed, and replace the target with one rename(2), so a reader sees the
// old file or the new one, never a partial write, and a crash leaves the old file intact.
#pragma once

#include <filesystem>
#include <string>

#include "strata/status.h"

namespace strata {

// Reads the whole file at `path` as bytes. Errors: kNotFound when it does not exist, kIo otherwise
// (the message names the path and the system's reason).
Result<std::string> ReadFileBytes(const std::filesystem::path& path);

// Replaces `path` with `bytes` atomically, creating missing parent directories. The file mode is
// 0644 (or the existing file's mode). Errors: kIo naming the path; the target is unchanged then.
Status WriteFileAtomic(const std::filesystem::path& path, std::string_view bytes);

}  // namespace strata
