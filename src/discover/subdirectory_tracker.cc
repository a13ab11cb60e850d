// subdirectory_tracker.cc: nested instruction files delivered when the agent touches their
// subtree (never by rewriting the cached prefix), and DiscoverAll, which touches every directory of
// a tree.
#include <algorithm>
#include <set>

#include "discover/apply_budget.h"
#include "discover/cascade.h"
#include "discover/project_root.h"
#include "discover/source_loader.h"
#include "strata/discover.h"

namespace strata {

namespace fs = std::filesystem;

class SubdirectoryTracker::Impl {
 public:
  Impl(const DiscoverOptions& options, const Discovery& initial)
      : options_(options), loader_(options_, initial.working_dir, initial.project_root) {
    for (const Source& source : initial.sources)
      loader_.MarkDelivered(source.path, source.display_path);
    for (const fs::path& dir :
         discover::DirectoriesFromRoot(initial.project_root, initial.working_dir)) {
      scanned_.insert(dir.string());
    }
  }

  TouchResult Touch(const fs::path& path) {
    fs::path absolute = path.is_absolute() ? path : loader_.working_dir() / path;
    absolute = absolute.lexically_normal();
    std::error_code ec;
    fs::path dir = fs::is_directory(absolute, ec) ? absolute : absolute.parent_path();
    fs::path canonical = fs::weakly_canonical(dir, ec);
    if (ec) return {};
    return TouchCanonicalDirectory(canonical);
  }

  // `dir` canonical.
  TouchResult TouchCanonicalDirectory(const fs::path& dir) {
    TouchResult result;
    if (!discover::IsWithin(dir, loader_.project_root())) return result;
    for (const fs::path& d : discover::DirectoriesFromRoot(loader_.project_root(), dir)) {
      if (!scanned_.insert(d.string()).second) continue;
      discover::LoadDirectory(d, options_.file_names, SourceOrigin::kNested,
                              options_.same_directory, true, &loader_, &result.sources,
                              &result.diagnostics);
      discover::LoadDirectory(d, options_.local_file_names, SourceOrigin::kNested,
                              SameDirectoryRule::kLoadAll, true, &loader_, &result.sources,
                              &result.diagnostics);
    }
    discover::ApplyBudgets(options_.budget, false, &result.sources, &result.diagnostics);
    return result;
  }

 private:
  DiscoverOptions options_;
  discover::SourceLoader loader_;
  std::set<std::string> scanned_;
};

SubdirectoryTracker::SubdirectoryTracker(const DiscoverOptions& options, const Discovery& initial)
    : impl_(std::make_unique<Impl>(options, initial)) {}
SubdirectoryTracker::~SubdirectoryTracker() = default;
SubdirectoryTracker::SubdirectoryTracker(SubdirectoryTracker&&) noexcept = default;
SubdirectoryTracker& SubdirectoryTracker::operator=(SubdirectoryTracker&&) noexcept = default;

TouchResult SubdirectoryTracker::Touch(const fs::path& path) { return impl_->Touch(path); }

namespace {

bool SkippedDirectory(const std::string& name) {
  return name == ".git" || name == ".hg" || name == ".svn";
}

// Sorted depth-first walk below `dir` (canonical), touching each directory before its children.
template <class Visit>
void WalkSorted(const fs::path& dir, const Visit& visit) {
  std::vector<fs::path> children;
  std::error_code ec;
  for (fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
       !ec && it != end; it.increment(ec)) {
    std::error_code entry_ec;
    if (it->is_symlink(entry_ec) || !it->is_directory(entry_ec)) continue;
    if (SkippedDirectory(it->path().filename().string())) continue;
    children.push_back(it->path());
  }
  std::sort(children.begin(), children.end());
  for (const fs::path& child : children) {
    visit(child);
    WalkSorted(child, visit);
  }
}

}  // namespace

Result<Discovery> DiscoverAll(const DiscoverOptions& options) {
  Result<Discovery> discovery = Discover(options);
  if (!discovery) return discovery;
  SubdirectoryTracker::Impl tracker(
      discover::WithProjectImports(options, discovery->project_root, nullptr), *discovery);
  WalkSorted(discovery->working_dir, [&](const fs::path& dir) {
    TouchResult touched = tracker.TouchCanonicalDirectory(dir);
    for (Source& s : touched.sources) discovery->sources.push_back(std::move(s));
    for (Diagnostic& d : touched.diagnostics) discovery->diagnostics.push_back(std::move(d));
  });
  return discovery;
}

}  // namespace strata
