// time_test.cc: RFC 3339 validation through the date library.
#include "base/time.h"

#include <gtest/gtest.h>

namespace strata {
namespace {

TEST(TimeTest, AcceptsRfc3339Forms) {
  EXPECT_EQ(ParseRfc3339Millis("1970-01-01T00:00:01Z"), 1000);
  EXPECT_EQ(ParseRfc3339Millis("1970-01-01t00:00:01.250z"), 1250);
  EXPECT_EQ(ParseRfc3339Millis("1970-01-01T01:00:00+01:00"), 0);
  EXPECT_TRUE(IsRfc3339("2026-11-29T10:00:00.123456789-05:30"));
}

TEST(TimeTest, RefusesWhatIsNotRfc3339) {
  EXPECT_FALSE(IsRfc3339("2026-11-29T10:00:00"));       // no offset
  EXPECT_FALSE(IsRfc3339("2026-11-29 10:00:00Z"));      // space separator
  EXPECT_FALSE(IsRfc3339("2026-02-30T10:00:00Z"));      // no such day
  EXPECT_FALSE(IsRfc3339("2026-11-29T10:00:00Zjunk"));  // trailing text
  EXPECT_FALSE(IsRfc3339("2026-11-29T1:00:00Z"));       // one-digit hour
  EXPECT_FALSE(IsRfc3339("yesterday"));
}

}  // namespace
}  // namespace strata
