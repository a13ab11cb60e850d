// Replay scale tests, structural (no clock): the bytes a replay sends through the tokenizer grow
// with what each request adds, under every cache model, and a huge first message is tokenized
// once. Counted by a tokenizer that forwards to the real qwen2 vocabulary and adds up the bytes it
// is given. Times and peak memory are measured in bench/replay_scale.sh.
#include <gtest/gtest.h>

#include <atomic>

#include "replay/transcript_replay.h"
#include "strata/accounting.h"
#include "transcripts/redaction.h"

namespace strata {
namespace {

// Forwards to `real`, counting the bytes and calls of Tokenize.
class CountingTokenizer final : public Tokenizer {
 public:
  explicit CountingTokenizer(const Tokenizer& real) : real_(real) {}
  const std::string& name() const override { return real_.name(); }
  Result<std::vector<TokenId>> Tokenize(std::string_view text) const override {
    bytes_ += text.size();
    return real_.Tokenize(text);
  }
  Result<TokenizedText> TokenizeWithOffsets(std::string_view text) const override {
    bytes_ += text.size();
    return real_.TokenizeWithOffsets(text);
  }
  size_t max_token_bytes() const override { return real_.max_token_bytes(); }
  size_t bytes() const { return bytes_; }
  void Reset() { bytes_ = 0; }

 private:
  const Tokenizer& real_;
  mutable std::atomic<size_t> bytes_ = 0;
};

std::unique_ptr<Tokenizer> Qwen2() {
  auto t = LoadNamedTokenizer("qwen2", STRATA_LLAMA_VOCAB_DIR);
  return t ? std::move(*t) : nullptr;
}

std::string At(int second) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "2026-11-29T%02d:%02d:%02d.000Z", 8 + second / 3600,
                second / 60 % 60, second % 60);
  return buf;
}

// One user message, then `requests` requests, each a tool call answered by a 1-2 KB result
// (the shape of a long agent session), two seconds apart.
Transcript ToolLoop(int requests) {
  Transcript t;
  t.format = "claude-code";
  auto ctx = MakeEvent(TranscriptEventKind::kContext, At(0));
  ctx.context.model = "claude-sonnet-4-5";
  ctx.context.persona = SynthesizeText(2000, "persona");
  ctx.context.tools = {{"bash", SynthesizeText(600, "bash"), R"({"type":"object"})"}};
  t.events.push_back(ctx);
  t.events.push_back(MakeEvent(TranscriptEventKind::kUser, At(1), SynthesizeText(400, "task")));
  for (int i = 0; i < requests; ++i) {
    const std::string n = std::to_string(i);
    auto a = MakeEvent(TranscriptEventKind::kAssistant, At(2 + 2 * i), SynthesizeText(80, "a" + n));
    a.message.tool_calls.push_back({"c" + n, "bash", R"({"command":"step )" + n + R"("})"});
    t.events.push_back(a);
    auto r = MakeEvent(TranscriptEventKind::kToolResult, At(3 + 2 * i),
                       SynthesizeText(1000 + 37 * size_t(i % 29), "r" + n));
    r.message.tool_call_id = "c" + n;
    t.events.push_back(r);
  }
  t.events.push_back(MakeEvent(TranscriptEventKind::kAssistant, At(3 + 2 * requests), "Done."));
  return t;
}

constexpr CacheModelKind kKinds[] = {CacheModelKind::kAnthropic, CacheModelKind::kOpenAi,
                                     CacheModelKind::kDeepSeek, CacheModelKind::kBlockHash,
                                     CacheModelKind::kRadix};

// Each request's new bytes are tokenized, not the conversation again: over a whole session the
// tokenizer sees about one copy of the last request (which holds everything every request
// added), at most twice it (a request's new input is rendered once at the end of the request and
// again, as history, in the next one). Re-tokenizing each request whole would be requests/2
// copies (100 here).
TEST(ReplayScaleTest, BytesTokenizedStayWithinTwiceTheLastRequestUnderEveryCacheModel) {
  auto real = Qwen2();
  if (!real) GTEST_SKIP() << "no vocabulary files";
  CountingTokenizer tok(*real);
  const Transcript t = ToolLoop(200);
  for (CacheModelKind kind : kKinds) {
    ReplayOptions o;
    o.cache.kind = kind;
    size_t last = 0;
    o.on_request = [&](size_t, std::string_view bytes, const LayerMap&,
                       const std::vector<Breakpoint>&) { last = bytes.size(); };
    tok.Reset();
    auto r = Replay(t, tok, o);
    ASSERT_TRUE(r) << r.error().message;
    ASSERT_EQ(r->turns.size(), 201u);
    EXPECT_GT(last, 200u * 1000) << CacheModelName(kind);
    EXPECT_LE(tok.bytes(), 2 * last) << CacheModelName(kind) << ": " << tok.bytes()
                                     << " bytes tokenized for a last request of " << last;
    EXPECT_EQ(r->bytes_tokenized, tok.bytes()) << CacheModelName(kind);
  }
}

// The same rule from the other side: four times the requests tokenize about four times the bytes
// (a quadratic replay would tokenize sixteen times as many).
TEST(ReplayScaleTest, BytesTokenizedGrowLinearlyWithTheRequests) {
  auto real = Qwen2();
  if (!real) GTEST_SKIP() << "no vocabulary files";
  CountingTokenizer tok(*real);
  for (CacheModelKind kind : {CacheModelKind::kAnthropic, CacheModelKind::kRadix}) {
    ReplayOptions o;
    o.cache.kind = kind;
    size_t bytes[2] = {};
    int i = 0;
    for (int requests : {50, 200}) {
      tok.Reset();
      ASSERT_TRUE(Replay(ToolLoop(requests), tok, o));
      bytes[i++] = tok.bytes();
    }
    EXPECT_LE(double(bytes[1]), 5.0 * double(bytes[0])) << CacheModelName(kind);
  }
}

// A log's first message of 4 MiB, with a recorded first request far smaller than its tokens:
// the stand-in for the unlogged prefix is not needed, and its bytes over the vocabulary's longest
// token prove it without replaying the first request to measure it (which copied the message and
// tokenized it a second time).
TEST(ReplayScaleTest, AHugeFirstMessageIsTokenizedOnce) {
  auto real = Qwen2();
  if (!real) GTEST_SKIP() << "no vocabulary files";
  CountingTokenizer tok(*real);
  ASSERT_GT(tok.max_token_bytes(), 0u);
  const size_t size = size_t{4} << 20;
  for (CacheModelKind kind : {CacheModelKind::kAnthropic, CacheModelKind::kRadix}) {
    Transcript t;
    t.format = "claude-code";
    auto ctx = MakeEvent(TranscriptEventKind::kContext, At(0));
    ctx.context.model = "claude-sonnet-4-5";
    t.events.push_back(ctx);
    t.events.push_back(MakeEvent(TranscriptEventKind::kUser, At(1), SynthesizeText(size, "big")));
    auto a = MakeEvent(TranscriptEventKind::kAssistant, At(60), "Done.");
    a.recorded = RecordedUsage{13, 0, 10};
    t.events.push_back(a);
    ReplayOptions o;
    o.cache.kind = kind;
    o.fill_unlogged_prefix = true;
    tok.Reset();
    auto r = Replay(std::move(t), tok, o);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->prefix_fill_tokens, 0u);
    EXPECT_GE(tok.bytes(), size) << CacheModelName(kind);
    EXPECT_LT(tok.bytes(), size + size / 8) << CacheModelName(kind);
  }
}

}  // namespace
}  // namespace strata
