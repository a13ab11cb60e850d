// client_profiles.cc: each client's documented discovery rules as DiscoverOptions (the rules and
// where each client documents them are in docs/discover.md, "Client profiles").
#include <algorithm>

#include "base/enum_names.h"
#include "strata/discover.h"

namespace strata {

namespace fs = std::filesystem;

namespace {

constexpr EnumName<Client> kClientNames[] = {
    {Client::kClaudeCode, "claude-code"},
    {Client::kCodex, "codex"},
    {Client::kGeminiCli, "gemini-cli"},
    {Client::kOpencode, "opencode"},
    {Client::kGoose, "goose"},
    {Client::kCopilot, "copilot"},
    {Client::kCursor, "cursor"},
};

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
  // CLAUDE.local.md; @imports 5 hops, relative, ~/; AGENTS.md only when imported.
  o->root_markers.clear();
  o->walk_to_filesystem_root = true;
  o->file_names = {"CLAUDE.md", ".claude/CLAUDE.md", ".claude/rules/**/*.md"};
  o->local_file_names = {"CLAUDE.local.md"};
  o->global_files = Under(home, {".claude/CLAUDE.md"});
  o->imports.max_depth = 5;
  o->imports.allow_outside_root = true;  // external imports load after a one-time approval
  o->imports.skip_gitignored = true;
}

void Codex(const fs::path& home, DiscoverOptions* o) {
  // Root (.git) down to cwd, AGENTS.override.md else AGENTS.md per directory, one 32 KiB
  // budget spent root-first, head kept; no imports. Global: CODEX_HOME (~/.codex).
  o->file_names = {"AGENTS.override.md", "AGENTS.md"};
  o->same_directory = SameDirectoryRule::kFirstOnly;
  o->global_files = Under(home, {".codex/AGENTS.override.md"});
  if (o->global_files.empty() || !fs::exists(o->global_files.front())) {
    o->global_files = Under(home, {".codex/AGENTS.md"});
  }
  o->budget.total_bytes = size_t{32} * 1024;
  o->budget.keep_tail = false;
  o->imports.enabled = false;
}

void GeminiCli(const fs::path& home, DiscoverOptions* o) {
  // GEMINI.md: global ~/.gemini/GEMINI.md, then project root (.git) down to cwd; files below
  // cwd just in time; @imports depth 5 inside the project.
  o->file_names = {"GEMINI.md"};
  o->global_files = Under(home, {".gemini/GEMINI.md"});
  o->imports.max_depth = 5;
}

void Opencode(const fs::path& home, DiscoverOptions* o) {
  // AGENTS.md, CLAUDE.md, CONTEXT.md: the first name found walking up from cwd to the worktree
  // root wins; global ~/.config/opencode/AGENTS.md, else ~/.claude/CLAUDE.md; no imports.
  o->file_names = {"AGENTS.md", "CLAUDE.md", "CONTEXT.md"};
  o->same_directory = SameDirectoryRule::kFirstNameInTree;
  o->global_files = Under(home, {".config/opencode/AGENTS.md"});
  if (o->global_files.empty() || !fs::exists(o->global_files.front())) {
    o->global_files = Under(home, {".claude/CLAUDE.md"});
  }
  o->imports.enabled = false;
}

void Goose(const fs::path& home, DiscoverOptions* o) {
  // .goosehints and AGENTS.md from the git root down to cwd; global ~/.config/goose/.goosehints;
  // @imports depth 3 inside the git root, .gitignore respected.
  o->file_names = {".goosehints", "AGENTS.md"};
  o->global_files = Under(home, {".config/goose/.goosehints"});
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

const char* ClientName(Client client) {
  std::string_view name = NameOf(kClientNames, client);  // literals: NUL-terminated
  return name.empty() ? "unknown" : name.data();
}

std::optional<Client> ClientFromName(std::string_view name) {
  for (const auto& entry : kClientNames) {
    if (entry.name == name) return entry.value;
  }
  return std::nullopt;
}

std::vector<Client> AllClients() {
  std::vector<Client> out;
  for (const auto& entry : kClientNames) out.push_back(entry.value);
  return out;
}

std::string ClientNameList() {
  std::string out;
  for (const auto& entry : kClientNames) out += (out.empty() ? "" : ", ") + std::string(entry.name);
  return out;
}

DiscoverOptions ClientOptions(Client client, const fs::path& working_dir, const fs::path& home) {
  DiscoverOptions o = Base(working_dir, home);
  switch (client) {
    case Client::kClaudeCode:
      ClaudeCode(home, &o);
      break;
    case Client::kCodex:
      Codex(home, &o);
      break;
    case Client::kGeminiCli:
      GeminiCli(home, &o);
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
