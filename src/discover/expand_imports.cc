// expand_imports.cc: one source file with its `@path` imports inlined (for `strata compile`).
//
// Same resolution, boundary, cycle and depth rules as discovery; each import token is replaced by
// the target's expanded text (one trailing newline dropped when the token ends its line, so an
// import line becomes the imported text and not an extra blank line). A token that cannot be
// followed stays as written and gets a diagnostic.
#include "discover/file_identity.h"
#include "discover/import_resolver.h"
#include "discover/import_scanner.h"
#include "discover/instruction_text.h"
#include "discover/project_root.h"
#include "discover/source_loader.h"
#include "io/file_io.h"
#include "strata/discover.h"

namespace strata {

namespace fs = std::filesystem;

namespace {

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
        top.result.append(top.text, top.pos, token.offset - top.pos);
        top.pos = token.offset + token.length;
        std::optional<Descend> step = Follow(token, top);
        if (!step) {
          top.result.append(top.text, token.offset, token.length);
        } else if (step->path.empty()) {
          continue;  // already inlined once: nothing in its place
        } else {
          Push(std::move(step->text), step->path, step->id, top.depth + 1, &stack);
        }
        continue;
      }
      top.result.append(top.text, top.pos, std::string::npos);
      std::string done = std::move(top.result);
      stack.pop_back();
      chain_.pop_back();
      if (stack.empty()) return done;
      Frame& parent = stack.back();
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
