#include "bands/bands.h"

#include <gtest/gtest.h>

#include "targets/targets.h"

namespace strata {
namespace {

BandedSource Split(std::string_view text) { return SplitBands(text, MatchClientHeading); }

TEST(BandsTest, TextBeforeFirstMarkerIsHead) {
  auto b = Split("# T\nintro\n<!-- strata:tail -->\nverify\n<!-- strata:config -->\ncfg\n");
  EXPECT_TRUE(b.had_markers);
  EXPECT_EQ(BandText(b, Band::kHead, "claude-code"), "# T\nintro\n");
  EXPECT_EQ(BandText(b, Band::kConfig, "claude-code"), "cfg\n");
  EXPECT_EQ(BandText(b, Band::kTail, "claude-code"), "verify\n");
}

TEST(BandsTest, PraetorMarkersAreAccepted) {
  auto b =
      Split("<!-- praetor:head -->\nh\n<!-- praetor:config -->\nc\n<!-- praetor:tail -->\nt\n");
  EXPECT_TRUE(b.had_markers);
  EXPECT_EQ(BandText(b, Band::kHead, ""), "h\n");
  EXPECT_EQ(BandText(b, Band::kConfig, ""), "c\n");
  EXPECT_EQ(BandText(b, Band::kTail, ""), "t\n");
}

TEST(BandsTest, MarkerNeedsItsOwnLine) {
  EXPECT_FALSE(Split("text <!-- strata:head --> more\n").had_markers);
  EXPECT_TRUE(Split("   <!-- strata:head -->  \nx\n").had_markers);
  EXPECT_FALSE(Split("    <!-- strata:head -->\n").had_markers);  // indented code
}

TEST(BandsTest, MarkerInsideBacktickFenceIsText) {
  auto b = Split("```\n<!-- strata:tail -->\n```\n");
  EXPECT_FALSE(b.had_markers);
  EXPECT_EQ(BandText(b, Band::kHead, ""), "```\n<!-- strata:tail -->\n```\n");
}

TEST(BandsTest, MarkerInsideTildeFenceIsText) {
  auto b = Split("<!-- strata:head -->\n~~~md\n<!-- strata:tail -->\n~~~\n");
  EXPECT_EQ(BandText(b, Band::kHead, ""), "~~~md\n<!-- strata:tail -->\n~~~\n");
  EXPECT_EQ(BandText(b, Band::kTail, ""), "");
}

TEST(BandsTest, MarkerInsideLongerFenceIsText) {
  // A four-backtick fence is not closed by the three-backtick line inside it.
  auto b = Split("````\n```\n<!-- strata:tail -->\n```\n````\n");
  EXPECT_FALSE(b.had_markers);
}

TEST(BandsTest, MarkerInsideIndentedFenceIsText) {
  auto b = Split("intro\n\n  ```\n  <!-- strata:tail -->\n  ```\n");
  EXPECT_FALSE(b.had_markers);
}

TEST(BandsTest, MarkerInsideIndentedCodeBlockIsText) {
  auto b = Split("intro\n\n    code\n    <!-- strata:tail -->\n");
  EXPECT_FALSE(b.had_markers);
}

TEST(BandsTest, MarkerInsideFenceLeftOpenAtEndIsText) {
  auto b = Split("<!-- strata:head -->\nh\n```\nopen fence\n<!-- strata:tail -->\nstill code\n");
  EXPECT_EQ(b.marker_lines, std::vector<int>{1});
  EXPECT_EQ(BandText(b, Band::kTail, ""), "");
}

TEST(BandsTest, MarkerInsideFenceInListIsText) {
  auto b = Split("- item\n\n  ```\n  <!-- strata:tail -->\n  ```\n");
  EXPECT_FALSE(b.had_markers);
}

TEST(BandsTest, ClientSectionJoinsConfigAndReachesOnlyItsClient) {
  auto b = Split(
      "<!-- strata:head -->\n# T\n## Cursor\ncursor only\n## Rules\nr\n"
      "<!-- strata:config -->\ncfg\n<!-- strata:tail -->\nt\n");
  EXPECT_EQ(BandText(b, Band::kHead, "cursor"), "# T\n\n## Rules\nr\n");
  EXPECT_EQ(BandText(b, Band::kConfig, "cursor"), "cfg\n\n## Cursor\ncursor only\n");
  EXPECT_EQ(BandText(b, Band::kConfig, "claude-code"), "cfg\n");
}

TEST(BandsTest, ClientSectionEndedByMarker) {
  auto b = Split("<!-- strata:config -->\n## Claude Code\nclaude\n<!-- strata:tail -->\nall\n");
  EXPECT_EQ(BandText(b, Band::kConfig, "claude-code"), "## Claude Code\nclaude\n");
  EXPECT_EQ(BandText(b, Band::kTail, "cursor"), "all\n");
  EXPECT_EQ(BandText(b, Band::kTail, "claude-code"), "all\n");
}

TEST(BandsTest, ClientSectionEndedByH1OrH2) {
  auto b =
      Split("<!-- strata:config -->\n## Gemini\ng\n# Top\nx\n## GitHub Copilot\nc\n## Other\no\n");
  EXPECT_EQ(BandText(b, Band::kConfig, "gemini-cli"), "## Gemini\ng\n\n# Top\nx\n\n## Other\no\n");
  EXPECT_EQ(BandText(b, Band::kConfig, "copilot"),
            "# Top\nx\n\n## GitHub Copilot\nc\n\n## Other\no\n");
}

TEST(BandsTest, H3DoesNotEndClientSection) {
  auto b = Split("<!-- strata:config -->\n## Cursor\na\n### Detail\nb\n");
  EXPECT_EQ(BandText(b, Band::kConfig, "claude-code"), "");
  EXPECT_EQ(BandText(b, Band::kConfig, "cursor"), "## Cursor\na\n### Detail\nb\n");
}

TEST(BandsTest, ClientHeadingMatchedIgnoringCase) {
  auto b = Split("<!-- strata:config -->\n## claude code\nx\n");
  EXPECT_EQ(BandText(b, Band::kConfig, "cursor"), "");
  EXPECT_EQ(BandText(b, Band::kConfig, "claude-code"), "## claude code\nx\n");
}

TEST(BandsTest, HeadingInsideFenceIsNotASection) {
  auto b = Split("<!-- strata:config -->\n```\n## Cursor\n```\nafter\n");
  EXPECT_EQ(BandText(b, Band::kConfig, "claude-code"), "```\n## Cursor\n```\nafter\n");
}

TEST(BandsTest, HeadingInsideEveryKindOfFenceIsNotASection) {
  const char* fenced[] = {
      "~~~\n## Cursor\n~~~\n",              // tilde fence
      "````\n```\n## Cursor\n```\n````\n",  // longer fence holding a shorter one
      "  ```\n  ## Cursor\n  ```\n",        // indented fence
      "para\n\n    ## Cursor\n",            // indented code block
      "```\nopen fence\n## Cursor\n",       // fence left open at the end
  };
  for (const char* body : fenced) {
    auto b = Split(std::string("<!-- strata:config -->\n") + body);
    EXPECT_NE(BandText(b, Band::kConfig, "claude-code").find("## Cursor"), std::string::npos)
        << body;
  }
}

TEST(BandsTest, BandEdgesTrimmed) {
  auto b = Split("<!-- strata:head -->\n\n\nhead\n\n\n<!-- strata:tail -->\n\ntail\n\n");
  EXPECT_EQ(BandText(b, Band::kHead, ""), "head\n");
  EXPECT_EQ(BandText(b, Band::kTail, ""), "tail\n");
}

TEST(BandsTest, UnmarkedSourceKeepsSourceOrder) {
  auto b = Split("# T\n## Cursor\nc\n## Rules\nr\n");
  EXPECT_FALSE(b.had_markers);
  EXPECT_EQ(BandText(b, Band::kHead, "cursor"), "# T\n\n## Cursor\nc\n\n## Rules\nr\n");
  EXPECT_EQ(BandText(b, Band::kHead, "zed"), "# T\n\n## Rules\nr\n");
}

TEST(BandsTest, SourceOfOnlyMarkersIsEmpty) {
  auto b = Split("<!-- strata:head -->\n<!-- strata:config -->\n<!-- strata:tail -->\n");
  EXPECT_TRUE(b.had_markers);
  for (Band band : {Band::kHead, Band::kConfig, Band::kTail}) EXPECT_EQ(BandText(b, band, ""), "");
}

TEST(BandsTest, NearMissMarkersAreWarnedAbout) {
  auto d = CheckMarkerSpelling(
      "<!-- strata:head -->\n<!--strata:config-->\n<!-- strata:bogus "
      "-->\n```\n<!--strata:x-->\n```\n"
      "<!-- strata:begin reg -->\n<!-- note -->\n",
      "AGENTS.md");
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].where.line, 2);
  EXPECT_EQ(d[1].where.line, 3);
  EXPECT_EQ(d[0].kind, "marker-spelling");
}

