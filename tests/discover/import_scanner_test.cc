// import_scanner_test.cc: which `@` tokens are imports (the import_scanner.h rule), input 6 of
// issue 3 and friends.
#include "discover/import_scanner.h"

#include <gtest/gtest.h>

namespace strata {
namespace {

std::vector<std::string> ImportPaths(std::string_view text) {
  std::vector<std::string> paths;
  for (const auto& t : ScanImports(text).imports) paths.push_back(t.path);
  return paths;
}

ImportRefusal RefusalOf(std::string_view text, std::string_view path) {
  for (const auto& t : ScanImports(text).refused) {
    if (t.path == path) return t.refusal;
  }
  return ImportRefusal::kNone;
}

// Issue 3, input 6: exactly the first line is an import.
TEST(ImportsTest, OnlyTheProseImportCountsAmongCodeMailPackagesAndComments) {
  std::string text =
      "see @file.md\n"
      "see `@file.md`\n"
      "mail me@example.com\n"
      "run @scope/pkg\n"
      "\n"
      "```python\n"
      "@file.md\n"
      "@pytest.fixture\n"
      "```\n"
      "\n"
      "<!-- @x.md -->\n";
  ImportScan scan = ScanImports(text);
  ASSERT_EQ(scan.imports.size(), 1u);
  EXPECT_EQ(scan.imports[0].path, "file.md");
  EXPECT_EQ(scan.imports[0].line, 1);
  EXPECT_EQ(scan.imports[0].column, 5);
  ASSERT_EQ(scan.refused.size(), 6u);
  EXPECT_EQ(scan.refused[0].refusal, ImportRefusal::kInCodeSpan);
  EXPECT_EQ(scan.refused[0].line, 2);
  EXPECT_EQ(scan.refused[0].column, 6);
  EXPECT_EQ(scan.refused[1].refusal, ImportRefusal::kInsideWord);
  EXPECT_EQ(scan.refused[1].line, 3);
  EXPECT_EQ(scan.refused[2].refusal, ImportRefusal::kPackageName);
  EXPECT_EQ(scan.refused[3].refusal, ImportRefusal::kInCodeBlock);
  EXPECT_EQ(scan.refused[3].line, 7);
  EXPECT_EQ(scan.refused[4].refusal, ImportRefusal::kInCodeBlock);
  EXPECT_EQ(scan.refused[4].line, 8);
  EXPECT_EQ(scan.refused[5].refusal, ImportRefusal::kInHtmlComment);
  EXPECT_EQ(scan.refused[5].line, 11);
}

TEST(ImportsTest, DecoratorsAndMentionsInProseAreNotImports) {
  EXPECT_EQ(RefusalOf("use @pytest.fixture here\n", "pytest.fixture"), ImportRefusal::kDecorator);
  EXPECT_EQ(RefusalOf("@app.route(\"/\")\n", "app.route(\"/\")"), ImportRefusal::kDecorator);
  EXPECT_EQ(RefusalOf("ask @claude to review\n", "claude"), ImportRefusal::kMention);
  EXPECT_EQ(RefusalOf("a @dataclass\n", "dataclass"), ImportRefusal::kMention);
  EXPECT_EQ(RefusalOf("npm i @types/node\n", "types/node"), ImportRefusal::kPackageName);
  EXPECT_TRUE(ImportPaths("ask @claude, use @dataclass, mail a@b.io\n").empty());
}

TEST(ImportsTest, PathShapesAreImports) {
  EXPECT_EQ(ImportPaths("@AGENTS.md\n"), std::vector<std::string>{"AGENTS.md"});
  EXPECT_EQ(ImportPaths("@../AGENTS.md\n"), std::vector<std::string>{"../AGENTS.md"});
  EXPECT_EQ(ImportPaths("- @~/.claude/mine.md\n"), std::vector<std::string>{"~/.claude/mine.md"});
  EXPECT_EQ(ImportPaths("read @notes/x.md.\n"), std::vector<std::string>{"notes/x.md"});
  EXPECT_EQ(ImportPaths("(see @./README)\n"), std::vector<std::string>{"./README"});
  EXPECT_EQ(ImportPaths("two: @a.md and @b.yaml\n"), (std::vector<std::string>{"a.md", "b.yaml"}));
}

TEST(ImportsTest, TildeFenceIndentedCodeAndUnclosedFenceAreCode) {
  EXPECT_TRUE(ImportPaths("~~~\n@a.md\n~~~\n").empty());
  EXPECT_TRUE(ImportPaths("para\n\n    @a.md\n").empty());
  EXPECT_TRUE(ImportPaths("```\n@a.md\n").empty());
  EXPECT_TRUE(ImportPaths("> ```\n> @a.md\n> ```\n").empty());
  EXPECT_EQ(ImportPaths("```\nx\n```\n@after.md\n"), std::vector<std::string>{"after.md"});
}

TEST(ImportsTest, MultiLineCodeSpanAndCommentHideImports) {
  EXPECT_TRUE(ImportPaths("a `code\n@a.md` b\n").empty());
  EXPECT_TRUE(ImportPaths("text <!-- one\n@a.md --> end\n").empty());
  EXPECT_TRUE(ImportPaths("<!--\n@a.md\n-->\n").empty());
  EXPECT_EQ(ImportPaths("`x` @real.md `y`\n"), std::vector<std::string>{"real.md"});
  EXPECT_EQ(ImportPaths("<!-- c --> @real.md\n"), std::vector<std::string>{"real.md"});
}

// Input 10 (scanner side): a CR left in the text never reaches the path.
TEST(ImportsTest, CarriageReturnEndsThePath) {
  ImportScan scan = ScanImports("@AGENTS.md\r\n");
  ASSERT_EQ(scan.imports.size(), 1u);
  EXPECT_EQ(scan.imports[0].path, "AGENTS.md");
  EXPECT_EQ(scan.imports[0].length, 10u);
}

TEST(ImportsTest, ColumnsCountBytes) {
  ImportScan scan = ScanImports("é @a.md\n");
  ASSERT_EQ(scan.imports.size(), 1u);
  EXPECT_EQ(scan.imports[0].column, 4);
  EXPECT_EQ(scan.imports[0].offset, 3u);
}

}  // namespace
}  // namespace strata

