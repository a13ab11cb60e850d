// discover_test.cc: the cascade, root markers, the same-directory rule, imports and hygiene through
// Discover (issue 3, inputs 1-12; the tracker and the corpus have their own files).
#include "strata/discover.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

#include "support/test_support.h"

namespace strata {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

DiscoverOptions OptionsAt(const fs::path& cwd) {
  DiscoverOptions options;
  options.working_dir = cwd;
  return options;
}

std::vector<std::string> Paths(const Discovery& d) {
  std::vector<std::string> out;
  for (const auto& s : d.sources) out.push_back(s.display_path);
  return out;
}

const Diagnostic* Find(const std::vector<Diagnostic>& diagnostics, std::string_view kind) {
  for (const auto& d : diagnostics) {
    if (d.kind == kind) return &d;
  }
  return nullptr;
}

size_t Count(const std::string& haystack, const std::string& needle) {
  size_t n = 0;
  for (size_t pos = haystack.find(needle); pos != std::string::npos;
       pos = haystack.find(needle, pos + 1)) {
    ++n;
  }
  return n;
}

Discovery DiscoverOk(const DiscoverOptions& options) {
  Result<Discovery> d = Discover(options);
  EXPECT_TRUE(d.has_value()) << (d ? "" : FormatError(d.error()));
  return d ? *d : Discovery{};
}

TEST(DiscoverTest, CascadeRunsGlobalThenRootDownToCwdThenLocalFiles) {
  TempDir tmp;
  fs::create_directories(tmp.path() / "repo/.git");
  tmp.Write("config/AGENTS.md", "global\n");
  tmp.Write("repo/AGENTS.md", "root\n");
  tmp.Write("repo/a/AGENTS.md", "a\n");
  tmp.Write("repo/a/b/AGENTS.md", "b\n");
  tmp.Write("repo/AGENTS.local.md", "mine\n");
  tmp.Write("repo/a/b/CLAUDE.local.md", "mine too\n");
  tmp.Write("repo/a/b/c/AGENTS.md", "below cwd: not in the cascade\n");
  DiscoverOptions options = OptionsAt(tmp.path() / "repo/a/b");
  options.global_files = {tmp.path() / "config/AGENTS.md"};
  Discovery d = DiscoverOk(options);
  EXPECT_EQ(d.project_root, tmp.path() / "repo");
  EXPECT_EQ(d.root_marker, ".git");
  std::vector<std::string> expected = {(tmp.path() / "config/AGENTS.md").string(),
                                       "../../AGENTS.md",
                                       "../AGENTS.md",
                                       "AGENTS.md",
                                       "../../AGENTS.local.md",
                                       "CLAUDE.local.md"};
  EXPECT_EQ(Paths(d), expected);
  EXPECT_EQ(d.sources[0].origin, SourceOrigin::kGlobal);
  EXPECT_EQ(d.sources[1].origin, SourceOrigin::kProject);
  EXPECT_EQ(d.sources[4].origin, SourceOrigin::kLocal);
}

TEST(DiscoverTest, MissingAndEmptyFilesAreNotErrors) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  Discovery none = DiscoverOk(OptionsAt(tmp.path()));
  EXPECT_TRUE(none.sources.empty());
  EXPECT_TRUE(none.diagnostics.empty());
  tmp.Write("AGENTS.md", "");
  Discovery empty = DiscoverOk(OptionsAt(tmp.path()));
  ASSERT_EQ(empty.sources.size(), 1u);
  EXPECT_EQ(empty.sources[0].bytes, 0u);
  EXPECT_EQ(Find(empty.diagnostics, "unreadable"), nullptr);
}

TEST(DiscoverTest, MissingWorkingDirectoryIsNotFound) {
  TempDir tmp;
  Result<Discovery> d = Discover(OptionsAt(tmp.path() / "nope"));
  ASSERT_FALSE(d.has_value());
  EXPECT_EQ(d.error().kind, ErrorKind::kNotFound);
}

TEST(DiscoverTest, WithoutMarkerOnlyTheWorkingDirectoryUnlessWalkingToTheTop) {
  TempDir tmp;
  tmp.Write("AGENTS.md", "parent\n");
  tmp.Write("child/AGENTS.md", "child\n");
  Discovery alone = DiscoverOk(OptionsAt(tmp.path() / "child"));
  EXPECT_EQ(Paths(alone), std::vector<std::string>{"AGENTS.md"});
  EXPECT_EQ(alone.root_marker, "");
  DiscoverOptions walk = OptionsAt(tmp.path() / "child");
  walk.root_markers = {"no-such-marker-anywhere"};
  walk.walk_to_filesystem_root = true;
  Discovery all = DiscoverOk(walk);
  EXPECT_EQ(all.project_root, fs::path("/"));
  std::vector<std::string> paths = Paths(all);
  ASSERT_GE(paths.size(), 2u);
  EXPECT_EQ(paths[paths.size() - 2], "../AGENTS.md");
  EXPECT_EQ(paths.back(), "AGENTS.md");
}

