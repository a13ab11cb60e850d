// compile.cc: `Compile`: reads strata.toml and the source, splices generated blocks, inlines
// imports, splits bands, renders each selected target, checks each against the file on disk, and
// writes every file at once or none.
#include "strata/compile.h"

#include <fcntl.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>
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

bool IsServed(const CompiledSource& compiled, const ClientTarget* target) {
  return std::find(compiled.served.begin(), compiled.served.end(), target) != compiled.served.end();
}

// The selected targets whose client reads `source` itself, unless --target named them.
std::vector<const ClientTarget*> ServedBySource(const std::vector<const ClientTarget*>& selected,
                                                const CompileOptions& options,
                                                const std::string& source) {
  std::vector<const ClientTarget*> served;
  for (const ClientTarget* target : selected) {
    const bool named = std::find(options.targets.begin(), options.targets.end(), target->id) !=
                       options.targets.end();
    if (ReadsItself(*target, source) && !named) served.push_back(target);
  }
  return served;
}

std::string ReadsNote(const ClientTarget& target) {
  return target.reads_too_note.empty() ? "" : " (" + std::string(target.reads_too_note) + ")";
}

// A target the source already reaches: nothing written, and why.
TargetReport ServedReport(const ClientTarget& target, const std::string& source) {
  return {std::string(target.id),
          std::string(target.path),
          TargetStatus::kServedBySource,
          0,
          std::string(target.display_name) + " reads " + source + " itself" + ReadsNote(target) +
              "; a copy at " + std::string(target.path) +
              " would load the same text twice, so none is written (name it with --target " +
              std::string(target.id) + " to write it anyway)",
          ""};
}

// A copy --target asked for although the client reads the source too.
Diagnostic DuplicateLoadWarning(const ClientTarget& target, const std::string& source) {
  return {Severity::kWarning,
          "duplicate-load",
          std::string(target.display_name) + " reads " + source + " itself" + ReadsNote(target) +
              ", so with this copy it loads the same text twice; written because --target " +
              std::string(target.id) + " asked for it (a compile without --target removes it)",
          {std::string(target.path)}};
}

std::string JoinAnd(const std::vector<std::string>& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    out += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + items[i];
  }
  return out;
}

// A client that loads two compiled files which both carry the shared bands (Crush reads AGENTS.md
// and CLAUDE.md): its own file can drop them, the two others cannot.
Diagnostic TwoCarriersWarning(const ClientTarget& target, const std::vector<std::string>& via) {
  return {Severity::kWarning,
          "duplicate-load",
          std::string(target.display_name) + " reads " + JoinAnd(via) +
              " itself, each with the shared text, so it loads that text twice: drop one of "
              "those targets from strata.toml if " +
              std::string(target.display_name) + " matters here",
          {std::string(target.path)}};
}

