// markdown_document_test.cc: one shared parse (MarkdownDocument) gives every pass the answer its
// own parse of the same text gives: the block map, the unclosed fence, the import scan and the
// ranges imports are refused in, on hand-written edge cases and on every corpus instruction file.
#include "markdown/markdown_blocks.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "discover/import_scanner.h"
#include "discover/markdown_regions.h"
#include "io/file_io.h"
#include "markdown/unclosed_fence.h"
#include "support/test_support.h"

namespace strata {
namespace {

namespace fs = std::filesystem;

// Every pass, once over a shared document (in an order that makes later passes reuse the parse)
// and once each on its own parse; the two must agree field by field.
void ExpectSharedParseAgrees(const std::string& text, const std::string& label) {
  const MarkdownDocument doc(text);
  const ImportScan shared_scan = ScanImports(doc);
  const std::optional<UnclosedFence> shared_fence = FindUnclosedFence(doc);
  const MarkdownBlocks shared_blocks = MapMarkdownBlocks(doc);
  const auto shared_ranges = discover::FindExcludedRanges(doc);

  const ImportScan own_scan = ScanImports(std::string_view(text));
  ASSERT_EQ(shared_scan.imports.size(), own_scan.imports.size()) << label;
  ASSERT_EQ(shared_scan.refused.size(), own_scan.refused.size()) << label;
  for (size_t i = 0; i < own_scan.imports.size(); ++i) {
    EXPECT_EQ(shared_scan.imports[i].path, own_scan.imports[i].path) << label;
  }
  const std::optional<UnclosedFence> own_fence = FindUnclosedFence(std::string_view(text));
  ASSERT_EQ(shared_fence.has_value(), own_fence.has_value()) << label;
  if (own_fence) EXPECT_EQ(shared_fence->line, own_fence->line) << label;
  const MarkdownBlocks own_blocks = MapMarkdownBlocks(std::string_view(text));
  EXPECT_EQ(shared_blocks.in_code, own_blocks.in_code) << label;
  ASSERT_EQ(shared_blocks.headings.size(), own_blocks.headings.size()) << label;
  for (const auto& [line, heading] : own_blocks.headings) {
    ASSERT_TRUE(shared_blocks.headings.count(line)) << label << " line " << line;
    EXPECT_EQ(shared_blocks.headings.at(line).text, heading.text) << label;
  }
  const auto own_ranges = discover::FindExcludedRanges(std::string_view(text));
  ASSERT_EQ(shared_ranges.size(), own_ranges.size()) << label;
  for (size_t i = 0; i < own_ranges.size(); ++i) {
    EXPECT_EQ(shared_ranges[i].begin, own_ranges[i].begin) << label;
    EXPECT_EQ(shared_ranges[i].end, own_ranges[i].end) << label;
  }
}

TEST(MarkdownDocumentTest, SharedParseAgreesOnEdgeCases) {
  const std::vector<std::string> texts = {
      "",
      "# Title\n\nSee @docs/a.md and `@not/this`.\n",
      "Intro\n\n```sh\n@inside/code.md\n```\n\n## Next\n\n@real/import.md\n",
      "text\n\n~~~~\nnever closed @x.md\n",
      "- item\n  ```\n  open in a list\n",
      "<div>\n@html/block.md\n</div>\n\n    @indented/code.md\n",
  };
  for (size_t i = 0; i < texts.size(); ++i) {
    ExpectSharedParseAgrees(texts[i], "case " + std::to_string(i));
  }
}

TEST(MarkdownDocumentTest, SharedParseAgreesOnEveryCorpusInstructionFile) {
  std::optional<fs::path> corpus = testing::CorpusDir();
  if (!corpus || !fs::is_directory(*corpus / "instructions")) GTEST_SKIP() << "no corpus";
  int files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(*corpus / "instructions")) {
    if (!entry.is_regular_file() || entry.path().extension() != ".md") continue;
    auto bytes = ReadFileBytes(entry.path());
    ASSERT_TRUE(bytes) << bytes.error().message;
    ExpectSharedParseAgrees(*bytes, entry.path().string());
    ++files;
  }
  EXPECT_GT(files, 10);
}

}  // namespace
}  // namespace strata