// Input 1: a submodule's `.git` is a file; the superproject's marker file decides the root.
TEST(DiscoverTest, SubmoduleGitFileWithSuperprojectMarkerLoadsSuperprojectFirst) {
  TempDir tmp;
  fs::create_directories(tmp.path() / "super/.git/modules/sub");
  tmp.Write("super/.gitmodules", "[submodule \"sub\"]\n\tpath = sub\n");
  tmp.Write("super/AGENTS.md", "superproject rules\n");
  tmp.Write("super/sub/.git", "gitdir: ../.git/modules/sub\n");
  tmp.Write("super/sub/AGENTS.md", "submodule rules\n");
  DiscoverOptions options = OptionsAt(tmp.path() / "super/sub");
  options.root_markers = {".gitmodules"};
  Discovery d = DiscoverOk(options);
  EXPECT_EQ(d.project_root, tmp.path() / "super");
  EXPECT_EQ(d.root_marker, ".gitmodules");
  EXPECT_EQ(Paths(d), (std::vector<std::string>{"../AGENTS.md", "AGENTS.md"}));
  EXPECT_EQ(d.sources[0].content, "superproject rules\n");

  // With the default marker, the `.git` file makes the submodule its own root.
  Discovery own = DiscoverOk(OptionsAt(tmp.path() / "super/sub"));
  EXPECT_EQ(own.project_root, tmp.path() / "super/sub");
  EXPECT_EQ(Paths(own), std::vector<std::string>{"AGENTS.md"});
}

// Input 2: a configured marker other than .git wins over a nested .git below it.
TEST(DiscoverTest, ConfiguredMarkerDecidesOverNestedGit) {
  TempDir tmp;
  tmp.Write("mono/WORKSPACE", "");
  tmp.Write("mono/AGENTS.md", "monorepo\n");
  fs::create_directories(tmp.path() / "mono/vendor/lib/.git");
  tmp.Write("mono/vendor/lib/AGENTS.md", "lib\n");
  DiscoverOptions options = OptionsAt(tmp.path() / "mono/vendor/lib");
  options.root_markers = {"WORKSPACE"};
  Discovery d = DiscoverOk(options);
  EXPECT_EQ(d.project_root, tmp.path() / "mono");
  EXPECT_EQ(d.root_marker, "WORKSPACE");
  EXPECT_EQ(Paths(d), (std::vector<std::string>{"../../AGENTS.md", "AGENTS.md"}));
}

// Input 4: the documented rule for several names in one directory.
TEST(DiscoverTest, DifferentAgentsAndClaudeInOneDirectoryBothLoadInListOrder) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write("CLAUDE.md", "claude text\n");
  tmp.Write("AGENTS.md", "agents text\n");
  Discovery d = DiscoverOk(OptionsAt(tmp.path()));
  EXPECT_EQ(Paths(d), (std::vector<std::string>{"AGENTS.md", "CLAUDE.md"}));
  ASSERT_NE(Find(d.diagnostics, "several-files"), nullptr);

  DiscoverOptions first_only = OptionsAt(tmp.path());
  first_only.same_directory = SameDirectoryRule::kFirstOnly;
  Discovery f = DiscoverOk(first_only);
  EXPECT_EQ(Paths(f), std::vector<std::string>{"AGENTS.md"});
  const Diagnostic* skipped = Find(f.diagnostics, "skipped-by-rule");
  ASSERT_NE(skipped, nullptr);
  EXPECT_EQ(skipped->where.path, "CLAUDE.md");
}

// Input 5a: an import-only CLAUDE.md pointing at the root file does not load it twice.
TEST(DiscoverTest, ImportOnlyClaudeMdInSubdirectoryDoesNotRepeatRootText) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write("AGENTS.md", "root rules\n");
  tmp.Write("sub/CLAUDE.md", "@../AGENTS.md\n");
  Discovery d = DiscoverOk(OptionsAt(tmp.path() / "sub"));
  EXPECT_EQ(Paths(d), (std::vector<std::string>{"../AGENTS.md", "CLAUDE.md"}));
  EXPECT_EQ(Count(AssembleSources(d.sources), "root rules"), 1u);
  const Diagnostic* dup = Find(d.diagnostics, "import-duplicate");
  ASSERT_NE(dup, nullptr);
  EXPECT_EQ(FormatDiagnostic(*dup).substr(0, 14), "CLAUDE.md:1:1:");

  // Without a marker the root file is outside the cascade: the import brings it in.
  TempDir bare;
  bare.Write("AGENTS.md", "root rules\n");
  bare.Write("sub/CLAUDE.md", "@../AGENTS.md\n");
  DiscoverOptions options = OptionsAt(bare.path() / "sub");
  options.imports.allow_outside_root = true;
  Discovery i = DiscoverOk(options);
  ASSERT_EQ(Paths(i),
            (std::vector<std::string>{"CLAUDE.md", (bare.path() / "AGENTS.md").string()}));
  EXPECT_EQ(i.sources[1].origin, SourceOrigin::kImport);
  EXPECT_EQ(i.sources[1].content, "root rules\n");
}

