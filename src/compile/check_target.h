// check_target.h: where one compiled file stands against the file at its path (written,
// unchanged, stale, missing, conflict, over-limit, served by the source), shared by the root
// targets, the path-scoped rules of nested sources and the copied agent assets; the contained
// read every compile step uses; and the instruction text a source compiles from.
//
// Invariant: every path here is relative to the canonical root and every read goes through a
// descriptor of that root (io/contained_open.h), so a symlink out of the tree is refused unless
// CompileOptions allows where it leads.
#pragma once

#include <sys/stat.h>

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "config/config.h"
#include "io/contained_open.h"
#include "markdown/markdown_blocks.h"
#include "strata/compile.h"
#include "strata/discover.h"
#include "targets/targets.h"

namespace strata {

// Where a compiled target stands against the file at its path.
struct TargetCheck {
  const CompileOptions& options;
  const std::filesystem::path& root;  // canonical
  const std::string& source;          // relative to the root
  const std::filesystem::path& source_path;
  const ProjectConfig& config;
  struct stat source_stat {};  // of source_path, taken once: a target that is the source itself
  int root_fd = -1;            // a descriptor of root the compile keeps open for its reads
};

// `path`'s stat (following symlinks) into *st; false when it does not exist or cannot be stat'ed.
bool StatFile(const std::filesystem::path& path, struct stat* st);

// The allow options of a compile (--allow-outside-root, --allow-dir).
OutsideRootAccess AccessOf(const CompileOptions& options);

// The bytes of `relative` (at most `max_bytes`), opened through a descriptor of `root`.
// Errors: kNotFound; kConflict for a path that resolves outside the root (the message names the
// allow options); kIo.
Result<std::string> ReadContained(const std::filesystem::path& root,
                                  const std::filesystem::path& relative,
                                  const CompileOptions& options,
                                  size_t max_bytes = size_t{256} * 1024 * 1024);

// ReadContained through the compile's root descriptor (check.root_fd).
Result<std::string> ReadContained(const TargetCheck& check, const std::filesystem::path& relative,
                                  size_t max_bytes = size_t{256} * 1024 * 1024);

// The report for `bytes` compiled for `target` at `path` (relative to the root): its status and
// detail against the file on disk (and, with options.diff, the diff of a stale one). A file that
// differs from `bytes` only in CRLF line endings is unchanged (a `core.autocrlf` checkout is not an
// edit). Errors: a read of an existing file that failed.
Result<TargetReport> CheckTarget(const TargetCheck& check, const ClientTarget& target,
                                 std::string_view path, const std::string& bytes);

// Conflict, over-limit, stale and missing fail a compile or verify.
bool IsFailure(TargetStatus status);

// Appends `tr` to report->targets and `bytes` to *outputs (same order); a failing status also
// clears report->ok and adds an error naming the file.
void AddChecked(TargetReport tr, std::string bytes, CompileReport* report,
                std::vector<std::string>* outputs);

// `path` relative to the root as the report prints it ('/' separated, normalised).
std::string Generic(const std::filesystem::path& p);

// How a compile resolves `@path` imports: discovery's rules (relative to the source, depth 5,
// inside the root), gitignored files skipped (their text must not be committed), widened by
// strata.toml's [imports] table and the CLI's allow options.
ImportOptions CompileImportOptions(const ProjectConfig& config, const CompileOptions& options);

// The clean text of a (spliced) source: hygiene (CleanText), imports inlined for clients that do
// not follow `@path`, the source's own frontmatter dropped (every target writes its own) and a
// fence left open at the end closed (else it would swallow the digest footer). `label` names the
// source in diagnostics, which are appended to *diagnostics; *blocks (when given) gets the block
// map of the returned text, from the parse the other steps used.
Result<std::string> InstructionText(const std::filesystem::path& root,
                                    const std::filesystem::path& source_path,
                                    std::string_view label, const std::string& spliced,
                                    const ImportOptions& imports,
                                    std::vector<Diagnostic>* diagnostics,
                                    MarkdownBlocks* blocks = nullptr);

}  // namespace strata
