// project_root.h: the project root is the nearest ancestor holding a root marker (by default
// `.git`, as a directory or a file, so submodules and worktrees count).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace strata::discover {

struct ProjectRoot {
  std::filesystem::path root;  // canonical
  std::string marker;          // the marker found there; empty when none was found
  // `.git` directories below the root passed over because they hold no HEAD (an empty or broken
  // `.git`, e.g. a leftover `mkdir .git`). Absolute paths, nearest first.
  std::vector<std::filesystem::path> skipped_markers;
};

// Walks from `start` (canonical, a directory) up to `/`, stopping at the first directory holding
// any of `markers` as a file or a directory (lstat: a symlink named like a marker counts too).
// A `.git` directory without HEAD (git itself refuses one) does not end the walk: it is recorded
// in skipped_markers and the walk goes on; only when no marker is found above does the nearest
// such directory decide the root. A `.git` file (submodule, worktree) counts as it is.
// None found: `start` itself, or `/` when `walk_to_filesystem_root`.
ProjectRoot FindProjectRoot(const std::filesystem::path& start,
                            const std::vector<std::string>& markers, bool walk_to_filesystem_root);

// The directories from `root` down to `dir` (both included); just `dir` when it is not below root.
std::vector<std::filesystem::path> DirectoriesFromRoot(const std::filesystem::path& root,
                                                       const std::filesystem::path& dir);

// True when `path` equals `dir` or lies below it (both canonical or both lexically normal).
bool IsWithin(const std::filesystem::path& path, const std::filesystem::path& dir);

}  // namespace strata::discover
