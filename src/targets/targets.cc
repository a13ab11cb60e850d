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
     "Claude Code memory docs: project CLAUDE.md at the root",
     {".claude/CLAUDE.md"},
     "code.claude.com/docs/en/memory: ./CLAUDE.md or ./.claude/CLAUDE.md, both loaded; AGENTS.md "
     "only when imported"},
    {"cursor",
     "Cursor",
     {},
     ".cursor/rules/strata.mdc",
     TargetFormat::kCursorMdc,
     0,
     "Cursor rules docs: .cursor/rules/*.mdc with description/globs/alwaysApply frontmatter",
     {"AGENTS.md"},
     "cursor.com/docs/rules: AGENTS.md in the project root (and subdirectories), a simple "
     "alternative to .cursor/rules; both load"},
    {"copilot",
     "GitHub Copilot",
     {"Copilot"},
     ".github/copilot-instructions.md",
     TargetFormat::kMarkdown,
     0,
     "GitHub Copilot docs: repository-wide custom instructions file",
     {"AGENTS.md"},
     "docs.github.com, adding repository custom instructions: agent instructions in AGENTS.md (the "
     "nearest in the tree) besides .github/copilot-instructions.md; VS Code setting "
     "chat.useAgentsMdFile, on by default",
     0,
     "",
     4000,
     "docs.github.com, customizing Copilot code review: code review reads only the first 4,000 "
     "characters of a custom instruction file"},
    {"windsurf",
     "Windsurf",
     {"Codeium"},
     ".windsurf/rules/strata.md",
     TargetFormat::kWindsurfRule,
     12000,
     "Windsurf rules docs: .windsurf/rules/*.md, trigger frontmatter; per-file limit 12,000 "
     "characters (one older docs version says 6,000)",
     {"AGENTS.md"},
     "docs.windsurf.com/windsurf/cascade/agents-md: a root AGENTS.md is an always-on rule of the "
     "same rules engine as .windsurf/rules"},
    {"gemini-cli",
     "Gemini CLI",
     {"Gemini"},
     "GEMINI.md",
     TargetFormat::kMarkdown,
     0,
     "Gemini CLI docs: GEMINI.md context file in the workspace and its parents"},
    {"codex",
     "Codex",
     {"Codex CLI", "OpenAI Codex"},
     "AGENTS.md",
     TargetFormat::kMarkdown,
     0,
     "developers.openai.com/codex/guides/agents-md; opencode.ai/docs/rules; ampcode.com/manual: "
     "AGENTS.md; written only when the source lives elsewhere",
     {},
     "",
     kCodexProjectDocMaxBytes,
     "project_doc_max_bytes (default 32 KiB): Codex loads at most this many bytes of AGENTS.md "
     "files, head kept"},
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
     "recursively, in file-name order); plain markdown",
     {"AGENTS.md"},
     "docs.roocode.com/features/custom-instructions (RooCodeInc/Roo-Code-Docs#315, Aug 2025): "
     "AGENTS.md in the workspace root, loaded besides .roo/rules unless roo-cline.useAgentRules is "
     "off"},
    {"kilo-code",
     "Kilo Code",
     {"Kilo"},
     ".kilocode/rules/strata.md",
     TargetFormat::kMarkdown,
     0,
     "kilo.ai/docs/customize/custom-rules: project rules in .kilocode/rules/*.md; plain markdown, "
     "no frontmatter",
     {"AGENTS.md"},
     "kilo.ai/docs/customize/agents-md: AGENTS.md in the project root, loaded besides "
     ".kilocode/rules"},
    {"goose",
     "Goose",
     {},
     ".goosehints",
     TargetFormat::kMarkdown,
     0,
     "block.github.io/goose (context engineering: .goosehints): a plain-text hints file in the "
     "project root, loaded at session start",
     {"AGENTS.md"},
     "block/goose crates/goose/src/hints/load_hints.rs: CONTEXT_FILE_NAMES .goosehints and "
     "AGENTS.md, both loaded"},
    {"crush",
     "Crush",
     {},
     "CRUSH.md",
     TargetFormat::kMarkdown,
     0,
     "Crush context files (charmbracelet/crush): CRUSH.md among the context files read from the "
     "project root",
     {"AGENTS.md", "CLAUDE.md"},
     "charmbracelet/crush internal/config defaultContextPaths: CRUSH.md, AGENTS.md, CLAUDE.md, "
     "GEMINI.md and more; every one that exists is loaded"},
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
     "is attached manually unless its frontmatter says type: always_apply",
     {"AGENTS.md", "CLAUDE.md"},
     "docs.augmentcode.com/cli/rules: Auggie also loads AGENTS.md and CLAUDE.md from the "
     "workspace"},
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
     "docs.x.ai/build/features/project-rules: every *.md in .grok/rules/, besides AGENTS.md",
     {"AGENTS.md"},
     "docs.x.ai/build/features/project-rules: AGENTS.md besides every *.md in .grok/rules/"},
    {"amp",
     "Amp",
     {"Sourcegraph Amp"},
     "AGENTS.md",
     TargetFormat::kMarkdown,
     0,
     "ampcode.com/manual (AGENTS.md in the working directory and its parents)",
     {},
     "reads AGENTS.md itself: served by an AGENTS.md source"},
    {"opencode",
     "OpenCode",
     {"sst opencode"},
     "AGENTS.md",
     TargetFormat::kMarkdown,
     0,
     "opencode.ai/docs/rules: AGENTS.md (CLAUDE.md as a fallback)",
     {},
     "reads AGENTS.md itself: served by an AGENTS.md source"},
    {"factory",
     "Factory Droid",
     {"Factory AI"},
     "AGENTS.md",
     TargetFormat::kMarkdown,
     0,
     "docs.factory.ai/cli/configuration/agents-md: AGENTS.md at the repository root and in "
     "subdirectories",
     {},
     "reads AGENTS.md itself: served by an AGENTS.md source"},
    {"jules",
     "Jules",
     {"Google Jules"},
     "AGENTS.md",
     TargetFormat::kMarkdown,
     0,
     "jules.google/docs: Jules reads AGENTS.md at the repository root",
     {},
     "reads AGENTS.md itself: served by an AGENTS.md source"},
    {"mistral-vibe",
     "Mistral Vibe",
     {"Mistral Vibe CLI"},
     "AGENTS.md",
     TargetFormat::kMarkdown,
     0,
     "mistralai/mistral-vibe vibe/core/config/harness_files: AGENTS.md in the project",
     {},
     "reads AGENTS.md itself: served by an AGENTS.md source"},
    {"pi",
     "Pi Coding Agent",
     {"pi-coding-agent"},
     "AGENTS.md",
     TargetFormat::kMarkdown,
     0,
     "pi.dev/docs/latest/usage: AGENTS.md context files from the working directory up",
     {},
     "reads AGENTS.md itself: served by an AGENTS.md source"},
    {"kimi",
     "Kimi Code",
     {"Kimi CLI"},
     "AGENTS.md",
     TargetFormat::kMarkdown,
     0,
     "moonshotai.github.io/kimi-code/en/customization/agents.html: AGENTS.md in the project root",
     {},
     "reads AGENTS.md itself: served by an AGENTS.md source"},
    {"devin",
     "Devin",
     {"Devin CLI"},
     "AGENTS.md",
     TargetFormat::kMarkdown,
     0,
     "docs.devin.ai/cli/extensibility/rules: AGENTS.md rules",
     {},
     "reads AGENTS.md itself: served by an AGENTS.md source"},
    {"rovo-dev",
     "Rovo Dev",
     {"Rovo Dev CLI", "Atlassian Rovo Dev"},
     "AGENTS.md",
     TargetFormat::kMarkdown,
     0,
     "developer.atlassian.com/platform/rovodev-cli, "
     "support.atlassian.com/rovo/docs/use-memory-in-rovo-dev-cli: AGENTS.md memory file",
     {},
     "reads AGENTS.md itself: served by an AGENTS.md source"},
    {"zcode",
     "Z Code",
     {"ZCode"},
     "AGENTS.md",
     TargetFormat::kMarkdown,
     0,
     "zcode.z.ai/en/docs/agents: AGENTS.md in the project",
     {},
     "reads AGENTS.md itself: served by an AGENTS.md source"},
    {"muse-code",
     "Muse Code",
     {"MuseCode"},
     "AGENTS.md",
     TargetFormat::kMarkdown,
     0,
     "dev.meta.ai/docs/muse-code/configuration.md: AGENTS.md in the project",
     {},
     "reads AGENTS.md itself: served by an AGENTS.md source"},
    {"command-code",
     "Command Code",
     {"CommandCode"},
     "AGENTS.md",
     TargetFormat::kMarkdown,
     0,
     "commandcode.ai/docs/memory: AGENTS.md in the project root",
     {},
     "reads AGENTS.md itself: served by an AGENTS.md source"},
    {"cortex-code",
     "Cortex Code",
     {"Snowflake Cortex Code"},
     "AGENTS.md",
     TargetFormat::kMarkdown,
     0,
     "docs.snowflake.com/en/user-guide/cortex-code/cortex-code: AGENTS.md in the project",
     {},
     "reads AGENTS.md itself: served by an AGENTS.md source"},
    {"codebuddy",
     "CodeBuddy",
     {"CodeBuddy Code"},
     "CODEBUDDY.md",
     TargetFormat::kMarkdown,
     0,
     "codebuddy.ai/docs/cli/memory: CODEBUDDY.md at the project root"},
    {"tabnine",
     "Tabnine",
     {"Tabnine Agent"},
     ".tabnine/guidelines/strata.md",
     TargetFormat::kMarkdown,
     0,
     "docs.tabnine.com/main/getting-started/tabnine-agent/guidelines: project guidelines are "
     "markdown files in .tabnine/guidelines/"},
    {"replit",
     "Replit Agent",
     {},
     "replit.md",
     TargetFormat::kMarkdown,
     0,
     "docs.replit.com (Replit Agent): replit.md at the project root"},
    {"reasonix",
     "Reasonix",
     {"DeepSeek Reasonix"},
     "REASONIX.md",
     TargetFormat::kMarkdown,
     0,
     "esengine/DeepSeek-Reasonix docs/GUIDE.md: REASONIX.md in the project root"},
    {"hermes",
     "Hermes Agent",
     {},
     ".hermes.md",
     TargetFormat::kMarkdown,
     0,
     "NousResearch/hermes-agent website/docs/user-guide/features/context-files.md: .hermes.md in "
     "the project"},
    {"bob",
     "IBM Bob",
     {"Bob", "Bob Shell"},
     ".bob/rules/strata.md",
     TargetFormat::kMarkdown,
     0,
     "bob.ibm.com/docs/ide/configuration/rules (and "
     "docs/shell/configuration/bobshell-custom-rules): "
     "workspace rules in .bob/rules/, every file loaded in file-name order; plain markdown",
     {"AGENTS.md"},
     "ibm.com/docs/en/bobz (Generating the AGENTS.md file): Bob loads AGENTS.md at the start of "
     "every task, besides its rules"},
    {"zoo-code",
     "Zoo Code",
     {"ZooCode"},
     ".roo/rules/strata.md",
     TargetFormat::kMarkdown,
     0,
     "Zoo-Code-Org/Zoo-Code src/core/prompts/sections/custom-instructions.ts (the Roo Code "
     "continuation): workspace rules in .roo/rules/, every file; the same file as roo-code",
     {"AGENTS.md"},
     "Zoo-Code-Org/Zoo-Code custom-instructions.ts: AGENTS.md in the workspace root, loaded "
     "besides .roo/rules unless useAgentRules is off"},
    {"deepagents",
     "Deep Agents Code",
     {"deepagents-cli", "dcode"},
     ".deepagents/AGENTS.md",
     TargetFormat::kMarkdown,
     0,
     "docs.langchain.com/oss/python/deepagents/code/memory-and-skills: project memory "
     ".deepagents/AGENTS.md in the git project root, loaded at session start"},
    {"pool",
     "Poolside",
     {"Pool", "Poolside Agent"},
     "AGENTS.md",
     TargetFormat::kMarkdown,
     0,
     "docs.poolside.ai/agent-instructions: AGENTS.md at the repository root and in "
     "subdirectories",
     {},
     "reads AGENTS.md itself: served by an AGENTS.md source"},
    {"dsh",
     "DeepSeek Harness",
     {"dsh"},
     "AGENTS.md",
     TargetFormat::kMarkdown,
     0,
     "deepseek-ai/deepseek-harness packages/context/agent-instructions (dsh-agent-instructions): "
     "AGENTS.md from the git root down to the working directory",
     {"CLAUDE.md"},
     "dsh-agent-instructions src/config.ts: candidates AGENTS.md and CLAUDE.md, a sibling with "
     "different text injected too"},
};

}  // namespace

std::span<const ClientTarget> AllTargets() { return kTargets; }

const ClientTarget* FindTarget(std::string_view id) {
  for (const auto& target : AllTargets()) {
    if (target.id == id) return &target;
  }
  return nullptr;
}

bool ReadsItself(const ClientTarget& target, std::string_view source) {
  if (target.path == source) return true;
  for (std::string_view name : target.reads_too) {
    if (!name.empty() && name == source) return true;
  }
  return false;
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
