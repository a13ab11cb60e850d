// assemble_bench.cc: per-turn assembly + render time as the history grows from 10 to 10,000 turns
// (about 200 tokens per turn, so up to about 2 M tokens of history). A turn is what a harness does
// once per user message: BeginTurn (epoch check, user message), Render (Anthropic), and appending
// the model's answer. The incremental design keeps that cost independent of history length.
// Also measured: Flatten (one contiguous copy of the request, O(size)) and a from-scratch render
// of the same history (what a non-incremental assembler pays every turn).
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <string>

#include "strata/assemble.h"

namespace {

using namespace strata;

ContextInputs Inputs() {
  ContextInputs in;
  in.model = "claude-sonnet-4-5";
  in.persona = std::string(2000, 'p');
  in.rules = {"Read before you write.", "Never push to main."};
  for (int i = 0; i < 20; ++i) {
    in.tools.push_back({"tool_" + std::to_string(i), "Does thing " + std::to_string(i) + ".",
                        R"({"type":"object","properties":{
                          "path":{"type":"string"},"limit":{"type":"integer"}}})"});
  }
  in.cwd = "/work/project";
  in.instructions = {{"AGENTS.md", std::string(8000, 'a')}};
  in.notes = "notes";
  return in;
}

std::string UserText(int t) {
  return "Please look at item " + std::to_string(t) + std::string(140, 'u');
}
std::string AnswerText(int t) { return "Answer " + std::to_string(t) + std::string(620, 'x'); }

// One harness turn; every 5th turn has a tool call and result.
void Turn(ContextSession& session, const ContextInputs& in, int t, bool render) {
  (void)session.BeginTurn(in, UserText(t));
  TurnInputs turn;
  turn.now = "2026-11-29T10:00:00Z";
  if (render) benchmark::DoNotOptimize(session.Render(Provider::kAnthropic, in, turn));
  if (t % 5 == 0) {
    Message call;
    call.role = Role::kAssistant;
    call.tool_calls = {{"c" + std::to_string(t), "tool_1", R"({"path":"f"})"}};
    (void)session.Append(call);
    Message result;
    result.role = Role::kToolResult;
    result.tool_call_id = "c" + std::to_string(t);
    result.text = std::string(200, 'r');
    (void)session.Append(result);
    if (render) benchmark::DoNotOptimize(session.Render(Provider::kAnthropic, in, turn));
  }
  Message answer;
  answer.role = Role::kAssistant;
  answer.text = AnswerText(t);
  (void)session.Append(answer);
}

ContextSession SessionWithTurns(const ContextInputs& in, int turns) {
  auto session = ContextSession::Create({});
  for (int t = 0; t < turns; ++t) Turn(*session, in, t, /*render=*/true);
  return std::move(*session);
}

double PeakRssMb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024.0;
}

void BM_TurnAtHistory(benchmark::State& state) {
  ContextInputs in = Inputs();
  int turns = static_cast<int>(state.range(0));
  ContextSession session = SessionWithTurns(in, turns);
  int t = turns;
  size_t bytes = 0;
  for (auto _ : state) {
    Turn(session, in, t++, /*render=*/true);
  }
  TurnInputs now;
  now.now = "2026-11-29T10:00:00Z";
  auto r = session.Render(Provider::kAnthropic, in, now);
  bytes = r->request.size;
  state.counters["request_MB"] = bytes / 1e6;
  state.counters["approx_tokens"] = bytes / 4.0;
  state.counters["peak_rss_MB"] = PeakRssMb();
}
BENCHMARK(BM_TurnAtHistory)
    ->Arg(10)
    ->Arg(100)
    ->Arg(1000)
    ->Arg(10000)
    ->Iterations(64)
    ->Repetitions(5)
    ->ReportAggregatesOnly(true)
    ->Unit(benchmark::kMicrosecond);

void BM_FlattenAtHistory(benchmark::State& state) {
  ContextInputs in = Inputs();
  ContextSession session = SessionWithTurns(in, static_cast<int>(state.range(0)));
  TurnInputs now;
  now.now = "2026-11-29T10:00:00Z";
  auto r = session.Render(Provider::kAnthropic, in, now);
  if (r->request.Flatten().size() != r->request.size) state.SkipWithError("segments broken");
  for (auto _ : state) {
    std::string flat = r->request.Flatten();
    benchmark::DoNotOptimize(flat.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * r->request.size);
}
BENCHMARK(BM_FlattenAtHistory)->Arg(10)->Arg(10000)->Unit(benchmark::kMicrosecond);

// What a non-incremental assembler pays: render the whole history from scratch.
void BM_FromScratchAtHistory(benchmark::State& state) {
  ContextInputs in = Inputs();
  ContextSession built = SessionWithTurns(in, static_cast<int>(state.range(0)));
  std::vector<Message> history = built.history();
  TurnInputs now;
  now.now = "2026-11-29T10:00:00Z";
  for (auto _ : state) {
    auto session = ContextSession::Create({}, history);
    auto r = session->Render(Provider::kAnthropic, in, now);
    benchmark::DoNotOptimize(r->request.size);
  }
}
BENCHMARK(BM_FromScratchAtHistory)->Arg(10)->Arg(10000)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
