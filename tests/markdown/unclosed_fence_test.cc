// unclosed_fence_test.cc: a fence left open is found wherever CommonMark opens one (top level,
// list item, block quote, nested list), closed inside its container, and text appended after the
// close (a digest footer) is no longer code. Expected values are written from CommonMark's rules.
#include "markdown/unclosed_fence.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "io/file_io.h"
#include "support/test_support.h"

#include "markdown/markdown_blocks.h"
#include "text/text.h"

namespace strata {
namespace {

// Closes `text`, appends a footer after one blank line, and says whether the footer is code.
bool FooterIsCode(std::string text) {
  CloseUnclosedFence(&text);
  text += "\n<!-- footer -->\n";
  const MarkdownBlocks blocks = MapMarkdownBlocks(text);
  return blocks.in_code[SplitLines(text).size()];
}

TEST(UnclosedFenceTest, TopLevelFenceIsFoundAndClosed) {
  auto open = FindUnclosedFence("intro\n\n```sh\nmake\n");
  ASSERT_TRUE(open);
  EXPECT_EQ(open->line, 3);
  EXPECT_EQ(open->closing, "```\n");
  EXPECT_FALSE(FooterIsCode("intro\n\n```sh\nmake\n"));
}

TEST(UnclosedFenceTest, FenceInAListItemIsFoundAndClosedInsideTheItem) {
  // The shape of a real GEMINI.md: `- step:` then an indented fence never closed.
  const std::string text = "# Build\n\n- Run the build:\n\n  ```bash\n  npm run build\n";
  auto open = FindUnclosedFence(text);
  ASSERT_TRUE(open);
  EXPECT_EQ(open->line, 5);
  EXPECT_EQ(open->closing, "  ```\n");  // indented to stay in the item, not a new fence at col 0
  std::string closed = text;
  CloseUnclosedFence(&closed);
  EXPECT_EQ(closed, text + "  ```\n");
  EXPECT_FALSE(FindUnclosedFence(closed));
  EXPECT_FALSE(FooterIsCode(text));
}

TEST(UnclosedFenceTest, FenceOnTheListMarkerLineAndInANestedList) {
  auto on_marker = FindUnclosedFence("- ```\n  code\n");
  ASSERT_TRUE(on_marker);
  EXPECT_EQ(on_marker->closing, "  ```\n");
  auto nested = FindUnclosedFence("1. a\n   - b\n     ~~~~\n     c\n");
  ASSERT_TRUE(nested);
  EXPECT_EQ(nested->line, 3);
  EXPECT_EQ(nested->closing, "     ~~~~\n");
  EXPECT_FALSE(FooterIsCode("1. a\n   - b\n     ~~~~\n     c\n"));
}

TEST(UnclosedFenceTest, FenceInABlockQuoteIsClosedInsideTheQuote) {
  auto open = FindUnclosedFence("> note:\n>\n> ```\n> code\n");
  ASSERT_TRUE(open);
  EXPECT_EQ(open->line, 3);
  EXPECT_EQ(open->closing, "> ```\n");
  auto nested = FindUnclosedFence("> - ```\n>   x\n");
  ASSERT_TRUE(nested);
  EXPECT_EQ(nested->closing, ">   ```\n");
  EXPECT_FALSE(FooterIsCode("> note:\n>\n> ```\n> code\n"));
}

TEST(UnclosedFenceTest, OpenFenceFollowedByBlankLinesIsStillOpen) {
  auto open = FindUnclosedFence("- ```\n  a\n\n\n");
  ASSERT_TRUE(open);
  EXPECT_EQ(open->line, 1);
}

TEST(UnclosedFenceTest, ClosedFencesAndFencesTheirContainerEndedAreNotReported) {
  EXPECT_FALSE(FindUnclosedFence("```\na\n```\n"));
  EXPECT_FALSE(FindUnclosedFence("- ```\n  a\n  ```\n"));
  EXPECT_FALSE(FindUnclosedFence("> ```\n> a\n> ```\n"));
  EXPECT_FALSE(FindUnclosedFence("```\n```"));  // no final newline
  // The list item ends at the paragraph at column 0, and its fence with it: text follows.
  EXPECT_FALSE(FindUnclosedFence("- x:\n  ```\n  a\n\ntext at column 0\n"));
  EXPECT_FALSE(FindUnclosedFence("    ```\n    indented code, not a fence\n"));
}

// Every fenced block of every corpus instruction file, wherever it sits (top level, list item,
// block quote), cut off after its first content line: the cut text ends inside that fence, it is
// found at that block's opening line, and after closing it a footer is no longer code.
TEST(UnclosedFenceTest, EveryCorpusFenceCutOpenIsFoundAndClosedInPlace) {
  std::optional<std::filesystem::path> corpus = testing::CorpusDir();
  if (!corpus || !std::filesystem::is_directory(*corpus / "instructions")) {
    GTEST_SKIP() << "no corpus";
  }
  int fences = 0, nested = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(*corpus / "instructions")) {
    if (!entry.is_regular_file() || entry.path().extension() != ".md") continue;
    auto bytes = ReadFileBytes(entry.path());
    ASSERT_TRUE(bytes);
    std::string text = *bytes;
    for (size_t at; (at = text.find("\r\n")) != std::string::npos;) text.erase(at, 1);
    const std::string label = entry.path().filename().string();
    EXPECT_FALSE(FooterIsCode(text)) << label;  // whole files: the footer is never code
    // Each fenced block's opening line and first content line, from the parse.
    std::vector<std::pair<int, bool>> opens;  // line, inside a container
    MarkdownDocument(text).ForEachNode([&](cmark_node* node, cmark_node* doc) {
      int length = 0, offset = 0;
      char fence = 0;
      if (cmark_node_get_type(node) == CMARK_NODE_CODE_BLOCK &&
          cmark_node_get_fenced(node, &length, &offset, &fence) != 0) {
        opens.emplace_back(cmark_node_get_start_line(node), cmark_node_parent(node) != doc);
      }
    });
    const std::vector<std::string_view> lines = SplitLines(text);
    for (const auto& [line, inside] : opens) {
      if (static_cast<size_t>(line) + 1 > lines.size()) continue;
      std::string cut;
      for (int i = 0; i <= line; ++i) cut.append(lines[static_cast<size_t>(i)]).push_back('\n');
      if (lines[static_cast<size_t>(line)].find_first_not_of(" >\t") == std::string_view::npos) {
        continue;  // a blank first content line: keep the case simple
      }
      auto open = FindUnclosedFence(cut);
      ASSERT_TRUE(open) << label << " fence at line " << line;
      EXPECT_EQ(open->line, line) << label;
      EXPECT_FALSE(FooterIsCode(cut)) << label << " fence at line " << line;
      ++fences;
      nested += inside;
    }
  }
  EXPECT_GT(fences, 20);
  EXPECT_GT(nested, 0);  // the corpus has fences inside list items
}

}  // namespace
}  // namespace strata
