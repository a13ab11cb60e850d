// local_prefill_bench.cc: one cold prefill of N prompt tokens three ways on the same model and
// settings, to find overhead the local engine adds to llama.cpp's own decode loop:
//   llama.cpp  a fresh context and llama_decode over n_batch chunks (what llama-batched-bench's
//              prompt phase does);
//   engine     a fresh LocalEngine (one sequence) and one Decode call through its scheduler;
//   chat       a new LocalSession (strata chat's path: render, tokenize, prefix engine, engine)
//              with an empty store, its turn report's prefill_ms.
// `strata serve` runs the engine path of the second line (bench/README.md has the serve command).
// Prints each repetition and the minimum (the machine may be loaded: compare minimums).
//
//   local_prefill_bench --model M.gguf [--tokens 3500] [--threads 2] [--reps 3] [--ctx 8192]
//                       [--batch 2048] [--ubatch 512] [--no-flash-attn] [--gpu-layers N]
// --gpu-layers offloads N layers (-1: all) when llama.cpp has a GPU backend (a build tree linked to
// STRATA_LLAMA_BACKEND=vulkan scripts/setup-llama.sh; README.md, Building for a GPU).
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "local/llama_context.h"
#include "local/local_engine.h"
#include "local/local_model.h"
#include "strata/checkpoint.h"
#include "strata/local_session.h"

namespace {

using namespace strata;
using Clock = std::chrono::steady_clock;

double MsSince(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

// A text of about `target` tokens (distinct words, so nothing repeats into fewer tokens).
std::string TextOf(const LocalModel& model, size_t target) {
  std::string text;
  for (int i = 0;; ++i) {
    text += fmt::format("step {} checks file_{}.cc and writes the result. ", i, i * 7 % 1000);
    if (i % 50 == 49) {
      auto t = TokenizeText(model, text, false);
      if (t && t->size() >= target) return text;
    }
  }
}

void Report(const char* name, const std::vector<double>& ms, size_t tokens) {
  std::string all;
  for (double m : ms) all += fmt::format(" {:.0f}", m);
  const double best = *std::min_element(ms.begin(), ms.end());
  fmt::print("{:<10} tokens={} min_ms={:.0f} tok_per_s={:.0f} runs_ms={}\n", name, tokens, best,
             tokens * 1000.0 / best, all);
}

}  // namespace

int main(int argc, char** argv) {
  std::string model_path;
  size_t target = 3500;
  int reps = 3;
  int gpu_layers = 0;
  EngineOptions engine;
  engine.n_ctx = 8192;
  engine.n_threads = 2;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&] { return i + 1 < argc ? std::string(argv[++i]) : std::string(); };
    if (a == "--model")
      model_path = next();
    else if (a == "--tokens")
      target = std::stoul(next());
    else if (a == "--threads")
      engine.n_threads = std::stoi(next());
    else if (a == "--reps")
      reps = std::stoi(next());
    else if (a == "--ctx")
      engine.n_ctx = static_cast<uint32_t>(std::stoul(next()));
    else if (a == "--batch")
      engine.n_batch = static_cast<uint32_t>(std::stoul(next()));
    else if (a == "--ubatch")
      engine.n_ubatch = static_cast<uint32_t>(std::stoul(next()));
    else if (a == "--no-flash-attn")
      engine.flash_attn = false;
    else if (a == "--gpu-layers")
      gpu_layers = std::stoi(next());
    else {
      fmt::print(stderr, "local_prefill_bench: unknown argument '{}'\n", a);
      return 2;
    }
  }
  if (model_path.empty()) {
    fmt::print(stderr, "local_prefill_bench: --model M.gguf is required (tools/make_test_model)\n");
    return 2;
  }
  const std::filesystem::path work =
      std::filesystem::temp_directory_path() / fmt::format("strata-prefill-bench-{}", getpid());
  std::filesystem::create_directories(work);
  auto model = LocalModel::Load(model_path, work, gpu_layers);
  if (!model) {
    fmt::print(stderr, "{}\n", model.error().message);
    return 1;
  }
  const std::string text = TextOf(**model, target);
  auto tokens = TokenizeText(**model, text, true);
  if (!tokens) return 1;
  fmt::print("threads={} ctx={} batch={} ubatch={} flash_attn={} offload={}\n", engine.n_threads,
             engine.n_ctx, engine.n_batch, engine.n_ubatch, engine.flash_attn,
             (*model)->offload().empty() ? "none" : (*model)->offload());

  std::vector<double> direct, through_engine, chat;
  for (int r = 0; r < reps; ++r) {
    auto ctx = NewLlamaContext(**model, engine);
    if (!ctx) return 1;
    const auto t = Clock::now();
    if (!DecodeTokenBatches(ctx->get(), engine, *tokens, nullptr)) return 1;
    direct.push_back(MsSince(t));
  }
  Report("llama.cpp", direct, tokens->size());
  for (int r = 0; r < reps; ++r) {
    auto e = LocalEngine::Create(**model, engine, 1);
    if (!e) return 1;
    const auto t = Clock::now();
    if (!(*e)->Decode(0, *tokens)) return 1;
    through_engine.push_back(MsSince(t));
  }
  Report("engine", through_engine, tokens->size());
  size_t chat_tokens = 0;
  for (int r = 0; r < reps; ++r) {
    const std::filesystem::path dir = work / fmt::format("kv{}", r);
    auto store = CheckpointStore::Open({dir, 1ull << 32});
    if (!store) return 1;
    SessionConfig config;
    config.agent_prompt = "You are a coding agent.";
    LocalSession session(**model, **store, config, engine);
    auto turn = session.Submit(text);
    if (!turn) {
      fmt::print(stderr, "{}\n", turn.error().message);
      return 1;
    }
    chat.push_back(turn->prefill_ms);
    chat_tokens = turn->prefix_tokens + turn->suffix_tokens;
  }
  Report("chat", chat, chat_tokens);
  std::filesystem::remove_all(work);
  return 0;
}
