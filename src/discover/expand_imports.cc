// expand_imports.cc: one source file with its `@path` imports inlined (for `strata compile`).
//
// Same resolution, boundary, cycle and depth rules as discovery. An import alone on its line is
// replaced by the target's expanded text (one trailing newline dropped, so the import line becomes
// the imported text and not an extra blank line). An import with other text on its line
// (`1. Read @a.md before starting.`) leaves the line whole, as written, and the imported text
// follows that line as a block of its own, after a blank line (and before one, when more text
// follows), so it never lands inside a sentence or a list item. A token that cannot be followed
// stays as written and gets a diagnostic. An imported file's leading YAML frontmatter (a `.mdc`
// rule's globs) is dropped: it configures a client, it is not instruction text.
#include <algorithm>

#include "discover/file_identity.h"
#include "discover/import_resolver.h"
#include "discover/import_scanner.h"
#include "discover/instruction_text.h"
#include "discover/project_root.h"
#include "discover/source_loader.h"
#include "io/file_io.h"
#include "markdown/frontmatter.h"
#include "strata/discover.h"

namespace strata {

namespace fs = std::filesystem;

namespace {

bool IsBlank(std::string_view s) { return s.find_first_not_of(" \t\r") == std::string_view::npos; }

// Appends `text` from `pos` through the end of the line ending at `line_end`, then each pending
// block on its own, set off by blank lines; returns the new position in `text`.
size_t FlushBlocks(const std::string& text, size_t pos, size_t line_end,
                   std::vector<std::string>* pending, std::string* result) {
  result->append(text, pos, line_end - pos);
  result->push_back('\n');
  for (std::string& block : *pending) {
    while (!block.empty() && block.back() == '\n') block.pop_back();
    result->append("\n").append(block).append("\n");
  }
  pending->clear();
  size_t next = std::min(line_end + 1, text.size());
  if (next < text.size() && text[next] != '\n') result->push_back('\n');
  return next;
}

class Expander {
 public:
  Expander(const DiscoverOptions& options, discover::SourceLoader* loader, ExpandedText* out)
      : options_(options), loader_(loader), out_(out) {}

  std::string Expand(const std::string& text, const fs::path& file,
                     const discover::FileIdentity& id, int depth) {
    std::string display = loader_->Display(file);
    ImportScan scan = ScanImports(text);
    discover::ReportImportTokens(scan, display, &out_->diagnostics);
    if (scan.imports.empty()) return text;
    stack_.push_back({id, display});
    discover::ImportSite site{file, display, loader_->project_root(), loader_->project_root()};
    discover::DisplayFn display_fn = [this](const fs::path& p) { return loader_->Display(p); };
    std::string result;
    size_t pos = 0;
    size_t pending_end = std::string::npos;  // end of the line the pending blocks follow
    std::vector<std::string> pending;        // imported text of mid-line imports on that line
    for (const ImportToken& token : scan.imports) {
      if (!pending.empty() && token.offset > pending_end) {
        pos = FlushBlocks(text, pos, pending_end, &pending, &result);
      }
      std::optional<std::string> inlined = Follow(token, site, display_fn, display, depth);
      if (!inlined) continue;  // the token stays as written
      size_t line_begin = token.offset == 0 ? 0 : text.rfind('\n', token.offset - 1) + 1;
      size_t line_end = std::min(text.find('\n', token.offset), text.size());
      bool alone =
          IsBlank(text.substr(line_begin, token.offset - line_begin)) &&
          IsBlank(text.substr(token.offset + token.length, line_end - token.offset - token.length));
      if (!alone) {  // the line stays whole; the text follows it as a block of its own
        pending_end = line_end;
        if (!inlined->empty()) pending.push_back(std::move(*inlined));
        continue;
      }
      result.append(text, pos, token.offset - pos);
      pos = token.offset + token.length;
      bool ends_line = pos >= text.size() || text[pos] == '\n';
      if (ends_line && !inlined->empty() && inlined->back() == '\n') inlined->pop_back();
      result += *inlined;
    }
    if (!pending.empty()) pos = FlushBlocks(text, pos, pending_end, &pending, &result);
    result.append(text, pos, std::string::npos);
    stack_.pop_back();
    return result;
  }

 private:
  struct Frame {
    discover::FileIdentity id;
    std::string display;
  };

