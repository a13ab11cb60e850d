// project_root.cc: root-marker search and the directory chain from the root down.
#include "discover/project_root.h"

#include <sys/stat.h>

#include <algorithm>

namespace strata::discover {

namespace fs = std::filesystem;

ProjectRoot FindProjectRoot(const fs::path& start, const std::vector<std::string>& markers,
                            bool walk_to_filesystem_root) {
  fs::path dir = start;
  std::vector<fs::path> skipped;
  while (true) {
    for (const auto& marker : markers) {
      if (marker.empty()) continue;
      struct stat st {};
      fs::path candidate = dir / marker;
      if (::lstat(candidate.c_str(), &st) != 0) continue;
      struct stat head {};
      if (marker == ".git" && S_ISDIR(st.st_mode) &&
          ::lstat((candidate / "HEAD").c_str(), &head) != 0) {
        skipped.push_back(candidate);
        continue;
      }
      return {dir, marker, std::move(skipped)};
    }
    fs::path parent = dir.parent_path();
    if (parent == dir || parent.empty()) break;
    dir = parent;
  }
  if (!skipped.empty()) {
    // No repository anywhere above: the nearest `.git` directory, empty or not, is the root (a
    // scratch tree made with `mkdir .git`).
    return {skipped.front().parent_path(), ".git", {}};
  }
  return {walk_to_filesystem_root ? start.root_path() : start, {}, {}};
}

bool IsWithin(const fs::path& path, const fs::path& dir) {
  auto p = path.begin();
  for (auto d = dir.begin(); d != dir.end(); ++d) {
    if (d->empty()) continue;  // a trailing separator
    if (p == path.end() || *p != *d) return false;
    ++p;
  }
  return true;
}

std::vector<fs::path> DirectoriesFromRoot(const fs::path& root, const fs::path& dir) {
  if (!IsWithin(dir, root)) return {dir};
  std::vector<fs::path> chain;
  for (fs::path d = dir;; d = d.parent_path()) {
    chain.push_back(d);
    if (d == root || d.parent_path() == d || d.empty()) break;
  }
  std::reverse(chain.begin(), chain.end());
  return chain;
}

}  // namespace strata::discover
