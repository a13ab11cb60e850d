// messages_test.cc: the tool-result pairing rule: a tool result answers a call of the assistant
// message it follows (tool results in between are skipped), and a user turn waits for every call.
#include <gtest/gtest.h>

#include "strata/prompt.h"

namespace strata {
namespace {

Message User(std::string text) { return {Role::kUser, std::move(text), {}, "", false}; }
Message Asks(std::vector<std::string> ids) {
  Message m{Role::kAssistant, "", {}, "", false};
  for (auto& id : ids) m.tool_calls.push_back({id, "read", "{}"});
  return m;
}
Message Result(std::string id) { return {Role::kToolResult, "ok", {}, std::move(id), false}; }

TEST(MessagesTest, AToolResultAnswersACallOfThePrecedingAssistantMessage) {
  std::vector<Message> h = {User("a"), Asks({"c1", "c2"})};
  EXPECT_EQ(AskingMessage(h), &h[1]);
  EXPECT_TRUE(AnswersToolCall(h, "c1"));
  EXPECT_TRUE(AnswersToolCall(h, "c2"));
  EXPECT_FALSE(AnswersToolCall(h, "c3"));
  h.push_back(Result("c1"));  // earlier results of the streak are skipped
  EXPECT_EQ(AskingMessage(h), &h[1]);
  EXPECT_TRUE(AnswersToolCall(h, "c2"));
}

TEST(MessagesTest, NoAssistantMessageMeansNothingToAnswer) {
  EXPECT_EQ(AskingMessage({}), nullptr);
  EXPECT_FALSE(AnswersToolCall({}, "c1"));
  std::vector<Message> h = {User("a"), Asks({"c1"}), Result("c1"), User("b")};
  EXPECT_EQ(AskingMessage(h), nullptr);  // a user message ends the streak
  EXPECT_FALSE(AnswersToolCall(h, "c1"));
  std::vector<Message> context = {Asks({"c1"}), {Role::kContextUpdate, "x", {}, "", false}};
  EXPECT_FALSE(AnswersToolCall(context, "c1"));
}

TEST(MessagesTest, UnansweredCallsAreListedInCallOrder) {
  std::vector<Message> h = {User("a"), Asks({"c1", "c2", "c3"})};
  EXPECT_EQ(UnansweredToolCalls(h), (std::vector<std::string>{"c1", "c2", "c3"}));
  h.push_back(Result("c2"));
  EXPECT_EQ(UnansweredToolCalls(h), (std::vector<std::string>{"c1", "c3"}));
  h.push_back(Result("c3"));
  h.push_back(Result("c1"));
  EXPECT_TRUE(UnansweredToolCalls(h).empty());
  EXPECT_TRUE(UnansweredToolCalls(std::vector<Message>{User("a"), Asks({})}).empty());
}

}  // namespace
}  // namespace strata
