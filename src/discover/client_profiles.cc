// client_profiles.cc: each client's documented discovery rules as DiscoverOptions (the rules and
// where each client documents them are in docs/discover.md, "Client profiles").
#include <algorithm>

#include "strata/discover.h"
#include "targets/targets.h"

namespace strata {

namespace fs = std::filesystem;

namespace {

// Global files under `home` (none when home is empty).
std::vector<fs::path> Under(const fs::path& home, std::initializer_list<const char*> names) {
  std::vector<fs::path> out;
  if (home.empty()) return out;
  for (const char* name : names) out.push_back(home / name);
  return out;
}

// The profile's common start: the working directory, no strata-specific names, no budgets.
DiscoverOptions Base(const fs::path& working_dir, const fs::path& home) {
  DiscoverOptions options;
  options.working_dir = working_dir;
  options.local_file_names.clear();
  options.budget.per_file_bytes = 0;
  options.budget.total_bytes = 0;
  options.imports.home_dir = home;
  return options;
}

void ClaudeCode(const fs::path& home, DiscoverOptions* o) {
  // Every ancestor up to /, CLAUDE.md, .claude/CLAUDE.md and .claude/rules/**/*.md in each;
  // CLAUDE.local.md; @imports 5 hops, relative, ~/; AGENTS.md only when imported. The project
  // root is the git root as in default discovery (so a .claude/rules link out of the repository
  // is refused as there); the ancestors above it are read for their CLAUDE.md files.
  o->above_root_file_names = {"CLAUDE.md", ".claude/CLAUDE.md"};
  o->file_names = {"CLAUDE.md", ".claude/CLAUDE.md", ".claude/rules/**/*.md"};
  o->local_file_names = {"CLAUDE.local.md"};
  o->global_files = Under(home, {".claude/CLAUDE.md"});
  o->imports.max_depth = 5;
  o->imports.allow_outside_root = true;  // external imports load after a one-time approval
  o->imports.skip_gitignored = true;
}

void Codex(const fs::path& home, const ClientSettings& settings, DiscoverOptions* o) {
  // Root (project_root_markers, default .git) down to cwd; AGENTS.override.md, else AGENTS.md,
  // else each project_doc_fallback_filenames entry: one file per directory; one
  // project_doc_max_bytes budget (32 KiB) spent root-first, head kept; no imports. Global:
  // CODEX_HOME (~/.codex) AGENTS.override.md, else AGENTS.md.
  o->file_names = {"AGENTS.override.md", "AGENTS.md"};
  for (const std::string& name : settings.codex_fallback_names) {
    if (!name.empty() &&
        std::find(o->file_names.begin(), o->file_names.end(), name) == o->file_names.end()) {
      o->file_names.push_back(name);
    }
  }
  o->same_directory = SameDirectoryRule::kFirstOnly;
  if (settings.codex_root_markers) o->root_markers = *settings.codex_root_markers;
  o->global_files = Under(home, {".codex/AGENTS.override.md"});
  if (o->global_files.empty() || !fs::exists(o->global_files.front())) {
    o->global_files = Under(home, {".codex/AGENTS.md"});
  }
  o->budget.total_bytes = settings.codex_max_bytes.value_or(kCodexProjectDocMaxBytes);
  if (o->budget.total_bytes == 0) o->file_names.clear();  // 0 turns project docs off
  o->budget.keep_tail = false;
  o->imports.enabled = false;
}

void GeminiCli(const fs::path& home, const ClientSettings& settings, DiscoverOptions* o) {
  // context.fileName (then GEMINI.md) in every directory from the project root (boundary
  // markers, default .git) to cwd, sorted by path; the same names under ~/.gemini first; files
  // below cwd just in time; @imports depth 5 inside the importing file's project.
  o->file_names.clear();
  for (const std::string& name : settings.gemini_context_file_names) {
    if (!name.empty() &&
        std::find(o->file_names.begin(), o->file_names.end(), name) == o->file_names.end()) {
      o->file_names.push_back(name);
    }
  }
  if (std::find(o->file_names.begin(), o->file_names.end(), "GEMINI.md") == o->file_names.end()) {
    o->file_names.push_back("GEMINI.md");
  }
  if (settings.gemini_boundary_markers) o->root_markers = *settings.gemini_boundary_markers;
  o->project_order = ProjectOrder::kPathOrder;
  if (!home.empty()) {
    for (const std::string& name : o->file_names)
      o->global_files.push_back(home / ".gemini" / name);
  }
  o->imports.max_depth = 5;
}

void Opencode(const fs::path& home, DiscoverOptions* o) {
  // AGENTS.md, CLAUDE.md, CONTEXT.md: the first name found anywhere from cwd up to the worktree
  // (the git root; / outside git) wins, and every copy of that name loads, cwd first; global
  // ~/.config/opencode/AGENTS.md, else ~/.claude/CLAUDE.md, before them; no imports.
  o->file_names = {"AGENTS.md", "CLAUDE.md", "CONTEXT.md"};
  o->same_directory = SameDirectoryRule::kFirstNameInTree;
  o->project_order = ProjectOrder::kWorkingDirFirst;
  o->walk_to_filesystem_root = true;
  o->global_files = Under(home, {".config/opencode/AGENTS.md"});
  if (o->global_files.empty() || !fs::exists(o->global_files.front())) {
    o->global_files = Under(home, {".claude/CLAUDE.md"});
  }
  o->imports.enabled = false;
}

void Goose(const fs::path& home, DiscoverOptions* o) {
  // .goosehints and AGENTS.md (CONTEXT_FILE_NAMES) from the git root down to cwd, both names in
  // each directory; global: each name under ~/.config/goose, then ~/.agents/AGENTS.md; @imports
  // depth 3 inside the git root (the working directory without one), .gitignore respected.
  o->file_names = {".goosehints", "AGENTS.md"};
  o->global_files =
      Under(home, {".config/goose/.goosehints", ".config/goose/AGENTS.md", ".agents/AGENTS.md"});
  o->imports.max_depth = 3;
  o->imports.skip_gitignored = true;
}

void Copilot(DiscoverOptions* o) {
  // .github/copilot-instructions.md and .github/instructions/**/*.instructions.md (applyTo) at
  // the repository root; AGENTS.md from the root down to cwd; no imports.
  o->root_file_names = {".github/copilot-instructions.md",
                        ".github/instructions/**/*.instructions.md"};
  o->file_names = {"AGENTS.md"};
  o->imports.enabled = false;
}

void Cursor(DiscoverOptions* o) {
  // .cursor/rules/**/*.mdc in the root and each directory down to cwd (alwaysApply rules in
  // the prefix, the others by globs or description); AGENTS.md; legacy .cursorrules at the root.
  o->root_file_names = {".cursorrules"};
  o->file_names = {".cursor/rules/**/*.mdc", "AGENTS.md"};
  o->imports.enabled = false;
}

}  // namespace

DiscoverOptions ClientOptions(Client client, const fs::path& working_dir, const fs::path& home,
                              const ClientSettings& settings) {
  DiscoverOptions o = Base(working_dir, home);
  switch (client) {
    case Client::kClaudeCode:
      ClaudeCode(home, &o);
      break;
    case Client::kCodex:
      Codex(home, settings, &o);
      break;
    case Client::kGeminiCli:
      GeminiCli(home, settings, &o);
      break;
    case Client::kOpencode:
      Opencode(home, &o);
      break;
    case Client::kGoose:
      Goose(home, &o);
      break;
    case Client::kCopilot:
      Copilot(&o);
      break;
    case Client::kCursor:
      Cursor(&o);
      break;
  }
  return o;
}

}  // namespace strata
