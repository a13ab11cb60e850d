// adopt_from.cc: `strata adopt --from FILE...` (compile.h): existing client files merged into one
// banded AGENTS.md: common leading blocks to the head band, common trailing blocks to the tail
// band, each file's remainder to its client's `## <Client>` section.
#include <algorithm>

#include "io/file_io.h"
#include "markdown/markdown_blocks.h"
#include "strata/compile.h"
#include "targets/generated_header.h"
#include "targets/targets.h"
#include "text/text.h"

namespace strata {

namespace fs = std::filesystem;

namespace {

constexpr size_t kMaxInputBytes = size_t{4} * 1024 * 1024;  // as compile's max_source_bytes

using Blocks = std::vector<std::string>;

// The target whose file `path` is: a table path, or a file in a table path's rules directory
// (plus Copilot's .github/instructions/); nullptr when none.
const ClientTarget* ClientOf(const std::string& path) {
  const fs::path p(path);
  for (const auto& t : AllTargets()) {
    if (t.path == path) return &t;
  }
  if (p.parent_path() == ".github/instructions") return FindTarget("copilot");
  for (const auto& t : AllTargets()) {
    const fs::path dir = fs::path(t.path).parent_path();
    if (!dir.empty() && dir != ".github" && p.parent_path() == dir) return &t;
  }
  return nullptr;
}

// `text` without leading `---` frontmatter, strata's generated header and its digest footer.
std::string Body(std::string text) {
  if (text.starts_with("---\n")) {
    size_t close = text.find("\n---\n", 3);
    if (close != std::string::npos) text.erase(0, close + 5);
  }
  if (HasGeneratedHeader(text)) {
    text.erase(0, GeneratedHeader(GeneratedSourceName(text)).size());
    size_t footer = text.rfind("\n<!-- strata:digest xxh64:");
    if (footer != std::string::npos) text.erase(footer);
  }
  return text;
}

// Blocks of lines separated by blank lines outside code blocks, each without its trailing blank.
Blocks SplitBlocks(const std::string& text) {
  Blocks blocks;
  MarkdownBlocks map = MapMarkdownBlocks(text);
  auto lines = SplitLines(text);
  std::string current;
  for (size_t i = 0; i < lines.size(); ++i) {
    const bool blank = lines[i].find_first_not_of(" \t") == std::string_view::npos;
    if (blank && !map.in_code[i + 1]) {
      if (!current.empty()) blocks.push_back(std::move(current));
      current.clear();
      continue;
    }
    current.append(lines[i]).append("\n");
  }
  if (!current.empty()) blocks.push_back(std::move(current));
  return blocks;
}

std::string Join(const Blocks& blocks, size_t begin, size_t end) {
  std::string out;
  for (size_t i = begin; i < end; ++i) {
    if (!out.empty()) out += "\n";
    out += blocks[i];
  }
  return out;
}

struct Input {
  AdoptedFile file;
  const ClientTarget* target = nullptr;
  Blocks blocks;
};

Result<Input> ReadInput(const fs::path& root, const std::string& path) {
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
  in.blocks = SplitBlocks(Body(std::move(clean.text)));
  return in;
}

}  // namespace

namespace {

// Blocks every input starts with, and (after them) every input ends with.
std::pair<size_t, size_t> CommonEnds(const std::vector<const Blocks*>& all) {
  size_t shortest = all.front()->size();
  for (const Blocks* b : all) shortest = std::min(shortest, b->size());
  size_t prefix = 0;
  auto same_at = [&all](auto index_of) {
    for (const Blocks* b : all) {
      if ((*b)[index_of(*b)] != (*all.front())[index_of(*all.front())]) return false;
    }
    return true;
  };
  while (prefix < shortest && same_at([prefix](const Blocks&) { return prefix; })) ++prefix;
  size_t suffix = 0;
  while (prefix + suffix < shortest &&
         same_at([suffix](const Blocks& b) { return b.size() - 1 - suffix; })) {
    ++suffix;
  }
  return {prefix, suffix};
}

// Warns when a client's own text holds an H1/H2: its `## <Client>` section would end there.
void CheckSectionHeadings(const std::string& text, const ClientTarget& target,
                          std::vector<Diagnostic>* diagnostics) {
  for (const auto& [line, heading] : MapMarkdownBlocks(text).headings) {
    if (heading.level > 2) continue;
    diagnostics->push_back(
        {Severity::kWarning,
         "section-heading",
         "text only " + std::string(target.display_name) + " had holds a level-" +
             std::to_string(heading.level) + " heading; its `## " +
             std::string(target.display_name) +
             "` section ends there, so what follows reaches every client: make it ### or lower",
         {"AGENTS.md", line, 1}});
  }
}

struct Merged {
  std::string agents_md;
  std::vector<std::string> sections;
};

Merged Merge(const std::vector<Input>& inputs, std::vector<Diagnostic>* diagnostics) {
  // One block list per client, in table order; a client's files are concatenated as given.
  std::vector<std::pair<const ClientTarget*, Blocks>> clients;
  for (const auto& target : AllTargets()) {
    Blocks blocks;
    bool any = false;
    for (const auto& in : inputs) {
      if (in.target != &target || in.file.skipped) continue;
      any = true;
      blocks.insert(blocks.end(), in.blocks.begin(), in.blocks.end());
    }
    if (any) clients.emplace_back(&target, std::move(blocks));
  }
  Merged out;
  std::vector<const Blocks*> all;
  for (const auto& [t, b] : clients) all.push_back(&b);
  auto [prefix, suffix] = all.empty() ? std::pair<size_t, size_t>{0, 0} : CommonEnds(all);
  const Blocks& first = all.empty() ? Blocks{} : *all.front();
  std::string text =
      "<!-- strata:head -->\n\n" + Join(first, 0, prefix) + "\n<!-- strata:config -->\n";
  for (const auto& [target, blocks] : clients) {
    std::string own = Join(blocks, prefix, blocks.size() - suffix);
    if (own.empty()) continue;
    CheckSectionHeadings(own, *target, diagnostics);
    text += "\n## " + std::string(target->display_name) + "\n" + own;
    out.sections.emplace_back(target->id);
  }
  text += "\n<!-- strata:tail -->\n";
  if (suffix > 0) text += "\n" + Join(first, first.size() - suffix, first.size());
  out.agents_md = std::move(text);
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
  bool agents_is_input = false;
  for (const auto& f : files) {
    STRATA_TRY_ASSIGN(Input in, ReadInput(root, f));
    agents_is_input = agents_is_input || in.file.path == "AGENTS.md";
    report.files.push_back(in.file);
    inputs.push_back(std::move(in));
  }
  if (!agents_is_input && !force && fs::exists(root / "AGENTS.md", ec)) {
    return MakeError(ErrorKind::kInvalidArgument,
                     "AGENTS.md exists and is not among the --from files: add it to --from so "
                     "its text is merged, or pass --force to replace it",
                     {"AGENTS.md"});
  }
  Merged merged = Merge(inputs, &report.diagnostics);
  report.client_sections = merged.sections;
  std::vector<std::pair<fs::path, std::string>> writes = {{"AGENTS.md", merged.agents_md}};
  if (!fs::exists(root / "strata.toml", ec)) {
    std::string ids;
    for (const auto& target : AllTargets()) {
      bool adopted = false;
      for (const auto& in : inputs) adopted = adopted || in.target == &target;
      if (adopted)
        ids += std::string(ids.empty() ? "" : ", ") + "\"" + std::string(target.id) + "\"";
    }
    writes.emplace_back("strata.toml", "targets = [" + ids + "]\n");
    report.wrote_config = true;
  }
  STRATA_TRY(WriteFilesContained(root, writes, {}));
  return report;
}

}  // namespace strata
