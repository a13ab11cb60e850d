// aider_config_test.cc: the textual `read:` merge keeps every other key, comment and line ending.
#include "compile/aider_config.h"

#include <gtest/gtest.h>

namespace strata {
namespace {

TEST(AiderConfigTest, NoConfigGetsOneReadLine) {
  EXPECT_EQ(MergeAiderRead("", "CONVENTIONS.md"), "read: CONVENTIONS.md\n");
}

TEST(AiderConfigTest, OtherKeysAndCommentsStayWhenTheKeyIsAppended) {
  const std::string conf =
      "# my aider settings\n"
      "model: sonnet   # the default\n"
      "auto-commits: false\n"
      "\n"
      "lint-cmd:\n"
      "  - \"python: ruff check\"\n";
  EXPECT_EQ(MergeAiderRead(conf, "CONVENTIONS.md"), conf + "read: CONVENTIONS.md\n");
  EXPECT_EQ(MergeAiderRead("model: x", "CONVENTIONS.md"), "model: x\nread: CONVENTIONS.md\n");
}

TEST(AiderConfigTest, ScalarBecomesAFlowListKeepingItsComment) {
  EXPECT_EQ(MergeAiderRead("model: x\nread: NOTES.md  # mine\nyes: 1\n", "CONVENTIONS.md"),
            "model: x\nread: [NOTES.md, CONVENTIONS.md]  # mine\nyes: 1\n");
}

TEST(AiderConfigTest, FlowListGetsTheFileBeforeItsBracket) {
  EXPECT_EQ(MergeAiderRead("read: [a.md, \"b.md\"]\n", "CONVENTIONS.md"),
            "read: [a.md, \"b.md\", CONVENTIONS.md]\n");
  EXPECT_EQ(MergeAiderRead("read: []\n", "CONVENTIONS.md"), "read: [CONVENTIONS.md]\n");
}

TEST(AiderConfigTest, BlockListGetsAnItemAtItsIndent) {
  const std::string conf =
      "read:\n"
      "    - a.md\n"
      "    # a note\n"
      "    - b.md\n"
      "model: x\n";
  EXPECT_EQ(MergeAiderRead(conf, "CONVENTIONS.md"),
            "read:\n    - a.md\n    # a note\n    - b.md\n    - CONVENTIONS.md\nmodel: x\n");
}

TEST(AiderConfigTest, AlreadyListedLeavesTheFileByteForByte) {
  for (std::string conf :
       {"read: CONVENTIONS.md\n", "read: 'CONVENTIONS.md'\n", "read: [x, CONVENTIONS.md]\n",
        "read:\n  - CONVENTIONS.md\nm: 1\n", "x: 1\r\nread: [CONVENTIONS.md]\r\n"}) {
    EXPECT_EQ(MergeAiderRead(conf, "CONVENTIONS.md"), conf);
  }
}

TEST(AiderConfigTest, CrlfFileGetsCrlfLines) {
  EXPECT_EQ(MergeAiderRead("model: x\r\n", "CONVENTIONS.md"),
            "model: x\r\nread: CONVENTIONS.md\r\n");
}

TEST(AiderConfigTest, AKeyThatOnlyStartsWithReadIsNotTheReadKey) {
  EXPECT_EQ(MergeAiderRead("readme: x\n", "CONVENTIONS.md"), "readme: x\nread: CONVENTIONS.md\n");
}

}  // namespace
}  // namespace strata
