// replay_bench: replay throughput (request tokens per second) on the corpus transcripts, beside
// the raw tokenization rate of the same request text (the floor a replay that tokenized every
// request from scratch could not beat). Skips when the corpus or the vocabularies are absent.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <map>

#include "replay/transcript_replay.h"
#include "strata/replay.h"
#include "tokenize/vocab_tokenizer.h"
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