size_t CountChars(std::string_view utf8) {
  size_t n = 0;
  for (char c : utf8) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

// Limits past which the client reads only the head (Codex's project_doc_max_bytes, Copilot code
// review's 4,000 characters): the file is written and the cut reported as a `client-limit`
// warning naming how much never reaches the client. `text` is what the client reads.
void ReportCut(const ClientTarget& target, std::string_view text, const std::string& path,
               TargetReport* tr, std::vector<Diagnostic>* diagnostics) {
  tr->max_chars = target.max_chars;
  tr->cut_bytes = target.max_bytes;
  tr->cut_chars = target.cut_chars;
  auto warn = [&](size_t size, size_t limit, const char* unit, std::string_view note) {
    diagnostics->push_back({Severity::kWarning,
                            "client-limit",
                            std::string(target.display_name) + " reads only the first " +
                                std::to_string(limit) + " " + unit + " (" + std::string(note) +
                                "); " + path + " is " + std::to_string(size) + " " + unit +
                                ", so the last " + std::to_string(size - limit) +
                                " never reach it. Shorten the source, or move text "
                                "into nested sources or another client's section",
                            {path}});
  };
  if (target.max_bytes > 0 && text.size() > target.max_bytes) {
    warn(text.size(), target.max_bytes, "bytes", target.max_bytes_note);
  }
  if (target.cut_chars > 0) {
    if (size_t chars = CountChars(text); chars > target.cut_chars) {
      warn(chars, target.cut_chars, "characters", target.cut_chars_note);
    }
  }
}

// The instruction files that selected targets write this compile (not the source, whose readers
// are served by it), each with the first target that writes it: the files another client may load
// by itself besides its own (ClientTarget::reads_too), e.g. AGENTS.md written for codex from a
// strata.md source and read by Copilot and Cursor too.
std::map<std::string_view, std::string_view> CarrierFiles(const CompiledSource& compiled,
                                                          const std::string& source) {
  std::map<std::string_view, std::string_view> out;
  for (const ClientTarget* target : compiled.selected) {
    if (IsServed(compiled, target) || target->path == source) continue;
    out.emplace(target->path, target->id);
  }
  return out;
}

// The compiled files `target`'s client loads by itself besides its own: reads_too entries another
// selected target writes ("AGENTS.md (written for codex)").
std::vector<std::string> CarriersFor(const ClientTarget& target,
                                     const std::map<std::string_view, std::string_view>& carriers) {
  std::vector<std::string> out;
  for (std::string_view name : target.reads_too) {
    if (name.empty()) continue;
    auto it = carriers.find(name);
    if (it != carriers.end() && it->second != target.id) {
      out.push_back(std::string(name) + " (written for " + std::string(it->second) + ")");
    }
  }
  return out;
}

// A client that reads the source itself and also a compiled file carrying the shared text loads
// that text twice: warned, naming both.
void WarnBesideSource(const ClientTarget& target,
                      const std::map<std::string_view, std::string_view>& carriers,
                      CompileReport* report) {
  std::vector<std::string> via = CarriersFor(target, carriers);
  if (via.empty()) return;
  via.insert(via.begin(), report->source);
  report->diagnostics.push_back(TwoCarriersWarning(target, via));
}

// Only `client_id`'s own sections of `banded`: what a client that loads another compiled file
// carrying the shared bands still needs from its own file.
BandedSource OwnSections(const BandedSource& banded, std::string_view client_id) {
  BandedSource out;
  out.had_markers = banded.had_markers;
  for (const BandPiece& piece : banded.pieces) {
    if (piece.client_id == client_id) out.pieces.push_back(piece);
  }
  return out;
}

// A client that loads another compiled file by itself (Copilot and Cursor read the AGENTS.md
// written for codex) gets the shared bands there (docs/targets.md, "No client reads the same text
// twice"). Returns its file holding only its own sections; "" when it has none (nothing is written,
// and *served says why); nullopt when the whole file is to be rendered (no such file, or --target
// named it: then with a warning).
std::optional<std::string> RenderBesideCarriers(const ClientTarget& target,
                                                const std::vector<std::string>& via, bool named,
                                                const BandedSource& banded,
                                                const std::string& source_name,
                                                CompileReport* report, TargetReport* served) {
  if (via.empty()) return std::nullopt;
  const std::string who = std::string(target.display_name) + " reads " + JoinAnd(via) + " itself";
  if (named) {
    report->diagnostics.push_back(
        {Severity::kWarning,
         "duplicate-load",
         who + ReadsNote(target) +
             ", so with this copy it loads the shared text twice; written because --target " +
             std::string(target.id) +
             " asked for it (a compile without --target writes only its own section)",
         {std::string(target.path)}});
    return std::nullopt;
  }
  if (via.size() > 1) report->diagnostics.push_back(TwoCarriersWarning(target, via));
  const BandedSource own = OwnSections(banded, target.id);
  if (own.pieces.empty()) {
    *served = {std::string(target.id),
               std::string(target.path),
               TargetStatus::kServedBySource,
               0,
               who + ReadsNote(target) + ", which holds the shared text, and " + report->source +
                   " has no section for it, so no copy at " + std::string(target.path) +
                   " is written (name it with --target " + std::string(target.id) +
                   " to write it anyway)",
               ""};
    return std::string();
  }
  report->diagnostics.push_back({Severity::kNote,
                                 "own-section-only",
                                 who + ", which holds the shared text: " +
                                     std::string(target.path) + " holds only its own section",
                                 {std::string(target.path)}});
  return RenderFile(TargetFrontmatter(target.format, source_name), "", own, target.id, source_name);
}

// Renders and checks every selected target; returns the rendered bytes in report order.
Result<std::vector<std::string>> RenderTargets(const TargetCheck& check,
                                               const CompiledSource& compiled,
                                               std::string_view source_text,
                                               CompileReport* report) {
  RenderEnv env;
  env.now_unix_ms = [] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
  };
  const std::string source_name = fs::path(report->source).filename().string();
  std::vector<std::string> outputs;
  std::map<std::string_view, std::string_view> produced;  // path -> the target that writes it
  const auto carriers = CarrierFiles(compiled, report->source);
  for (const ClientTarget* target : compiled.selected) {
    if (IsServed(compiled, target) && target->path != report->source) {
      TargetReport tr = ServedReport(*target, report->source);
      ReportCut(*target, source_text, report->source, &tr, &report->diagnostics);
      AddChecked(std::move(tr), "", report, &outputs);
      // Crush reads CLAUDE.md too: written for Claude Code from an AGENTS.md
      // source, it gives them the shared text a second time.
      WarnBesideSource(*target, carriers, report);
      continue;
    }
    if (auto first = produced.find(target->path);
        first != produced.end() && target->path != report->source) {
      TargetReport tr{std::string(target->id),
                      std::string(target->path),
                      TargetStatus::kServedBySource,
                      0,
                      "the same file as target " + std::string(first->second) +
                          ", which writes it (its `## <Client>` section is the one in it)",
                      ""};
      AddChecked(std::move(tr), "", report, &outputs);
      continue;
    }
    produced.emplace(target->path, target->id);
    // Its own file is the source, shared text included (DeepSeek Harness: AGENTS.md, and it
    // reads the CLAUDE.md written for Claude Code too).
    if (target->path == report->source) WarnBesideSource(*target, carriers, report);
    const bool named = std::find(check.options.targets.begin(), check.options.targets.end(),
                                 target->id) != check.options.targets.end();
    TargetReport served;
    std::optional<std::string> own =
        RenderBesideCarriers(*target, CarriersFor(*target, carriers), named, compiled.banded,
                             source_name, report, &served);
    if (own && own->empty()) {
      AddChecked(std::move(served), "", report, &outputs);
      continue;
    }
    std::string bytes =
        own ? std::move(*own) : RenderTarget(*target, compiled.banded, source_name, env);
    STRATA_TRY_ASSIGN(TargetReport tr, CheckTarget(check, *target, target->path, bytes));
    if (ReadsItself(*target, report->source) && target->path != report->source) {
      report->diagnostics.push_back(DuplicateLoadWarning(*target, report->source));
    }
    // Served by the source, the client reads the source file as it is: its text counts.
    if (tr.status == TargetStatus::kServedBySource) {
      ReportCut(*target, source_text, report->source, &tr, &report->diagnostics);
    } else {
      ReportCut(*target, bytes, tr.path, &tr, &report->diagnostics);
    }
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
  // A target the source serves owns no file: a copy left from an earlier compile is an orphan.
  std::set<std::string> owned;
  for (const auto& t : report->targets) {
    if (t.status != TargetStatus::kServedBySource || t.path == report->source) owned.insert(t.path);
  }
  STRATA_TRY(FindOrphans(check, fs::path(report->source).filename().string(), owned, report));
  STRATA_TRY(FindMcpOrphans(check, report, &writes));
  std::sort(report->orphans.begin(), report->orphans.end(),
            [](const TargetReport& a, const TargetReport& b) { return a.path < b.path; });
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

std::string CompileSourceOf(const fs::path& root) {
  std::error_code ec;
  auto config = LoadProjectConfig(fs::canonical(root, ec));
  return config && !config->source.empty() ? config->source : "AGENTS.md";
}

std::vector<std::string> CompileTargetIds() {
  std::vector<std::string> ids;
  for (const ClientTarget& target : AllTargets()) ids.emplace_back(target.id);
  return ids;
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
  compiled->served = ServedBySource(compiled->selected, options, report.source);

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

  STRATA_TRY_ASSIGN(std::vector<std::string> outputs,
                    RenderTargets(check, *compiled, raw, &report));
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
