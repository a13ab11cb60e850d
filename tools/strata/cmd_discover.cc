// cmd_discover.cc: `strata discover [DIR]`: the instruction files an agent working in DIR sees, in
// order, with origin, size, truncation and diagnostics (docs/discover.md).
#include <algorithm>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <optional>

#include "commands.h"
#include "flag_checks.h"
#include "output.h"
#include "strata/discover.h"

namespace strata::cli {

namespace fs = std::filesystem;

fs::path HomeDir() {
  const char* home = std::getenv("HOME");
  return home != nullptr && home[0] != '\0' ? fs::path(home) : fs::path();
}

// Codex's config dir: $CODEX_HOME, else ~/.codex.
fs::path CodexHome() {
  const char* codex = std::getenv("CODEX_HOME");
  if (codex != nullptr && codex[0] != '\0') return codex;
  fs::path home = HomeDir();
  return home.empty() ? home : home / ".codex";
}

namespace {

struct DiscoverFlags {
  std::string dir = ".";
  bool json = false;
  bool content = false;
  bool all = false;
  bool verbose = false;
  bool no_global = false;
  std::vector<std::string> globals;
  std::vector<std::string> markers;
  std::vector<std::string> names;
  std::string root;
  bool walk_to_top = false;
  bool first_only = false;
  size_t max_file_bytes = Budget{}.per_file_bytes;
  size_t max_total_bytes = Budget{}.total_bytes;
  int max_depth = 5;
  bool allow_outside_root = false;
  std::vector<std::string> allow_dirs;
  std::string client;  // --client NAME: that client's documented rules
  bool compare = false;
  std::vector<std::string> touched;  // --path FILE: conditional rules matching it apply
  bool no_client_config = false;     // --no-client-config: profiles with their defaults
};

// The user's global file: $XDG_CONFIG_HOME/strata/AGENTS.md, else ~/.config/strata/AGENTS.md.
std::vector<fs::path> DefaultGlobalFiles() {
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  if (xdg != nullptr && xdg[0] != '\0') return {fs::path(xdg) / "strata" / "AGENTS.md"};
  const fs::path home = HomeDir();
  if (!home.empty()) return {home / ".config/strata/AGENTS.md"};
  return {};
}

// A client's profile with its own settings (Codex config.toml, gemini-cli settings.json), the
// global file left out under --no-global and replaced by --global.
Result<DiscoverOptions> ClientProfileOptions(const DiscoverFlags& flags, Client client) {
  ClientSettings settings;
  if (!flags.no_client_config) {
    STRATA_TRY_ASSIGN(settings, ReadClientSettings(client, flags.dir, HomeDir(), CodexHome()));
  }
  DiscoverOptions options = ClientOptions(client, flags.dir, HomeDir(), settings);
  if (flags.no_global) options.global_files.clear();
  if (!flags.globals.empty())
    options.global_files.assign(flags.globals.begin(), flags.globals.end());
  options.touched_paths.assign(flags.touched.begin(), flags.touched.end());
  return options;
}

Result<DiscoverOptions> ToOptions(const DiscoverFlags& flags) {
  if (std::optional<Client> client = ClientFromName(flags.client)) {
    return ClientProfileOptions(flags, *client);
  }
  DiscoverOptions options;
  options.touched_paths.assign(flags.touched.begin(), flags.touched.end());
  options.working_dir = flags.dir;
  if (!flags.no_global) {
    options.global_files = flags.globals.empty()
                               ? DefaultGlobalFiles()
                               : std::vector<fs::path>(flags.globals.begin(), flags.globals.end());
  }
  if (!flags.markers.empty()) options.root_markers = flags.markers;
  if (!flags.names.empty()) options.file_names = flags.names;
  if (!flags.root.empty()) options.project_root = flags.root;
  options.walk_to_filesystem_root = flags.walk_to_top;
  options.project_config = true;
  if (flags.first_only) options.same_directory = SameDirectoryRule::kFirstOnly;
  options.budget.per_file_bytes = flags.max_file_bytes;
  options.budget.total_bytes = flags.max_total_bytes;
  options.imports.max_depth = flags.max_depth;
  options.imports.allow_outside_root = flags.allow_outside_root;
  options.imports.allowed_dirs.assign(flags.allow_dirs.begin(), flags.allow_dirs.end());
  if (const char* home = std::getenv("HOME"); home != nullptr && home[0] != '\0') {
    options.imports.home_dir = home;
  }
  return options;
}

nlohmann::ordered_json ConditionalJson(const std::vector<ConditionalRule>& rules) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const ConditionalRule& rule : rules) {
    out.push_back({{"path", rule.path},
                   {"key", rule.key},
                   {"patterns", rule.patterns},
                   {"applied", !rule.matched.empty()},
                   {"matched", rule.matched}});
  }
  return out;
}

