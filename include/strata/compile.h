// compile.h: instruction files for repository maintainers: `strata compile`, `--verify`,
// `--verify-stable` / `strata audit`, and `strata adopt`.
//
// One banded AGENTS.md in, every configured client's file out. Each target's bytes are: format
// frontmatter (Cursor .mdc, Windsurf, Kiro), a static generated header naming the source, then
// the head, config and tail bands for that client (a `## <Client>` section reaches only that
// client), band markers removed, blank lines at band edges trimmed, bands joined by one blank line,
// and a digest footer over everything before it. The bands and markers follow the format of
// praetor's compile-context, which strata keeps compatible; docs/compile.md states every rule.
// Rendering is a pure function of the source and the target, which CheckStability proves.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "strata/status.h"

namespace STRATA_EXPORT strata {

struct CompileOptions {
  std::filesystem::path root = ".";  // repository root; strata.toml and targets are below it
  std::string source;                // relative to root; "" = strata.toml's `source`
  size_t max_source_bytes = size_t{4} * 1024 * 1024;  // a larger source is refused unread
  std::vector<std::string> targets;                   // ids; empty = strata.toml's `targets`
  bool force = false;      // overwrite target files that lack the generated header
  bool write = true;       // false: --verify, compare only
  bool diff = false;       // verify: fill TargetReport::diff for every stale target
  bool gitignore = false;  // keep a block listing every generated file in .gitignore (also
                           // `gitignore = true` in strata.toml)
  // Every file compile reads or writes (strata.toml, block files, the source and its imports, each
  // target, companion and orphan, and their parent directories) is opened through a descriptor of
  // the root, so a symlink that leads outside it (`.github -> /elsewhere`, `CLAUDE.md ->
  // /outside/passwd`, `[blocks.x] file = "/etc/hostname"`) is refused, with or without `force`,
  // unless one of these allows where it resolves (CLI --allow-outside-root, --allow-dir DIR).
  bool allow_outside_root = false;
  std::vector<std::filesystem::path> allowed_dirs;
  // true (--verify-stable): CheckStability runs before anything is written, its findings go to
  // CompileReport::stability_findings, and any finding writes nothing.
  bool check_stability = false;
};

enum class TargetStatus {
  kWritten,         // compile wrote new bytes
  kUnchanged,       // the file already held exactly these bytes
  kStale,           // verify: the file differs from a fresh compile; compile: not written
                    // because another target blocked the writes (detail says which)
  kMissing,         // verify: the file does not exist
  kConflict,        // the file exists without the generated header; not overwritten
  kOverLimit,       // the output exceeds the client's documented size limit; not written
  kServedBySource,  // the target path is the source itself (e.g. codex reads AGENTS.md)
  kOrphaned,        // verify: a file with strata's header that no configured target produces
  kRemoved,         // compile deleted such an orphan (only files with the header and digest)
};

// "written", "unchanged", "stale", "missing", "conflict", "over-limit", "served-by-source",
// "orphaned", "removed".
const char* TargetStatusName(TargetStatus status);

struct TargetReport {
  std::string id;    // target id, e.g. "claude-code"
  std::string path;  // relative to the root, '/' separated
  TargetStatus status = TargetStatus::kUnchanged;
  size_t bytes = 0;    // size of the compiled output
  std::string detail;  // for conflict / over-limit / stale: what happened and what to do
  std::string diff;    // with CompileOptions::diff, for a stale file: a unified diff (lines
                       // starting "---", "+++", "@@", "-", "+", " ") from the file on disk to
                       // the fresh compile; empty otherwise
  // The client's documented size limits for this file (0: none): max_chars refuses a larger
  // file (over-limit), cut_bytes / cut_chars mean the client reads only that much of it (a
  // `client-limit` warning when the file is larger). Codex's cut_bytes is 32 KiB.
  size_t max_chars = 0;
  size_t cut_bytes = 0;
  size_t cut_chars = 0;
};

// What was compiled (the banded source and the selected targets), kept for CheckStability.
struct CompiledSource;

struct CompileReport {
  std::string source;                       // relative to the root
  std::vector<TargetReport> targets;        // target table order
  std::vector<TargetReport> companions;     // files strata merges one entry into rather than
                                            // owns: .aider.conf.yml (id "aider"), .gitignore
                                            // (id "gitignore"); status as for a target
  std::vector<TargetReport> orphans;        // generated files no configured target produces,
                                            // sorted by path: orphaned (verify), removed
                                            // (compile) or conflict (edited after generation)
  std::vector<Diagnostic> diagnostics;      // warnings (unmarked source, blocks) and check failures
  std::vector<std::string> blocks_updated;  // generated blocks written into the source (or drifted)
  bool had_markers = false;
  bool ok = true;  // false: a check failed (verify found drift, a conflict, a limit exceeded)
  std::shared_ptr<const CompiledSource> compiled;  // never null in a report Compile returned
  std::vector<Diagnostic> stability_findings;      // with check_stability: CheckStability's
};

// Compiles (options.write) or verifies (!options.write) the repository at options.root. Writes are
// atomic. A target over its client's documented size limit is not written (status over-limit,
// ok = false) while the others are; when any target is a conflict, or the stability gate
// (check_stability) found a problem, nothing is written at all and each target that would have
// been written reports `stale` with a detail naming why. An I/O failure writes nothing.
// A write is one generation: every file is staged to a temporary beside it first, then all are
// renamed. A compile killed meanwhile leaves temporaries (removed at the start of the next
// compile; --verify reports them as `interrupted-compile` warnings) and, between two renames,
// some targets new and some old: the next compile rewrites the old ones, --verify reports them
// stale. A target resolving outside the root is a `conflict` naming the allow options.
// Errors (exit status 2 in the CLI): the root is not a directory, the source or strata.toml is
// unreadable, invalid or over max_source_bytes, an unknown target id, a write that failed (then no
// file was changed). Check failures are reported in CompileReport (ok = false, exit status 1).
Result<CompileReport> Compile(const CompileOptions& options);

struct CompileRoot {
  std::filesystem::path root;  // canonical
  std::string marker;          // "strata.toml", ".git", or "" (no marker: `start` itself)
};

// Where `strata compile` run in `start` compiles when no --root is given: the nearest ancestor
// (start included) holding strata.toml, else the nearest holding a `.git` repository (as
// discovery finds the project root), else `start`. So a compile from `packages/ai` writes the
// project's targets at the project root, where discovery reads them, not below packages/ai.
CompileRoot FindCompileRoot(const std::filesystem::path& start);

// The instruction source a compile of `root` reads, relative to the root: strata.toml's `source`,
// else "AGENTS.md" (also when strata.toml is unreadable or invalid: Compile reports that error).
std::string CompileSourceOf(const std::filesystem::path& root);

// Every target id compile knows ("claude-code", "cursor", ...), in the order it reports them
// (docs/targets.md lists each client's file, format and limits).
std::vector<std::string> CompileTargetIds();

// The stability gate on a compile: every selected target rendered twice under two clocks and
// two visit orders must give the same bytes (else an `unstable-render` error naming the target
// and the first differing byte), and the head band must hold no volatile text (timestamps with
// seconds, sha256 digests, machine-specific absolute paths, run and build counters: an error per
// match at source:line:col). Empty when stable.
std::vector<Diagnostic> CheckStability(const CompileReport& report);

enum class AdoptOutcome {
  kCreated,        // there was no AGENTS.md: the skeleton was written
  kLeftAlone,      // AGENTS.md exists and force was not set: nothing changed
  kMarkersAdded,   // force: the three band markers were added, nothing else changed
  kAlreadyBanded,  // force: the file already had markers: nothing changed
};

struct AdoptReport {
  AdoptOutcome outcome = AdoptOutcome::kLeftAlone;
  std::string path;  // relative to the root ("AGENTS.md")
};

// `strata adopt`: writes root/AGENTS.md, a skeleton with the three band markers, atomically. An
// existing file is left exactly as it is unless `force`; with `force`, only the markers are added
// (head after the first H1, config and tail at the end) when the file has none, so no
// hand-written text is lost. Errors: kNotFound when root is not a directory, kIo, kInvalidUtf8 or
// kParse (binary) for the existing file's text, kParse when it ends inside an open code block.
Result<AdoptReport> Adopt(const std::filesystem::path& root, bool force);

struct AdoptedFile {
  std::string path;         // as given, relative to the root
  std::string client_id;    // the target whose file it is ("codex" for AGENTS.md)
  std::string target_path;  // where compile writes that client's file ("CLAUDE.md"); a merged
                            // file at another path is redundant once compiled
  bool skipped = false;     // a link stand-in (its whole text names a sibling file): not merged
  bool scoped = false;      // its frontmatter scopes it: it became a rule source (report.rules)
  // Always-applied text at another path than target_path (`.cursor/rules/base.mdc`, a
  // `.claude/CLAUDE.md` beside CLAUDE.md): compile never writes or removes it, so its client
  // still loads it beside the compiled file, its text twice, until it is moved aside
  // (MoveAdoptedAside, `adopt --remove-adopted`) or deleted. `strata audit` reports it meanwhile.
  bool loads_beside = false;
  std::string moved_to;  // after MoveAdoptedAside: where it is now (kAdoptedAsideDir/PATH.adopted)
};

struct AdoptFromReport {
  std::string path = "AGENTS.md";            // the banded source written, relative to the root
  std::vector<AdoptedFile> files;            // every --from file, in the order given
  std::vector<std::string> client_sections;  // ids that got a `strata:for` client section
  std::vector<std::string> rules;            // rule sources written (.strata/rules/NAME.md)
  bool wrote_config = false;                 // strata.toml was written (targets = the clients)
  std::vector<Diagnostic> diagnostics;       // e.g. a file that ends inside an open fence
};

// `strata adopt --from FILE...`: merges existing client files (CLAUDE.md, .cursor/rules/*.mdc,
// .github/copilot-instructions.md, .github/instructions/*.instructions.md, .claude/rules/*.md,
// GEMINI.md, AGENTS.md, and any other table path or file in a client's rules directory) into one
// banded source (docs/compile.md, "adopt"). A file whose frontmatter scopes it (Cursor `globs` or
// `alwaysApply: false`, Copilot `applyTo` other than `**`, Claude Code `paths`, Windsurf `trigger:
// glob`, Kiro `fileMatch`) becomes a rule source .strata/rules/NAME.md naming its globs and the
// clients that had it (one file for the same text and globs from several clients). The others are
// each client's always-applied text: strata's own header and footer and the frontmatter are
// dropped, each is split into blocks at blank lines outside code (a fence left open is closed, with
// an `unclosed-fence` warning; a block that is only an `@path` import of another merged file is
// replaced by that file's blocks), the blocks every client begins with become the head band, the
// blocks every client ends with the tail band, and each client's remainder, headings and all,
// its `<!-- strata:for ID -->` ... `<!-- strata:end-for -->` section in the config band. The source
// is AGENTS.md when no client has a section; otherwise strata.md (no client reads it, so
// Codex, which reads AGENTS.md, gets only its own text from compile), or strata.toml's `source`
// when strata.toml exists. Compiling back gives each client its original text (blank lines at the
// seams between bands made single) and each rule its client's scoped form at the same path. A file
// whose whole text names a sibling (a checked-out symlink such as CLAUDE.md holding "AGENTS.md")
// is skipped. When strata.toml does not exist it is written with `targets` = the adopted clients
// (and `source` when not AGENTS.md). Errors: kNotFound for the root or a file, kInvalidArgument for
// a file that is no known client file or for an existing source or rule source that is not among
// the files (unless `force`), kIo on write.
Result<AdoptFromReport> AdoptFrom(const std::filesystem::path& root,
                                  const std::vector<std::string>& files, bool force);

// Where MoveAdoptedAside puts adopted files: `PATH` moves to `.strata/adopted/PATH.adopted`. No
// client reads there (the `.adopted` suffix keeps a moved `.mdc` or `CLAUDE.md` from matching a
// client's file names, also as a nested rules directory), and nothing is lost: moving it back
// and dropping the suffix restores the file.
inline constexpr char kAdoptedAsideDir[] = ".strata/adopted";

// Where MoveAdoptedAside puts the adopted file at `path` (relative to the root):
// kAdoptedAsideDir/PATH.adopted.
inline std::string AdoptedAsidePath(const std::string& path) {
  return std::string(kAdoptedAsideDir) + "/" + path + ".adopted";
}

// `strata adopt --from ... --remove-adopted`: moves every file of `report` with loads_beside to
// kAdoptedAsideDir (setting its moved_to), so that once compiled each client loads its text
// once. All or nothing: each move is one rename(2) within the root that never replaces a file,
// and when one fails the files already moved are moved back. Run it after AdoptFrom wrote the
// source, then compile (until then the clients miss the moved text). Never deletes a file.
// Errors: kInvalidArgument when a destination exists (an earlier move: the message names it),
// kConflict when a path resolves outside the root, kIo naming the file that failed to move.
Status MoveAdoptedAside(const std::filesystem::path& root, AdoptFromReport* report);

}  // namespace strata
