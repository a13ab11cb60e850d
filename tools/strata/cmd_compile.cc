// cmd_compile.cc: `strata compile` and `strata audit`.
#include <filesystem>
#include <memory>

#include "commands.h"
#include "compile_json.h"
#include "output.h"
#include "strata/compile.h"
#include "strata/discover.h"
#include "watch.h"

namespace strata::cli {

namespace {

namespace fs = std::filesystem;

struct CompileArgs {
  std::string root = ".";
  std::string source;
  std::vector<std::string> targets;
  bool force = false;
  bool verify = false;
  bool verify_stable = false;
  bool json = false;
  bool allow_outside_root = false;
  std::vector<std::string> allow_dirs;
  bool root_given = false;  // --root on the command line; else FindCompileRoot from the cwd
  bool diff = false;
  bool gitignore = false;
  bool watch = false;
  int watch_limit = 0;       // --watch: stop after this many recompiles (0 = until interrupted)
  int watch_timeout_ms = 0;  // --watch: give up (exit 1) after this long without a change
};

nlohmann::json FilesJson(const std::vector<TargetReport>& files) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& t : files) {
    nlohmann::json one = {{"id", t.id},
                          {"path", t.path},
                          {"status", TargetStatusName(t.status)},
                          {"bytes", t.bytes},
                          {"detail", t.detail}};
    if (!t.diff.empty()) one["diff"] = t.diff;
    if (t.max_chars > 0) one["max_chars"] = t.max_chars;
    if (t.cut_bytes > 0) one["cut_bytes"] = t.cut_bytes;
    if (t.cut_chars > 0) one["cut_chars"] = t.cut_chars;
    out.push_back(std::move(one));
  }
  return out;
}

}  // namespace

nlohmann::json ReportJson(const CompileReport& report, std::string_view mode) {
  return {{"mode", mode},
          {"source", report.source},
          {"had_markers", report.had_markers},
          {"targets", FilesJson(report.targets)},
          {"companions", FilesJson(report.companions)},
          {"orphans", FilesJson(report.orphans)},
          {"blocks_updated", report.blocks_updated},
          {"diagnostics", DiagnosticsJson(report.diagnostics)}};
}

namespace {

// One line per companion and orphan that changed, and the diffs --verify --diff asked for.
void PrintHousekeeping(const CompileReport& report) {
  for (const auto& t : report.companions) {
    if (t.status == TargetStatus::kWritten) {
      std::printf("updated %s (strata's entry only)\n", t.path.c_str());
    }
  }
  for (const auto& t : report.orphans) {
    if (t.status == TargetStatus::kRemoved) {
      std::printf("%s %s: %s\n", t.id == "mcp" ? "updated" : "removed", t.path.c_str(),
                  t.detail.c_str());
    }
  }
  for (const auto* list : {&report.targets, &report.companions}) {
    for (const auto& t : *list) std::fputs(t.diff.c_str(), stdout);
  }
}

// ", client reads N bytes" and the like for a target with documented limits; "" without.
std::string Limits(const TargetReport& t) {
  std::string out;
  if (t.max_chars > 0) out += "; limit " + std::to_string(t.max_chars) + " characters";
  if (t.cut_bytes > 0)
    out += "; the client reads the first " + std::to_string(t.cut_bytes) + " bytes";
  if (t.cut_chars > 0) {
    out += "; code review reads the first " + std::to_string(t.cut_chars) + " characters";
  }
  return out;
}

// What a failed verify found, counted as it is listed: targets, companion files, orphans and
// the other errors (drifted blocks, double loads).
std::string VerifySummary(const CompileReport& report) {
  auto failing = [](const std::vector<TargetReport>& list) {
    size_t n = 0;
    for (const auto& t : list) {
      n += t.status != TargetStatus::kUnchanged && t.status != TargetStatus::kServedBySource &&
           t.status != TargetStatus::kWritten;
    }
    return n;
  };
  std::vector<std::string> parts;
  const size_t targets = failing(report.targets);
  if (targets > 0) {
    parts.push_back(std::to_string(targets) + " of " + std::to_string(report.targets.size()) +
                    " target files need attention");
  }
  if (size_t n = failing(report.companions); n > 0) {
    parts.push_back(std::to_string(n) + " companion file" + (n == 1 ? "" : "s") + " need" +
                    (n == 1 ? "s" : "") + " an update");
  }
  if (!report.orphans.empty()) {
    const size_t n = report.orphans.size();
    parts.push_back(std::to_string(n) + " orphaned generated file" + (n == 1 ? "" : "s") +
                    " (no configured target produces " + (n == 1 ? "it" : "them") + ")");
  }
  size_t other = 0, doubled = 0;
  for (const auto& d : report.diagnostics) {
    if (d.severity != Severity::kError) continue;
    doubled += d.kind == "double-load";
    other += d.kind != "orphaned" && d.kind != "conflict" && d.kind != "stale" &&
             d.kind != "missing" && d.kind != "over-limit" && d.kind != "double-load";
  }
  if (doubled > 0) {
    parts.push_back(std::to_string(doubled) + " file" + (doubled == 1 ? "" : "s") +
                    " a client loads beside the same text (double load)");
  }
  if (other > 0) parts.push_back(std::to_string(other) + " other error" + (other == 1 ? "" : "s"));
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : "; ") + p;
  return out.empty() ? "see the errors above" : out;
}