  std::optional<std::string> Follow(const ImportToken& token, const discover::ImportSite& site,
                                    const discover::DisplayFn& display_fn,
                                    const std::string& display, int depth) {
    std::optional<discover::ResolvedImport> target =
        discover::ResolveImport(token, site, options_.imports, display_fn, &out_->diagnostics);
    if (!target) return std::nullopt;
    Location where{display, token.line, token.column};
    if (loader_->RefuseGitignored(target->path, where, &out_->diagnostics)) return std::nullopt;
    std::string target_display = loader_->Display(target->path);
    for (const Frame& frame : stack_) {
      bool same = frame.id.inode != 0
                      ? frame.id.device == target->id.device && frame.id.inode == target->id.inode
                      : frame.id.canonical == target->id.canonical;
      if (!same) continue;
      std::string chain;
      for (const Frame& f : stack_) chain += f.display + " -> ";
      out_->diagnostics.push_back({Severity::kWarning, "import-cycle",
                                   "import cycle: " + chain + target_display + "; not followed",
                                   where});
      return std::nullopt;
    }
    if (depth + 1 > options_.imports.max_depth) {
      out_->diagnostics.push_back({Severity::kWarning, "import-depth",
                                   "import depth limit " +
                                       std::to_string(options_.imports.max_depth) +
                                       " reached: " + target_display + " not loaded",
                                   where});
      return std::nullopt;
    }
    if (const std::string* first = seen_.Find(target->id)) {
      out_->diagnostics.push_back(
          {Severity::kNote, "import-duplicate",
           target_display + " already inlined (as " + *first + "); not repeated", where});
      return std::string();
    }
    std::optional<std::string> text =
        discover::LoadInstructionText(target->path, target_display, options_, &out_->diagnostics);
    if (!text) return std::nullopt;
    text->erase(0, FrontmatterLength(*text));  // an imported rule's globs are not instructions
    seen_.Insert(target->id, target_display);
    Source source;
    source.path = target->path;
    source.display_path = target_display;
    source.origin = SourceOrigin::kImport;
    source.imported_by = display;
    source.import_depth = depth + 1;
    source.bytes = text->size();
    source.content = *text;
    out_->imported.push_back(std::move(source));
    return Expand(*text, target->path, target->id, depth + 1);
  }

 public:
  discover::IdentitySet seen_;

 private:
  const DiscoverOptions& options_;
  discover::SourceLoader* loader_;
  ExpandedText* out_;
  std::vector<Frame> stack_;
};

}  // namespace

Result<ExpandedText> ExpandImports(const fs::path& file, const DiscoverOptions& options) {
  std::error_code ec;
  Result<std::string> bytes = ReadFileBytes(fs::absolute(file, ec).lexically_normal());
  if (!bytes) return tl::unexpected(bytes.error());
  return ExpandImportsInText(file, *bytes, options);
}

Result<ExpandedText> ExpandImportsInText(const fs::path& file, std::string_view bytes,
                                         const DiscoverOptions& options) {
  std::error_code ec;
  fs::path absolute = fs::absolute(file, ec).lexically_normal();
  fs::path dir = fs::canonical(absolute.parent_path(), ec);
  if (ec) return MakeError(ErrorKind::kIo, ec.message(), {absolute.string()});
  discover::ProjectRoot root =
      discover::FindProjectRoot(dir, options.root_markers, options.walk_to_filesystem_root);
  if (!options.project_root.empty()) root.root = fs::weakly_canonical(options.project_root, ec);
  fs::path working = options.working_dir.empty() ? dir : fs::canonical(options.working_dir, ec);
  if (ec) working = dir;
  discover::SourceLoader loader(options, working, root.root);
  std::string display = loader.Display(absolute);
  Result<CleanedText> cleaned =
      CleanText(bytes, display, discover::ToCleanOptions(options.hygiene));
  if (!cleaned) return tl::unexpected(cleaned.error());

  ExpandedText out;
  out.diagnostics = std::move(cleaned->diagnostics);
  Location first_bom;
  if (size_t n = discover::StripLineStartBoms(&cleaned->text, display, &first_bom); n > 0) {
    out.diagnostics.push_back({Severity::kWarning, "stray-bom",
                               std::to_string(n) + " byte order mark(s) at line starts removed",
                               first_bom});
  }
  std::optional<discover::FileIdentity> id = discover::IdentityOf(absolute);
  if (!id) return MakeError(ErrorKind::kIo, "cannot stat the file", {display});
  Expander expander(options, &loader, &out);
  expander.seen_.Insert(*id, display);
  out.text = expander.Expand(cleaned->text, absolute, *id, 0);
  return out;
}

}  // namespace strata