// Input 5b: the import is relative to .claude/, the file exists only at the root: say so.
TEST(DiscoverTest, ImportRelativeToDotClaudeMissingTargetExplainsWhereTheFileIs) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write(".claude/CLAUDE.md", "Read @notes/x.md first.\n");
  tmp.Write("notes/x.md", "notes\n");
  DiscoverOptions options = OptionsAt(tmp.path());
  options.file_names = {"AGENTS.md", "CLAUDE.md", ".claude/CLAUDE.md"};
  Discovery d = DiscoverOk(options);
  EXPECT_EQ(Paths(d), std::vector<std::string>{".claude/CLAUDE.md"});
  const Diagnostic* missing = Find(d.diagnostics, "import-missing");
  ASSERT_NE(missing, nullptr);
  EXPECT_EQ(FormatDiagnostic(*missing),
            ".claude/CLAUDE.md:1:6: warning: import target not found: .claude/notes/x.md (imports "
            "are relative to the importing file; notes/x.md exists: write @../notes/x.md)");
}

// Input 6 through the loader: one import loads, every refused token is a positioned note.
TEST(DiscoverTest, OnlyTheProseImportLoadsAndRefusedTokensArePositioned) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write("AGENTS.md",
            "see @file.md\nsee `@file.md`\nmail me@example.com\nrun @scope/pkg\n\n```\n@file.md\n"
            "@pytest.fixture\n```\n\n<!-- @x.md -->\n");
  tmp.Write("file.md", "the file\n");
  tmp.Write("x.md", "never\n");
  Discovery d = DiscoverOk(OptionsAt(tmp.path()));
  EXPECT_EQ(Paths(d), (std::vector<std::string>{"AGENTS.md", "file.md"}));
  std::vector<std::string> notes;
  for (const auto& diag : d.diagnostics) {
    if (diag.kind == "import" || diag.kind == "import-refused") {
      notes.push_back(FormatDiagnostic(diag).substr(0, FormatDiagnostic(diag).find(": note")));
    }
  }
  EXPECT_EQ(notes, (std::vector<std::string>{"AGENTS.md:1:5", "AGENTS.md:2:6", "AGENTS.md:3:8",
                                             "AGENTS.md:4:5", "AGENTS.md:7:1", "AGENTS.md:8:1",
                                             "AGENTS.md:11:6"}));
}

// Input 7a: A imports B, B imports A.
TEST(DiscoverTest, MutualImportIsACycleDiagnostic) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write("AGENTS.md", "@A.md\n");
  tmp.Write("A.md", "a\n@B.md\n");
  tmp.Write("B.md", "b\n@A.md\n");
  Discovery d = DiscoverOk(OptionsAt(tmp.path()));
  EXPECT_EQ(Paths(d), (std::vector<std::string>{"AGENTS.md", "A.md", "B.md"}));
  const Diagnostic* cycle = Find(d.diagnostics, "import-cycle");
  ASSERT_NE(cycle, nullptr);
  EXPECT_EQ(FormatDiagnostic(*cycle),
            "B.md:2:1: warning: import cycle: AGENTS.md -> A.md -> B.md -> A.md; not followed");
}

// Input 7b: AGENTS.md imports itself through the CLAUDE.md symlink.
TEST(DiscoverTest, SelfImportThroughSymlinkIsACycleAndLoadsOnce) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write("AGENTS.md", "rules\n@CLAUDE.md\n");
  fs::create_symlink("AGENTS.md", tmp.path() / "CLAUDE.md");
  Discovery d = DiscoverOk(OptionsAt(tmp.path()));
  EXPECT_EQ(Paths(d), std::vector<std::string>{"AGENTS.md"});
  ASSERT_NE(Find(d.diagnostics, "import-cycle"), nullptr);
  EXPECT_EQ(Find(d.diagnostics, "import-cycle")->where.line, 2);
  ASSERT_NE(Find(d.diagnostics, "duplicate-file"), nullptr);
}

// Input 7c: a chain 7 deep stops at depth 5.
TEST(DiscoverTest, ImportChainSevenDeepStopsAtDepthFive) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write("AGENTS.md", "@c1.md\n");
  for (int i = 1; i <= 7; ++i) {
    tmp.Write("c" + std::to_string(i) + ".md",
              i < 7 ? "@c" + std::to_string(i + 1) + ".md\n" : std::string("end\n"));
  }
  Discovery d = DiscoverOk(OptionsAt(tmp.path()));
  EXPECT_EQ(Paths(d),
            (std::vector<std::string>{"AGENTS.md", "c1.md", "c2.md", "c3.md", "c4.md", "c5.md"}));
  EXPECT_EQ(d.sources.back().import_depth, 5);
  const Diagnostic* depth = Find(d.diagnostics, "import-depth");
  ASSERT_NE(depth, nullptr);
  EXPECT_EQ(FormatDiagnostic(*depth),
            "c5.md:1:1: warning: import depth limit 5 reached: c6.md not loaded");
}

