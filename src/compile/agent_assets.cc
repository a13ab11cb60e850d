// agent_assets.cc: skills, subagents and commands from .agents/ written per client (see
// agent_assets.h).
#include "compile/agent_assets.h"

#include <algorithm>

#include "compile/check_target.h"
#include "io/file_io.h"
#include "markdown/frontmatter.h"
#include "targets/generated_header.h"

namespace strata {

namespace fs = std::filesystem;

namespace {

struct AssetRoute {
  std::string_view kind;    // "skills", "agents" or "commands"
  std::string_view id;      // client
  std::string_view dir;     // destination directory
  std::string_view suffix;  // agents and commands: the destination file name after NAME
};

constexpr AssetRoute kRoutes[] = {
    {"skills", "claude-code", ".claude/skills", ""},
    {"skills", "copilot", ".github/skills", ""},
    {"agents", "claude-code", ".claude/agents", ".md"},
    {"agents", "copilot", ".github/agents", ".agent.md"},
    {"commands", "claude-code", ".claude/commands", ".md"},
    {"commands", "cursor", ".cursor/commands", ".md"},
};

// One source file: its path below the root and where it goes below a route's directory.
struct Asset {
  std::string kind;
  std::string source;    // e.g. ".agents/skills/review/SKILL.md"
  std::string relative;  // e.g. "review/SKILL.md" (skills) or "review" (agents, commands)
};

std::vector<Asset> FindAssets(const fs::path& root) {
  std::vector<Asset> out;
  std::error_code ec;
  for (std::string kind : {"skills", "agents", "commands"}) {
    const fs::path dir = root / ".agents" / kind;
    for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      if (!it->is_regular_file(ec) || it->is_symlink(ec)) continue;
      const std::string rel = it->path().lexically_relative(dir).generic_string();
      const bool nested = rel.find('/') != std::string::npos;
      if (kind == "skills" ? !nested : (nested || it->path().extension() != ".md")) continue;
      if (kind == "skills" && !fs::exists(dir / rel.substr(0, rel.find('/')) / "SKILL.md", ec)) {
        continue;  // not inside a skill
      }
      out.push_back({kind, ".agents/" + kind + "/" + rel,
                     kind == "skills" ? rel : it->path().stem().string()});
    }
  }
  std::sort(out.begin(), out.end(),
            [](const Asset& a, const Asset& b) { return a.source < b.source; });
  return out;
}

bool IsMarkdown(const std::string& path) { return path.ends_with(".md"); }

// A non-markdown skill file: replaced only when the destination skill is strata's.
TargetReport CheckCopiedFile(const TargetCheck& check, const ClientTarget& target,
                             const std::string& path, const std::string& skill_md,
                             const std::string& bytes) {
  TargetReport tr{std::string(target.id), path, TargetStatus::kUnchanged, bytes.size(), "", ""};
  const bool write = check.options.write;
  auto existing = ReadContained(check, path);
  auto skill = ReadContained(check, skill_md);
  const bool ours = !skill || HasGeneratedHeader(*skill) || check.options.force;
  if (existing && *existing == bytes) return tr;
  if (!existing && existing.error().kind == ErrorKind::kConflict) {
    tr.status = TargetStatus::kConflict;
    tr.detail = "target " + path + ": " + existing.error().message;
  } else if (existing && !ours) {
    tr.status = TargetStatus::kConflict;
    tr.detail = path + " belongs to a skill strata did not generate; rerun with --force";
  } else {
    tr.status =
        write ? TargetStatus::kWritten : (existing ? TargetStatus::kStale : TargetStatus::kMissing);
    if (!write)
      tr.detail = path + (existing ? " is stale" : " is missing") + ": run `strata compile`";
  }
  return tr;
}

}  // namespace

std::string RenderMarkdownAsset(std::string_view source, std::string_view source_path) {
  const size_t frontmatter_length = FrontmatterLength(source);
  std::string_view frontmatter = source.substr(0, frontmatter_length);
  std::string_view body = source.substr(frontmatter_length);
  while (body.starts_with("\n")) body.remove_prefix(1);
  std::string out = std::string(frontmatter) + GeneratedHeader(source_path);
  if (!body.empty()) out.append("\n").append(body);
  if (!out.ends_with('\n')) out.push_back('\n');
  return out + DigestFooter(out);
}

Status RenderAgentAssets(const TargetCheck& check, const CompiledSource& compiled,
                         CompileReport* report, std::vector<std::string>* outputs) {
  const std::vector<Asset> assets = FindAssets(check.root);
  for (const ClientTarget* target : compiled.selected) {
    for (const auto& route : kRoutes) {
      if (route.id != target->id) continue;
      for (const auto& asset : assets) {
        if (asset.kind != route.kind) continue;
        STRATA_TRY_ASSIGN(std::string raw, ReadContained(check, asset.source));
        const std::string path =
            std::string(route.dir) + "/" + asset.relative + std::string(route.suffix);
        std::string bytes = IsMarkdown(asset.source) ? RenderMarkdownAsset(raw, asset.source) : raw;
        TargetReport tr;
        if (IsMarkdown(asset.source)) {
          STRATA_TRY_ASSIGN(tr, CheckTarget(check, *target, path, bytes));
        } else {
          const std::string skill_md = std::string(route.dir) + "/" +
                                       asset.relative.substr(0, asset.relative.find('/')) +
                                       "/SKILL.md";
          tr = CheckCopiedFile(check, *target, path, skill_md, bytes);
        }
        AddChecked(std::move(tr), std::move(bytes), report, outputs);
      }
    }
  }
  return {};
}

}  // namespace strata