TEST(BandsTest, LineNumbersPointAtSourceLines) {
  auto b = Split("<!-- strata:head -->\na\nb\n");
  ASSERT_FALSE(b.pieces.empty());
  EXPECT_EQ(b.pieces[0].line_numbers, (std::vector<int>{2, 3}));
}

// Issue 23: a client's own file, H1/H2 headings and all, fenced by `strata:for` markers, reaches
// that client exactly as written (the marker lines reach no target) and no other client.
TEST(BandsTest, ForSectionKeepsItsHeadingsAndReachesOnlyItsClient) {
  const std::string claude = "# Claude notes\n\n## Build\n\nmake\n\n## Cursor\n\nnot a section\n";
  auto b = Split(
      "<!-- strata:head -->\n# P\n<!-- strata:config -->\ncfg\n\n"
      "<!-- strata:for claude-code -->\n" +
      claude + "<!-- strata:end-for -->\n\nafter\n<!-- strata:tail -->\nt\n");
  EXPECT_EQ(BandText(b, Band::kConfig, "claude-code"), "cfg\n\n" + claude + "\nafter\n");
  EXPECT_EQ(BandText(b, Band::kConfig, "cursor"), "cfg\n\nafter\n");
  EXPECT_EQ(BandText(b, Band::kHead, "claude-code"), "# P\n");
  EXPECT_EQ(BandText(b, Band::kTail, "cursor"), "t\n");
}

