// cmd_usage.cc: `strata usage`: cost, hit ratio and cache drops of the user's local agent sessions
// (docs/usage.md). Thin: parse the flags, call ScanUsage (replay.h), print, write the HTML report.
#include <unistd.h>

#include <cstdio>

#include "commands.h"
#include "output.h"
#include "strata/replay.h"

namespace strata::cli {

void AddUsageCommand(CLI::App& app, int* exit_code) {
  struct Args {
    std::string home, claude, codex, opencode, since, project, html;
    bool json = false;
  };
  auto a = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand(
      "usage",
      "Cost, hit ratio and cache drops (with their causes) of the local Claude Code, Codex and "
      "opencode sessions (docs/usage.md)");
  cmd->add_option(
      "--home", a->home,
      "Home directory to read the logs under (default: $STRATA_USAGE_HOME, else $HOME); when "
      "given, $CLAUDE_CONFIG_DIR, $CODEX_HOME and the XDG directories are not read");
  cmd->add_option("--claude-projects", a->claude,
                  "Claude Code's projects directory (default: $CLAUDE_CONFIG_DIR/projects for each "
                  "of its comma-separated directories, else HOME/.config/claude/projects and "
                  "HOME/.claude/projects)");
  cmd->add_option("--codex-sessions", a->codex,
                  "Codex's sessions directory (default: $CODEX_HOME/sessions, else "
                  "HOME/.codex/sessions)");
  cmd->add_option("--opencode-storage", a->opencode,
                  "opencode's storage directory (default: $XDG_DATA_HOME/opencode/storage, else "
                  "HOME/.local/share/opencode/storage); its databases (opencode.db) are read "
                  "from the directory above it");
  cmd->add_option("--since", a->since,
                  "Only requests from this day on (YYYY-MM-DD or YYYYMMDD, UTC)");
  cmd->add_option("--project", a->project,
                  "Only sessions whose project path contains this text (case-sensitive)");
  cmd->add_flag("--json", a->json, "Print one JSON object (sessions, days, totals)");
  CLI::Option* html = cmd->add_option(
      "--html", a->html,
      "Also write a self-contained HTML report (charts per session) to this file; - prints it on "
      "standard output instead of the table");
  cmd->callback([a, exit_code, html] {
    if (html->count() > 0 && a->html.empty()) {
      *exit_code = PrintError(
          {ErrorKind::kInvalidArgument, "--html needs a file name (or - for standard output)", {}});
      return;
    }
    if (a->html == "-" && a->json) {
      *exit_code = PrintError({ErrorKind::kInvalidArgument,
                               "--json and --html - both print on standard output: give one, or "
                               "--html FILE",
                               {}});
      return;
    }
    // Checked before the scan: a report for a folder that is not there is a typo, not a reason
    // to create folders.
    if (const std::filesystem::path dir = std::filesystem::path(a->html).parent_path();
        !a->html.empty() && a->html != "-" && !dir.empty() && !std::filesystem::is_directory(dir)) {
      *exit_code = PrintError(
          {ErrorKind::kNotFound,
           "--html " + a->html + ": no such directory " + dir.string() + " (create it first)",
           {a->html}});
      return;
    }
    UsageOptions o;
    const char* env_home = std::getenv("STRATA_USAGE_HOME");
    o.home = !a->home.empty()                        ? std::filesystem::path(a->home)
             : env_home != nullptr && *env_home != 0 ? std::filesystem::path(env_home)
                                                     : HomeDir();
    // An explicit home beats $CLAUDE_CONFIG_DIR, $CODEX_HOME and the XDG directories.
    o.home_explicit = !a->home.empty() || (env_home != nullptr && *env_home != 0);
    o.claude_projects = a->claude;
    o.codex_sessions = a->codex;
    o.opencode_storage = a->opencode;
    o.since = a->since;
    o.project = a->project;
    // Progress on stderr only when a person watches it (a terminal), and only on long scans.
    if (isatty(STDERR_FILENO) != 0) {
      o.progress = [](size_t done, size_t total) {
        if (total < 50 || (done % 25 != 0 && done != total)) return;
        std::fprintf(stderr, "\rstrata usage: %zu/%zu log files%s", done, total,
                     done == total ? "\n" : "");
      };
    }
    auto report = ScanUsage(o);
    if (!report) {
      *exit_code = PrintError(report.error());
      return;
    }
    if (a->html == "-") {
      std::fputs(FormatUsageHtml(*report).c_str(), stdout);
      *exit_code = 0;
      return;
    }
    if (!a->html.empty()) {
      if (Status s = WriteUsageHtml(a->html, *report); !s) {
        *exit_code = PrintError(s.error());
        return;
      }
    }
    std::string text = a->json ? FormatUsageJson(*report) : FormatUsageTable(*report);
    std::fputs(text.c_str(), stdout);
    *exit_code = 0;
  });
}

}  // namespace strata::cli
