// targets.cc: the client table. Paths and formats follow each client's documentation; where the
// documentation disagrees with itself the note says which value strata uses.
#include "targets/targets.h"

#include <cctype>

namespace strata {

namespace {

// Constant-initialised: no work at start-up.
constexpr ClientTarget kTargets[] = {
    {"claude-code",
     "Claude Code",
     {"Claude", "Claude Code CLI"},
     "CLAUDE.md",
     TargetFormat::kMarkdown,
     0,
     "Claude Code memory docs: project CLAUDE.md at the root"},
    {"cursor",
     "Cursor",
     {},
     ".cursor/rules/strata.mdc",
     TargetFormat::kCursorMdc,
     0,
     "Cursor rules docs: .cursor/rules/*.mdc with description/globs/alwaysApply frontmatter"},
    {"copilot",
     "GitHub Copilot",
     {"Copilot"},
     ".github/copilot-instructions.md",
     TargetFormat::kMarkdown,
     0,
     "GitHub Copilot docs: repository-wide custom instructions file"},
    {"windsurf",
     "Windsurf",
     {"Codeium"},
     ".windsurf/rules/strata.md",
     TargetFormat::kWindsurfRule,
     12000,
     "Windsurf rules docs: .windsurf/rules/*.md, trigger frontmatter; per-file limit 12,000 "
     "characters (one older docs version says 6,000)"},
    {"gemini-cli",
     "Gemini CLI",
     {"Gemini"},
     "GEMINI.md",
     TargetFormat::kMarkdown,
     0,
     "Gemini CLI docs: GEMINI.md context file in the workspace and its parents"},
    {"codex",
     "Codex",
     {"Codex CLI", "OpenAI Codex", "opencode", "Amp"},
     "AGENTS.md",
     TargetFormat::kMarkdown,
     0,
     "Codex/opencode/Amp read AGENTS.md; written only when the source lives elsewhere"},
    {"cline",
     "Cline",
     {},
     ".clinerules/strata.md",
     TargetFormat::kMarkdown,
     0,
     "Cline docs: .clinerules/*.md"},
    {"zed",
     "Zed",
     {},
     ".rules",
     TargetFormat::kMarkdown,
     0,
     "Zed docs: first of .rules, .cursorrules, .windsurfrules, ..., AGENTS.md; no frontmatter"},
    {"junie",
     "Junie",
     {"JetBrains Junie"},
     ".junie/AGENTS.md",
     TargetFormat::kMarkdown,
     0,
     "Junie docs: .junie/AGENTS.md (legacy .junie/guidelines.md)"},
    {"kiro",
     "Kiro",
     {},
     ".kiro/steering/strata.md",
     TargetFormat::kKiroSteering,
     0,
     "Kiro docs: .kiro/steering/*.md with inclusion frontmatter"},
    {"amazon-q",
     "Amazon Q",
     {"Amazon Q Developer"},
     ".amazonq/rules/strata.md",
     TargetFormat::kMarkdown,
     0,
     "Amazon Q Developer docs: .amazonq/rules/*.md"},
    {"aider",
     "Aider",
     {},
     "CONVENTIONS.md",
     TargetFormat::kMarkdown,
     0,
     "Aider docs: CONVENTIONS.md, loaded when listed under read: in .aider.conf.yml"},
};

}  // namespace

std::span<const ClientTarget> AllTargets() { return kTargets; }

const ClientTarget* FindTarget(std::string_view id) {
  for (const auto& target : AllTargets()) {
    if (target.id == id) return &target;
  }
  return nullptr;
}

static bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

std::string MatchClientHeading(std::string_view heading) {
  while (!heading.empty() && std::isspace(static_cast<unsigned char>(heading.front()))) {
    heading.remove_prefix(1);
  }
  while (!heading.empty() && std::isspace(static_cast<unsigned char>(heading.back()))) {
    heading.remove_suffix(1);
  }
  for (const auto& target : AllTargets()) {
    if (EqualsIgnoreCase(heading, target.display_name)) return std::string(target.id);
    for (auto alias : target.aliases) {
      if (!alias.empty() && EqualsIgnoreCase(heading, alias)) return std::string(target.id);
    }
  }
  return "";
}

std::string ValidTargetIds() {
  std::string out;
  for (const auto& target : AllTargets()) {
    if (!out.empty()) out += ", ";
    out += target.id;
  }
  return out;
}

}  // namespace strata
