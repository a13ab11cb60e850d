// gitignore.cc: GitIgnore over libgit2's git_ignore_path_is_ignored (the rules git applies).
//
// libgit2 is loaded with dlopen(3) the first time an ignore check is needed, so the strata
// binary's start-up (most of a `strata compile`) never pays for it and its dozen dependent
// libraries. Without libgit2 at run time nothing is ignored and GitIgnore::available() says so.
#include "discover/gitignore.h"

#include <dlfcn.h>
#include <git2.h>

#include "discover/project_root.h"

namespace strata::discover {

namespace fs = std::filesystem;

namespace {

struct LibGit2 {
  decltype(&git_libgit2_init) init = nullptr;
  decltype(&git_repository_open_ext) open_ext = nullptr;
  decltype(&git_repository_is_bare) is_bare = nullptr;
  decltype(&git_repository_free) free = nullptr;
  decltype(&git_ignore_path_is_ignored) is_ignored = nullptr;
  decltype(&git_repository_workdir) workdir = nullptr;
};

// The library's entry points, or nullptr when it cannot be loaded. Loaded once per process.
const LibGit2* LoadLibGit2() {
  static const LibGit2* loaded = []() -> const LibGit2* {
    void* handle = nullptr;
    for (const char* name : {"libgit2.so.1.5", "libgit2.so"}) {
      if ((handle = ::dlopen(name, RTLD_NOW | RTLD_LOCAL)) != nullptr) break;
    }
    if (handle == nullptr) return nullptr;
    static LibGit2 lib;
    lib.init = reinterpret_cast<decltype(lib.init)>(::dlsym(handle, "git_libgit2_init"));
    lib.open_ext =
        reinterpret_cast<decltype(lib.open_ext)>(::dlsym(handle, "git_repository_open_ext"));
    lib.is_bare =
        reinterpret_cast<decltype(lib.is_bare)>(::dlsym(handle, "git_repository_is_bare"));
    lib.free = reinterpret_cast<decltype(lib.free)>(::dlsym(handle, "git_repository_free"));
    lib.is_ignored =
        reinterpret_cast<decltype(lib.is_ignored)>(::dlsym(handle, "git_ignore_path_is_ignored"));
    lib.workdir =
        reinterpret_cast<decltype(lib.workdir)>(::dlsym(handle, "git_repository_workdir"));
    if (!lib.init || !lib.open_ext || !lib.is_bare || !lib.free || !lib.is_ignored ||
        !lib.workdir) {
      return nullptr;
    }
    lib.init();  // never shut down: the process keeps libgit2 until it exits
    return &lib;
  }();
  return loaded;
}

}  // namespace

struct GitIgnore::Repository {
  git_repository* handle = nullptr;
  bool opened = false;
  fs::path workdir;  // the work tree, lexically normal, no trailing separator
  ~Repository() {
    if (handle != nullptr) LoadLibGit2()->free(handle);
  }
};

GitIgnore::GitIgnore(const fs::path& root) : repo_(std::make_unique<Repository>()), root_(root) {
  available_ = LoadLibGit2() != nullptr;
}

GitIgnore::~GitIgnore() = default;

// Opens the repository holding `dir` (searching upward from it), once; a bare repository or none
// leaves the handle null, so nothing is ignored.
void GitIgnore::Open(const fs::path& dir) const {
  const LibGit2* git = LoadLibGit2();
  repo_->opened = true;
  if (git == nullptr || git->open_ext(&repo_->handle, dir.c_str(), 0, nullptr) != 0) {
    repo_->handle = nullptr;
    return;
  }
  const char* workdir = git->workdir(repo_->handle);
  if (git->is_bare(repo_->handle) || workdir == nullptr) {
    git->free(repo_->handle);
    repo_->handle = nullptr;
    return;
  }
  repo_->workdir = fs::path(workdir).lexically_normal();
  if (repo_->workdir.has_filename() == false) repo_->workdir = repo_->workdir.parent_path();
}

bool GitIgnore::IsIgnored(const fs::path& path) const {
  fs::path normal = path.lexically_normal();
  if (!repo_->opened)
    Open(IsWithin(normal, root_) && root_ != root_.root_path() ? root_ : normal.parent_path());
  if (repo_->handle == nullptr || !IsWithin(normal, repo_->workdir)) return false;
  fs::path relative = normal.lexically_relative(repo_->workdir);
  if (relative.empty() || relative == ".") return false;
  int ignored = 0;
  if (LoadLibGit2()->is_ignored(&ignored, repo_->handle, relative.generic_string().c_str()) != 0) {
    return false;
  }
  return ignored == 1;
}

}  // namespace strata::discover
