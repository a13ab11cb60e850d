// adopt_from_corpus_test.cc: `strata adopt --from` then `strata compile` on each corpus tree (real
// repositories' instruction files; skipped when STRATA_CORPUS_DIR names no corpus): every client
// discover --compare runs at the root loads each text exactly once, still loads every text it
// loaded before, and `strata audit` finds no double load. Clients that read AGENTS.md themselves
// (Copilot, Cursor, Goose) are targets too, so a compiled copy beside AGENTS.md would show here.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "strata/compile.h"
#include "strata/discover.h"
#include "support/test_support.h"
#include "text/text.h"

namespace strata {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

// The paragraphs of a loaded file: runs of non-blank lines, frontmatter, HTML comments (strata's
// header, footer and markers), lone headings and lone imports left out; trailing blanks trimmed.
std::vector<std::string> Paragraphs(std::string_view text) {
  if (text.starts_with("---\n")) {
    size_t close = text.find("\n---\n", 3);
    if (close != std::string_view::npos) text.remove_prefix(close + 5);
  }
  std::vector<std::string> out;
  std::string current;
  auto flush = [&] {
    const bool one_line = current.find('\n') == std::string::npos;
    const bool lone_heading = one_line && current.starts_with("#");
    // An import alone (CLAUDE.md's `@AGENTS.md`): adopt puts the imported text in its place.
    const bool lone_import =
        one_line && current.starts_with("@") && current.find(' ') == std::string::npos;
    if (!current.empty() && !current.starts_with("<!--") && !lone_heading && !lone_import) {
      out.push_back(current);
    }
    current.clear();
  };
  for (std::string_view line : SplitLines(text)) {
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) {
      line.remove_suffix(1);
    }
    if (line.empty()) {
      flush();
      continue;
    }
    if (!current.empty()) current += "\n";
    current += line;
  }
  flush();
  return out;
}

struct Loaded {
  std::map<std::string, std::set<std::string>> files_of;  // paragraph -> files holding it
  bool cut = false;                                       // a source was truncated by a budget
};

std::map<std::string, Loaded> LoadedByClient(const fs::path& root) {
  CompareOptions compare;
  compare.read_settings = false;
  Result<Comparison> c = CompareClientsWith(root, compare);
  EXPECT_TRUE(c) << (c ? "" : c.error().message);
  std::map<std::string, Loaded> out;
  if (!c) return out;
  for (const ClientView& view : c->views) {
    Loaded& loaded = out[ClientName(view.client)];
    for (const Source& source : view.discovery.sources) {
      loaded.cut = loaded.cut || source.truncated;
      for (std::string& p : Paragraphs(source.content)) {
        loaded.files_of[std::move(p)].insert(source.display_path);
      }
    }
  }
  return out;
}

void ExpectEachTextOnce(const fs::path& tree) {
  const std::vector<std::string> candidates = {"CLAUDE.md", "AGENTS.md", "GEMINI.md",
                                               ".github/copilot-instructions.md"};
  TempDir dir;
  fs::copy(tree, dir.path(), fs::copy_options::recursive);
  if (!fs::exists(dir.path() / ".git")) dir.Write(".git/HEAD", "ref: refs/heads/main\n");
  std::vector<std::string> files;
  for (const auto& f : candidates) {
    if (fs::is_regular_file(dir.path() / f)) files.push_back(f);
  }
  if (files.empty()) return;
  const std::map<std::string, Loaded> before = LoadedByClient(dir.path());

  auto adopted = AdoptFrom(dir.path(), files, false);
  ASSERT_TRUE(adopted) << adopted.error().message;
  std::set<std::string> skipped;
  for (const auto& f : adopted->files) {
    if (f.skipped) skipped.insert(f.path);
  }
  std::string targets;
  for (const std::string& id :
       {"claude-code", "codex", "gemini-cli", "copilot", "cursor", "goose"}) {
    bool adopted_client = id == "copilot" || id == "cursor" || id == "goose";
    for (const auto& f : adopted->files) adopted_client = adopted_client || f.client_id == id;
    if (adopted_client) targets += std::string(targets.empty() ? "" : ", ") + "\"" + id + "\"";
  }
  const std::string source =
      adopted->path == "AGENTS.md" ? "" : "source = \"" + adopted->path + "\"\n";
  dir.Write("strata.toml", source + "targets = [" + targets + "]\n");
  CompileOptions options;
  options.root = dir.path();
  options.force = true;
  auto report = Compile(options);
  ASSERT_TRUE(report) << report.error().message;
  EXPECT_TRUE(report->ok);

  Result<Comparison> comparison = CompareClientsWith(dir.path(), {{}, {}, {}, false});
  ASSERT_TRUE(comparison) << comparison.error().message;
  for (const Diagnostic& d : DoubleLoads(*comparison)) ADD_FAILURE() << d.message;
  const std::map<std::string, Loaded> after = LoadedByClient(dir.path());
  for (const auto& [client, loaded] : after) {
    for (const auto& [paragraph, where] : loaded.files_of) {
      EXPECT_EQ(where.size(), 1u) << client << " loads a paragraph from " << where.size()
                                  << " files (" << *where.begin() << ", ...):\n"
                                  << paragraph;
    }
    auto was = before.find(client);
    if (was == before.end() || was->second.cut || loaded.cut) continue;
    for (const auto& [paragraph, where] : was->second.files_of) {
      // A checked-out link (pydantic-ai's CLAUDE.md holding "AGENTS.md"): adopt skips it, and
      // its client now reads the linked text itself.
      if (std::all_of(where.begin(), where.end(),
                      [&](const std::string& f) { return skipped.count(f) > 0; })) {
        continue;
      }
      EXPECT_TRUE(loaded.files_of.count(paragraph))
          << client << " no longer loads this paragraph of " << *where.begin() << ":\n"
          << paragraph;
    }
  }
}

TEST(AdoptFromCorpusTest, EveryClientLoadsEachTextOnceAfterAdoptAndCompile) {
  auto corpus = testing::CorpusDir();
  if (!corpus) GTEST_SKIP() << "corpus absent (set STRATA_CORPUS_DIR)";
  const fs::path trees = *corpus / "instructions";
  if (!fs::is_directory(trees)) GTEST_SKIP() << "no instructions/ in the corpus";
  std::vector<fs::path> all;
  for (const auto& entry : fs::directory_iterator(trees)) {
    if (entry.is_directory()) all.push_back(entry.path());
  }
  std::sort(all.begin(), all.end());
  for (const fs::path& tree : all) {
    SCOPED_TRACE(tree.filename().string());
    ExpectEachTextOnce(tree);
  }
}

}  // namespace
}  // namespace strata