TEST(BandsTest, ForSectionNamesAClientByIdOrDisplayName) {
  auto b = Split(
      "<!-- strata:config -->\n<!-- strata:for GitHub Copilot -->\n# c\n"
      "<!-- strata:end-for -->\n<!-- strata:for gemini-cli -->\n# g\n"
      "<!-- strata:end-for -->\n");
  EXPECT_EQ(BandText(b, Band::kConfig, "copilot"), "# c\n");
  EXPECT_EQ(BandText(b, Band::kConfig, "gemini-cli"), "# g\n");
  EXPECT_EQ(BandText(b, Band::kConfig, "claude-code"), "");
}

TEST(BandsTest, ForSectionInHeadBandJoinsConfigAndABandMarkerEndsIt) {
  auto b = Split(
      "<!-- strata:head -->\nh\n<!-- strata:for cursor -->\nc\n"
      "<!-- strata:tail -->\nt\n");
  EXPECT_EQ(BandText(b, Band::kHead, "cursor"), "h\n");
  EXPECT_EQ(BandText(b, Band::kConfig, "cursor"), "c\n");
  EXPECT_EQ(BandText(b, Band::kTail, "cursor"), "t\n");
  EXPECT_EQ(BandText(b, Band::kTail, "zed"), "t\n");
}

TEST(BandsTest, ForMarkerInsideCodeIsText) {
  auto b = Split("<!-- strata:config -->\n```\n<!-- strata:for cursor -->\n```\nall\n");
  EXPECT_EQ(BandText(b, Band::kConfig, "zed"), "```\n<!-- strata:for cursor -->\n```\nall\n");
}

TEST(BandsTest, ClientMarkerMistakesAreReported) {
  const std::string text =
      "<!-- strata:config -->\n<!-- strata:end-for -->\n<!-- strata:for nobody -->\nx\n"
      "<!-- strata:end-for -->\n<!-- strata:for cursor -->\ny\n<!-- strata:tail -->\n"
      "<!-- strata:for zed -->\nz\n";
  auto d = CheckClientMarkers(text, "AGENTS.md", MapMarkdownBlocks(text), MatchClientHeading);
  ASSERT_EQ(d.size(), 4u);
  EXPECT_EQ(d[0].kind, "unopened-client-section");
  EXPECT_EQ(d[0].where.line, 2);
  EXPECT_EQ(d[1].kind, "unknown-client");
  EXPECT_EQ(d[1].severity, Severity::kError);
  EXPECT_EQ(d[1].where.line, 3);
  EXPECT_EQ(d[2].kind, "unclosed-client-section");  // cursor's, ended by the tail marker
  EXPECT_EQ(d[2].where.line, 6);
  EXPECT_EQ(d[3].kind, "unclosed-client-section");  // zed's, ended by the end of the file
  EXPECT_EQ(d[3].where.line, 9);
  // The markers are no near-miss spellings.
  EXPECT_TRUE(CheckMarkerSpelling(text, "AGENTS.md").empty());
  // An unknown client's text reaches no target.
  auto b = Split(text);
  for (const char* id : {"cursor", "zed", "claude-code"}) {
    EXPECT_EQ(BandText(b, Band::kConfig, id).find("x\n"), std::string::npos) << id;
  }
}

}  // namespace
}  // namespace strata
