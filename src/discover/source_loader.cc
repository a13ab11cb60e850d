// source_loader.cc: one file plus its import tree, with cycle, depth and duplicate checks.
#include "discover/source_loader.h"

#include <sys/stat.h>

#include "discover/import_resolver.h"
#include "discover/import_scanner.h"
#include "discover/instruction_text.h"
#include "discover/project_root.h"

namespace strata::discover {

namespace fs = std::filesystem;

namespace {

bool SameIdentity(const FileIdentity& a, const FileIdentity& b) {
  if (a.inode != 0 && b.inode != 0) return a.device == b.device && a.inode == b.inode;
  return a.inode == b.inode && a.canonical == b.canonical;
}

// Why a file already delivered is met again, for the duplicate-file note.
std::string DuplicateWhy(const fs::path& file) {
  struct stat st {};
  if (::lstat(file.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) return " (a symlink); loaded once";
  if (::stat(file.c_str(), &st) == 0 && st.st_nlink > 1) return " (a hard link); loaded once";
  return " (the same file reached twice, e.g. --global naming the project's own file); loaded "
         "once, where it was first met";
}

}  // namespace

SourceLoader::SourceLoader(const DiscoverOptions& options, fs::path working_dir,
                           fs::path project_root)
    : options_(options),
      working_dir_(std::move(working_dir)),
      project_root_(std::move(project_root)) {}

std::string SourceLoader::Display(const fs::path& path) const {
  fs::path normal = path.lexically_normal();
  if (IsWithin(normal, project_root_)) {
    fs::path relative = normal.lexically_relative(working_dir_);
    if (!relative.empty()) return relative.string();
  }
  return normal.string();
}

const std::string* SourceLoader::DeliveredAs(const fs::path& path) const {
  std::optional<FileIdentity> id = IdentityOf(path);
  return id ? delivered_.Find(*id) : nullptr;
}

void SourceLoader::MarkDelivered(const fs::path& path, const std::string& display) {
  if (std::optional<FileIdentity> id = IdentityOf(path)) delivered_.Insert(*id, display);
}

bool SourceLoader::RefuseGitignored(const fs::path& target, const Location& where,
                                    std::vector<Diagnostic>* diagnostics) {
  if (!options_.imports.skip_gitignored) return false;
  if (!gitignore_) gitignore_ = std::make_unique<GitIgnore>(project_root_);
  if (!gitignore_->IsIgnored(target)) return false;
  diagnostics->push_back({Severity::kWarning, "import-gitignored",
                          Display(target) + " is ignored by git (.gitignore); not imported here",
                          where});
  return true;
}

void SourceLoader::Load(const fs::path& file, SourceOrigin origin, const fs::path& boundary,
                        std::vector<Source>* out, std::vector<Diagnostic>* diagnostics) {
  std::string display = Display(file);
  std::optional<FileIdentity> id = IdentityOf(file);
  if (!id) {
    diagnostics->push_back({Severity::kWarning,
                            "unreadable",
                            "cannot stat the file (a dangling symlink?); skipped",
                            {display}});
    return;
  }
  if (const std::string* first = delivered_.Find(*id)) {
    diagnostics->push_back({Severity::kNote,
                            "duplicate-file",
                            "same file as " + *first + DuplicateWhy(file),
                            {display}});
    return;
  }
  std::vector<Frame> stack;
  LoadWithImports(file, *id, origin, {}, 0, boundary, &stack, out, diagnostics);
}

void SourceLoader::LoadWithImports(const fs::path& file, const FileIdentity& id,
                                   SourceOrigin origin, const std::string& imported_by, int depth,
                                   const fs::path& boundary, std::vector<Frame>* stack,
                                   std::vector<Source>* out, std::vector<Diagnostic>* diagnostics) {
  std::string display = Display(file);
  std::optional<std::string> text = LoadInstructionText(file, display, options_, diagnostics);
  if (!text) return;
  delivered_.Insert(id, display);

  Source source;
  source.path = file.lexically_normal();
  source.display_path = display;
  source.origin = origin;
  source.imported_by = imported_by;
  source.import_depth = depth;
  source.bytes = text->size();
  source.content = std::move(*text);
  out->push_back(std::move(source));
  size_t index = out->size() - 1;
  if (!options_.imports.enabled) return;

  ImportScan scan = ScanImports((*out)[index].content);
  ReportImportTokens(scan, display, diagnostics);
  if (scan.imports.empty()) return;

  stack->push_back({id, display});
  ImportSite site{file, display, boundary, project_root_};
  DisplayFn display_fn = [this](const fs::path& p) { return Display(p); };
  for (const ImportToken& token : scan.imports) {
    std::optional<ResolvedImport> target =
        ResolveImport(token, site, options_.imports, display_fn, diagnostics);
    if (!target) continue;
    Location where{display, token.line, token.column};
    if (RefuseGitignored(target->path, where, diagnostics)) continue;
    std::string target_display = Display(target->path);
    bool cycle = false;
    for (const Frame& frame : *stack) cycle = cycle || SameIdentity(frame.id, target->id);
    if (cycle) {
      std::string chain;
      for (const Frame& frame : *stack) chain += frame.display + " -> ";
      diagnostics->push_back({Severity::kWarning, "import-cycle",
                              "import cycle: " + chain + target_display + "; not followed", where});
      continue;
    }
    if (depth + 1 > options_.imports.max_depth) {
      diagnostics->push_back({Severity::kWarning, "import-depth",
                              "import depth limit " + std::to_string(options_.imports.max_depth) +
                                  " reached: " + target_display + " not loaded",
                              where});
      continue;
    }
    if (const std::string* first = delivered_.Find(target->id)) {
      diagnostics->push_back({Severity::kNote, "import-duplicate",
                              target_display + " already loaded (as " + *first + "); not repeated",
                              where});
      continue;
    }
    LoadWithImports(target->path, target->id, SourceOrigin::kImport, display, depth + 1, boundary,
                    stack, out, diagnostics);
  }
  stack->pop_back();
}

}  // namespace strata::discover