nlohmann::ordered_json ToJson(const Discovery& d, bool with_content) {
  nlohmann::ordered_json out;
  out["working_dir"] = d.working_dir.string();
  out["project_root"] = d.project_root.string();
  out["root_marker"] = d.root_marker;
  out["sources"] = nlohmann::ordered_json::array();
  for (const Source& s : d.sources) {
    nlohmann::ordered_json j;
    j["origin"] = SourceOriginName(s.origin);
    j["path"] = s.display_path;
    j["absolute_path"] = s.path.string();
    j["bytes"] = s.bytes;
    j["truncated"] = s.truncated;
    j["bytes_cut"] = s.bytes_cut;
    if (!s.condition.empty()) j["condition"] = s.condition;
    if (s.origin == SourceOrigin::kImport) {
      j["imported_by"] = s.imported_by;
      j["import_depth"] = s.import_depth;
    }
    if (with_content) j["content"] = s.content;
    out["sources"].push_back(std::move(j));
  }
  out["conditional_rules"] = ConditionalJson(d.conditional_rules);
  out["diagnostics"] = nlohmann::ordered_json::array();
  for (const Diagnostic& x : d.diagnostics) {
    nlohmann::ordered_json j;
    j["severity"] = SeverityName(x.severity);
    j["kind"] = x.kind;
    j["message"] = x.message;
    j["path"] = x.where.path;
    j["line"] = x.where.line;
    j["column"] = x.where.column;
    out["diagnostics"].push_back(std::move(j));
  }
  return out;
}

void PrintTable(const Discovery& d) {
  std::printf("project root: %s (%s)\n", d.project_root.c_str(),
              d.root_marker.empty() ? "no marker found" : ("marker " + d.root_marker).c_str());
  if (d.sources.empty()) {
    std::printf("no instruction files\n");
    return;
  }
  std::printf("%-8s %9s  %-9s %s\n", "ORIGIN", "BYTES", "TRUNCATED", "PATH");
  for (const Source& s : d.sources) {
    std::string cut = s.truncated ? "-" + std::to_string(s.bytes_cut) : "no";
    std::string path = s.display_path;
    if (s.origin == SourceOrigin::kImport) path += "  (imported by " + s.imported_by + ")";
    if (!s.condition.empty()) path += "  (" + s.condition + ")";
    std::printf("%-8s %9zu  %-9s %s\n", SourceOriginName(s.origin), s.bytes, cut.c_str(),
                path.c_str());
  }
}

int RunCompare(const DiscoverFlags& flags);

int PrintLookupError(const DiscoverFlags& flags, const Error& error) {
  if (flags.json) {
    PrintJson({{"ok", false},
               {"error", DiagnosticJson({Severity::kError, "error", error.message, error.where})}});
  }
  return PrintError(error);
}

