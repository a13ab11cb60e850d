// replay_bench: replay throughput (request tokens per second) on the corpus transcripts, beside
// the raw tokenization rate of the same request text (the floor a replay that tokenized every
// request from scratch could not beat); and replay time on generated sessions of 1,000 and 10,000
// requests that each add 2 KB (a tool call and its 2 KB result), where a replay that reprocessed
// every request whole would grow quadratically; and one request holding a single message of N MB
// of one repeated character (peak RSS reported: run it alone with --benchmark_filter, the figure
// is the process's). Skips when the corpus or the vocabularies are absent.
#include <benchmark/benchmark.h>

#include <sys/resource.h>

#include <filesystem>
#include <map>

#include "base/time.h"
#include "replay/transcript_replay.h"
#include "strata/accounting.h"
#include "strata/replay.h"
#include "transcripts/redaction.h"
#include "transcripts/transcript.h"

namespace {

namespace fs = std::filesystem;

fs::path Corpus() { return fs::path(STRATA_SOURCE_DIR_FOR_BENCH) / "../shared/corpus/transcripts"; }

struct Fixture {
  std::unique_ptr<strata::Tokenizer> tok;
  strata::Transcript transcript;
  size_t request_tokens = 0;
  std::vector<std::string> requests;  // every rebuilt request (anthropic render)
};

Fixture* Load(const char* file, const char* format) {
  static std::map<std::string, std::unique_ptr<Fixture>> cache;
  auto& slot = cache[file];
  if (slot) return slot.get();
  auto f = std::make_unique<Fixture>();
  auto tok = strata::LoadNamedTokenizer("qwen2", STRATA_LLAMA_VOCAB_DIR);
  auto t = strata::LoadTranscript(Corpus() / file, format);
  if (!tok || !t) return nullptr;
  f->tok = std::move(*tok);
  f->transcript = std::move(*t);
  strata::ReplayOptions o;
  o.cache.kind = strata::CacheModelKind::kAnthropic;
  o.on_request = [&](size_t, std::string_view bytes, const strata::LayerMap&,
                     const std::vector<strata::Breakpoint>&) { f->requests.emplace_back(bytes); };
  auto r = strata::Replay(f->transcript, *f->tok, o);
  if (!r) return nullptr;
  f->request_tokens = r->totals.input_tokens;
  slot = std::move(f);
  return slot.get();
}

void BM_Replay(benchmark::State& state, const char* file, const char* format,
               strata::CacheModelKind kind) {
  Fixture* f = Load(file, format);
  if (f == nullptr) {
    state.SkipWithError("corpus or vocabulary missing");
    return;
  }
  strata::ReplayOptions o;
  o.cache.kind = kind;
  for (auto _ : state) {
    auto r = strata::Replay(f->transcript, *f->tok, o);
    benchmark::DoNotOptimize(r);
  }
  state.counters["tokens/s"] = benchmark::Counter(double(f->request_tokens) * state.iterations(),
                                                  benchmark::Counter::kIsRate);
}

// The floor: tokenizing every rebuilt request from scratch, as a replay without block-wise
// memoization would (tokens/s of the raw tokenizer on the same request bytes).
void BM_RawTokenize(benchmark::State& state, const char* file, const char* format) {
  Fixture* f = Load(file, format);
  if (f == nullptr) {
    state.SkipWithError("corpus or vocabulary missing");
    return;
  }
  size_t tokens = 0;
  for (auto _ : state) {
    tokens = 0;
    for (const auto& request : f->requests) {
      auto ids = f->tok->Tokenize(request);
      tokens += ids ? ids->size() : 0;
      benchmark::DoNotOptimize(ids);
    }
  }
  state.counters["tokens/s"] =
      benchmark::Counter(double(tokens) * state.iterations(), benchmark::Counter::kIsRate);
}

// A session of `requests` model requests, each adding a tool call and a 2 KB result.
strata::Transcript Generated(size_t requests) {
  using strata::TranscriptEventKind;
  strata::Transcript t;
  t.format = "strata";
  const int64_t start = 1764590400000;  // 2025-12-01T12:00:00Z
  auto at = [&](size_t i) { return strata::FormatRfc3339Millis(start + int64_t(i) * 2000); };
  strata::TranscriptEvent ctx = strata::MakeEvent(TranscriptEventKind::kContext, at(0));
  ctx.context.model = "claude-sonnet-4-5";
  ctx.context.persona = strata::SynthesizeText(6000, "persona");
  ctx.context.tools = {{"bash", "Run a command", R"({"type":"object"})"}};
  t.events.push_back(ctx);
  t.events.push_back(
      strata::MakeEvent(TranscriptEventKind::kUser, at(0), strata::SynthesizeText(500, "task")));
  for (size_t i = 0; i < requests; ++i) {
    std::string n = std::to_string(i);
    auto call = strata::MakeEvent(TranscriptEventKind::kAssistant, at(i), "Next step " + n + ".");
    call.message.tool_calls.push_back({"call_" + n, "bash", R"({"command":"step )" + n + R"("})"});
    t.events.push_back(std::move(call));
    auto result =
        strata::MakeEvent(TranscriptEventKind::kToolResult, at(i), strata::SynthesizeText(2000, n));
    result.message.tool_call_id = "call_" + n;
    t.events.push_back(std::move(result));
  }
  return t;
}

void BM_ReplayGenerated(benchmark::State& state, strata::CacheModelKind kind) {
  auto tok = strata::LoadNamedTokenizer("qwen2", STRATA_LLAMA_VOCAB_DIR);
  if (!tok) {
    state.SkipWithError("vocabulary missing");
    return;
  }
  strata::Transcript t = Generated(size_t(state.range(0)));
  strata::ReplayOptions o;
  o.cache.kind = kind;
  size_t tokens = 0, tokenized = 0;
  for (auto _ : state) {
    auto r = strata::Replay(t, **tok, o);
    if (!r) {
      state.SkipWithError(r.error().message.c_str());
      return;
    }
    tokens = r->totals.input_tokens;
    tokenized = r->bytes_tokenized;
    benchmark::DoNotOptimize(r);
  }
  state.counters["requests"] = double(state.range(0));
  state.counters["MB_tokenized"] = double(tokenized) / 1e6;
  state.counters["tokens/s"] =
      benchmark::Counter(double(tokens) * state.iterations(), benchmark::Counter::kIsRate);
}

// Every cache model: the automatic ones (openai, radix) used to touch every prefix of every
// request.
BENCHMARK_CAPTURE(BM_ReplayGenerated, anthropic, strata::CacheModelKind::kAnthropic)
    ->Arg(1000)
    ->Arg(10000)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);