// Input 8: a symlink checked out as a 9-byte text file.
TEST(DiscoverTest, SymlinkPlaceholderLoadsAsTextWithAHint) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write("AGENTS.md", "real rules\n");
  tmp.Write("CLAUDE.md", "AGENTS.md");
  Discovery d = DiscoverOk(OptionsAt(tmp.path()));
  ASSERT_EQ(Paths(d), (std::vector<std::string>{"AGENTS.md", "CLAUDE.md"}));
  EXPECT_EQ(d.sources[1].content, "AGENTS.md");
  EXPECT_EQ(d.sources[1].bytes, 9u);
  const Diagnostic* hint = Find(d.diagnostics, "symlink-placeholder");
  ASSERT_NE(hint, nullptr);
  EXPECT_EQ(hint->where.path, "CLAUDE.md");
  EXPECT_NE(hint->message.find("probably a symlink"), std::string::npos);
  EXPECT_NE(hint->message.find("@AGENTS.md"), std::string::npos);
}

// Input 9: the total budget runs out 8 bytes into the nested file, whose euro sign sits at bytes
// 8-10 (1-based; offsets 7-9).
TEST(DiscoverTest, TotalBudgetCutsNestedFileOnCodePointBoundaryWithMarker) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write("AGENTS.md", std::string(32759, 'r') + "\n");
  const std::string nested =
      "1234567\xE2\x82\xAC"
      "abcdefghijklmnop";  // 26 bytes
  tmp.Write("pkg/AGENTS.md", nested);
  DiscoverOptions options = OptionsAt(tmp.path() / "pkg");
  options.budget.per_file_bytes = 0;
  options.budget.total_bytes = 32 * 1024;
  Discovery d = DiscoverOk(options);
  ASSERT_EQ(d.sources.size(), 2u);
  EXPECT_FALSE(d.sources[0].truncated);
  EXPECT_TRUE(d.sources[1].truncated);
  EXPECT_EQ(d.sources[1].bytes_cut, 18u);
  EXPECT_EQ(d.sources[1].content, "1234\n[strata: AGENTS.md truncated: 18 of 26 bytes cut]\nmnop");
  const Diagnostic* cut = Find(d.diagnostics, "truncated");
  ASSERT_NE(cut, nullptr);
  EXPECT_EQ(cut->where.path, "AGENTS.md");
  EXPECT_NE(cut->message.find("18 of 26 bytes cut"), std::string::npos);

  // 16 bytes left: the head would end at offset 8, inside the euro; it backs off to 7.
  options.budget.total_bytes = 32760 + 16;
  Discovery e = DiscoverOk(options);
  ASSERT_EQ(e.sources.size(), 2u);
  EXPECT_EQ(e.sources[1].content,
            "1234567\n[strata: AGENTS.md truncated: 11 of 26 bytes cut]\nijklmnop");
}

TEST(DiscoverTest, PerFileBudgetCutsEachFile) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write("AGENTS.md", "0123456789");
  DiscoverOptions options = OptionsAt(tmp.path());
  options.budget.per_file_bytes = 6;
  Discovery d = DiscoverOk(options);
  ASSERT_EQ(d.sources.size(), 1u);
  EXPECT_EQ(d.sources[0].content, "012\n[strata: AGENTS.md truncated: 4 of 10 bytes cut]\n789");
}

// Input 10: BOMs and CRLF reach neither the heading nor the import path.
TEST(DiscoverTest, BomAndCrlfReachNeitherHeadingNorImportPath) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write("AGENTS.md", "\xEF\xBB\xBF# Title\r\n\r\nbody\r\n");
  tmp.Write("CLAUDE.md", "\xEF\xBB\xBF@AGENTS.md\r\n");
  Discovery d = DiscoverOk(OptionsAt(tmp.path()));
  ASSERT_EQ(Paths(d), (std::vector<std::string>{"AGENTS.md", "CLAUDE.md"}));
  EXPECT_EQ(d.sources[0].content, "# Title\n\nbody\n");
  EXPECT_EQ(d.sources[1].content, "@AGENTS.md\n");
  EXPECT_EQ(Find(d.diagnostics, "import-missing"), nullptr);
  const Diagnostic* import = Find(d.diagnostics, "import");
  ASSERT_NE(import, nullptr);
  EXPECT_EQ(import->message, "import of AGENTS.md");
  ASSERT_NE(Find(d.diagnostics, "import-duplicate"), nullptr);

  // BOMs at line starts inside a file (concatenated files) are removed and reported.
  TempDir cat;
  fs::create_directories(cat.path() / ".git");
  cat.Write("AGENTS.md", "intro\n\xEF\xBB\xBF# Title\n\xEF\xBB\xBF@x.md\n");
  cat.Write("x.md", "x\n");
  Discovery c = DiscoverOk(OptionsAt(cat.path()));
  ASSERT_EQ(Paths(c), (std::vector<std::string>{"AGENTS.md", "x.md"}));
  EXPECT_EQ(c.sources[0].content, "intro\n# Title\n@x.md\n");
  ASSERT_NE(Find(c.diagnostics, "stray-bom"), nullptr);
}

