// redaction tests: placeholders of sanitised logs become deterministic text of their length.
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

}  // namespace
}  // namespace strata
