// orphans.cc: generated files left behind when a target (or a path-scoped rule) is dropped. A
// candidate is a table path or a regular file in a table path's directory (plus the scoped-rule
// directories); it is an orphan only when it carries strata's generated header naming this
// source (or a rule source) and no configured output owns its path. A hand-written file is never a
// candidate. Listing, reading and removing all go through descriptors of the root and never follow
// a symlink (not even with --allow-outside-root): a compile deletes nothing outside the tree.
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <optional>

#include "compile/check_target.h"
#include "compile/housekeeping.h"
#include "compile/rule_sources.h"
#include "io/contained_open.h"
#include "io/file_io.h"
#include "targets/generated_header.h"
#include "targets/targets.h"

namespace strata {

namespace fs = std::filesystem;

namespace {

// Directories scoped rules are written to besides the table's own (see docs/targets.md).
constexpr std::string_view kScopedDirs[] = {".claude/rules", ".github/instructions"};

// Where compile copies the assets of .agents/ (agent_assets.cc): skills recursively, subagents
// and commands one level.
constexpr std::string_view kAssetDirs[] = {".claude/agents", ".github/agents", ".claude/commands",
                                           ".cursor/commands"};
constexpr std::string_view kSkillDirs[] = {".claude/skills", ".github/skills"};

// The regular files of `dir` (below the root, never through a symlink) into *out; with
// `depth` > 0 also those of its subdirectories, that many levels down.
void ListFiles(const fs::path& root, int root_fd, const std::string& dir, int depth,
               std::set<std::string>* out) {
  OpenedPath opened = OpenContainedAt(root, root_fd, dir, OpenIntent::kDirectory);
  if (!opened.ok()) return;
  DIR* listing = fdopendir(dup(opened.fd.get()));
  if (listing == nullptr) return;
  std::vector<std::string> subdirs;
  while (const dirent* entry = readdir(listing)) {
    const std::string name = entry->d_name;
    if (entry->d_type == DT_REG) out->insert(dir + "/" + name);
    if (entry->d_type == DT_DIR && depth > 0 && name != "." && name != "..") {
      subdirs.push_back(dir + "/" + name);
    }
  }
  closedir(listing);
  for (const auto& sub : subdirs) ListFiles(root, root_fd, sub, depth - 1, out);
}

std::set<std::string> Candidates(const fs::path& root, int root_fd) {
  std::set<std::string> out;
  std::set<std::string> dirs(std::begin(kScopedDirs), std::end(kScopedDirs));
  dirs.insert(std::begin(kAssetDirs), std::end(kAssetDirs));
  for (const auto& target : AllTargets()) {
    out.emplace(target.path);
    std::string dir = fs::path(target.path).parent_path().generic_string();
    if (!dir.empty()) dirs.insert(dir);
  }
  for (const auto& dir : dirs) ListFiles(root, root_fd, dir, 0, &out);
  for (const auto dir : kSkillDirs) ListFiles(root, root_fd, std::string(dir), 8, &out);
  return out;
}

// The SKILL.md of the skill a file below a skills directory belongs to, or "" for any other file.
std::string SkillFileOf(const std::string& path) {
  for (const auto dir : kSkillDirs) {
    const std::string prefix = std::string(dir) + "/";
    if (!path.starts_with(prefix)) continue;
    const size_t slash = path.find('/', prefix.size());
    if (slash == std::string::npos) return "";
    return path.substr(0, slash) + "/SKILL.md";
  }
  return "";
}

// True when `from` (the source a generated header names) is this compile's: the source, a
// nested source of the same name, a rule source of .strata/rules/ (a deleted one leaves its
// scoped files behind), or an asset of .agents/.
bool FromThisSource(const std::string& from, const std::string& source_name) {
  return from == source_name || from.ends_with("/" + source_name) ||
         from.starts_with(std::string(kRuleSourceDir) + "/") || from.starts_with(".agents/");
}

// The bytes of a candidate: a regular file reached without leaving the root (no allow options:
// a compile never judges, let alone deletes, a file outside the tree), else nothing.
std::optional<std::string> ReadCandidate(const TargetCheck& check, const std::string& path) {
  auto bytes = ReadFileContainedAt(check.root, check.root_fd, path, {}, size_t{16} * 1024 * 1024);
  if (!bytes) return std::nullopt;  // missing, outside, unreadable or oversized: not strata's
  return std::move(*bytes);
}

}  // namespace

Status FindOrphans(const TargetCheck& check, const std::string& source_name,
                   const std::set<std::string>& owned, CompileReport* report) {
  const CompileOptions& options = check.options;
  std::map<std::string, bool> orphan_skills;  // SKILL.md -> an orphan whose digest matches
  const std::set<std::string> candidates = Candidates(check.root, check.root_fd);
  auto judge_skill = [&](const std::string& skill_md) {
    auto it = orphan_skills.find(skill_md);
    if (it != orphan_skills.end()) return it->second;
    bool orphan = false;
    if (owned.count(skill_md) == 0) {
      std::optional<std::string> bytes = ReadCandidate(check, skill_md);
      orphan = bytes && HasGeneratedHeader(*bytes) &&
               FromThisSource(GeneratedSourceName(*bytes), source_name) &&
               (DigestMatches(*bytes) || options.force);
    }
    return orphan_skills[skill_md] = orphan;
  };
  for (const auto& path : candidates) {
    if (owned.count(path) != 0) continue;
    std::optional<std::string> bytes = ReadCandidate(check, path);
    if (!bytes) continue;
    const std::string from = GeneratedSourceName(*bytes);  // "AGENTS.md" or "tests/AGENTS.md"
    const std::string skill_md = SkillFileOf(path);
    // A skill's other files carry no header: they go with their skill's SKILL.md when that is
    // strata's, unedited and no longer produced.
    const bool skill_file = !skill_md.empty() && skill_md != path && judge_skill(skill_md);
    if (!skill_file && (!HasGeneratedHeader(*bytes) || !FromThisSource(from, source_name))) {
      continue;
    }
    TargetReport tr;
    tr.path = path;
    tr.bytes = bytes->size();
    for (const auto& target : AllTargets()) {
      if (target.path != path) continue;
      tr.id = std::string(target.id);  // the first: codex for AGENTS.md
      break;
    }
    if (!skill_file && !DigestMatches(*bytes) && !options.force) {
      tr.status = TargetStatus::kConflict;
      tr.detail = path +
                  " was generated by strata for a target no longer configured but edited "
                  "since: delete it yourself, or rerun with --force";
    } else if (options.write) {
      tr.status = TargetStatus::kRemoved;
      tr.detail = "no configured target produces " + path;
    } else {
      tr.status = TargetStatus::kOrphaned;
      tr.detail = path + " was generated by strata but no configured target produces it any " +
                  "more: run `strata compile` to remove it";
    }
    if (tr.status != TargetStatus::kRemoved) {
      // Verify fails on any orphan; compile only warns about an edited one and keeps it.
      const bool fails = !options.write;
      report->ok = report->ok && !fails;
      report->diagnostics.push_back({fails ? Severity::kError : Severity::kWarning,
                                     TargetStatusName(tr.status),
                                     tr.detail,
                                     {tr.path}});
    }
    report->orphans.push_back(std::move(tr));
  }
  return {};
}

namespace {

// After a skill file was removed: its now empty directories up to (not including) the skills
// directory go too; a directory holding anything else stays (rmdir refuses it).
void RemoveEmptySkillDirs(const TargetCheck& check, const fs::path& removed) {
  if (SkillFileOf(removed.generic_string()).empty()) return;
  for (fs::path dir = removed.parent_path(); dir.has_parent_path(); dir = dir.parent_path()) {
    const std::string generic = dir.generic_string();
    if (std::find(std::begin(kSkillDirs), std::end(kSkillDirs), generic) != std::end(kSkillDirs)) {
      return;
    }
    OpenedPath parent =
        OpenContainedAt(check.root, check.root_fd, dir.parent_path(), OpenIntent::kDirectory);
    if (!parent.ok() || unlinkat(parent.fd.get(), dir.filename().c_str(), AT_REMOVEDIR) != 0) {
      return;
    }
  }
}

}  // namespace

Status RemoveOrphans(const TargetCheck& check, const CompileReport& report) {
  for (const auto& orphan : report.orphans) {
    // An MCP entry is removed by rewriting its settings file (a companion write), not here.
    if (orphan.status != TargetStatus::kRemoved || orphan.id == kMcpOrphanId) continue;
    const fs::path path(orphan.path);
    OpenedPath dir =
        OpenContainedAt(check.root, check.root_fd, path.parent_path(), OpenIntent::kDirectory);
    const std::string name = path.filename().string();
    struct stat st {};
    if (!dir.ok() || fstatat(dir.fd.get(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0 ||
        !S_ISREG(st.st_mode)) {
      continue;  // gone or replaced since it was judged: leave whatever is there
    }
    if (unlinkat(dir.fd.get(), name.c_str(), 0) != 0 && errno != ENOENT) {
      return MakeError(
          ErrorKind::kIo,
          "cannot remove orphaned generated file " + orphan.path + ": " + std::strerror(errno),
          {orphan.path});
    }
    RemoveEmptySkillDirs(check, path);
  }
  return {};
}

}  // namespace strata