int RunDiscover(const DiscoverFlags& flags) {
  if (!flags.client.empty() && !ClientFromName(flags.client)) {
    return PrintLookupError(
        flags, Error{ErrorKind::kInvalidArgument,
                     "unknown client '" + flags.client + "'; valid clients: " + ClientNameList(),
                     {}});
  }
  if (flags.compare) return RunCompare(flags);
  Result<DiscoverOptions> options = ToOptions(flags);
  if (!options) return PrintLookupError(flags, options.error());
  Result<Discovery> d = flags.all ? DiscoverAll(*options) : Discover(*options);
  if (!d) return PrintLookupError(flags, d.error());
  bool failed = false;
  for (const Diagnostic& x : d->diagnostics) failed = failed || x.severity == Severity::kError;
  if (flags.json) {
    std::printf("%s\n", ToJson(*d, flags.content).dump(2).c_str());
    return failed ? 1 : 0;
  }
  if (flags.content) {
    std::fputs(AssembleSources(d->sources).c_str(), stdout);
  } else {
    PrintTable(*d);
  }
  for (const Diagnostic& x : d->diagnostics) {
    // Library paths are relative to DIR; printed ones to the current directory, for editors.
    if (x.severity != Severity::kNote || flags.verbose) {
      PrintDiagnostic(WithPathFromCwd(x, d->working_dir));
    }
  }
  return failed ? 1 : 0;
}

nlohmann::ordered_json CompareJson(const Comparison& c) {
  nlohmann::ordered_json out;
  out["working_dir"] = c.working_dir.string();
  out["files"] = c.files;
  out["clients"] = nlohmann::ordered_json::array();
  for (const ClientView& view : c.views) {
    nlohmann::ordered_json j;
    j["client"] = ClientName(view.client);
    j["project_root"] = view.discovery.project_root.string();
    j["loads"] = nlohmann::ordered_json::array();
    size_t bytes = 0, tokens = 0;
    for (const Source& s : view.discovery.sources) {
      size_t t = EstimateTokens(s.content);
      bytes += s.content.size();
      tokens += t;
      j["loads"].push_back({{"path", s.display_path},
                            {"origin", SourceOriginName(s.origin)},
                            {"bytes", s.content.size()},
                            {"tokens", t},
                            {"truncated", s.truncated},
                            {"bytes_cut", s.bytes_cut},
                            {"condition", s.condition}});
    }
    j["total_bytes"] = bytes;
    j["total_tokens"] = tokens;
    j["conditional_rules"] = ConditionalJson(view.discovery.conditional_rules);
    j["notes"] = view.notes;
    out["clients"].push_back(std::move(j));
  }
  return out;
}

// One row per file, one column per client: "N: BYTES/TOKENS" (load order N), "-" not read.
void PrintCompareTable(const Comparison& c) {
  std::printf("working dir: %s (tokens estimated at 4 bytes each)\n", c.working_dir.c_str());
  size_t width = 4;
  for (const auto& f : c.files) width = std::max(width, f.size());
  std::printf("%-*s", static_cast<int>(width), "FILE");
  for (const ClientView& v : c.views) std::printf("  %-16s", ClientName(v.client));
  std::printf("\n");
  auto row = [&](const std::string& label, const auto& cell) {
    std::printf("%-*s", static_cast<int>(width), label.c_str());
    for (const ClientView& v : c.views) std::printf("  %-16s", cell(v).c_str());
    std::printf("\n");
  };
  for (const std::string& file : c.files) {
    row(file, [&](const ClientView& v) {
      for (size_t i = 0; i < v.discovery.sources.size(); ++i) {
        const Source& s = v.discovery.sources[i];
        if (s.display_path != file) continue;
        return std::to_string(i + 1) + ": " + std::to_string(s.content.size()) + "/" +
               std::to_string(EstimateTokens(s.content)) + (s.truncated ? " cut" : "") +
               (s.condition.empty() ? "" : " if");
      }
      for (const ConditionalRule& rule : v.discovery.conditional_rules) {
        if (rule.path == file) return "if " + rule.key;
      }
      return std::string("-");
    });
  }
  row("TOTAL", [](const ClientView& v) {
    size_t bytes = 0, tokens = 0;
    for (const Source& s : v.discovery.sources) {
      bytes += s.content.size();
      tokens += EstimateTokens(s.content);
    }
    return std::to_string(bytes) + "/" + std::to_string(tokens);
  });
  for (const ClientView& v : c.views) {
    for (const std::string& note : v.notes)
      std::printf("%s: %s\n", ClientName(v.client), note.c_str());
  }
}

