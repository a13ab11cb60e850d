// gitignore.h: whether git ignores a path of the project, by git's own rules (libgit2:
// .gitignore files in every directory, .git/info/exclude, core.excludesFile, negations, `**`).
//
// Used where a client does not read ignored files (Goose and Claude Code skip ignored imports) and
// by compile, so that an ignored (personal) file's text is never inlined into a committed target.
#pragma once

#include <filesystem>
#include <memory>

namespace strata::discover {

class GitIgnore {
 public:
  // `root`: the project root (canonical). The repository is the one holding the root (searched
  // upward from it), or, when the root is `/` (a client that walks every ancestor), the one
  // holding the first path asked about. None (no `.git`, an empty `.git` directory, a bare
  // repository): nothing is ignored.
  explicit GitIgnore(const std::filesystem::path& root);
  ~GitIgnore();
  GitIgnore(const GitIgnore&) = delete;
  GitIgnore& operator=(const GitIgnore&) = delete;

  // `path`: absolute, inside the root (symlinks not resolved). False outside the work tree.
  bool IsIgnored(const std::filesystem::path& path) const;

  // False when libgit2 could not be loaded at run time (then nothing is ignored).
  bool available() const { return available_; }

 private:
  struct Repository;
  void Open(const std::filesystem::path& dir) const;
  std::unique_ptr<Repository> repo_;
  std::filesystem::path root_;
  bool available_ = false;
};

}  // namespace strata::discover
