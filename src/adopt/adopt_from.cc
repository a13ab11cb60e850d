// adopt_from.cc: `strata adopt --from FILE...` (compile.h): existing client files merged into one
// banded source: common leading blocks to the head band, common trailing blocks to the tail band,
// each client's remainder to its `<!-- strata:for CLIENT -->` section in the config band, and each
// path-scoped file (`.mdc` globs, Copilot `applyTo`, Claude Code `paths`) to a rule source of its
// own in .strata/rules/.
#include <algorithm>
#include <map>

#include "bands/markers.h"
#include "compile/rule_sources.h"
#include "config/config.h"
#include "io/file_io.h"
#include "markdown/frontmatter.h"
#include "markdown/markdown_blocks.h"
#include "markdown/unclosed_fence.h"
#include "strata/compile.h"
#include "targets/generated_header.h"
#include "targets/scoped_rules.h"
#include "targets/targets.h"
#include "text/text.h"

namespace strata {

namespace fs = std::filesystem;

namespace {

constexpr size_t kMaxInputBytes = size_t{4} * 1024 * 1024;  // as compile's max_source_bytes

// Where the source goes when clients had different text: a file no client reads, so no client
// (Codex, Cursor and Copilot read AGENTS.md themselves) sees another client's section; at the
// root, so `@path` imports in the adopted text resolve as they did.
constexpr std::string_view kSeparateSource = "strata.md";

// A block of lines between blank lines outside code, as a byte range of its file's body.
struct Block {
  size_t begin = 0, end = 0;  // [begin, end) in the body, end after the block's last newline
  std::string_view text;      // body[begin, end)
};

// The target whose file `path` is: a table path, a file in a table path's directory, or a file in
// a client's rules directory (scoped_rules.h: .claude/rules, .github/instructions, ...); nullptr
// when none.
const ClientTarget* ClientOf(const std::string& path) {
  const fs::path p(path);
  for (const auto& t : AllTargets()) {
    if (t.path == path) return &t;
  }
  for (const auto& t : AllTargets()) {
    const ScopedForm* form = FindScopedForm(t.id);
    if (form != nullptr && !form->dir.empty() && p.parent_path() == form->dir) return &t;
  }
  for (const auto& t : AllTargets()) {
    const fs::path dir = fs::path(t.path).parent_path();
    if (!dir.empty() && dir != ".github" && p.parent_path() == dir) return &t;
  }
  return nullptr;
}

// `text` without strata's generated header and its digest footer.
std::string WithoutGenerated(std::string text) {
  if (HasGeneratedHeader(text)) {
    text.erase(0, GeneratedHeader(GeneratedSourceName(text)).size());
    size_t footer = text.rfind("\n<!-- strata:digest xxh64:");
    if (footer != std::string::npos) text.erase(footer + 1);
  }
  return text;
}

std::vector<Block> SplitBlocks(const std::string& text) {
  std::vector<Block> blocks;
  MarkdownBlocks map = MapMarkdownBlocks(text);
  size_t pos = 0, line = 0;
  bool open = false;
  while (pos < text.size()) {
    size_t eol = text.find('\n', pos);
    size_t next = eol == std::string::npos ? text.size() : eol + 1;
    ++line;
    std::string_view l(text.data() + pos, next - pos);
    const bool blank = l.find_first_not_of(" \t\n") == std::string_view::npos;
    if (blank && !map.in_code[line]) {
      open = false;
    } else {
      if (!open) blocks.push_back({pos, pos, {}});
      open = true;
      blocks.back().end = next;
    }
    pos = next;
  }
  for (auto& b : blocks) b.text = std::string_view(text).substr(b.begin, b.end - b.begin);
  return blocks;
}

// How a file applies: always (its client's main text) or as a rule.
struct Scope {
  bool rule = false;
  std::vector<std::string> globs;  // empty for a rule: applied by its description
  std::string description;
};

std::string RawValue(std::string_view front, std::string_view key) {
  for (std::string_view line : SplitLines(front)) {
    if (!line.starts_with(key) || line.size() <= key.size() || line[key.size()] != ':') continue;
    std::string_view v = line.substr(key.size() + 1);
    while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
    while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.remove_suffix(1);
    if (v.size() >= 2 && (v.front() == '"' || v.front() == '\'') && v.back() == v.front()) {
      v = v.substr(1, v.size() - 2);
    }
    return std::string(v);
  }
  return "";
}

// The scope a client file's frontmatter gives it, as each client documents its keys (Cursor
// `alwaysApply`/`globs`, Copilot `applyTo`, Claude Code `paths`, Windsurf `trigger`/`globs`, Kiro
// `inclusion`/`fileMatchPattern`).
Scope ScopeOf(const ClientTarget& target, const std::string& path, std::string_view front) {
  Scope s;
  if (front.empty() || path == target.path) return s;
  s.description = RawValue(front, "description");
  const std::string id(target.id);
  if (id == "cursor") {
    if (RawValue(front, "alwaysApply") == "true") return s;
    s.rule = true;
    s.globs = FrontmatterValues(front, "globs");
    if (s.globs.empty() && s.description.empty()) s.description = fs::path(path).stem().string();
  } else if (id == "claude-code") {
    s.globs = FrontmatterValues(front, "paths");
  } else if (id == "copilot") {
    s.globs = FrontmatterValues(front, "applyTo");
    if (std::all_of(s.globs.begin(), s.globs.end(), [](const auto& g) { return g == "**"; })) {
      s.globs.clear();  // applyTo "**": every file
    }
  } else if (id == "windsurf") {
    const std::string trigger = RawValue(front, "trigger");
    if (trigger == "glob") s.globs = FrontmatterValues(front, "globs");
    s.rule = trigger == "model_decision" && !s.description.empty();
  } else if (id == "kiro") {
    if (RawValue(front, "inclusion") == "fileMatch") {
      s.globs = FrontmatterValues(front, "fileMatchPattern");
    }
  }
  s.rule = s.rule || !s.globs.empty();
  return s;
}

struct Input {
  AdoptedFile file;
  const ClientTarget* target = nullptr;
  Scope scope;
  std::string body;  // without frontmatter and strata's header and footer; an open fence closed
  std::vector<Block> blocks;
};

Result<Input> ReadInput(const fs::path& root, const std::string& path,
                        std::vector<Diagnostic>* diagnostics) {
  Input in;
  in.file.path = fs::path(path).lexically_normal().generic_string();
  in.target = ClientOf(in.file.path);
  if (in.target == nullptr) {
    return MakeError(ErrorKind::kInvalidArgument,
                     in.file.path +
                         " is not a client instruction file strata knows (see "
                         "docs/targets.md for the paths of each client)",
                     {in.file.path});
  }
  in.file.client_id = std::string(in.target->id);
  in.file.target_path = std::string(in.target->path);
  STRATA_TRY_ASSIGN(std::string raw, ReadFileContained(root, in.file.path, {}, kMaxInputBytes));
  STRATA_TRY_ASSIGN(CleanedText clean, CleanText(raw, in.file.path));
  std::string trimmed(clean.text);
  while (!trimmed.empty() && (trimmed.back() == '\n' || trimmed.back() == ' ')) trimmed.pop_back();
  const fs::path sibling = (root / in.file.path).parent_path() / trimmed;
  std::error_code ec;
  if (!trimmed.empty() && trimmed.find('\n') == std::string::npos &&
      fs::is_regular_file(sibling, ec)) {
    in.file.skipped = true;  // a checked-out symlink: the client reads the sibling
    return in;
  }
  const size_t front = FrontmatterLength(clean.text);
  in.scope = ScopeOf(*in.target, in.file.path, std::string_view(clean.text).substr(0, front));
  in.file.scoped = in.scope.rule;
  in.body = WithoutGenerated(clean.text.substr(front));
  // A fence left open would swallow the marker lines and every section after this file's text.
  if (std::optional<UnclosedFence> open = CloseUnclosedFence(&in.body)) {
    diagnostics->push_back(
        {Severity::kWarning,
         "unclosed-fence",
         "the code block opened here is never closed; adopt closes it where the file ends (" +
             open->closing.substr(0, open->closing.size() - 1) +
             ") so that it does not swallow "
             "the text merged after it",
         {in.file.path,
          open->line +
              static_cast<int>(std::count(clean.text.begin(), clean.text.begin() + front, '\n')),
          1}});
  }
  in.blocks = SplitBlocks(in.body);
  return in;
}

// A block's place: input index and block index.
using BlockRef = std::pair<size_t, size_t>;

// The text of `refs[begin, end)`: runs from one file keep that file's own bytes between blocks
// (several blank lines stay several); runs from different files are set off by one blank line.
std::string TextOf(const std::vector<Input>& inputs, const std::vector<BlockRef>& refs,
                   size_t begin, size_t end) {
  std::string out;
  for (size_t i = begin; i < end;) {
    size_t j = i;
    while (j + 1 < end && refs[j + 1].first == refs[i].first &&
           refs[j + 1].second == refs[j].second + 1) {
      ++j;
    }
    const Input& in = inputs[refs[i].first];
    const size_t from = in.blocks[refs[i].second].begin, to = in.blocks[refs[j].second].end;
    if (!out.empty()) out += "\n";
    out += in.body.substr(from, to - from);
    i = j + 1;
  }
  return out;
}

// The input an `@path` block (an import alone in its block) of inputs[from] names, or npos: an
// always-applied file merged too (CLAUDE.md's `@AGENTS.md`).
size_t ImportedInput(const std::vector<Input>& inputs, size_t from, std::string_view block) {
  while (!block.empty() && (block.back() == '\n' || block.back() == ' ')) block.remove_suffix(1);
  if (!block.starts_with("@") || block.find_first_of(" \t\n") != std::string_view::npos) {
    return std::string::npos;
  }
  const std::string named = (fs::path(inputs[from].file.path).parent_path() / block.substr(1))
                                .lexically_normal()
                                .generic_string();
  for (size_t j = 0; j < inputs.size(); ++j) {
    if (j != from && inputs[j].file.path == named && !inputs[j].file.skipped &&
        !inputs[j].scope.rule) {
      return j;
    }
  }
  return std::string::npos;
}

// The blocks of inputs[i] onto *refs, an import of another merged file replaced by that file's
// blocks: the client read that text through the import, and the import itself would name a file
// compile now generates (a second compile would inline the generated copy).
void AppendBlocks(const std::vector<Input>& inputs, size_t i, std::vector<BlockRef>* refs) {
  for (size_t b = 0; b < inputs[i].blocks.size(); ++b) {
    const size_t j = ImportedInput(inputs, i, inputs[i].blocks[b].text);
    if (j == std::string::npos) {
      refs->emplace_back(i, b);
      continue;
    }
    for (size_t k = 0; k < inputs[j].blocks.size(); ++k) refs->emplace_back(j, k);
  }
}

struct ClientText {
  const ClientTarget* target = nullptr;
  std::vector<BlockRef> refs;
};

// Blocks every client starts with, and (after them) every client ends with.
std::pair<size_t, size_t> CommonEnds(const std::vector<Input>& inputs,
                                     const std::vector<ClientText>& all) {
  auto text = [&inputs](const BlockRef& r) { return inputs[r.first].blocks[r.second].text; };
  size_t shortest = all.front().refs.size();
  for (const auto& c : all) shortest = std::min(shortest, c.refs.size());
  auto same_at = [&](auto index_of) {
    for (const auto& c : all) {
      if (text(c.refs[index_of(c)]) != text(all.front().refs[index_of(all.front())])) return false;
    }
    return true;
  };
  size_t prefix = 0;
  while (prefix < shortest && same_at([prefix](const ClientText&) { return prefix; })) ++prefix;
  size_t suffix = 0;
  while (prefix + suffix < shortest &&
         same_at([suffix](const ClientText& c) { return c.refs.size() - 1 - suffix; })) {
    ++suffix;
  }
  return {prefix, suffix};
}

struct Merged {
  std::string source;
  std::vector<std::string> sections;
};

Merged MergeMain(const std::vector<Input>& inputs) {
  // One block list per client, in table order; a client's always-applied files concatenated.
  std::vector<ClientText> clients;
  for (const auto& target : AllTargets()) {
    ClientText c{&target, {}};
    bool any = false;
    for (size_t i = 0; i < inputs.size(); ++i) {
      const Input& in = inputs[i];
      if (in.target != &target || in.file.skipped || in.scope.rule) continue;
      any = true;
      AppendBlocks(inputs, i, &c.refs);
    }
    if (any) clients.push_back(std::move(c));
  }
  Merged out;
  auto [prefix, suffix] =
      clients.empty() ? std::pair<size_t, size_t>{0, 0} : CommonEnds(inputs, clients);
  const std::vector<BlockRef> first = clients.empty() ? std::vector<BlockRef>{} : clients[0].refs;
  std::string text =
      "<!-- strata:head -->\n\n" + TextOf(inputs, first, 0, prefix) + "\n<!-- strata:config -->\n";
  for (const auto& c : clients) {
    std::string own = TextOf(inputs, c.refs, prefix, c.refs.size() - suffix);
    if (own.empty()) continue;
    // A marker pair rather than a `## <Client>` heading: the client's own H1/H2 stay its text.
    text += "\n" + ClientMarkerLine(c.target->id) + own + std::string(kEndForLine);
    out.sections.emplace_back(c.target->id);
  }
  text += "\n<!-- strata:tail -->\n";
  if (suffix > 0) text += "\n" + TextOf(inputs, first, first.size() - suffix, first.size());
  out.source = std::move(text);
  return out;
}

std::string RuleName(const std::string& path) {
  std::string name = fs::path(path).filename().string();
  for (std::string_view ext : {".instructions.md", ".mdc", ".md"}) {
    if (name.ends_with(ext)) return name.substr(0, name.size() - ext.size());
  }
  return name;
}

// The rule sources of the scoped inputs: one per distinct text and scope, for every client that
// had it; a name two different rules share gets the client id appended.
std::vector<std::pair<fs::path, std::string>> RuleSources(const std::vector<Input>& inputs) {
  struct Rule {
    std::string name;
    const Input* in;
    std::vector<std::string> clients;
    std::string description;
  };
  std::vector<Rule> rules;
  for (const auto& in : inputs) {
    if (in.file.skipped || !in.scope.rule) continue;
    // Descriptions count only where both have one (Copilot and Claude Code keep none).
    auto same = std::find_if(rules.begin(), rules.end(), [&in](const Rule& r) {
      const std::string& a = r.description;
      const std::string& b = in.scope.description;
      return r.in->body == in.body && r.in->scope.globs == in.scope.globs &&
             (a.empty() || b.empty() || a == b) &&
             RuleName(r.in->file.path) == RuleName(in.file.path);
    });
    if (same != rules.end()) {
      if (same->description.empty()) same->description = in.scope.description;
      if (std::find(same->clients.begin(), same->clients.end(), in.file.client_id) ==
          same->clients.end()) {
        same->clients.push_back(in.file.client_id);
      }
      continue;
    }
    rules.push_back({RuleName(in.file.path), &in, {in.file.client_id}, in.scope.description});
  }
  std::map<std::string, int> uses;
  for (const auto& r : rules) ++uses[r.name];
  std::vector<std::pair<fs::path, std::string>> out;
  for (const auto& r : rules) {
    std::string name = uses[r.name] > 1 ? r.name + "-" + r.clients.front() : r.name;
    std::string text = "---\n";
    if (!r.in->scope.globs.empty()) {
      text += "paths:\n";
      for (const auto& g : r.in->scope.globs) text += "  - \"" + g + "\"\n";
    }
    text += "clients: [";
    for (size_t i = 0; i < r.clients.size(); ++i) text += (i ? ", " : "") + r.clients[i];
    text += "]\n";
    if (!r.description.empty()) text += "description: " + r.description + "\n";
    text += "---\n\n";
    std::string_view body = r.in->body;
    while (body.starts_with("\n")) body.remove_prefix(1);
    text += body;
    out.emplace_back(fs::path(kRuleSourceDir) / (name + ".md"), std::move(text));
  }
  return out;
}

}  // namespace

Result<AdoptFromReport> AdoptFrom(const fs::path& given_root, const std::vector<std::string>& files,
                                  bool force) {
  std::error_code ec;
  if (!fs::is_directory(given_root, ec)) {
    return MakeError(ErrorKind::kNotFound, "repository root " + given_root.string() +
                                               " does not exist or is not a directory");
  }
  // Every read and write goes through a descriptor of the root: an input or AGENTS.md that is a
  // symlink out of the tree is refused, never read or replaced.
  const fs::path root = fs::canonical(given_root, ec);
  if (ec) return MakeError(ErrorKind::kIo, ec.message(), {given_root.string()});
  AdoptFromReport report;
  std::vector<Input> inputs;
  for (const auto& f : files) {
    STRATA_TRY_ASSIGN(Input in, ReadInput(root, f, &report.diagnostics));
    report.files.push_back(in.file);
    inputs.push_back(std::move(in));
  }
  Merged merged = MergeMain(inputs);
  report.client_sections = merged.sections;
  const bool has_config = fs::exists(root / "strata.toml", ec);
  if (has_config) {
    STRATA_TRY_ASSIGN(ProjectConfig config, LoadProjectConfig(root, {}));
    report.path = config.source;
  } else if (!merged.sections.empty()) {
    report.path = std::string(kSeparateSource);
  }
  bool source_is_input = false;
  for (const auto& in : inputs) source_is_input = source_is_input || in.file.path == report.path;
  if (!source_is_input && !force && fs::exists(root / report.path, ec)) {
    return MakeError(ErrorKind::kInvalidArgument,
                     report.path +
                         " exists and is not among the --from files: add it to --from so its "
                         "text is merged, or pass --force to replace it",
                     {report.path});
  }
  if (!merged.sections.empty() && report.path == "AGENTS.md") {
    report.diagnostics.push_back(
        {Severity::kWarning,
         "sections-in-agents-md",
         "strata.toml keeps AGENTS.md as the source, and clients that read AGENTS.md themselves "
         "(Codex, Cursor, Copilot) see every client's section: set `source = \"" +
             std::string(kSeparateSource) + "\"` in strata.toml and adopt again",
         {"strata.toml"}});
  }
  std::vector<std::pair<fs::path, std::string>> writes = {{report.path, merged.source}};
  for (auto& [path, text] : RuleSources(inputs)) {
    if (!force && fs::exists(root / path, ec)) {
      return MakeError(
          ErrorKind::kInvalidArgument,
          path.generic_string() + " exists: move it away, or pass --force to replace it",
          {path.generic_string()});
    }
    report.rules.push_back(path.generic_string());
    writes.emplace_back(path, std::move(text));
  }
  std::sort(report.rules.begin(), report.rules.end());
  // Compile writes each client's text to its target path; a merged file elsewhere stays loaded.
  for (AdoptedFile& f : report.files) {
    f.loads_beside = !f.skipped && !f.scoped && f.path != f.target_path && f.path != report.path;
  }
  if (!has_config) {
    std::string ids;
    for (const auto& target : AllTargets()) {
      bool adopted = false;
      for (const auto& in : inputs) adopted = adopted || in.target == &target;
      if (adopted)
        ids += std::string(ids.empty() ? "" : ", ") + "\"" + std::string(target.id) + "\"";
    }
    std::string config = report.path == "AGENTS.md" ? "" : "source = \"" + report.path + "\"\n";
    writes.emplace_back("strata.toml", config + "targets = [" + ids + "]\n");
    report.wrote_config = true;
  }
  STRATA_TRY(WriteFilesContained(root, writes, {}));
  return report;
}

}  // namespace strata