namespace strata {
namespace {

// cmark-gfm reports inline columns after stripping a continuation line's indentation; the code
// span must still be found where it really is.
TEST(ImportsTest, CodeSpansOnIndentedContinuationLinesAndInContainersAreCode) {
  EXPECT_TRUE(ImportPaths("para\n      `@a.md` x\n").empty());
  EXPECT_TRUE(ImportPaths("- item\n\n  `@a.md`\n").empty());
  EXPECT_TRUE(ImportPaths("> quote\n`@a.md`\n").empty());
  EXPECT_TRUE(ImportPaths("1. one\n   - two `` @a.md ``\n").empty());
  EXPECT_TRUE(ImportPaths("\t@a.md\n").empty());  // a tab indent is an indented code block
  EXPECT_EQ(ImportPaths("para\n      `x` @b.md\n"), std::vector<std::string>{"b.md"});
  EXPECT_EQ(ImportPaths("<div>\n@in-html.md\n</div>\n"), std::vector<std::string>{"in-html.md"});
}

// Issue 12: URLs are not relative paths (they were resolved as `<dir>/https:/x/a.md`).
TEST(ImportsTest, UrlsAreRefusedAsUrlsNotReadAsRelativePaths) {
  std::string text = "see @https://example.com/a.md and @http://x.org/b.md\n@file:///etc/c.md\n";
  EXPECT_TRUE(ImportPaths(text).empty());
  EXPECT_EQ(RefusalOf(text, "https://example.com/a.md"), ImportRefusal::kUrl);
  EXPECT_EQ(RefusalOf(text, "http://x.org/b.md"), ImportRefusal::kUrl);
  EXPECT_EQ(RefusalOf(text, "file:///etc/c.md"), ImportRefusal::kUrl);
  EXPECT_EQ(ImportPaths("@./https/a.md\n"), std::vector<std::string>{"./https/a.md"});
}

}  // namespace
}  // namespace strata