// Input 11: a symlink inside the project that leads outside is refused.
TEST(DiscoverTest, ImportSymlinkLeadingOutsideRootIsRefused) {
  TempDir tmp;
  tmp.Write("outside/secret.md", "secret\n");
  fs::create_directories(tmp.path() / "proj/.git");
  tmp.Write("proj/AGENTS.md", "x @link.md\n@../outside/secret.md\n");
  fs::create_symlink(tmp.path() / "outside/secret.md", tmp.path() / "proj/link.md");
  Discovery d = DiscoverOk(OptionsAt(tmp.path() / "proj"));
  EXPECT_EQ(Paths(d), std::vector<std::string>{"AGENTS.md"});
  std::vector<std::string> refused;
  for (const auto& diag : d.diagnostics) {
    if (diag.kind == "import-outside-root") refused.push_back(FormatDiagnostic(diag).substr(0, 13));
  }
  EXPECT_EQ(refused, (std::vector<std::string>{"AGENTS.md:1:3", "AGENTS.md:2:1"}));

  DiscoverOptions allowed = OptionsAt(tmp.path() / "proj");
  allowed.imports.allowed_dirs = {tmp.path() / "outside"};
  Discovery a = DiscoverOk(allowed);
  EXPECT_EQ(a.sources.size(), 2u);  // the second import is the same file: loaded once
}

TEST(DiscoverTest, HomeImportsNeedAConfiguredHome) {
  TempDir tmp;
  tmp.Write("home/.claude/mine.md", "personal\n");
  fs::create_directories(tmp.path() / "proj/.git");
  tmp.Write("proj/AGENTS.md", "@~/.claude/mine.md\n");
  Discovery without = DiscoverOk(OptionsAt(tmp.path() / "proj"));
  EXPECT_EQ(without.sources.size(), 1u);
  ASSERT_NE(Find(without.diagnostics, "import-home-unset"), nullptr);
  DiscoverOptions options = OptionsAt(tmp.path() / "proj");
  options.imports.home_dir = tmp.path() / "home";
  Discovery with = DiscoverOk(options);
  ASSERT_EQ(with.sources.size(), 2u);
  EXPECT_EQ(with.sources[1].content, "personal\n");
}

// Input 12: Unicode tag characters are stripped and reported.
TEST(DiscoverTest, TagCharactersAreStrippedAndReported) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write("AGENTS.md", "hello\xF3\xA0\x81\x81world\n");  // U+E0041 between the words
  Discovery d = DiscoverOk(OptionsAt(tmp.path()));
  ASSERT_EQ(d.sources.size(), 1u);
  EXPECT_EQ(d.sources[0].content, "helloworld\n");
  const Diagnostic* tags = Find(d.diagnostics, "tag-characters");
  ASSERT_NE(tags, nullptr);
  EXPECT_EQ(FormatDiagnostic(*tags).substr(0, 14), "AGENTS.md:1:6:");
}

TEST(DiscoverTest, BinaryAndInvalidUtf8FilesAreRefusedWithErrors) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write("AGENTS.md", std::string("a\0b", 3));
  tmp.Write("CLAUDE.md", "bad \xFF byte\n");
  Discovery d = DiscoverOk(OptionsAt(tmp.path()));
  EXPECT_TRUE(d.sources.empty());
  ASSERT_NE(Find(d.diagnostics, "binary-file"), nullptr);
  ASSERT_NE(Find(d.diagnostics, "invalid-utf8"), nullptr);
  EXPECT_EQ(Find(d.diagnostics, "invalid-utf8")->severity, Severity::kError);
}

TEST(DiscoverTest, SameTreeGivesIdenticalResults) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write("AGENTS.md", "@a.md @b.md @missing.md\n");
  tmp.Write("a.md", "a\n");
  tmp.Write("b.md", "b\n");
  Discovery one = DiscoverOk(OptionsAt(tmp.path()));
  Discovery two = DiscoverOk(OptionsAt(tmp.path()));
  EXPECT_EQ(AssembleSources(one.sources), AssembleSources(two.sources));
  ASSERT_EQ(one.diagnostics.size(), two.diagnostics.size());
  for (size_t i = 0; i < one.diagnostics.size(); ++i) {
    EXPECT_EQ(FormatDiagnostic(one.diagnostics[i]), FormatDiagnostic(two.diagnostics[i]));
  }
  EXPECT_EQ(AssembleSources(one.sources),
            "<!-- source: AGENTS.md (project) -->\n@a.md @b.md @missing.md\n\n"
            "<!-- source: a.md (import) -->\na\n\n<!-- source: b.md (import) -->\nb\n");
}

// Edge cases: token budgets, dangling links, the global file's import boundary, the tracker's
// per-file budget.

size_t CountWords(std::string_view s) {
  size_t n = 0;
  bool in_word = false;
  for (char c : s) {
    bool space = c == ' ' || c == '\n';
    if (!space && !in_word) ++n;
    in_word = !space;
  }
  return n;
}