// The human-readable form: one line per target, then diagnostics and the verify summaries.
void PrintText(const CompileReport& report, const CompileArgs& args,
               const std::vector<Diagnostic>& findings) {
  PrintHousekeeping(report);
  for (const auto& t : report.targets) {
    switch (t.status) {
      case TargetStatus::kWritten:
        std::printf("wrote %s (%zu bytes%s)\n", t.path.c_str(), t.bytes, Limits(t).c_str());
        break;
      case TargetStatus::kUnchanged:
        std::printf("unchanged %s (%zu bytes%s)\n", t.path.c_str(), t.bytes, Limits(t).c_str());
        break;
      case TargetStatus::kServedBySource:
        std::printf("skipped %s: %s\n", t.path.c_str(), t.detail.c_str());
        break;
      case TargetStatus::kStale:
      case TargetStatus::kMissing:
        if (!args.verify) std::printf("%s\n", t.detail.c_str());
        break;
      default:
        break;
    }
  }
  for (const auto& name : report.blocks_updated) {
    if (!args.verify && report.ok) {
      std::printf("updated generated block '%s' in %s\n", name.c_str(), report.source.c_str());
    }
  }
  PrintDiagnostics(report.diagnostics);
  if (args.verify) {
    if (report.ok) {
      std::printf("verified: %zu targets up to date\n", report.targets.size());
    } else {
      std::printf("verify failed: %s\n", VerifySummary(report).c_str());
    }
  }
  if (args.verify_stable) {
    PrintDiagnostics(findings);
    if (findings.empty()) {
      const size_t n = report.targets.size();
      std::printf(
          "stable: %zu target%s render%s identically under two clocks and visit orders; "
          "no volatile text in the head band\n",
          n, n == 1 ? "" : "s", n == 1 ? "s" : "");
    } else {
      std::printf("unstable: %zu finding%s\n", findings.size(), findings.size() == 1 ? "" : "s");
    }
  }
}

// --root, or (without it) the project root above the working directory, said on stderr when it
// is not the working directory.
fs::path ResolveRoot(const CompileArgs& args, bool say) {
  if (args.root_given) return args.root;
  CompileRoot found = FindCompileRoot(fs::current_path());
  std::error_code ec;
  if (say && !found.marker.empty() && !fs::equivalent(found.root, fs::current_path(), ec)) {
    std::fprintf(stderr,
                 "strata: using the project root %s (it holds %s); pass --root . to compile "
                 "here instead\n",
                 found.root.c_str(), found.marker.c_str());
  }
  return found.root;
}

// audit: every client profile run at the root; a client that loads the same text twice (a
// generated copy beside its source, or two identical files) fails the audit.
void AddDoubleLoads(const fs::path& root, CompileReport* report) {
  CompareOptions compare;  // no home: only the project's own files, so the audit is reproducible
  Result<Comparison> comparison = CompareClientsWith(root, compare);
  if (!comparison) {
    report->diagnostics.push_back({Severity::kWarning, "double-load",
                                   "client profiles not run: " + comparison.error().message,
                                   comparison.error().where});
    return;
  }
  for (Diagnostic d : DoubleLoads(*comparison)) {
    d.severity = Severity::kError;
    report->diagnostics.push_back(std::move(d));
    report->ok = false;
  }
}

