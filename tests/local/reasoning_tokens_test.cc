// reasoning_tokens_test.cc: which of a reply's tokens are its thinking (Responses'
// output_tokens_details.reasoning_tokens): opened by the generation prompt or by the start tag the
// reply begins with, ended by the token that completes the first end tag, tags included.
#include "local/reasoning_tokens.h"

#include <gtest/gtest.h>

#include <vector>

namespace strata::serve {
namespace {

const std::vector<std::string> kEnd = {"</think>"};

// The reply of `pieces` (each token's text in order): its text and each token's start.
struct Reply {
  std::string text;
  std::vector<size_t> starts;
};
Reply Of(const std::vector<std::string>& pieces) {
  Reply r;
  for (const std::string& p : pieces) {
    r.starts.push_back(r.text.size());
    r.text += p;
  }
  return r;
}

size_t Count(const Reply& r, std::string_view generation_prompt,
             const std::vector<std::string>& end = kEnd, std::string_view start = "<think>") {
  return CountReasoningTokens(r.starts, r.text, generation_prompt, start, end);
}

TEST(ReasoningTokens, TheStartTagTheReplyWritesOpensTheThinking) {
  // Qwen3's generation prompt opens no thinking; the model writes "<think>" first. Tokens 0-7
  // ("<think>" to "</think>") are the thinking; "\n\n", "Hello", " there" are the answer.
  const Reply r = Of({"<think>", "\n", "I", " should", " greet", ".", "\n", "</think>", "\n\n",
                      "Hello", " there"});
  EXPECT_EQ(Count(r, "<|im_start|>assistant\n"), 8u);
  // Whitespace before the start tag is part of the thinking's tokens too.
  EXPECT_EQ(Count(Of({"\n", "<think>", "a", "</think>", "b"}), "<|im_start|>assistant\n"), 4u);
}

TEST(ReasoningTokens, AGenerationPromptEndingInTheStartTagOpensTheThinking) {
  // GLM-4.7-Flash's generation prompt ends with "<think>": three thinking tokens, the end tag.
  EXPECT_EQ(Count(Of({"a", "b", "c", "</think>", "Hi", "!"}), "<|assistant|><think>"), 4u);
  // A reply that ends while thinking is all thinking.
  EXPECT_EQ(Count(Of({"a", "b", "c"}), "<|assistant|><think>"), 3u);
}

TEST(ReasoningTokens, ThinkingClosedByTheGenerationPromptOrNeverOpenedCountsNothing) {
  // Thinking turned off: the generation prompt closes it (Qwen3's empty block, GLM's "</think>").
  EXPECT_EQ(Count(Of({"Hello", " there"}), "<|im_start|>assistant\n<think>\n\n</think>\n\n"), 0u);
  EXPECT_EQ(Count(Of({"Hello"}), "<|assistant|></think>"), 0u);
  // A start tag that does not begin the reply opens no thinking.
  EXPECT_EQ(Count(Of({"Hello", " <think>", "x", "</think>"}), "<|im_start|>assistant\n"), 0u);
  // A template without thinking tags.
  EXPECT_EQ(Count(Of({"<think>", "x", "</think>"}), "assistant\n", {}, ""), 0u);
}

TEST(ReasoningTokens, ATokenThatBeginsBeforeTheEndOfTheEndTagIsThinking) {
  // "x</thi" and "nk>\n\nHi" both begin before the end of "</think>" (byte 16).
  EXPECT_EQ(Count(Of({"<think>", "x</thi", "nk>\n\nHi", "!"}), "assistant\n"), 3u);
  // The first of several end tags ends it.
  EXPECT_EQ(Count(Of({"<think>", "a", "</thought>", "b", "</think>"}), "assistant\n",
                  {"</think>", "</thought>"}),
            3u);
}

}  // namespace
}  // namespace strata::serve