TEST(DiscoverEdgeTest, TokenBudgetCutsWithTheConfiguredCounter) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write("AGENTS.md", "one two three four five six seven eight\n");  // 8 words
  DiscoverOptions options;
  options.working_dir = tmp.path();
  options.budget.count_tokens = CountWords;
  options.budget.per_file_tokens = 4;
  Result<Discovery> d = Discover(options);
  ASSERT_TRUE(d.has_value());
  ASSERT_EQ(d->sources.size(), 1u);
  EXPECT_TRUE(d->sources[0].truncated);
  // Head and tail hold at most 4 words together, and the marker sits between them.
  const std::string& text = d->sources[0].content;
  size_t marker = text.find("[strata: AGENTS.md truncated:");
  ASSERT_NE(marker, std::string::npos);
  size_t marker_end = text.find('\n', marker);
  EXPECT_LE(CountWords(text.substr(0, marker)) + CountWords(text.substr(marker_end)), 4u);
  EXPECT_TRUE(text.starts_with("one two"));
  EXPECT_TRUE(text.ends_with("eight\n"));
}

TEST(DiscoverEdgeTest, DanglingSymlinkIsReportedAndSkipped) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  fs::create_symlink("gone.md", tmp.path() / "AGENTS.md");
  DiscoverOptions options;
  options.working_dir = tmp.path();
  Result<Discovery> d = Discover(options);
  ASSERT_TRUE(d.has_value());
  EXPECT_TRUE(d->sources.empty());
  ASSERT_EQ(d->diagnostics.size(), 1u);
  EXPECT_EQ(d->diagnostics[0].kind, "dangling-symlink");
  EXPECT_EQ(d->diagnostics[0].where.path, "AGENTS.md");
}

TEST(DiscoverEdgeTest, DirectoryNamedAgentsMdIsReportedAndSkipped) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  fs::create_directories(tmp.path() / "AGENTS.md");
  DiscoverOptions options;
  options.working_dir = tmp.path();
  Result<Discovery> d = Discover(options);
  ASSERT_TRUE(d.has_value());
  EXPECT_TRUE(d->sources.empty());
  ASSERT_EQ(d->diagnostics.size(), 1u);
  EXPECT_EQ(d->diagnostics[0].severity, Severity::kWarning);
  EXPECT_EQ(d->diagnostics[0].kind, "not-a-file");
  EXPECT_EQ(d->diagnostics[0].message, "a directory, not an instruction file; skipped");
  EXPECT_EQ(d->diagnostics[0].where.path, "AGENTS.md");
}

TEST(DiscoverEdgeTest, SymlinkToADeviceIsReportedAndSkipped) {
  if (!fs::exists("/dev/zero")) GTEST_SKIP() << "no /dev/zero";
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  fs::create_symlink("/dev/zero", tmp.path() / "CLAUDE.md");
  DiscoverOptions options;
  options.working_dir = tmp.path();
  Result<Discovery> d = Discover(options);
  ASSERT_TRUE(d.has_value());
  EXPECT_TRUE(d->sources.empty());
  ASSERT_EQ(d->diagnostics.size(), 1u);
  EXPECT_EQ(d->diagnostics[0].kind, "not-a-file");
  EXPECT_EQ(d->diagnostics[0].message,
            "symlink to a device, FIFO or socket, not an instruction file; skipped");
  EXPECT_EQ(d->diagnostics[0].where.path, "CLAUDE.md");
}

TEST(DiscoverEdgeTest, SymlinkLoopIsReportedAsALoop) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  fs::create_symlink("CLAUDE.md", tmp.path() / "AGENTS.md");
  fs::create_symlink("AGENTS.md", tmp.path() / "CLAUDE.md");
  DiscoverOptions options;
  options.working_dir = tmp.path();
  Result<Discovery> d = Discover(options);
  ASSERT_TRUE(d.has_value());
  EXPECT_TRUE(d->sources.empty());
  ASSERT_EQ(d->diagnostics.size(), 2u);
  for (const Diagnostic& x : d->diagnostics) {
    EXPECT_EQ(x.kind, "symlink-loop");
    EXPECT_NE(x.message.find("symlink loop"), std::string::npos) << x.message;
  }
  EXPECT_EQ(d->diagnostics[0].where.path, "AGENTS.md");
}

// The global file's imports stay inside its own directory, not the project.
TEST(DiscoverEdgeTest, GlobalFileImportsStayInsideItsDirectory) {
  TempDir tmp;
  tmp.Write("config/strata/AGENTS.md", "@style.md\n@../../proj/AGENTS.md\n");
  tmp.Write("config/strata/style.md", "style\n");
  fs::create_directories(tmp.path() / "proj/.git");
  tmp.Write("proj/AGENTS.md", "project\n");
  DiscoverOptions options;
  options.working_dir = tmp.path() / "proj";
  options.global_files = {tmp.path() / "config/strata/AGENTS.md"};
  Result<Discovery> d = Discover(options);
  ASSERT_TRUE(d.has_value());
  ASSERT_EQ(d->sources.size(), 3u);
  EXPECT_EQ(d->sources[0].origin, SourceOrigin::kGlobal);
  EXPECT_EQ(d->sources[1].content, "style\n");
  EXPECT_EQ(d->sources[2].display_path, "AGENTS.md");
  bool refused = false;
  for (const auto& x : d->diagnostics) refused = refused || x.kind == "import-outside-root";
  EXPECT_TRUE(refused);
}

