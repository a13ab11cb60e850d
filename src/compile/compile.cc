// compile.cc: `Compile`: reads strata.toml and the source, splices generated blocks, inlines
// imports, splits bands, renders each selected target, checks each against the file on disk, and
// writes every file at once or none.
#include "strata/compile.h"

#include <algorithm>
#include <chrono>

#include "base/enum_names.h"
#include "compile/compiled_source.h"
#include "compile/render_target.h"
#include "compile/splice.h"
#include "config/config.h"
#include "discover/import_scanner.h"
#include "discover/project_root.h"
#include "io/file_io.h"
#include "markdown/frontmatter.h"
#include "markdown/markdown_blocks.h"
#include "markdown/unclosed_fence.h"
#include "strata/discover.h"
#include "targets/generated_header.h"
#include "text/text.h"

namespace strata {

namespace fs = std::filesystem;

namespace {

constexpr EnumName<TargetStatus> kTargetStatusNames[] = {
    {TargetStatus::kWritten, "written"},
    {TargetStatus::kUnchanged, "unchanged"},
    {TargetStatus::kStale, "stale"},
    {TargetStatus::kMissing, "missing"},
    {TargetStatus::kConflict, "conflict"},
    {TargetStatus::kOverLimit, "over-limit"},
    {TargetStatus::kServedBySource, "served-by-source"},
};

size_t CountChars(std::string_view utf8) {
  size_t n = 0;
  for (char c : utf8) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

std::string CrlfToLf(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') continue;
    out.push_back(text[i]);
  }
  return out;
}

std::string Generic(const fs::path& p) { return p.lexically_normal().generic_string(); }

Diagnostic UnmarkedSourceWarning(std::string_view source_path) {
  return {Severity::kWarning,
          "unmarked-source",
          "no cache band markers: compiling in source order. Add `<!-- strata:head -->`, "
          "`<!-- strata:config -->` and `<!-- strata:tail -->` on lines of their own (or run "
          "`strata adopt --force`)",
          {std::string(source_path)}};
}

// The targets to compile: --target ids when given (checked, then put in table order), else
// strata.toml's list (already checked and in table order).
Result<std::vector<const ClientTarget*>> SelectTargets(const CompileOptions& options,
                                                       const ProjectConfig& config) {
  for (const auto& id : options.targets) {
    if (FindTarget(id) == nullptr) {
      return MakeError(ErrorKind::kInvalidArgument,
                       "unknown target '" + id + "'; valid targets: " + ValidTargetIds());
    }
  }
  std::vector<const ClientTarget*> selected;
  if (options.targets.empty()) {
    for (const auto& id : config.targets) selected.push_back(FindTarget(id));
    return selected;
  }
  for (const auto& target : AllTargets()) {
    if (std::find(options.targets.begin(), options.targets.end(), target.id) !=
        options.targets.end()) {
      selected.push_back(&target);
    }
  }
  return selected;
}

OutsideRootAccess AccessOf(const CompileOptions& options) {
  return {options.allow_outside_root, options.allowed_dirs};
}

// A file below the root, opened through the root's descriptor. Errors: kNotFound, kConflict for a
// path that resolves outside the root (naming the allow options), kIo.
Result<std::string> ReadContained(const fs::path& root, const fs::path& relative,
                                  const CompileOptions& options, size_t max_bytes) {
  OpenedPath opened = OpenContained(root, relative, OpenIntent::kRegularFile, AccessOf(options));
  const fs::path full = (root / relative).lexically_normal();
  switch (opened.failure) {
    case OpenFailure::kNone:
      return ReadOpenedFile(opened.fd.get(), static_cast<size_t>(opened.st.st_size), max_bytes,
                            full);
    case OpenFailure::kMissing:
      return MakeError(ErrorKind::kNotFound, "no such file: " + full.string(), {full.string()});
    case OpenFailure::kOutsideRoot:
      return MakeError(ErrorKind::kConflict, OutsideRootMessage(relative.string(), root),
                       {relative.string()});
    default:
      return MakeError(ErrorKind::kIo, full.string() + ": " + opened.detail, {full.string()});
  }
}

Result<std::string> ReadSource(const fs::path& root, const CompileOptions& options,
                               const std::string& source) {
  auto raw = ReadContained(root, source, options, options.max_source_bytes);
  if (raw) return raw;
  Error e = raw.error();
  if (e.kind == ErrorKind::kNotFound) {
    e.message = "no instruction source " + source +
                ": create it (`strata adopt` writes a skeleton) or set `source` in strata.toml";
  }
  e.where = {source};
  return tl::unexpected(e);
}

// The source as read and as spliced; what a write-back needs.
struct SplicedSource {
  CleanedText as_written;  // only BOM and line endings normalised
  std::string spliced;     // as_written.text with every generated block current
};

// Splices on the text as written (only BOM and line endings normalised) so a write-back changes
// nothing outside the block lines. Records updated blocks (and, for verify, their drift).
Result<SplicedSource> SpliceSource(const std::string& raw, const ProjectConfig& config, bool write,
                                   CompileReport* report) {
  SplicedSource out;
  STRATA_TRY_ASSIGN(out.as_written,
                    CleanText(raw, report->source, {.normalize_nfc = false, .strip_tags = false}));
  STRATA_TRY_ASSIGN(SpliceResult spliced,
                    SpliceBlocks(out.as_written.text, config.blocks, report->source));
  for (auto& d : spliced.diagnostics) report->diagnostics.push_back(std::move(d));
  report->blocks_updated = spliced.updated;
  report->blocks_updated.insert(report->blocks_updated.end(), spliced.inserted.begin(),
                                spliced.inserted.end());
  if (!write) {
    for (const auto& name : report->blocks_updated) {
      report->ok = false;
      report->diagnostics.push_back(
          {Severity::kError,
           "block-drift",
           "generated block '" + name + "' differs from strata.toml: run `strata compile`",
           {report->source}});
    }
  }
  out.spliced = std::move(spliced.text);
  return out;
}

// Drops the source's own YAML frontmatter (a `.mdc` or `.instructions.md` source's globs and
// applyTo): every target writes its own, so the source's would be a second block in its body.
void DropSourceFrontmatter(std::string* text, CompileReport* report) {
  size_t length = FrontmatterLength(*text);
  if (length == 0) return;
  int lines = static_cast<int>(std::count(text->begin(), text->begin() + length, '\n'));
  text->erase(0, length);
  report->diagnostics.push_back(
      {Severity::kNote,
       "source-frontmatter",
       "the source's frontmatter (lines 1-" + std::to_string(lines) +
           ") configures the source's own client; it is not copied into the targets, which "
           "each write their own",
       {report->source, 1, 1}});
}

// Hygiene on the spliced source, then imports inlined for clients that do not follow `@path`
// (resolved by the same rules as discovery: relative to the source, depth 5, inside the root),
// the source's frontmatter dropped and a fence left open at the end closed.
Result<std::string> InstructionText(const fs::path& root, const fs::path& source_path,
                                    const std::string& spliced, const ProjectConfig& config,
                                    const CompileOptions& options, CompileReport* report) {
  STRATA_TRY_ASSIGN(CleanedText clean, CleanText(spliced, report->source));
  for (auto& d : clean.diagnostics) report->diagnostics.push_back(std::move(d));
  std::string text = std::move(clean.text);
  if (!ScanImports(text).imports.empty()) {
    DiscoverOptions discover;
    discover.working_dir = root;
    discover.project_root = root;
    discover.imports.skip_gitignored = true;  // an ignored file's text must not be committed
    discover.imports.allow_outside_root =
        options.allow_outside_root || config.imports.allow_outside_root;
    discover.imports.allowed_dirs = config.imports.allowed_dirs;
    discover.imports.allowed_dirs.insert(discover.imports.allowed_dirs.end(),
                                         options.allowed_dirs.begin(), options.allowed_dirs.end());
    if (config.imports.max_depth >= 0) discover.imports.max_depth = config.imports.max_depth;
    STRATA_TRY_ASSIGN(ExpandedText expanded, ExpandImportsInText(source_path, spliced, discover));
    for (auto& d : expanded.diagnostics) {
      if (d.severity != Severity::kNote) report->diagnostics.push_back(std::move(d));
    }
    text = std::move(expanded.text);
  }
  DropSourceFrontmatter(&text, report);
  if (std::optional<UnclosedFence> open = CloseUnclosedFence(&text)) {
    report->diagnostics.push_back(
        {Severity::kWarning,
         "unclosed-fence",
         "the code block opened here is never closed, so it would swallow the text after it "
         "(the digest footer); closed at the end of the file in the targets: add the closing " +
             open->closing.substr(0, open->closing.size() - 1) + " line",
         {report->source, open->line, 1}});
  }
  return text;
}

// Where a compiled target stands against the file at its path.
struct TargetCheck {
  const CompileOptions& options;
  const fs::path& root;       // canonical
  const std::string& source;  // relative to the root
  const fs::path& source_path;
  const ProjectConfig& config;
};

// `targets = [...]` without `id`, for the advice to drop a target.
std::string TargetsWithout(const ProjectConfig& config, std::string_view id) {
  std::string list;
  for (const auto& t : config.targets) {
    if (t != id) list += (list.empty() ? "\"" : ", \"") + t + "\"";
  }
  return "targets = [" + list + "]";
}

std::string MoveEditAdvice(const ClientTarget& target, const std::string& source) {
  return "move the edit into " + source + " (a `## " + std::string(target.display_name) +
         "` section reaches only this client)";
}

// Decides the status of a target that is not the source and fits its limit, from the file on
// disk. Errors: a read of an existing file that failed.
Status CheckExisting(const TargetCheck& check, const ClientTarget& target, const std::string& bytes,
                     TargetReport* tr) {
  const bool write = check.options.write;
  auto existing = ReadContained(check.root, tr->path, check.options, size_t{256} * 1024 * 1024);
  // A CRLF checkout (core.autocrlf, a Windows editor) of a generated file is the same text: its
  // line endings are not an edit, and it is left as the checkout wrote it.
  if (existing && existing->find("\r\n") != std::string::npos) *existing = CrlfToLf(*existing);
  if (!existing && existing.error().kind == ErrorKind::kConflict) {
    tr->status = TargetStatus::kConflict;
    tr->detail = "target " + tr->path + ": " + existing.error().message;
  } else if (!existing) {
    if (existing.error().kind != ErrorKind::kNotFound) return tl::unexpected(existing.error());
    tr->status = write ? TargetStatus::kWritten : TargetStatus::kMissing;
    if (!write) tr->detail = tr->path + " is missing: run `strata compile`";
  } else if (*existing == bytes) {
    tr->status = TargetStatus::kUnchanged;
  } else if (!HasGeneratedHeader(*existing) && !check.options.force) {
    tr->status = TargetStatus::kConflict;
    tr->detail = tr->path + " exists and was not generated by strata; " +
                 MoveEditAdvice(target, check.source) + " and delete it, or rerun with --force";
  } else if (!DigestMatches(*existing) && !check.options.force) {
    tr->status = TargetStatus::kConflict;
    tr->detail = tr->path + " was edited after strata generated it (its digest no longer " +
                 "matches): " + MoveEditAdvice(target, check.source) +
                 ", or rerun with --force to discard it";
  } else {
    tr->status = write ? TargetStatus::kWritten : TargetStatus::kStale;
    if (!write) tr->detail = tr->path + " is stale: run `strata compile`";
  }
  return {};
}

Result<TargetReport> CheckTarget(const TargetCheck& check, const ClientTarget& target,
                                 const std::string& bytes) {
  TargetReport tr;
  tr.id = std::string(target.id);
  tr.path = std::string(target.path);
  tr.bytes = bytes.size();
  const fs::path full = check.root / target.path;
  std::error_code ec;
  if (Generic(tr.path) == check.source ||
      (fs::exists(full, ec) && fs::equivalent(full, check.source_path, ec))) {
    tr.status = TargetStatus::kServedBySource;
    tr.detail = fs::is_symlink(full, ec) ? tr.path + " links to the source; the client reads it"
                                         : "the client reads the source itself";
  } else if (size_t chars = CountChars(bytes); target.max_chars > 0 && chars > target.max_chars) {
    tr.status = TargetStatus::kOverLimit;
    tr.detail = "target " + tr.id + " (" + tr.path + "): " + std::to_string(chars) +
                " characters exceeds the client's documented limit of " +
                std::to_string(target.max_chars) +
                " characters; not written (the other targets are). Shorten the source, move "
                "text into a client section of another target, or drop the target in "
                "strata.toml: " +
                TargetsWithout(check.config, tr.id);
  } else if (fs::is_directory(full, ec)) {
    tr.status = TargetStatus::kConflict;
    tr.detail = tr.path + " is a directory; remove it or drop target " + tr.id;
  } else {
    STRATA_TRY(CheckExisting(check, target, bytes, &tr));
  }
  return tr;
}

bool IsFailure(TargetStatus status) {
  return status == TargetStatus::kConflict || status == TargetStatus::kOverLimit ||
         status == TargetStatus::kStale || status == TargetStatus::kMissing;
}

// Renders and checks every selected target; returns the rendered bytes in report order.
Result<std::vector<std::string>> RenderTargets(const TargetCheck& check,
                                               const CompiledSource& compiled,
                                               CompileReport* report) {
  RenderEnv env;
  env.now_unix_ms = [] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
  };
  const std::string source_name = fs::path(report->source).filename().string();
  std::vector<std::string> outputs;
  for (const ClientTarget* target : compiled.selected) {
    std::string bytes = RenderTarget(*target, compiled.banded, source_name, env);
    STRATA_TRY_ASSIGN(TargetReport tr, CheckTarget(check, *target, bytes));
    if (IsFailure(tr.status)) {
      report->ok = false;
      report->diagnostics.push_back(
          {Severity::kError, TargetStatusName(tr.status), tr.detail, {tr.path}});
    }
    report->targets.push_back(std::move(tr));
    outputs.push_back(std::move(bytes));
  }
  return outputs;
}

// Why nothing may be written, or "" when the writes can go ahead.
std::string WriteBlocker(const CompileReport& report) {
  for (const auto& tr : report.targets) {
    if (tr.status == TargetStatus::kConflict) {
      return tr.path +
             " is in conflict, and nothing is written while a target is (resolve it, "
             "or rerun with --target naming the others)";
    }
  }
  if (!report.stability_findings.empty()) {
    return "--verify-stable found " + std::to_string(report.stability_findings.size()) +
           " problem(s); nothing is written until the render is stable";
  }
  return "";
}

// All or nothing: the source (when a block changed) and every target to write, in one staged
// write, so a failure to write any file leaves every file as it was.
Status WriteAll(const fs::path& root, const SplicedSource& source, const CompileOptions& options,
                const CompileReport& report, std::vector<std::string> outputs) {
  std::vector<std::pair<fs::path, std::string>> writes;
  if (!report.blocks_updated.empty()) {
    writes.emplace_back(report.source, InOriginalForm(source.spliced, source.as_written));
  }
  for (size_t i = 0; i < report.targets.size(); ++i) {
    if (report.targets[i].status != TargetStatus::kWritten) continue;
    writes.emplace_back(report.targets[i].path, std::move(outputs[i]));
  }
  return WriteFilesContained(root, writes, AccessOf(options));
}

// Temporaries a killed compile left beside the source and the selected targets: removed before a
// compile stages anything; --verify reports them instead (`interrupted-compile`).
void SweepTemporaries(const fs::path& root, const CompileOptions& options,
                      const CompiledSource& compiled, CompileReport* report) {
  std::vector<fs::path> dirs = {fs::path(report->source).parent_path()};
  for (const ClientTarget* target : compiled.selected) {
    dirs.push_back(fs::path(target->path).parent_path());
  }
  std::sort(dirs.begin(), dirs.end());
  dirs.erase(std::unique(dirs.begin(), dirs.end()), dirs.end());
  for (const fs::path& dir : dirs) {
    OpenedPath opened = OpenContained(root, dir, OpenIntent::kDirectory);
    if (!opened.ok()) continue;
    TemporarySweep sweep = CleanStaleTemporariesAt(opened.fd.get(), !options.write);
    for (const std::string& name : sweep.stale_names) {
      if (!options.write) {
        report->diagnostics.push_back(
            {Severity::kWarning,
             "interrupted-compile",
             "temporary file left by a compile that was killed; `strata compile` removes it",
             {(dir / name).lexically_normal().string()}});
      }
    }
  }
}

}  // namespace