BENCHMARK_CAPTURE(BM_ReplayGenerated, openai, strata::CacheModelKind::kOpenAi)
    ->Arg(1000)
    ->Arg(10000)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);
BENCHMARK_CAPTURE(BM_ReplayGenerated, radix, strata::CacheModelKind::kRadix)
    ->Arg(1000)
    ->Arg(10000)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

// One request whose user message is `state.range(0)` MB of one character (no word boundary to cut
// at: the worst case for the tokenizer's memory).
void BM_ReplayHugeMessage(benchmark::State& state) {
  auto tok = strata::LoadNamedTokenizer("qwen2", STRATA_LLAMA_VOCAB_DIR);
  if (!tok) {
    state.SkipWithError("vocabulary missing");
    return;
  }
  using strata::TranscriptEventKind;
  strata::Transcript t;
  t.format = "strata";
  strata::TranscriptEvent ctx = strata::MakeEvent(TranscriptEventKind::kContext, "");
  ctx.context.model = "claude-sonnet-4-5";
  ctx.context.persona = "You are careful.";
  t.events.push_back(ctx);
  t.events.push_back(strata::MakeEvent(TranscriptEventKind::kUser, "",
                                       std::string(size_t(state.range(0)) << 20, 'a')));
  t.events.push_back(strata::MakeEvent(TranscriptEventKind::kAssistant, "", "Done."));
  strata::ReplayOptions o;
  o.cache.kind = strata::CacheModelKind::kAnthropic;
  for (auto _ : state) {
    auto r = strata::Replay(t, **tok, o);
    if (!r) {
      state.SkipWithError(r.error().message.c_str());
      return;
    }
    benchmark::DoNotOptimize(r);
  }
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  state.counters["peak_rss_MB"] = double(usage.ru_maxrss) / 1024.0;
}

BENCHMARK(BM_ReplayHugeMessage)
    ->Arg(1)
    ->Arg(20)
    ->Arg(50)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

BENCHMARK_CAPTURE(BM_Replay, claude_code_anthropic, "claude-code-subagent.jsonl", "claude-code",
                  strata::CacheModelKind::kAnthropic)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Replay, codex_openai, "codex-rollout.jsonl", "codex",
                  strata::CacheModelKind::kOpenAi)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Replay, codex_radix, "codex-rollout.jsonl", "codex",
                  strata::CacheModelKind::kRadix)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_RawTokenize, claude_code, "claude-code-subagent.jsonl", "claude-code")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_RawTokenize, codex, "codex-rollout.jsonl", "codex")
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
