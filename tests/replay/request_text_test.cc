// RequestText (src/replay/request_text.h): the request's bytes written over the previous one's,
// and a huge tail taken over rather than copied (a 50 MB message is otherwise held once more).
// Structural checks (bytes copied, buffer kept), no clock: peak memory is measured in
// bench/replay_scale.sh.
#include "replay/request_text.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "replay/layout.h"

namespace strata {
namespace {

using Part = RequestText::Part;

TEST(RequestTextTest, ATailLargerThanThePartsKeepsItsBufferAndIsNotCopied) {
  RequestText text;
  std::string tail(1 << 20, 'x');
  tail.reserve(tail.size() + 4096);  // room in front of it without a new buffer
  const char* buffer = tail.data();
  std::vector<Part> parts = {{"head"}, {"-"}};
  text.Set(parts, std::move(tail));
  EXPECT_EQ(text.bytes().size(), 5u + (1 << 20));
  EXPECT_EQ(text.bytes().substr(0, 6), "head-x");
  EXPECT_EQ(text.copied(), 5u);  // the parts only
  EXPECT_EQ(text.bytes().data(), buffer);
}

TEST(RequestTextTest, AnAdoptedTailStillSaysHowMuchEqualsThePreviousRequest) {
  RequestText text;
  text.Set("head-abcdef");
  std::vector<Part> parts = {{"head"}, {"-"}};
  text.Set(parts, std::string("abcXYZ-and-more"));
  EXPECT_EQ(text.bytes(), "head-abcXYZ-and-more");
  EXPECT_EQ(text.shared(), 8u);  // "head-abc"
  // A head that differs: shared ends there.
  std::vector<Part> other = {{"hexd"}};
  text.Set(other, std::string("-abcXYZ-and-more"));
  EXPECT_EQ(text.bytes(), "hexd-abcXYZ-and-more");
  EXPECT_EQ(text.shared(), 2u);
  // Equal to the previous request: all of it.
  text.Set(other, std::string("-abcXYZ-and-more"));
  EXPECT_EQ(text.shared(), text.bytes().size());
}

TEST(RequestTextTest, ASmallTailIsWrittenLikeAnyPart) {
  RequestText text;
  text.Set("0123456789-old");
  std::vector<Part> parts = {{"0123456789", true}};
  text.Set(parts, std::string("-new"));
  EXPECT_EQ(text.bytes(), "0123456789-new");
  EXPECT_EQ(text.shared(), 11u);
  EXPECT_EQ(text.copied(), 3u);  // "new": the unchanged part and the equal "-" are not copied
}

// The strata layout hands the session's rendered tail (a new user message) to the request instead
// of copying it: a 4 MB message costs the request its head's bytes only.
TEST(RequestTextTest, TheStrataLayoutDoesNotCopyAHugeNewMessage) {
  LayoutOptions options;
  auto layout = MakeStrataLayout(options);
  ASSERT_TRUE(layout) << layout.error().message;
  ContextInputs ctx;
  ctx.model = "claude-sonnet-4-5";
  const std::string message(4 << 20, 'w');
  ASSERT_TRUE((*layout)->BeginTurn(ctx, Message{Role::kUser, message, {}, "", false}));
  RequestText text;
  auto rebuilt = (*layout)->Render(ctx, "2026-12-02T10:00:00Z", &text);
  ASSERT_TRUE(rebuilt) << rebuilt.error().message;
  ASSERT_GT(text.bytes().size(), message.size());
  EXPECT_NE(text.bytes().find(message), std::string_view::npos);
  EXPECT_LT(text.copied(), 64u << 10);
}

}  // namespace
}  // namespace strata
