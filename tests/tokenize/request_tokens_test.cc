// request_tokens tests: where a rendered request is cut before block-wise tokenization.
#include "tokenize/request_tokens.h"

#include <gtest/gtest.h>

#include "strata/accounting.h"

namespace strata {
namespace {

TEST(RequestTokensTest, CutsAtBlockStartsSpansAndBreakpoints) {
  //                       0         1         2         3
  //                       0123456789012345678901234567890123456
  std::string_view bytes = R"([{"type":"text"},{"role":"user"},<|im_start|>x{"a":1})";
  LayerMap spans = {{"persona", Volatility::kStatic, "", 2, 5},
                    {"input", Volatility::kTurn, "", 6, 9}};
  std::vector<Breakpoint> bps = {{20, CacheTtl::k5m, ""}};
  // Block starts at 1 ({"type":"), 17 ({"role":") and 33 (<|im_start|>); "{"a"" is no block start;
  // the persona span gives 2 and 5 (input spans do not cut); the breakpoint 20; extra 40; 0 never.
  auto cuts = StructuralCuts(bytes, spans, bps, {40, 0});
  EXPECT_EQ(cuts, (std::vector<size_t>{1, 2, 5, 17, 20, 33, 40}));
}

// The tests below tokenize with llama.cpp's qwen2 vocabulary: only in builds with llama.cpp
// (tests/CMakeLists.txt defines STRATA_LLAMA_VOCAB_DIR then).
#ifdef STRATA_LLAMA_VOCAB_DIR
std::unique_ptr<Tokenizer> Qwen2() {
  auto t = LoadNamedTokenizer("qwen2", STRATA_LLAMA_VOCAB_DIR);
  return t ? std::move(*t) : nullptr;
}

// Requests that grow by a message each, with a volatile tail and an earlier block rewritten once:
// TokenizeAfter gives exactly what Tokenize gives from scratch.
TEST(RequestTokensTest, TokenizeAfterEqualsTokenizingFromScratch) {
  auto tok = Qwen2();
  if (!tok) GTEST_SKIP() << "qwen2 vocabulary missing";
  PieceTokenizer incremental(*tok);
  std::string history = R"({"system":[{"type":"text","text":"You are careful."}],"messages":[)";
  TokenizedRequest prev;
  std::vector<size_t> prev_cuts;
  std::string prev_bytes;
  for (int i = 0; i < 12; ++i) {
    if (i > 0) history += ",";
    history += R"({"role":"user","content":[{"type":"text","text":"step )" + std::to_string(i) +
               R"( of the plan, with some words"}]})";
    if (i == 6) history.replace(20, 7, "hurried");  // a change early in the prefix
    std::string bytes = history + R"(],"tail":"now )" + std::to_string(i) + R"("})";
    std::vector<Breakpoint> bps = {{history.size(), CacheTtl::k5m, ""}};
    auto cuts = StructuralCuts(bytes, {}, bps);
    size_t shared = 0;
    while (shared < prev_bytes.size() && shared < bytes.size() &&
           prev_bytes[shared] == bytes[shared])
      ++shared;
    PieceTokenizer::Reuse reuse;
    auto after = incremental.TokenizeAfter(std::move(prev), prev_cuts, shared, bytes, cuts, &reuse);
    PieceTokenizer fresh(*tok);
    auto whole = fresh.Tokenize(bytes, cuts);
    ASSERT_TRUE(after && whole);
    EXPECT_EQ(after->ids, whole->ids) << i;
    EXPECT_EQ(after->cut_bytes, whole->cut_bytes) << i;
    EXPECT_EQ(after->TokensAt(history.size()), whole->TokensAt(history.size())) << i;
    EXPECT_EQ(after->cut_tokens, whole->cut_tokens) << i;
    EXPECT_EQ(after->tokens_at_cut, whole->tokens_at_cut) << i;
    if (i > 0 && i != 6) EXPECT_GT(reuse.kept, 0u) << i;
    prev = std::move(*after);
    prev_cuts = cuts;
    prev_bytes = bytes;
  }
}

// TokensAt a cut (a breakpoint is always one) counts the tokens of the pieces before it; 0 at the
// start, every token at the end and beyond.
TEST(RequestTokensTest, TokensAtACutCountsTheTokensBeforeIt) {
  auto tok = Qwen2();
  if (!tok) GTEST_SKIP() << "qwen2 vocabulary missing";
  const std::string head = "alpha beta gamma", rest = " delta epsilon";
  PieceTokenizer pieces(*tok);
  auto t = pieces.Tokenize(head + rest, {head.size()});
  auto before = tok->Tokenize(head);
  auto after = tok->Tokenize(rest);
  ASSERT_TRUE(t && before && after);
  EXPECT_EQ(t->ids.size(), before->size() + after->size());
  EXPECT_EQ(t->TokensAt(head.size()), before->size());
  EXPECT_EQ(t->TokensAt(0), 0u);
  EXPECT_EQ(t->TokensAt(head.size() + rest.size()), t->ids.size());
  EXPECT_EQ(t->TokensAt(head.size() + rest.size() + 5), t->ids.size());
}

// A piece longer than kMaxPieceBytes is tokenized in parts cut between words: the same tokens as
// tokenizing it whole.
TEST(RequestTokensTest, ALongPieceIsCutBetweenWordsWithTheSameTokens) {
  auto tok = Qwen2();
  if (!tok) GTEST_SKIP() << "qwen2 vocabulary missing";
  std::string text;
  for (int i = 0; text.size() < kMaxPieceBytes * 2 + 1000; ++i) {
    text += "word" + std::to_string(i % 7) + (i % 5 == 0 ? ", then more " : " and more ");
  }
  PieceTokenizer pieces(*tok);
  auto parts = pieces.Tokenize(text, {});
  auto whole = tok->TokenizeWithOffsets(text);
  ASSERT_TRUE(parts && whole);
  EXPECT_EQ(parts->ids, whole->ids);
}
#endif  // STRATA_LLAMA_VOCAB_DIR

}  // namespace
}  // namespace strata