int Run(const CompileArgs& args, std::string_view mode, bool say_root = true) {
  CompileOptions options;
  options.root = ResolveRoot(args, say_root);
  options.check_stability = args.verify_stable;
  options.source = args.source;
  options.targets = args.targets;
  options.force = args.force;
  options.write = !args.verify;
  options.allow_outside_root = args.allow_outside_root;
  options.allowed_dirs.assign(args.allow_dirs.begin(), args.allow_dirs.end());
  options.diff = args.diff;
  options.gitignore = args.gitignore;
  auto report = Compile(options);
  if (!report) {
    if (args.json) {
      PrintJson({{"mode", mode},
                 {"ok", false},
                 {"error", DiagnosticJson({Severity::kError, "error", report.error().message,
                                           report.error().where})}});
    }
    return PrintError(report.error());
  }

  if (mode == "audit") AddDoubleLoads(options.root, &*report);
  const std::vector<Diagnostic>& findings = report->stability_findings;
  const bool stable = findings.empty();
  const bool ok = report->ok && stable;

  if (args.json) {
    nlohmann::json out = ReportJson(*report, mode);
    if (args.verify_stable) {
      out["stability"] = {{"stable", stable}, {"findings", DiagnosticsJson(findings)}};
    }
    out["ok"] = ok;
    PrintJson(out);
    return ok ? 0 : 1;
  }
  PrintText(*report, args, findings);
  return ok ? 0 : 1;
}

void AddShared(CLI::App* sub, CompileArgs* args, const char* target_help) {
  sub->add_option("--root", args->root,
                  "Repository root (strata.toml and targets live below it; default: the nearest "
                  "ancestor holding strata.toml, else .git, else the current directory)")
      ->each([args](const std::string&) { args->root_given = true; });
  sub->add_option("--source", args->source,
                  "Instruction source relative to the root "
                  "(default: strata.toml's `source`, else AGENTS.md)");
  sub->add_option("--target", args->targets, target_help)->delimiter(',');
  sub->add_flag("--json", args->json, "Print the result as one JSON object");
  sub->add_flag("--allow-outside-root", args->allow_outside_root,
                "Read and write files that resolve outside the root (through symlinks, "
                "block files, imports)");
  sub->add_option("--allow-dir", args->allow_dirs,
                  "A directory outside the root that reads and writes may reach; repeatable")
      ->allow_extra_args(false);
}

}  // namespace

void AddCompileCommand(CLI::App& app, int* exit_code) {
  auto args = std::make_shared<CompileArgs>();
  CLI::App* sub = app.add_subcommand(
      "compile", "Write every configured client's instruction file from the banded AGENTS.md");
  AddShared(sub, args.get(), "Compile only these target ids (comma-separated or repeated)");
  sub->add_flag("--force", args->force, "Overwrite target files that strata did not generate");
  sub->add_flag("--verify", args->verify,
                "Write nothing; report every stale or missing target (exit 1 when any)");
  sub->add_flag("--verify-stable", args->verify_stable,
                "Render twice under different clocks and visit orders and scan the head band for "
                "volatile text (exit 1 on any finding; then nothing is written)");
  sub->add_flag("--diff", args->diff,
                "With --verify: print a unified diff from each stale file to its fresh compile");
  sub->add_flag("--gitignore", args->gitignore,
                "Keep a block listing every generated file in .gitignore (or `gitignore = true` "
                "in strata.toml)");
  sub->add_flag("--watch", args->watch,
                "Compile, then recompile whenever the source or strata.toml changes (inotify, "
                "debounced); Ctrl-C stops");
  sub->add_option("--watch-limit", args->watch_limit,
                  "With --watch: stop after this many recompiles")
      ->group("");
  sub->add_option("--watch-timeout-ms", args->watch_timeout_ms,
                  "With --watch: exit 1 after this long without a change")
      ->group("");
  sub->callback([args, exit_code] {
    if (args->watch) {
      *exit_code = WatchCompile(
          ResolveRoot(*args, true).string(), args->source,
          [args] { return Run(*args, "compile", false); }, args->watch_limit,
          args->watch_timeout_ms);
      return;
    }
    *exit_code = Run(*args, args->verify ? "verify" : "compile");
  });
}

void AddAuditCommand(CLI::App& app, int* exit_code) {
  auto args = std::make_shared<CompileArgs>();
  CLI::App* sub = app.add_subcommand(
      "audit", "Check targets are current and stable, and warn about an unmarked source");
  AddShared(sub, args.get(), "Check only these target ids (comma-separated or repeated)");
  sub->callback([args, exit_code] {
    CompileArgs audit = *args;
    audit.verify = true;
    audit.verify_stable = true;
    *exit_code = Run(audit, "audit");
  });
}

}  // namespace strata::cli
