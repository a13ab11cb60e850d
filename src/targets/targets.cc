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
     "developers.openai.com/codex/guides/agents-md; opencode.ai/docs/rules; ampcode.com/manual: "
     "AGENTS.md; written only when the source lives elsewhere"},
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
    {"roo-code",
     "Roo Code",
     {"Roo"},
     ".roo/rules/strata.md",
     TargetFormat::kMarkdown,
     0,
     "docs.roocode.com/features/custom-instructions: workspace rules in .roo/rules/ (every file, "
     "recursively, in file-name order); plain markdown"},
    {"kilo-code",
     "Kilo Code",
     {"Kilo"},
     ".kilocode/rules/strata.md",
     TargetFormat::kMarkdown,
     0,
     "kilo.ai/docs/customize/custom-rules: project rules in .kilocode/rules/*.md; plain markdown, "
     "no frontmatter"},
    {"goose",
     "Goose",
     {},
     ".goosehints",
     TargetFormat::kMarkdown,
     0,
     "block.github.io/goose (context engineering: .goosehints): a plain-text hints file in the "
     "project root, loaded at session start"},
    {"crush",
     "Crush",
     {},
     "CRUSH.md",
     TargetFormat::kMarkdown,
     0,
     "Crush context files (charmbracelet/crush): CRUSH.md among the context files read from the "
     "project root"},
    {"warp",
     "Warp",
     {},
     "WARP.md",
     TargetFormat::kMarkdown,
     0,
     "docs.warp.dev/agents/capabilities/rules: project rules in AGENTS.md, or WARP.md (still "
     "fully supported), at the root or in subdirectories"},
    {"openhands",
     "OpenHands",
     {},
     ".openhands/microagents/repo.md",
     TargetFormat::kMarkdown,
     0,
     "docs.openhands.dev/openhands/usage/microagents/microagents-repo: the general repository "
     "microagent, always loaded; frontmatter optional"},
    {"continue",
     "Continue",
     {},
     ".continue/rules/strata.md",
     TargetFormat::kContinueRule,
     0,
     "docs.continue.dev/customize/deep-dives/rules: local rules in .continue/rules/*.md; "
     "frontmatter name, alwaysApply, globs"},
    {"augment",
     "Augment",
     {"Augment Code", "Auggie"},
     ".augment/rules/strata.md",
     TargetFormat::kAugmentRule,
     0,
     "docs.augmentcode.com/cli/rules: workspace rules in .augment/rules/*.md; a workspace rule "
     "is attached manually unless its frontmatter says type: always_apply"},
    {"qwen-code",
     "Qwen Code",
     {"Qwen"},
     "QWEN.md",
     TargetFormat::kMarkdown,
     0,
     "qwenlm.github.io/qwen-code-docs/en/users/features/memory: QWEN.md in the project root"},
    {"trae",
     "Trae",
     {},
     ".trae/rules/project_rules.md",
     TargetFormat::kMarkdown,
     0,
     "Trae rules docs: project rules in .trae/rules/project_rules.md, the file Trae creates"},
    {"jetbrains-ai",
     "JetBrains AI Assistant",
     {"AI Assistant"},
     ".aiassistant/rules/strata.md",
     TargetFormat::kMarkdown,
     0,
     "jetbrains.com/help/ai-assistant/configure-project-rules.html: project rules are markdown "
     "files in .aiassistant/rules/; the rule type (default Always) lives in IDE settings"},
    {"firebase-studio",
     "Firebase Studio",
     {"Gemini in Firebase"},
     ".idx/airules.md",
     TargetFormat::kMarkdown,
     0,
     "firebase.google.com/docs/studio/set-up-gemini: the AI rules file .idx/airules.md"},
    {"antigravity",
     "Antigravity",
     {"Google Antigravity"},
     ".agents/rules/strata.md",
     TargetFormat::kMarkdown,
     0,
     "Antigravity workspace rules: .agents/rules/*.md (the older .agent/rules/ is still read)"},
    {"grok",
     "Grok",
     {"Grok CLI"},
     ".grok/rules/strata.md",
     TargetFormat::kMarkdown,
     0,
     "docs.x.ai/build/features/project-rules: every *.md in .grok/rules/, besides AGENTS.md"},
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
    if (EqualsIgnoreCase(heading, target.display_name) || EqualsIgnoreCase(heading, target.id)) {
      return std::string(target.id);
    }
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
