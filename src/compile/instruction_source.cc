// instruction_source.cc: the text a source compiles from: hygiene (CleanText), imports inlined
// for clients that do not follow `@path`, the source's own frontmatter dropped and a fence left
// open at the end closed (see check_target.h).
#include <algorithm>
#include <optional>

#include "compile/check_target.h"
#include "discover/import_scanner.h"
#include "markdown/frontmatter.h"
#include "markdown/unclosed_fence.h"
#include "text/text.h"

namespace strata {

namespace fs = std::filesystem;

namespace {

// Drops the source's own YAML frontmatter (a `.mdc` or `.instructions.md` source's globs and
// applyTo): every target writes its own, so the source's would be a second block in its body.
// Returns whether it dropped one.
bool DropSourceFrontmatter(std::string* text, std::string_view label,
                           std::vector<Diagnostic>* diagnostics) {
  size_t length = FrontmatterLength(*text);
  if (length == 0) return false;
  int lines = static_cast<int>(std::count(text->begin(), text->begin() + length, '\n'));
  text->erase(0, length);
  diagnostics->push_back(
      {Severity::kNote,
       "source-frontmatter",
       "the source's frontmatter (lines 1-" + std::to_string(lines) +
           ") configures the source's own client; it is not copied into the targets, which "
           "each write their own",
       {std::string(label), 1, 1}});
  return true;
}

}  // namespace

ImportOptions CompileImportOptions(const ProjectConfig& config, const CompileOptions& options) {
  ImportOptions imports;
  imports.skip_gitignored = true;  // an ignored file's text must not be committed
  imports.allow_outside_root = options.allow_outside_root || config.imports.allow_outside_root;
  imports.allowed_dirs = config.imports.allowed_dirs;
  imports.allowed_dirs.insert(imports.allowed_dirs.end(), options.allowed_dirs.begin(),
                              options.allowed_dirs.end());
  if (config.imports.max_depth >= 0) imports.max_depth = config.imports.max_depth;
  return imports;
}

Result<std::string> InstructionText(const fs::path& root, const fs::path& source_path,
                                    std::string_view label, const std::string& spliced,
                                    const ImportOptions& imports,
                                    std::vector<Diagnostic>* diagnostics, MarkdownBlocks* blocks) {
  STRATA_TRY_ASSIGN(CleanedText clean, CleanText(spliced, label));
  for (auto& d : clean.diagnostics) diagnostics->push_back(std::move(d));
  std::string text = std::move(clean.text);
  // One parse serves the import scan, the fence check and the block map while the text stays
  // the same; each step that changes it parses the new text.
  std::optional<MarkdownDocument> doc(std::in_place, text);
  if (!ScanImports(*doc).imports.empty()) {
    DiscoverOptions discover;
    discover.working_dir = root;
    discover.project_root = root;
    discover.imports = imports;
    STRATA_TRY_ASSIGN(ExpandedText expanded, ExpandImportsInText(source_path, spliced, discover));
    for (auto& d : expanded.diagnostics) {
      if (d.severity != Severity::kNote) diagnostics->push_back(std::move(d));
    }
    text = std::move(expanded.text);
    doc.emplace(text);
  }
  if (DropSourceFrontmatter(&text, label, diagnostics)) doc.emplace(text);
  if (std::optional<UnclosedFence> open = CloseUnclosedFence(&text, *doc)) {
    doc.emplace(text);
    diagnostics->push_back(
        {Severity::kWarning,
         "unclosed-fence",
         "the code block opened here is never closed, so it would swallow the text after it "
         "(the digest footer); closed at the end of the file in the targets: add the closing " +
             open->closing.substr(0, open->closing.size() - 1) + " line",
         {std::string(label), open->line, 1}});
  }
  if (blocks != nullptr) *blocks = MapMarkdownBlocks(*doc);
  return text;
}

}  // namespace strata