TEST(DiscoverEdgeTest, TrackerAppliesThePerFileBudgetButNotTheTotal) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write("AGENTS.md", "root\n");
  tmp.Write("deep/AGENTS.md", "0123456789");
  DiscoverOptions options;
  options.working_dir = tmp.path();
  options.budget.per_file_bytes = 6;
  options.budget.total_bytes = 5;  // spent by the root file already
  Result<Discovery> d = Discover(options);
  ASSERT_TRUE(d.has_value());
  SubdirectoryTracker tracker(options, *d);
  TouchResult t = tracker.Touch("deep/x.c");
  ASSERT_EQ(t.sources.size(), 1u);
  EXPECT_EQ(t.sources[0].content,
            "012\n[strata: deep/AGENTS.md truncated: 4 of 10 bytes cut]\n789");
}

TEST(DiscoverEdgeTest, WorkingDirectoryOutsideConfiguredRootIsRefused) {
  TempDir tmp;
  fs::create_directories(tmp.path() / "a");
  fs::create_directories(tmp.path() / "b");
  DiscoverOptions options;
  options.working_dir = tmp.path() / "a";
  options.project_root = tmp.path() / "b";
  Result<Discovery> d = Discover(options);
  ASSERT_FALSE(d.has_value());
  EXPECT_EQ(d.error().kind, ErrorKind::kInvalidArgument);
}

// Issue 12: an empty `.git` directory (no HEAD) in a subdirectory does not end the root walk.
TEST(DiscoverIssue12Test, EmptyGitDirectoryWithoutHeadDoesNotEndTheRootWalk) {
  TempDir tmp;
  tmp.Write("repo/.git/HEAD", "ref: refs/heads/main\n");
  tmp.Write("repo/AGENTS.md", "root\n");
  fs::create_directories(tmp.path() / "repo/pkg/.git");
  tmp.Write("repo/pkg/AGENTS.md", "pkg\n");
  Discovery d = DiscoverOk(OptionsAt(tmp.path() / "repo/pkg"));
  EXPECT_EQ(d.project_root, fs::canonical(tmp.path() / "repo"));
  EXPECT_EQ(Paths(d), (std::vector<std::string>{"../AGENTS.md", "AGENTS.md"}));
  const Diagnostic* skipped = Find(d.diagnostics, "root-marker-skipped");
  ASSERT_NE(skipped, nullptr);
  EXPECT_EQ(skipped->where.path, ".git");
  EXPECT_NE(skipped->message.find("without HEAD"), std::string::npos);
}

// Issue 12: Claude Code's `.claude/CLAUDE.md` and `.claude/rules/*.md` are found by default; a
// rule limited by `paths:` frontmatter is not part of the prefix.
TEST(DiscoverIssue12Test, ClaudeDirectoryFilesAndRulesAreFoundByDefault) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write("CLAUDE.md", "top\n");
  tmp.Write(".claude/CLAUDE.md", "claude dir\n");
  tmp.Write(".claude/rules/b-style.md", "style\n");
  tmp.Write(".claude/rules/a/api.md", "api\n");
  tmp.Write(".claude/rules/ts.md", "---\npaths:\n  - \"src/**/*.ts\"\n---\nts only\n");
  Discovery d = DiscoverOk(OptionsAt(tmp.path()));
  EXPECT_EQ(Paths(d),
            (std::vector<std::string>{"CLAUDE.md", ".claude/CLAUDE.md", ".claude/rules/a/api.md",
                                      ".claude/rules/b-style.md"}));
  const Diagnostic* conditional = Find(d.diagnostics, "conditional-rule");
  ASSERT_NE(conditional, nullptr);
  EXPECT_EQ(conditional->where.path, ".claude/rules/ts.md");
  EXPECT_NE(conditional->message.find("src/**/*.ts"), std::string::npos);
}

// Issue 12: a file ending inside an open fence is closed (and warned about), so the next file's
// header is not swallowed into its code block.
TEST(DiscoverIssue12Test, UnclosedFenceAtEndOfFileIsClosedWithAWarning) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write("AGENTS.md", "# Root\n\n````sh\nmake\n");
  tmp.Write("CLAUDE.md", "claude\n");
  Discovery d = DiscoverOk(OptionsAt(tmp.path()));
  ASSERT_EQ(d.sources.size(), 2u);
  EXPECT_EQ(d.sources[0].content, "# Root\n\n````sh\nmake\n````\n");
  const Diagnostic* open = Find(d.diagnostics, "unclosed-fence");
  ASSERT_NE(open, nullptr);
  EXPECT_EQ(open->where.line, 3);
  EXPECT_EQ(AssembleSources(d.sources),
            "<!-- source: AGENTS.md (project) -->\n# Root\n\n````sh\nmake\n````\n\n"
            "<!-- source: CLAUDE.md (project) -->\nclaude\n");
}

