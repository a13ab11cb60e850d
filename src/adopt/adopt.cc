// adopt.cc: writes the AGENTS.md skeleton, or adds the band markers to an existing file.
#include "adopt/adopt.h"

#include <algorithm>

#include "bands/markers.h"
#include "io/file_io.h"
#include "markdown/frontmatter.h"
#include "markdown/markdown_blocks.h"
#include "strata/compile.h"
#include "text/text.h"

namespace strata {

namespace fs = std::filesystem;

std::string AdoptSkeleton(std::string_view project_name) {
  std::string name(project_name);
  return "# " + name +
         "\n"
         "\n"
         "<!-- strata:head -->\n"
         "\n"
         "What this project is, in two sentences, and the rules that hold for every change.\n"
         "Text here is cached first by every client: keep dates, paths and counters out of it.\n"
         "\n"
         "<!-- strata:config -->\n"
         "\n"
         "## Conventions\n"
         "\n"
         "Build, layout and style notes that change when the project's setup changes.\n"
         "\n"
         "## Claude Code\n"
         "\n"
         "Notes only Claude Code should see (this section reaches CLAUDE.md only).\n"
         "\n"
         "<!-- strata:tail -->\n"
         "\n"
         "## Verification\n"
         "\n"
         "The commands that check a change, and repository state that changes often.\n";
}

std::string AddBandMarkers(std::string_view text) {
  MarkdownBlocks blocks = MapMarkdownBlocks(text);
  auto lines = SplitLines(text);
  for (size_t i = 0; i < lines.size(); ++i) {
    if (!blocks.in_code[i + 1] && ParseBandMarker(lines[i], nullptr)) return std::string(text);
  }
  int title_line = 0;  // insert the head marker after the first H1, or at the top
  for (const auto& [line, heading] : blocks.headings) {
    if (heading.level == 1) {
      title_line = line;
      break;
    }
  }
  // Frontmatter (a `.mdc` or `.instructions.md` file's globs) stays first: the head marker goes
  // after it when there is no H1.
  size_t front_lines = 0;
  if (size_t length = FrontmatterLength(text); length > 0) {
    front_lines = static_cast<size_t>(std::count(text.begin(), text.begin() + length, '\n'));
    if (title_line > 0 && static_cast<size_t>(title_line) <= front_lines) title_line = 0;
  }
  std::string out;
  for (size_t i = 0; i < front_lines; ++i) out.append(lines[i]).push_back('\n');
  if (title_line == 0)
    out += (front_lines > 0 ? "\n" : "") + std::string("<!-- strata:head -->\n\n");
  for (size_t i = front_lines; i < lines.size(); ++i) {
    out.append(lines[i]);
    out.push_back('\n');
    if (static_cast<int>(i) + 1 == title_line) out += "\n<!-- strata:head -->\n";
  }
  out += "\n<!-- strata:config -->\n\n<!-- strata:tail -->\n";
  return out;
}

Result<AdoptReport> Adopt(const fs::path& root, bool force) {
  AdoptReport report;
  std::error_code ec;
  if (!fs::is_directory(root, ec)) {
    return MakeError(ErrorKind::kNotFound, "repository root " + root.string() +
                                               " does not exist or is not a directory: pass an "
                                               "existing --root");
  }
  fs::path path = root / "AGENTS.md";
  report.path = "AGENTS.md";
  auto existing = ReadFileBytes(path);
  if (!existing) {
    if (existing.error().kind != ErrorKind::kNotFound) return tl::unexpected(existing.error());
    std::string name = fs::weakly_canonical(root).filename().string();
    if (name.empty()) name = "Project";
    if (auto s = WriteFileAtomic(path, AdoptSkeleton(name)); !s) return tl::unexpected(s.error());
    report.outcome = AdoptOutcome::kCreated;
    return report;
  }
  if (!force) {
    report.outcome = AdoptOutcome::kLeftAlone;
    return report;
  }
  auto clean = CleanText(*existing, "AGENTS.md", {.normalize_nfc = false, .strip_tags = false});
  if (!clean) return tl::unexpected(clean.error());
  if (MarkdownBlocks blocks = MapMarkdownBlocks(clean->text);
      !clean->text.empty() && blocks.in_code[SplitLines(clean->text).size()]) {
    return MakeError(ErrorKind::kParse,
                     "the file ends inside an unclosed code block, so markers added at the end "
                     "would be code: close the code block, then run `strata adopt --force` again",
                     {"AGENTS.md"});
  }
  std::string updated = AddBandMarkers(clean->text);
  if (updated == clean->text) {
    report.outcome = AdoptOutcome::kAlreadyBanded;
    return report;
  }
  updated = InOriginalForm(updated, *clean);
  if (auto s = WriteFileAtomic(path, updated); !s) return tl::unexpected(s.error());
  report.outcome = AdoptOutcome::kMarkersAdded;
  return report;
}

}  // namespace strata
