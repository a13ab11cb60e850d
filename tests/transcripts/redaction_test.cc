// redaction tests: placeholders of sanitised logs become deterministic text of their length,
// code-like for tool output and arguments.
#include "transcripts/redaction.h"

#include <gtest/gtest.h>

namespace strata {
namespace {

TEST(TranscriptTest, RedactedTextIsSynthesizedAtItsLengthDeterministically) {
  std::string a = ExpandRedactions("x [REDACTED_TEXT len=57 sha=036b7e47] y");
  EXPECT_EQ(a.size(), 2 + 57 + 2u);
  EXPECT_EQ(a, ExpandRedactions("x [REDACTED_TEXT len=57 sha=036b7e47] y"));
  EXPECT_NE(SynthesizeText(57, "036b7e47"), SynthesizeText(57, "f3ffd0ed"));
  EXPECT_EQ(ExpandRedactions("no placeholder"), "no placeholder");
}

// Tool output and arguments stand in as code-like text, the other kinds as prose; both are exactly
// the placeholder's length and the same on every run.
TEST(TranscriptTest, RedactedToolOutputIsSynthesizedAsCodeLikeText) {
  std::string out = ExpandRedactions("[REDACTED_OUTPUT len=300 sha=f4d777f1]");
  EXPECT_EQ(out, SynthesizeCode(300, "f4d777f1"));
  EXPECT_EQ(out.size(), 300u);
  EXPECT_NE(out.find("src/"), std::string::npos);  // a compiler-style location line
  EXPECT_NE(out.find("("), std::string::npos);
  EXPECT_EQ(ExpandRedactions("[REDACTED_ARGUMENTS len=90 sha=4aedd932]"),
            SynthesizeCode(90, "4aedd932"));
  std::string prose = ExpandRedactions("[REDACTED_TEXT len=300 sha=f4d777f1]");
  EXPECT_EQ(prose, SynthesizeText(300, "f4d777f1"));
  EXPECT_EQ(prose.find_first_of("/(_"), std::string::npos);  // words, spaces and newlines only
  EXPECT_EQ(ExpandRedactions("[REDACTED_MESSAGE len=12 sha=ab]"), SynthesizeText(12, "ab"));
}

}  // namespace
}  // namespace strata
