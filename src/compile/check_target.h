// check_target.h: where one compiled file stands against the file at its path (written,
// unchanged, stale, missing, conflict, over-limit, served by the source), shared by the root
// targets and the path-scoped rules of nested sources; and the instruction text a source compiles
// from.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "strata/compile.h"
#include "targets/targets.h"

namespace strata {

// Where a compiled target stands against the file at its path.
struct TargetCheck {
  const CompileOptions& options;
  const std::string& source;  // relative to the root
  const std::filesystem::path& source_path;
};

// The report for `bytes` compiled for `target` at `path` (relative to the root): its status and
// detail against the file on disk (and, with options.diff, the diff of a stale one). Errors: a
// read of an existing file that failed.
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

// The clean text of a (spliced) source, imports inlined for clients that do not follow `@path`
// (resolved by the same rules as discovery: relative to the source, depth 5, inside the root).
// `label` names the source in diagnostics, which are appended to *diagnostics.
Result<std::string> InstructionText(const std::filesystem::path& root,
                                    const std::filesystem::path& source_path,
                                    std::string_view label, const std::string& spliced,
                                    std::vector<Diagnostic>* diagnostics);

}  // namespace strata