CompileRoot FindCompileRoot(const fs::path& start) {
  std::error_code ec;
  fs::path dir = fs::weakly_canonical(fs::absolute(start, ec), ec);
  discover::ProjectRoot config = discover::FindProjectRoot(dir, {"strata.toml"}, false);
  if (!config.marker.empty()) return {config.root, config.marker};
  discover::ProjectRoot git = discover::FindProjectRoot(dir, {".git"}, false);
  return {git.root, git.marker};
}

const char* TargetStatusName(TargetStatus status) {
  // Every name in the table is a literal, so data() is NUL-terminated.
  std::string_view name = NameOf(kTargetStatusNames, status);
  return name.empty() ? "unknown" : name.data();
}

Result<CompileReport> Compile(const CompileOptions& options) {
  std::error_code root_ec;
  if (!fs::is_directory(options.root, root_ec)) {
    return MakeError(ErrorKind::kNotFound,
                     "repository root " + options.root.string() +
                         " does not exist or is not a directory: pass an existing --root");
  }
  const fs::path root = fs::canonical(options.root, root_ec);
  if (root_ec) return MakeError(ErrorKind::kIo, root_ec.message(), {options.root.string()});
  STRATA_TRY_ASSIGN(ProjectConfig config, LoadProjectConfig(root, AccessOf(options)));
  CompileReport report;
  report.source = Generic(options.source.empty() ? config.source : options.source);
  auto compiled = std::make_shared<CompiledSource>();
  STRATA_TRY_ASSIGN(compiled->selected, SelectTargets(options, config));

  const fs::path source_path = root / report.source;
  STRATA_TRY_ASSIGN(std::string raw, ReadSource(root, options, report.source));
  STRATA_TRY_ASSIGN(SplicedSource spliced, SpliceSource(raw, config, options.write, &report));
  STRATA_TRY_ASSIGN(compiled->text,
                    InstructionText(root, source_path, spliced.spliced, config, options, &report));
  const MarkdownBlocks blocks = MapMarkdownBlocks(compiled->text);  // parsed once for both
  compiled->banded = SplitBands(compiled->text, MatchClientHeading, blocks);
  for (auto& d : CheckMarkerSpelling(compiled->text, report.source, blocks)) {
    report.diagnostics.push_back(std::move(d));
  }
  report.had_markers = compiled->banded.had_markers;
  if (!report.had_markers) report.diagnostics.push_back(UnmarkedSourceWarning(report.source));
  report.compiled = compiled;

  SweepTemporaries(root, options, *compiled, &report);
  const TargetCheck check{options, root, report.source, source_path, config};
  STRATA_TRY_ASSIGN(std::vector<std::string> outputs, RenderTargets(check, *compiled, &report));
  if (options.check_stability) report.stability_findings = CheckStability(report);
  if (!options.write) return report;
  // A conflict or a failed stability gate writes nothing (no half-compiled tree); a target over
  // its own size limit fails alone and the others are written.
  std::string blocker = WriteBlocker(report);
  if (!blocker.empty()) {
    for (auto& tr : report.targets) {
      if (tr.status != TargetStatus::kWritten) continue;
      tr.status = TargetStatus::kStale;
      tr.detail = tr.path + " not written: " + blocker;
    }
    return report;
  }
  STRATA_TRY(WriteAll(root, spliced, options, report, std::move(outputs)));
  return report;
}

}  // namespace strata
