// agent_assets.h: skills, subagents and commands kept in one place (.agents/skills/NAME/SKILL.md
// and the files beside it, .agents/agents/NAME.md, .agents/commands/NAME.md) and written to each
// compiled client's own location (docs/targets.md, "Skills, subagents and commands"):
//   skills    claude-code .claude/skills/NAME/..., copilot .github/skills/NAME/...
//             (Codex and Amp read .agents/skills/ themselves)
//   agents    claude-code .claude/agents/NAME.md, copilot .github/agents/NAME.agent.md
//   commands  claude-code .claude/commands/NAME.md, cursor .cursor/commands/NAME.md
// A markdown file keeps its frontmatter and gets strata's header after it and the digest footer
// at its end, so it is checked like a target (a hand-written file at the path is a conflict, an
// edited one too, drift fails --verify). Other files of a skill are copied byte for byte and
// replaced only when the skill's SKILL.md at the destination is strata's.
#pragma once

#include <string>
#include <vector>

#include "compile/check_target.h"
#include "compile/compiled_source.h"

namespace strata {

// Renders and checks every asset for every selected client that takes it, appending to
// report->targets (id = the client) and *outputs. Errors: an asset that cannot be read.
Status RenderAgentAssets(const TargetCheck& check, const CompiledSource& compiled,
                         CompileReport* report, std::vector<std::string>* outputs);

// A markdown asset as written for a client: `source` with strata's header (naming `source_path`)
// after its frontmatter and the digest footer.
std::string RenderMarkdownAsset(std::string_view source, std::string_view source_path);

}  // namespace strata
