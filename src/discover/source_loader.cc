// source_loader.cc: one file plus its import tree, with cycle, depth, limit and duplicate checks,
// walked with an explicit stack.
#include "discover/source_loader.h"

#include <sys/stat.h>

#include "discover/import_scanner.h"
#include "discover/instruction_text.h"
#include "discover/project_root.h"

namespace strata::discover {

namespace fs = std::filesystem;

namespace {

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
      project_root_(std::move(project_root)),
      gate_(options_.imports) {}

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

OpenedPath SourceLoader::Open(const fs::path& file, SourceOrigin origin) const {
  if (origin == SourceOrigin::kGlobal) {
    return OpenContained(file.parent_path(), file, OpenIntent::kRegularFile, {true, {}});
  }
  if (origin == SourceOrigin::kImport) {
    return OpenContained(project_root_, file, OpenIntent::kRegularFile, AccessOf(options_.imports));
  }
  // A cascade file is always contained: the allow options widen where imports may go, so a
  // client profile that lets imports leave the project (claude-code) still refuses a
  // .claude/rules link out of it.
  return OpenContained(project_root_, file, OpenIntent::kRegularFile,
                       {false, options_.imports.allowed_dirs});
}

void SourceLoader::Load(const fs::path& file, OpenedPath opened, SourceOrigin origin,
                        const fs::path& boundary, std::vector<Source>* out,
                        std::vector<Diagnostic>* diagnostics) {
  std::string display = Display(file);
  FileIdentity id = IdentityOfOpened(opened, file);
  if (const std::string* first = delivered_.Find(id)) {
    diagnostics->push_back({Severity::kNote,
                            "duplicate-file",
                            "same file as " + *first + DuplicateWhy(file),
                            {display}});
    return;
  }
  std::vector<Frame> stack;
  std::vector<ChainLink> chain;
  LoadOne(file, opened, id, origin, {}, 0, &stack, &chain, out, diagnostics);
  while (!stack.empty()) {
    if (stack.back().next >= stack.back().scan.imports.size()) {
      stack.pop_back();
      chain.pop_back();
      continue;
    }
    std::optional<ResolvedImport> target = NextImport(&stack, chain, boundary, diagnostics);
    if (!target) continue;
    const std::string importer = stack.back().display;
    const int depth = stack.back().depth + 1;
    LoadOne(target->path, target->file, target->id, SourceOrigin::kImport, importer, depth, &stack,
            &chain, out, diagnostics);
  }
}

bool SourceLoader::LoadOne(const fs::path& file, const OpenedPath& opened, const FileIdentity& id,
                           SourceOrigin origin, const std::string& imported_by, int depth,
                           std::vector<Frame>* stack, std::vector<ChainLink>* chain,
                           std::vector<Source>* out, std::vector<Diagnostic>* diagnostics) {
  std::string display = Display(file);
  std::optional<std::string> text =
      LoadInstructionText(opened, file, display, options_, diagnostics);
  if (!text) return false;
  delivered_.Insert(id, display);

  Source source;
  source.path = file.lexically_normal();
  source.display_path = display;
  source.origin = origin;
  source.imported_by = imported_by;
  source.import_depth = depth;
  source.bytes = text->size();
  source.content = std::move(*text);
  ImportScan scan = ScanImports(source.content);
  out->push_back(std::move(source));
  if (!options_.imports.enabled) return true;
  ReportImportTokens(scan, display, diagnostics, options_.imports.max_imports);
  if (scan.imports.empty()) return true;
  stack->push_back({file, display, depth, std::move(scan), 0});
  chain->push_back({id, display});
  return true;
}

std::optional<ResolvedImport> SourceLoader::NextImport(std::vector<Frame>* stack,
                                                       const std::vector<ChainLink>& chain,
                                                       const fs::path& boundary,
                                                       std::vector<Diagnostic>* diagnostics) {
  Frame& top = stack->back();
  const ImportToken& token = top.scan.imports[top.next++];
  Location where{top.display, token.line, token.column};
  if (!gate_.Admit(where, diagnostics)) return std::nullopt;
  ImportSite site{top.file, top.display, boundary, project_root_};
  DisplayFn display_fn = [this](const fs::path& p) { return Display(p); };
  std::optional<ResolvedImport> target =
      ResolveImport(token, site, options_.imports, display_fn, diagnostics);
  if (!target) return std::nullopt;
  if (RefuseGitignored(target->path, where, diagnostics)) return std::nullopt;
  std::string target_display = Display(target->path);
  if (!gate_.Accept(*target, target_display, chain, top.depth, where, diagnostics)) {
    return std::nullopt;
  }
  if (const std::string* first = delivered_.Find(target->id)) {
    diagnostics->push_back({Severity::kNote, "import-duplicate",
                            target_display + " already loaded (as " + *first + "); not repeated",
                            where});
    return std::nullopt;
  }
  if (!gate_.Charge(*target, target_display, where, diagnostics)) return std::nullopt;
  return target;
}

}  // namespace strata::discover
