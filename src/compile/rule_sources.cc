// rule_sources.cc: `.strata/rules/*.md` read, checked and rendered per client (see
// rule_sources.h). Band order and the digest footer are the root targets' (RenderFile); the
// stability gate checks these files too (check_stability.cc).
#include "compile/rule_sources.h"

#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <set>

#include "compile/render_target.h"
#include "markdown/frontmatter.h"
#include "targets/rule_frontmatter.h"
#include "text/text.h"

namespace strata {

namespace fs = std::filesystem;

namespace {

// The rule files, sorted; none when the directory does not exist. A directory that resolves
// outside the root (or cannot be opened) is an error, not an empty list.
Result<std::vector<std::string>> ListRuleFiles(const TargetCheck& check) {
  std::vector<std::string> out;
  const std::string dir_path(kRuleSourceDir);
  OpenedPath dir = OpenContainedAt(check.root, check.root_fd, dir_path, OpenIntent::kDirectory,
                                   AccessOf(check.options));
  if (dir.failure == OpenFailure::kMissing) return out;
  if (!dir.ok()) {
    return MakeError(
        dir.failure == OpenFailure::kOutsideRoot ? ErrorKind::kConflict : ErrorKind::kIo,
        "cannot read the rule sources in " + dir_path + ": " + dir.detail, {dir_path});
  }
  DIR* listing = fdopendir(dup(dir.fd.get()));
  if (listing == nullptr) return MakeError(ErrorKind::kIo, "cannot list " + dir_path, {dir_path});
  while (const dirent* entry = readdir(listing)) {
    const std::string name = entry->d_name;
    if (name.size() > 3 && name.ends_with(".md") && name[0] != '.') {
      out.push_back(dir_path + "/" + name);  // a symlink or directory is refused when read
    }
  }
  closedir(listing);
  std::sort(out.begin(), out.end());
  return out;
}

std::string_view TrimBlanks(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

tl::unexpected<Error> RuleError(const std::string& path, int line, const std::string& message) {
  return MakeError(ErrorKind::kParse, message, {path, line, 1});
}

// Reads the frontmatter keys of `rule->path` from `front` into *rule.
Status ParseRuleFrontmatter(std::string_view front, RuleSource* rule) {
  std::vector<std::string_view> lines = SplitLines(front);
  for (size_t i = 1; i + 1 < lines.size(); ++i) {
    std::string_view line = lines[i];
    if (line.empty() || line.front() == ' ' || line.front() == '\t' || line.front() == '-' ||
        line.front() == '#') {
      continue;
    }
    const std::string_view key = TrimBlanks(line.substr(0, line.find(':')));
    const int line_no = static_cast<int>(i) + 1;
    if (key == "paths") {
      rule->globs = FrontmatterValues(front, "paths");
    } else if (key == "clients") {
      rule->clients = FrontmatterValues(front, "clients");
      for (const auto& id : rule->clients) {
        if (FindTarget(id) == nullptr) {
          return RuleError(
              rule->path, line_no,
              "unknown client '" + id + "' in `clients:`; valid ids: " + ValidTargetIds());
        }
      }
    } else if (key == "description") {
      std::string_view value = TrimBlanks(line.substr(line.find(':') + 1));
      if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') &&
          value.back() == value.front()) {
        value = value.substr(1, value.size() - 2);
      }
      rule->description = std::string(value);
    } else {
      return RuleError(rule->path, line_no,
                       "unknown key `" + std::string(key) +
                           "` in a rule's frontmatter: a rule source takes `paths`, `clients` and "
                           "`description` (each client's own keys are written by compile)");
    }
  }
  if (rule->globs.empty() && rule->description.empty()) {
    return RuleError(rule->path, 1,
                     "a rule needs `paths:` (the files it applies to) or, for a "
                     "rule the agent applies by its description, `description:`");
  }
  return {};
}

std::string QuotedGlobs(const std::vector<std::string>& globs) {
  std::string out;
  for (const auto& g : globs) out += (out.empty() ? "`" : ", `") + g + "`";
  return out;
}

}  // namespace

Result<std::vector<RuleSource>> LoadRuleSources(const TargetCheck& check,
                                                std::vector<Diagnostic>* diagnostics) {
  std::vector<RuleSource> out;
  const ImportOptions imports = CompileImportOptions(check.config, check.options);
  STRATA_TRY_ASSIGN(std::vector<std::string> paths, ListRuleFiles(check));
  for (const auto& path : paths) {
    RuleSource rule;
    rule.path = path;
    rule.name = fs::path(path).stem().string();
    STRATA_TRY_ASSIGN(std::string raw, ReadContained(check, path, check.options.max_source_bytes));
    STRATA_TRY_ASSIGN(CleanedText clean, CleanText(raw, path));
    const size_t front = FrontmatterLength(clean.text);
    if (front == 0) {
      return RuleError(path, 1,
                       "a rule source opens with frontmatter naming its `paths:` "
                       "(a `---` line, the keys, a `---` line)");
    }
    STRATA_TRY(ParseRuleFrontmatter(std::string_view(clean.text).substr(0, front), &rule));
    if (rule.description.empty()) {
      std::string globs;
      for (const auto& g : rule.globs) globs += (globs.empty() ? "" : ", ") + g;
      rule.description = "Instructions for " + globs + " compiled from " + path;
    }
    // The frontmatter note is expected here: a rule's frontmatter is always its own.
    std::vector<Diagnostic> own;
    MarkdownBlocks blocks;
    STRATA_TRY_ASSIGN(rule.text, InstructionText(check.root, check.root / path, path, raw, imports,
                                                 &own, &blocks));
    for (auto& d : own) {
      if (d.kind != "source-frontmatter") diagnostics->push_back(std::move(d));
    }
    rule.banded = SplitBands(rule.text, MatchClientHeading, blocks);
    for (auto& d : CheckClientMarkers(rule.text, path, blocks, MatchClientHeading)) {
      diagnostics->push_back(std::move(d));
    }
    out.push_back(std::move(rule));
  }
  return out;
}

std::string RenderRule(const ClientTarget& target, const RuleSource& rule, std::string* path) {
  const ScopedForm* form = FindScopedForm(target.id);
  if (form == nullptr || form->kind == ScopeKind::kNestedFile) return "";
  *path = std::string(form->dir) + "/" + rule.name + std::string(form->ext);
  if (rule.globs.empty()) {
    std::string front = RequestedRuleFrontmatter(*form, rule.description);
    if (front.empty()) return "";
    return RenderFile(front, "", rule.banded, target.id, rule.path);
  }
  if (form->kind == ScopeKind::kGlobRule) {
    return RenderFile(GlobRuleFrontmatter(*form, rule.globs, rule.description), "", rule.banded,
                      target.id, rule.path);
  }
  return RenderFile(
      TargetFrontmatter(target.format, rule.path),
      "These instructions apply only to files matching " + QuotedGlobs(rule.globs) + ".\n",
      rule.banded, target.id, rule.path);
}

Status RenderRules(const TargetCheck& check, const CompiledSource& compiled, CompileReport* report,
                   std::vector<std::string>* outputs) {
  std::set<std::string> written;  // Roo Code and Zoo Code share .roo/rules/: one file each
  for (const auto& rule : compiled.rules) {
    std::string without;  // clients the rule is for that have no form for it
    for (const ClientTarget* target : compiled.selected) {
      if (!rule.clients.empty() &&
          std::find(rule.clients.begin(), rule.clients.end(), target->id) == rule.clients.end()) {
        continue;
      }
      std::string path;
      std::string bytes = RenderRule(*target, rule, &path);
      if (bytes.empty()) {
        without += (without.empty() ? "" : ", ") + std::string(target->display_name);
        continue;
      }
      if (path == target->path) {
        return MakeError(ErrorKind::kInvalidArgument,
                         rule.path + " would be written to " + path +
                             ", the file of the whole source: rename the rule",
                         {rule.path});
      }
      if (!written.insert(path).second) continue;
      STRATA_TRY_ASSIGN(TargetReport tr, CheckTarget(check, *target, path, bytes));
      AddChecked(std::move(tr), std::move(bytes), report, outputs);
    }
    if (!without.empty()) {
      report->diagnostics.push_back(
          {Severity::kNote,
           "no-scoped-form",
           without + ": no documented form for " +
               (rule.globs.empty() ? std::string("a rule applied by its description")
                                   : "a rule on " + QuotedGlobs(rule.globs)) +
               ", so " + rule.path + " does not reach them (limit it with `clients:`)",
           {rule.path}});
    }
  }
  return {};
}

}  // namespace strata