// Issue 12: a closed fence, a fence in a block quote and a fence closed by a longer run are left
// alone.
TEST(DiscoverIssue12Test, ClosedFencesAreNotReported) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write("AGENTS.md", "```\ncode\n`````\n\n> ```\n> quoted\n> ```\n");
  Discovery d = DiscoverOk(OptionsAt(tmp.path()));
  EXPECT_EQ(Find(d.diagnostics, "unclosed-fence"), nullptr);
  EXPECT_EQ(d.sources[0].content, "```\ncode\n`````\n\n> ```\n> quoted\n> ```\n");
}

// Issue 23: a fence left open inside a block quote is found too (a model reading the raw text
// takes what follows for code) and closed inside the quote.
TEST(DiscoverIssue23Test, FenceLeftOpenInABlockQuoteIsClosedInsideIt) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write("AGENTS.md", "intro\n\n> ```\n> quoted\n");
  Discovery d = DiscoverOk(OptionsAt(tmp.path()));
  const Diagnostic* open = Find(d.diagnostics, "unclosed-fence");
  ASSERT_NE(open, nullptr);
  EXPECT_EQ(open->where.line, 3);
  EXPECT_EQ(d.sources[0].content, "intro\n\n> ```\n> quoted\n> ```\n");
}

// Issue 12: git's ignore rules (here a negation and a directory pattern) decide which imports a
// profile that respects .gitignore skips; strata's default imports them.
TEST(DiscoverIssue12Test, GitignoredImportsAreSkippedOnlyWhenAsked) {
  TempDir tmp;
  ASSERT_EQ(std::system(("git init -q " + tmp.path().string()).c_str()), 0);
  tmp.Write(".gitignore", "private/\n*.secret.md\n!keep.secret.md\n");
  tmp.Write("AGENTS.md", "@private/notes.md\n@x.secret.md\n@keep.secret.md\n");
  tmp.Write("private/notes.md", "notes\n");
  tmp.Write("x.secret.md", "secret\n");
  tmp.Write("keep.secret.md", "kept\n");
  DiscoverOptions options = OptionsAt(tmp.path());
  EXPECT_EQ(
      Paths(DiscoverOk(options)),
      (std::vector<std::string>{"AGENTS.md", "private/notes.md", "x.secret.md", "keep.secret.md"}));
  options.imports.skip_gitignored = true;
  Discovery d = DiscoverOk(options);
  EXPECT_EQ(Paths(d), (std::vector<std::string>{"AGENTS.md", "keep.secret.md"}));
  size_t ignored = 0;
  for (const auto& x : d.diagnostics) ignored += x.kind == "import-gitignored";
  EXPECT_EQ(ignored, 2u);
}

// Issue 12: the outside-root hint names the flags and the strata.toml table that work, and the
// [imports] table is applied when asked.
TEST(DiscoverIssue12Test, OutsideRootHintNamesFlagsAndImportsTableWhichApplies) {
  TempDir tmp;
  fs::create_directories(tmp.path() / "repo/.git");
  tmp.Write("shared/common.md", "common\n");
  tmp.Write("repo/AGENTS.md", "@../shared/common.md\n");
  DiscoverOptions options = OptionsAt(tmp.path() / "repo");
  Discovery refused = DiscoverOk(options);
  const Diagnostic* outside = Find(refused.diagnostics, "import-outside-root");
  ASSERT_NE(outside, nullptr);
  EXPECT_NE(outside->message.find("--allow-outside-root"), std::string::npos);
  EXPECT_NE(outside->message.find("--allow-dir"), std::string::npos);
  EXPECT_NE(outside->message.find("[imports]"), std::string::npos);
  EXPECT_EQ(outside->message.find("imports.allow_outside_root"), std::string::npos);
  tmp.Write("repo/strata.toml", "[imports]\nallowed_dirs = [\"../shared\"]\n");
  options.project_config = true;
  EXPECT_EQ(Paths(DiscoverOk(options)),
            (std::vector<std::string>{"AGENTS.md", (tmp.path() / "shared/common.md").string()}));
}

// Issue 12: --global naming the project's own AGENTS.md is not "a symlink or hard link".
TEST(DiscoverIssue12Test, GlobalFileThatIsTheProjectFileSaysSo) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  fs::path agents = tmp.Write("AGENTS.md", "root\n");
  DiscoverOptions options = OptionsAt(tmp.path());
  options.global_files = {agents};
  Discovery d = DiscoverOk(options);
  const Diagnostic* dup = Find(d.diagnostics, "duplicate-file");
  ASSERT_NE(dup, nullptr);
  EXPECT_EQ(dup->message.find("symlink or hard link"), std::string::npos) << dup->message;
  EXPECT_NE(dup->message.find("--global"), std::string::npos) << dup->message;
}

}  // namespace
}  // namespace strata
