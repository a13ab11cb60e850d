// nested_sources.cc: finds nested sources, compiles each like the root source, and renders its
// path-scoped file per client (see nested_sources.h). Band order and the digest footer are the
// root targets' (RenderFile); the stability gate checks these files too (check_stability.cc).
#include "compile/nested_sources.h"

#include <algorithm>
#include <set>

#include "compile/render_target.h"
#include "io/file_io.h"
#include "markdown/markdown_blocks.h"
#include "text/text.h"

namespace strata {

namespace fs = std::filesystem;

namespace {

constexpr int kMaxDepth = 8;

bool SkippedDir(const std::string& name) {
  static constexpr std::string_view kSkipped[] = {"node_modules", "build",  "dist",
                                                  "target",       "vendor", "third_party"};
  if (name.empty() || name.front() == '.') return true;
  return std::find(std::begin(kSkipped), std::end(kSkipped), name) != std::end(kSkipped);
}

std::vector<std::string> FindNested(const fs::path& root, const std::string& file_name) {
  std::vector<std::string> found;
  std::error_code ec;
  fs::recursive_directory_iterator it(root, fs::directory_options::none, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (it->is_directory(ec)) {
      if (SkippedDir(name) || it->is_symlink(ec) || it.depth() >= kMaxDepth) {
        it.disable_recursion_pending();
      }
      continue;
    }
    if (it.depth() == 0 || name != file_name || !it->is_regular_file(ec)) continue;
    found.push_back(it->path().lexically_relative(root).generic_string());
  }
  std::sort(found.begin(), found.end());
  return found;
}

}  // namespace

Result<std::vector<NestedSource>> LoadNestedSources(const TargetCheck& check,
                                                    std::vector<Diagnostic>* diagnostics) {
  std::vector<NestedSource> out;
  if (check.source.find('/') != std::string::npos) return out;
  const ImportOptions imports = CompileImportOptions(check.config, check.options);
  for (const auto& path : FindNested(check.root, check.source)) {
    NestedSource nested;
    nested.path = path;
    nested.dir = fs::path(path).parent_path().generic_string();
    STRATA_TRY_ASSIGN(std::string raw, ReadContained(check, path, check.options.max_source_bytes));
    MarkdownBlocks blocks;
    STRATA_TRY_ASSIGN(nested.text, InstructionText(check.root, check.root / path, path, raw,
                                                   imports, diagnostics, &blocks));
    nested.banded = SplitBands(nested.text, MatchClientHeading, blocks);
    out.push_back(std::move(nested));
  }
  return out;
}

Status RenderNested(const TargetCheck& check, const CompiledSource& compiled, CompileReport* report,
                    std::vector<std::string>* outputs) {
  if (compiled.nested.empty()) return {};
  std::string unscoped;           // clients without a scoped form, for one note
  std::set<std::string> written;  // Roo Code and Zoo Code share .roo/rules/: one file each
  for (const ClientTarget* target : compiled.selected) {
    // A client that reads the root source itself reads the nested ones too.
    if (std::find(compiled.served.begin(), compiled.served.end(), target) !=
        compiled.served.end()) {
      continue;
    }
    const ScopedForm* form = FindScopedForm(target->id);
    if (form == nullptr) {
      // Codex (and the other AGENTS.md readers) read every nested AGENTS.md themselves.
      if (!ReadsItself(*target, "AGENTS.md"))
        unscoped += (unscoped.empty() ? "" : ", ") + std::string(target->display_name);
      continue;
    }
    for (const auto& nested : compiled.nested) {
      std::string bytes = RenderScoped(*target, *form, nested.banded, nested.dir, nested.path);
      std::string path = ScopedPath(*form, *target, nested.dir);
      if (!written.insert(path).second) continue;
      STRATA_TRY_ASSIGN(TargetReport tr, CheckTarget(check, *target, path, bytes));
      AddChecked(std::move(tr), std::move(bytes), report, outputs);
    }
  }
  if (!unscoped.empty()) {
    report->diagnostics.push_back(
        {Severity::kNote,
         "no-scoped-form",
         unscoped + ": no documented path-scoped form, so " + compiled.nested.front().path +
             (compiled.nested.size() > 1 ? " and the other nested sources do" : " does") +
             " not reach them (text they need belongs in the root source)",
         {compiled.nested.front().path}});
  }
  return {};
}

}  // namespace strata
