// discover.cc: the cascade (global -> project root -> ... -> working directory -> local files),
// the per-directory file rule, budgets, and assembling the sources into one text.
#include "strata/discover.h"

#include <sys/stat.h>

#include "discover/apply_budget.h"
#include "discover/cascade.h"
#include "discover/project_root.h"
#include "discover/source_loader.h"

namespace strata {

namespace fs = std::filesystem;

const char* SourceOriginName(SourceOrigin origin) {
  switch (origin) {
    case SourceOrigin::kGlobal:
      return "global";
    case SourceOrigin::kProject:
      return "project";
    case SourceOrigin::kLocal:
      return "local";
    case SourceOrigin::kImport:
      return "import";
    case SourceOrigin::kNested:
      return "nested";
  }
  return "unknown";
}

namespace discover {

void LoadDirectory(const fs::path& dir, const std::vector<std::string>& names, SourceOrigin origin,
                   SameDirectoryRule rule, bool quiet_duplicates, SourceLoader* loader,
                   std::vector<Source>* out, std::vector<Diagnostic>* diagnostics) {
  std::vector<std::string> loaded;
  for (const std::string& name : names) {
    if (name.empty()) continue;
    fs::path file = dir / name;
    struct stat st {};
    if (::lstat(file.c_str(), &st) != 0) continue;
    if (::stat(file.c_str(), &st) != 0) {
      diagnostics->push_back({Severity::kWarning,
                              "dangling-symlink",
                              "symlink to a missing file; skipped",
                              {loader->Display(file)}});
      continue;
    }
    if (!S_ISREG(st.st_mode)) continue;
    if (quiet_duplicates && loader->DeliveredAs(file) != nullptr) continue;
    if (rule == SameDirectoryRule::kFirstOnly && !loaded.empty()) {
      diagnostics->push_back({Severity::kNote,
                              "skipped-by-rule",
                              "not loaded: " + loaded.front() +
                                  " already loaded from this directory (first-only rule)",
                              {loader->Display(file)}});
      continue;
    }
    size_t before = out->size();
    loader->Load(file, origin, loader->project_root(), out, diagnostics);
    if (out->size() > before) loaded.push_back(name);
  }
  if (loaded.size() > 1) {
    std::string list;
    for (const auto& name : loaded) list += (list.empty() ? "" : ", ") + name;
    diagnostics->push_back({Severity::kNote,
                            "several-files",
                            "several instruction files in one directory, all loaded in "
                            "file-name order: " +
                                list,
                            {loader->Display(dir / loaded[1])}});
  }
}

}  // namespace discover

Result<Discovery> Discover(const DiscoverOptions& options) {
  std::error_code ec;
  if (options.working_dir.empty() || !fs::exists(options.working_dir, ec)) {
    return MakeError(ErrorKind::kNotFound, "working directory does not exist",
                     {options.working_dir.string()});
  }
  if (!fs::is_directory(options.working_dir, ec)) {
    return MakeError(ErrorKind::kInvalidArgument, "not a directory",
                     {options.working_dir.string()});
  }
  fs::path cwd = fs::canonical(options.working_dir, ec);
  if (ec) return MakeError(ErrorKind::kIo, ec.message(), {options.working_dir.string()});
  discover::ProjectRoot root;
  if (options.project_root.empty()) {
    root = discover::FindProjectRoot(cwd, options.root_markers, options.walk_to_filesystem_root);
  } else {
    root.root = fs::weakly_canonical(options.project_root, ec);
    if (ec || !discover::IsWithin(cwd, root.root)) {
      return MakeError(ErrorKind::kInvalidArgument,
                       "the working directory is not inside the configured project root " +
                           options.project_root.string(),
                       {options.working_dir.string()});
    }
  }

  Discovery result;
  result.working_dir = cwd;
  result.project_root = root.root;
  result.root_marker = root.marker;
  discover::SourceLoader loader(options, cwd, root.root);

  for (const fs::path& global : options.global_files) {
    struct stat st {};
    if (global.empty() || ::stat(global.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
    fs::path absolute = fs::absolute(global, ec).lexically_normal();
    fs::path boundary = fs::weakly_canonical(absolute.parent_path(), ec);
    loader.Load(absolute, SourceOrigin::kGlobal, boundary, &result.sources, &result.diagnostics);
  }
  std::vector<fs::path> chain = discover::DirectoriesFromRoot(root.root, cwd);
  for (const fs::path& dir : chain) {
    discover::LoadDirectory(dir, options.file_names, SourceOrigin::kProject, options.same_directory,
                            false, &loader, &result.sources, &result.diagnostics);
  }
  for (const fs::path& dir : chain) {
    discover::LoadDirectory(dir, options.local_file_names, SourceOrigin::kLocal,
                            SameDirectoryRule::kLoadAll, false, &loader, &result.sources,
                            &result.diagnostics);
  }
  discover::ApplyBudgets(options.budget, true, &result.sources, &result.diagnostics);
  return result;
}

std::string AssembleSources(const std::vector<Source>& sources) {
  std::string out;
  for (const Source& source : sources) {
    if (!out.empty()) out += "\n";
    out +=
        "<!-- source: " + source.display_path + " (" + SourceOriginName(source.origin) + ") -->\n";
    out += source.content;
    if (!source.content.empty() && source.content.back() != '\n') out += "\n";
  }
  return out;
}

}  // namespace strata
