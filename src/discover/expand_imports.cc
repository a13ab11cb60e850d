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

// True when `token` is the only thing on its line (blanks aside): it is replaced in place;
// otherwise the line stays whole and the imported text follows it.
bool AloneOnLine(const std::string& text, const ImportToken& token) {
  size_t line_begin = token.offset == 0 ? 0 : text.rfind('\n', token.offset - 1) + 1;
  size_t line_end = std::min(text.find('\n', token.offset), text.size());
  size_t after = token.offset + token.length;
  return IsBlank(std::string_view(text).substr(line_begin, token.offset - line_begin)) &&
         IsBlank(std::string_view(text).substr(after, line_end - after));
}

// Inlines imports depth first with an explicit stack of the files being expanded (no recursion,
// so a deep chain costs heap, not stack).
class Expander {
 public:
  Expander(const DiscoverOptions& options, discover::SourceLoader* loader, ExpandedText* out)
      : options_(options), loader_(loader), out_(out), gate_(options.imports) {}

  std::string Expand(std::string text, const fs::path& file, const discover::FileIdentity& id) {
    std::vector<Frame> stack;
    Push(std::move(text), file, id, 0, &stack);
    for (;;) {
      Frame& top = stack.back();
      if (top.next < top.scan.imports.size()) {
        const ImportToken& token = top.scan.imports[top.next++];
        if (!top.pending.empty() && token.offset > top.pending_end) {
          top.pos = FlushBlocks(top.text, top.pos, top.pending_end, &top.pending, &top.result);
        }
        std::optional<Descend> step = Follow(token, top);
        if (!step) continue;  // the token stays as written
        top.child_alone = AloneOnLine(top.text, token);
        if (top.child_alone) {
          top.result.append(top.text, top.pos, token.offset - top.pos);
          top.pos = token.offset + token.length;
        } else {  // the line stays whole; the text follows it as a block of its own
          top.pending_end = std::min(top.text.find('\n', token.offset), top.text.size());
        }
        if (!step->path.empty()) {  // empty: already inlined once, nothing in its place
          Push(std::move(step->text), step->path, step->id, top.depth + 1, &stack);
        }
        continue;
      }
      if (!top.pending.empty()) {
        top.pos = FlushBlocks(top.text, top.pos, top.pending_end, &top.pending, &top.result);
      }
      top.result.append(top.text, top.pos, std::string::npos);
      std::string done = std::move(top.result);
      stack.pop_back();
      chain_.pop_back();
      if (stack.empty()) return done;
      Frame& parent = stack.back();
      if (!parent.child_alone) {
        if (!done.empty()) parent.pending.push_back(std::move(done));
        continue;
      }
      bool ends_line = parent.pos >= parent.text.size() || parent.text[parent.pos] == '\n';
      if (ends_line && !done.empty() && done.back() == '\n') done.pop_back();
      parent.result += done;
    }
  }

  discover::IdentitySet seen_;

 private:
  struct Frame {
    std::string text;
    fs::path file;
    std::string display;
    int depth = 0;
    ImportScan scan;
    size_t next = 0;  // next import token
    size_t pos = 0;   // text consumed up to here
    std::string result;
    bool child_alone = true;                 // the import being expanded stood alone on its line
    size_t pending_end = std::string::npos;  // end of the line the pending blocks follow
    std::vector<std::string> pending;        // imported text of mid-line imports on that line
  };
  struct Descend {
    std::string text;  // the imported file's text (after hygiene)
    fs::path path;     // empty: a duplicate, inlined as nothing
    discover::FileIdentity id;
  };

  void Push(std::string text, const fs::path& file, const discover::FileIdentity& id, int depth,
            std::vector<Frame>* stack) {
    Frame frame;
    frame.display = loader_->Display(file);
    frame.scan = ScanImports(text);
    discover::ReportImportTokens(frame.scan, frame.display, &out_->diagnostics,
                                 options_.imports.max_imports);
    frame.text = std::move(text);
    frame.file = file;
    frame.depth = depth;
    chain_.push_back({id, frame.display});
    stack->push_back(std::move(frame));
  }

  // What to put in place of `token`: nullopt keeps it as written.
  std::optional<Descend> Follow(const ImportToken& token, const Frame& frame) {
    Location where{frame.display, token.line, token.column};
    if (!gate_.Admit(where, &out_->diagnostics)) return std::nullopt;
    discover::ImportSite site{frame.file, frame.display, loader_->project_root(),
                              loader_->project_root()};
    discover::DisplayFn display_fn = [this](const fs::path& p) { return loader_->Display(p); };
    std::optional<discover::ResolvedImport> target =
        discover::ResolveImport(token, site, options_.imports, display_fn, &out_->diagnostics);
    if (!target) return std::nullopt;
    if (loader_->RefuseGitignored(target->path, where, &out_->diagnostics)) return std::nullopt;
    std::string target_display = loader_->Display(target->path);
    if (!gate_.Accept(*target, target_display, chain_, frame.depth, where, &out_->diagnostics)) {
      return std::nullopt;
    }
    if (const std::string* first = seen_.Find(target->id)) {
      out_->diagnostics.push_back(
          {Severity::kNote, "import-duplicate",
           target_display + " already inlined (as " + *first + "); not repeated", where});
      return Descend{};
    }
    if (!gate_.Charge(*target, target_display, where, &out_->diagnostics)) return std::nullopt;
    std::optional<std::string> text = discover::LoadInstructionText(
        target->file, target->path, target_display, options_, &out_->diagnostics);
    if (!text) return std::nullopt;
    text->erase(0, FrontmatterLength(*text));  // an imported rule's globs are not instructions
    seen_.Insert(target->id, target_display);
    Source source;
    source.path = target->path;
    source.display_path = target_display;
    source.origin = SourceOrigin::kImport;
    source.imported_by = frame.display;
    source.import_depth = frame.depth + 1;
    source.bytes = text->size();
    source.content = *text;
    out_->imported.push_back(std::move(source));
    return Descend{std::move(*text), target->path, target->id};
  }

  const DiscoverOptions& options_;
  discover::SourceLoader* loader_;
  ExpandedText* out_;
  discover::ImportGate gate_;
  std::vector<discover::ChainLink> chain_;
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
  out.text = expander.Expand(std::move(cleaned->text), absolute, *id);
  return out;
}

}  // namespace strata
