// corpus_discover_test.cc: discovery over the real instruction trees in the shared corpus (issue 3,
// input 13). Each tree is a repository copy without its .git, so the repository's directory is
// passed as the project root. Skipped when the corpus is absent.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "strata/discover.h"
#include "support/test_support.h"

namespace strata {
namespace {

namespace fs = std::filesystem;

std::optional<fs::path> Instructions() {
  auto corpus = testing::CorpusDir();
  if (!corpus || !fs::is_directory(*corpus / "instructions")) return std::nullopt;
  return *corpus / "instructions";
}

#define REQUIRE_CORPUS(dir)                                        \
  auto dir##_opt = Instructions();                                 \
  if (!dir##_opt) GTEST_SKIP() << "corpus/instructions is absent"; \
  const fs::path dir = *dir##_opt

Discovery DiscoverIn(const fs::path& repo, const fs::path& cwd,
                     std::vector<std::string> names = {"AGENTS.md", "CLAUDE.md", "GEMINI.md"}) {
  DiscoverOptions options;
  options.working_dir = cwd;
  options.project_root = repo;
  options.file_names = std::move(names);
  Result<Discovery> d = Discover(options);
  EXPECT_TRUE(d.has_value()) << (d ? "" : FormatError(d.error()));
  return d ? *d : Discovery{};
}

std::vector<std::string> Paths(const Discovery& d) {
  std::vector<std::string> out;
  for (const auto& s : d.sources) out.push_back(s.display_path);
  return out;
}

bool HasKind(const Discovery& d, std::string_view kind, std::string_view path) {
  return std::any_of(d.diagnostics.begin(), d.diagnostics.end(),
                     [&](const Diagnostic& x) { return x.kind == kind && x.where.path == path; });
}

std::string ToLf(std::string text) {
  if (text.starts_with("\xEF\xBB\xBF")) text.erase(0, 3);
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\r') {
      out.push_back('\n');
      if (i + 1 < text.size() && text[i + 1] == '\n') ++i;
    } else {
      out.push_back(text[i]);
    }
  }
  return out;
}

// The CLAUDE.md files of these trees are symlinks to AGENTS.md upstream; the corpus may hold them
// as links or as 9-byte placeholders. Either way the AGENTS.md text loads exactly once.
TEST(CorpusDiscoverTest, PydanticNestedCascadeLoadsRootFirstAndSymlinkedClaudeOnce) {
  REQUIRE_CORPUS(dir);
  fs::path repo = dir / "pydantic__pydantic-ai";
  fs::path models = repo / "pydantic_ai_slim/pydantic_ai/models";
  Discovery d = DiscoverIn(repo, models);
  std::vector<std::string> expected;
  for (const std::string level : {"../../../", "../", ""}) {
    expected.push_back(level + "AGENTS.md");
    fs::path claude = models / (level + "CLAUDE.md");
    if (!fs::is_symlink(claude)) {
      expected.push_back(level + "CLAUDE.md");
      EXPECT_TRUE(HasKind(d, "symlink-placeholder", level + "CLAUDE.md")) << level;
    } else {
      EXPECT_TRUE(HasKind(d, "duplicate-file", level + "CLAUDE.md")) << level;
    }
  }
  EXPECT_EQ(Paths(d), expected);
  std::string all = AssembleSources(d.sources);
  std::string root_text = ToLf(testing::ReadAll(repo / "AGENTS.md"));
  EXPECT_EQ(all.find(root_text.substr(0, 300)), all.rfind(root_text.substr(0, 300)));
}

TEST(CorpusDiscoverTest, GeminiPackagesCascadeAndTrackerDeliverEachPackageOnce) {
  REQUIRE_CORPUS(dir);
  fs::path repo = dir / "google-gemini__gemini-cli";
  Discovery core = DiscoverIn(repo, repo / "packages/core");
  EXPECT_EQ(Paths(core), (std::vector<std::string>{"../../GEMINI.md", "GEMINI.md"}));

  DiscoverOptions options;
  options.working_dir = repo;
  options.project_root = repo;
  Result<Discovery> root = Discover(options);
  ASSERT_TRUE(root.has_value());
  EXPECT_EQ(Paths(*root), std::vector<std::string>{"GEMINI.md"});
  SubdirectoryTracker tracker(options, *root);
  TouchResult cli = tracker.Touch("packages/cli/src/index.ts");
  EXPECT_EQ(std::vector<std::string>{cli.sources.empty() ? "" : cli.sources[0].display_path},
            std::vector<std::string>{"packages/cli/GEMINI.md"});
  EXPECT_EQ(cli.sources.size(), 1u);
  EXPECT_TRUE(tracker.Touch("packages/cli").sources.empty());
}

// modelcontextprotocol__python-sdk/CLAUDE.md is `@AGENTS.md`.
TEST(CorpusDiscoverTest, ImportOnlyClaudeMdResolvesToAgentsMd) {
  REQUIRE_CORPUS(dir);
  fs::path repo = dir / "modelcontextprotocol__python-sdk";
  std::string agents = ToLf(testing::ReadAll(repo / "AGENTS.md"));
  Discovery claude_view = DiscoverIn(repo, repo, {"CLAUDE.md"});
  ASSERT_EQ(Paths(claude_view), (std::vector<std::string>{"CLAUDE.md", "AGENTS.md"}));
  EXPECT_EQ(claude_view.sources[1].origin, SourceOrigin::kImport);
  EXPECT_EQ(claude_view.sources[1].content, agents);

  Discovery both = DiscoverIn(repo, repo);
  EXPECT_EQ(Paths(both), (std::vector<std::string>{"AGENTS.md", "CLAUDE.md"}));
  EXPECT_TRUE(HasKind(both, "import-duplicate", "CLAUDE.md"));

  Result<ExpandedText> expanded = ExpandImports(repo / "CLAUDE.md", DiscoverOptions{});
  ASSERT_TRUE(expanded.has_value());
  EXPECT_EQ(expanded->text, agents);
}

// The CRLF variant comes from another commit: compare it with itself converted to LF here.
TEST(CorpusDiscoverTest, CrlfVariantGivesTheSameTextAsItsLfConversion) {
  REQUIRE_CORPUS(dir);
  fs::path variant = dir / "modelcontextprotocol__python-sdk/_crlf_variant_from_pr2443";
  std::string raw = testing::ReadAll(variant / "AGENTS.md");
  ASSERT_NE(raw.find("\r\n"), std::string::npos);
  std::string lf = ToLf(raw);
  Discovery d = DiscoverIn(variant, variant, {"CLAUDE.md"});
  ASSERT_EQ(Paths(d), (std::vector<std::string>{"CLAUDE.md", "AGENTS.md"}));
  EXPECT_EQ(d.sources[0].content, "@AGENTS.md\n");
  EXPECT_EQ(d.sources[1].content, lf);
  DiscoverOptions options;
  options.project_root = variant;
  Result<ExpandedText> expanded = ExpandImports(variant / "CLAUDE.md", options);
  ASSERT_TRUE(expanded.has_value());
  EXPECT_EQ(expanded->text, lf);
}

// Every directory of every tree: no file twice, nothing refused as binary or invalid, and the
// order is the rule's (root to cwd, file_names order in each directory).
TEST(CorpusDiscoverTest, EveryTreeLoadsEachFileOnceInCascadeOrder) {
  REQUIRE_CORPUS(dir);
  for (const auto& repo_entry : fs::directory_iterator(dir)) {
    if (!repo_entry.is_directory()) continue;
    fs::path repo = repo_entry.path();
    for (const auto& entry : fs::recursive_directory_iterator(repo)) {
      if (!entry.is_directory() && entry.path() != repo) continue;
      fs::path cwd = entry.is_directory() ? entry.path() : repo;
      Discovery d = DiscoverIn(repo, cwd);
      std::set<fs::path> seen;
      size_t last_depth = 0;
      for (const Source& s : d.sources) {
        EXPECT_TRUE(seen.insert(fs::canonical(s.path)).second) << s.path;
        if (s.origin == SourceOrigin::kImport) continue;
        fs::path parent = s.path.parent_path();
        size_t depth = static_cast<size_t>(std::distance(parent.begin(), parent.end()));
        EXPECT_GE(depth, last_depth) << s.path;  // root first, cwd last
        last_depth = depth;
      }
      for (const Diagnostic& x : d.diagnostics) {
        EXPECT_NE(x.severity, Severity::kError) << FormatDiagnostic(x);
      }
    }
  }
}

}  // namespace
}  // namespace strata
