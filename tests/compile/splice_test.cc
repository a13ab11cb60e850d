#include "compile/splice.h"

#include <gtest/gtest.h>

#include "strata/compile.h"
#include "support/test_support.h"

namespace strata {
namespace {

using testing::ReadAll;
using testing::TempDir;

TEST(SpliceTest, BlockInsertedAfterConfigMarker) {
  auto r = SpliceBlocks("<!-- strata:head -->\nh\n<!-- strata:config -->\nc\n",
                        {{"register", "Reg text.\n"}}, "AGENTS.md");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->text,
            "<!-- strata:head -->\nh\n<!-- strata:config -->\n\n<!-- strata:begin register -->\n"
            "Reg text.\n<!-- strata:end register -->\nc\n");
  EXPECT_EQ(r->inserted, std::vector<std::string>{"register"});
}

TEST(SpliceTest, BlockTextReplacedBetweenMarkers) {
  auto r = SpliceBlocks("a\n<!-- strata:begin reg -->\nold\n<!-- strata:end reg -->\nb\n",
                        {{"reg", "new\n"}}, "AGENTS.md");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->text, "a\n<!-- strata:begin reg -->\nnew\n<!-- strata:end reg -->\nb\n");
  EXPECT_EQ(r->updated, std::vector<std::string>{"reg"});
}

TEST(SpliceTest, CurrentBlockIsNoChange) {
  std::string src = "a\n<!-- strata:begin reg -->\nsame\n<!-- strata:end reg -->\n";
  auto r = SpliceBlocks(src, {{"reg", "same\n"}}, "AGENTS.md");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->text, src);
  EXPECT_TRUE(r->updated.empty());
}

TEST(SpliceTest, UnclosedBlockIsAnErrorAtItsLine) {
  auto r = SpliceBlocks("x\n<!-- strata:begin reg -->\nold\n", {{"reg", "n\n"}}, "AGENTS.md");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().where.line, 2);
  EXPECT_NE(r.error().message.find("<!-- strata:end reg -->"), std::string::npos);
}

TEST(SpliceTest, MarkersInsideFenceAreText) {
  std::string src = "```\n<!-- strata:begin reg -->\n```\n";
  auto r = SpliceBlocks(src, {{"reg", "n\n"}}, "AGENTS.md");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->text, src);  // unmarked source: nowhere to insert, fence untouched
  ASSERT_EQ(r->diagnostics.size(), 1u);
  EXPECT_EQ(r->diagnostics[0].kind, "block-not-placed");
}

TEST(SpliceTest, EndMarkerInsideFenceWhileBlockOpenIsAnError) {
  auto r = SpliceBlocks(
      "<!-- strata:begin reg -->\nold\n## Important\nprecious\n```\n<!-- strata:end reg -->\n```\n"
      "more precious\n<!-- strata:end reg -->\n",
      {{"reg", "new\n"}}, "AGENTS.md");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().where.line, 6);
}

const char kToml[] = "targets = [\"claude-code\"]\n[blocks.register]\ntext = \"Register v1\"\n";

TEST(SpliceTest, CompileWritesBlockIntoSourceAndTargetsWithoutMarkers) {
  TempDir dir;
  dir.Write("AGENTS.md", "<!-- strata:head -->\nh\n<!-- strata:config -->\nc\n");
  dir.Write("strata.toml", kToml);
  CompileOptions options;
  options.root = dir.path();
  auto report = Compile(options);
  ASSERT_TRUE(report);
  EXPECT_NE(ReadAll(dir.path() / "AGENTS.md").find("<!-- strata:begin register -->\nRegister v1\n"),
            std::string::npos);
  std::string claude = ReadAll(dir.path() / "CLAUDE.md");
  EXPECT_NE(claude.find("\nh\n\nRegister v1\nc\n"), std::string::npos) << claude;
  EXPECT_EQ(claude.find("strata:begin"), std::string::npos);
}

TEST(SpliceTest, DriftFailsVerifyAndWritesNothing) {
  TempDir dir;
  dir.Write("AGENTS.md", "<!-- strata:head -->\nh\n<!-- strata:config -->\nc\n");
  dir.Write("strata.toml", kToml);
  CompileOptions options;
  options.root = dir.path();
  ASSERT_TRUE(Compile(options));
  dir.Write("strata.toml",
            "targets = [\"claude-code\"]\n[blocks.register]\ntext = \"Register v2\"\n");
  std::string before = ReadAll(dir.path() / "AGENTS.md");
  options.write = false;
  auto report = Compile(options);
  ASSERT_TRUE(report);
  EXPECT_FALSE(report->ok);
  bool drift = false;
  for (const auto& d : report->diagnostics) drift = drift || d.kind == "block-drift";
  EXPECT_TRUE(drift);
  EXPECT_EQ(ReadAll(dir.path() / "AGENTS.md"), before);
}

TEST(SpliceTest, WriteBackKeepsCrlfAndBomOfTheSource) {
  TempDir dir;
  dir.Write("AGENTS.md", "\xEF\xBB\xBF<!-- strata:config -->\r\nc\r\n");
  dir.Write("strata.toml", kToml);
  CompileOptions options;
  options.root = dir.path();
  ASSERT_TRUE(Compile(options));
  EXPECT_EQ(ReadAll(dir.path() / "AGENTS.md"),
            "\xEF\xBB\xBF<!-- strata:config -->\r\n\r\n<!-- strata:begin register -->\r\n"
            "Register v1\r\n<!-- strata:end register -->\r\nc\r\n");
}

}  // namespace
}  // namespace strata