int RunCompare(const DiscoverFlags& flags) {
  CompareOptions options;
  if (!flags.no_global) {
    options.home = HomeDir();
    options.codex_home = CodexHome();
  }
  options.touched_paths.assign(flags.touched.begin(), flags.touched.end());
  options.read_settings = !flags.no_client_config;
  Result<Comparison> c = CompareClientsWith(flags.dir, options);
  if (!c) return PrintLookupError(flags, c.error());
  if (flags.json) {
    std::printf("%s\n", CompareJson(*c).dump(2).c_str());
  } else {
    PrintCompareTable(*c);
  }
  return 0;
}

}  // namespace

void AddDiscoverCommand(CLI::App& app, int* exit_code) {
  auto flags = std::make_shared<DiscoverFlags>();
  CLI::App* cmd = app.add_subcommand(
      "discover", "List the instruction files an agent working in DIR sees, in order");
  cmd->add_option("DIR", flags->dir, "working directory (default: .)");
  cmd->add_flag("--json", flags->json, "print the result as JSON");
  cmd->add_flag("--content", flags->content,
                "print the assembled text, each source under a path header");
  cmd->add_flag("--all", flags->all,
                "also list every instruction file below DIR (what the subdirectory tracker "
                "would deliver)");
  cmd->add_flag("-v,--verbose", flags->verbose,
                "also print notes (every import and every refused @ token)");
  cmd->add_option("--global", flags->globals,
                  "global instruction file (default: $XDG_CONFIG_HOME/strata/AGENTS.md or "
                  "~/.config/strata/AGENTS.md)")
      ->allow_extra_args(false);
  cmd->add_flag("--no-global", flags->no_global, "do not load a global file");
  cmd->add_option("--marker", flags->markers, "project root marker (default: .git); repeatable")
      ->allow_extra_args(false);
  cmd->add_option("--root", flags->root, "use this directory as the project root");
  cmd->add_flag("--walk-to-fs-root", flags->walk_to_top,
                "without a root marker, walk every ancestor up to /");
  cmd->add_option("--name", flags->names,
                  "instruction file name or pattern, in precedence order (default: AGENTS.md "
                  "CLAUDE.md .claude/CLAUDE.md .claude/rules/**/*.md GEMINI.md); repeatable")
      ->allow_extra_args(false);
  cmd->add_flag("--first-only", flags->first_only,
                "load only the first existing name per directory");
  cmd->add_option("--max-file-bytes", flags->max_file_bytes, "per-file budget in bytes (0: none)")
      ->check(NonNegative());
  cmd->add_option("--max-total-bytes", flags->max_total_bytes, "total budget in bytes (0: none)")
      ->check(NonNegative());
  cmd->add_option(
         "--max-import-depth", flags->max_depth,
         "import depth limit (default: 5; at most " + std::to_string(kMaxImportDepthCap) + ")")
      ->check(CLI::Range(0, kMaxImportDepthCap));
  cmd->add_flag("--allow-outside-root", flags->allow_outside_root,
                "follow imports that resolve outside the project root");
  cmd->add_option("--allow-dir", flags->allow_dirs,
                  "a directory outside the root imports may reach; repeatable")
      ->allow_extra_args(false);
  cmd->add_option("--client", flags->client,
                  "apply this client's documented discovery rules: " + ClientNameList());
  cmd->add_flag("--compare", flags->compare,
                "one table of what every client loads here, in order, with bytes and tokens, and "
                "what each truncates, shadows or never reads");
  cmd->add_option("--path", flags->touched,
                  "a file the agent works on: rules limited to matching paths (Claude Code "
                  "paths:, Copilot applyTo:, Cursor globs:) apply; repeatable")
      ->allow_extra_args(false);
  cmd->add_flag("--no-client-config", flags->no_client_config,
                "with --client or --compare: ignore the clients' own settings (Codex "
                "$CODEX_HOME/config.toml, gemini-cli .gemini/settings.json)");
  cmd->callback([flags, exit_code] { *exit_code = RunDiscover(*flags); });
}

}  // namespace strata::cli
