// compile.cc: `Compile`: reads strata.toml and the source, splices generated blocks, inlines
// imports, splits bands, renders each selected target, checks each against the file on disk, and
// writes every file at once or none.
#include "strata/compile.h"

#include <fcntl.h>

#include <algorithm>
#include <chrono>
#include <set>

#include "base/enum_names.h"
#include "compile/agent_assets.h"
#include "compile/check_target.h"
#include "compile/compiled_source.h"
#include "compile/housekeeping.h"
#include "compile/nested_sources.h"
#include "compile/render_target.h"
#include "compile/rule_sources.h"
#include "compile/splice.h"
#include "config/config.h"
#include "discover/project_root.h"
#include "io/file_io.h"
#include "markdown/markdown_blocks.h"
#include "strata/discover.h"
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
    {TargetStatus::kOrphaned, "orphaned"},
    {TargetStatus::kRemoved, "removed"},
};

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
    STRATA_TRY_ASSIGN(TargetReport tr, CheckTarget(check, *target, target->path, bytes));
    AddChecked(std::move(tr), std::move(bytes), report, &outputs);
  }
  return outputs;
}

// Why nothing may be written, or "" when the writes can go ahead.
std::string WriteBlocker(const CompileReport& report) {
  for (const auto* list : {&report.targets, &report.companions}) {
    for (const auto& tr : *list) {
      if (tr.status == TargetStatus::kConflict) {
        return tr.path +
               " is in conflict, and nothing is written while a file is (resolve it, "
               "or rerun with --target naming the others)";
      }
    }
  }
  if (!report.stability_findings.empty()) {
    return "--verify-stable found " + std::to_string(report.stability_findings.size()) +
           " problem(s); nothing is written until the render is stable";
  }
  return "";
}

// All or nothing: the source (when a block changed), every target to write and the companion
// files, in one staged write, so a failure to write any file leaves every file as it was.
Status WriteAll(const fs::path& root, const SplicedSource& source, const CompileOptions& options,
                const CompileReport& report, std::vector<std::string> outputs, FileWrites writes) {
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
void SweepTemporaries(const fs::path& root, const CompileOptions& options, CompileReport* report) {
  std::vector<fs::path> dirs = {fs::path(report->source).parent_path()};
  for (const auto* list : {&report->targets, &report->companions}) {
    for (const auto& tr : *list) dirs.push_back(fs::path(tr.path).parent_path());
  }
  std::sort(dirs.begin(), dirs.end());
  dirs.erase(std::unique(dirs.begin(), dirs.end()), dirs.end());
  for (const fs::path& dir : dirs) {
    OpenedPath opened = OpenContained(root, dir, OpenIntent::kDirectory, AccessOf(options));
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

// The companion files (Aider's `read:`, MCP settings, the .gitignore block) and the orphans of
// this compile.
Result<FileWrites> Housekeep(const TargetCheck& check, CompileReport* report) {
  FileWrites writes;
  const CompanionSettings settings{check.options.gitignore || check.config.gitignore,
                                   check.config.mcp_servers};
  STRATA_TRY(PlanCompanions(check, settings, report, &writes));
  // Orphans are judged only when every configured target was compiled: a --target selection
  // leaves the other targets' files (and their scoped rules and assets) alone.
  if (!check.options.targets.empty()) return writes;
  std::set<std::string> owned;
  for (const auto& id : check.config.targets) owned.emplace(FindTarget(id)->path);
  for (const auto& t : report->targets) owned.insert(t.path);
  STRATA_TRY(FindOrphans(check, fs::path(report->source).filename().string(), owned, report));
  return writes;
}

// Nothing is written while `blocker` says why: each file that would have been written reports
// stale naming it, and no orphan is removed.
void HoldBack(const std::string& blocker, CompileReport* report) {
  for (auto* list : {&report->targets, &report->companions}) {
    for (auto& tr : *list) {
      if (tr.status != TargetStatus::kWritten) continue;
      tr.status = TargetStatus::kStale;
      tr.detail = tr.path + " not written: " + blocker;
    }
  }
  for (auto& tr : report->orphans) {
    if (tr.status == TargetStatus::kRemoved) tr.status = TargetStatus::kOrphaned;
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
  MarkdownBlocks blocks;  // of the instruction text, for the bands and the marker check
  STRATA_TRY_ASSIGN(
      compiled->text,
      InstructionText(root, source_path, report.source, spliced.spliced,
                      CompileImportOptions(config, options), &report.diagnostics, &blocks));
  compiled->banded = SplitBands(compiled->text, MatchClientHeading, blocks);
  for (auto& d : CheckMarkerSpelling(compiled->text, report.source, blocks)) {
    report.diagnostics.push_back(std::move(d));
  }
  for (auto& d : CheckClientMarkers(compiled->text, report.source, blocks, MatchClientHeading)) {
    report.ok = report.ok && d.severity != Severity::kError;
    report.diagnostics.push_back(std::move(d));
  }
  report.had_markers = compiled->banded.had_markers;
  if (!report.had_markers) report.diagnostics.push_back(UnmarkedSourceWarning(report.source));
  TargetCheck check{options, root, report.source, source_path, config};
  StatFile(source_path, &check.source_stat);
  // Every read below goes through this one descriptor of the root (not an open per file).
  const UniqueFd root_fd(::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  check.root_fd = root_fd.get();
  STRATA_TRY_ASSIGN(compiled->nested, LoadNestedSources(check, &report.diagnostics));
  STRATA_TRY_ASSIGN(compiled->rules, LoadRuleSources(check, &report.diagnostics));
  report.compiled = compiled;

  STRATA_TRY_ASSIGN(std::vector<std::string> outputs, RenderTargets(check, *compiled, &report));
  STRATA_TRY(RenderNested(check, *compiled, &report, &outputs));
  STRATA_TRY(RenderRules(check, *compiled, &report, &outputs));
  STRATA_TRY(RenderAgentAssets(check, *compiled, &report, &outputs));
  STRATA_TRY_ASSIGN(FileWrites companions, Housekeep(check, &report));
  SweepTemporaries(root, options, &report);
  if (options.check_stability) report.stability_findings = CheckStability(report);
  if (!options.write) return report;
  // A conflict or a failed stability gate writes nothing (no half-compiled tree); a target over
  // its own size limit fails alone and the others are written.
  if (std::string blocker = WriteBlocker(report); !blocker.empty()) {
    HoldBack(blocker, &report);
    return report;
  }
  STRATA_TRY(WriteAll(root, spliced, options, report, std::move(outputs), std::move(companions)));
  STRATA_TRY(RemoveOrphans(check, report));
  return report;
}

}  // namespace strata
