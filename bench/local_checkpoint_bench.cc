// local_checkpoint_bench.cc: time to first token of a new local session with a cold checkpoint
// store versus a warm one, for deterministic prefixes of about 1k, 4k and 16k tokens of real text
// (llama.cpp's own AGENTS.md and docs/*.md from the cached source tree), on a generated model of
// tens of millions of parameters; and the restore time versus the floor of reading the same number
// of bytes from the page cache. Prints a table (medians over --reps runs).
//
//   local_checkpoint_bench [--reps 3] [--sizes 1024,4096,16384] [--threads 2] [--model FILE]
//
// Not a Google Benchmark fixture: a cold run must prefill a whole prefix, so each measurement is a
// full session and the repetitions are few.
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "io/file_io.h"
#include "local/local_model.h"
#include "strata/checkpoint.h"
#include "strata/local_session.h"
#include "support/test_model.h"

namespace fs = std::filesystem;
using namespace strata;
using strata::testing::TestModelOptions;
using strata::testing::WriteTestModel;

namespace {

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0
                   : (v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2);
}

// Reads `path` with read(2) into a buffer of its size; milliseconds.
double ReadFloorMs(const fs::path& path) {
  const size_t size = fs::file_size(path);
  std::string buf(size, '\0');
  const auto t = std::chrono::steady_clock::now();
  int fd = ::open(path.c_str(), O_RDONLY);
  size_t at = 0;
  while (at < size) {
    ssize_t n = ::read(fd, buf.data() + at, size - at);
    if (n <= 0) break;
    at += static_cast<size_t>(n);
  }
  ::close(fd);
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

std::string CorpusText(const fs::path& llama_src) {
  std::string text;
  if (auto a = ReadFileBytes(llama_src / "AGENTS.md")) text += *a;
  std::vector<fs::path> docs;
  for (const auto& e : fs::directory_iterator(llama_src / "docs")) {
    if (e.path().extension() == ".md") docs.push_back(e.path());
  }
  std::sort(docs.begin(), docs.end());
  for (const auto& d : docs) {
    if (auto b = ReadFileBytes(d)) text += "\n\n" + *b;
  }
  return text;
}

// The longest prefix of `text` (cut at a line end) whose token count is at most `target`.
std::string CutToTokens(const LocalModel& model, const std::string& text, size_t target) {
  size_t lo = 0, hi = text.size();
  while (hi - lo > 64) {
    size_t mid = (lo + hi) / 2;
    auto t = TokenizeText(model, std::string_view(text).substr(0, mid), false);
    if (t && t->size() <= target)
      lo = mid;
    else
      hi = mid;
  }
  size_t cut = text.rfind('\n', lo);
  return text.substr(0, cut == std::string::npos ? lo : cut + 1);
}

}  // namespace

int main(int argc, char** argv) {
  int reps = 3, threads = 2;
  std::vector<size_t> sizes = {1024, 4096, 16384};
  std::string model_path;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string a = argv[i];
    if (a == "--reps")
      reps = std::atoi(argv[i + 1]);
    else if (a == "--threads")
      threads = std::atoi(argv[i + 1]);
    else if (a == "--model")
      model_path = argv[i + 1];
    else if (a == "--sizes") {
      sizes.clear();
      std::string s = argv[i + 1];
      for (size_t p = 0; p < s.size();) {
        size_t q = s.find(',', p);
        sizes.push_back(std::stoul(s.substr(p, q - p)));
        p = q == std::string::npos ? s.size() : q + 1;
      }
    }
  }
  const fs::path llama_src = STRATA_LLAMA_SOURCE_DIR;
  if (llama_src.empty() || !fs::exists(llama_src / "docs")) {
    std::fprintf(stderr, "llama.cpp source tree not found (run scripts/setup-llama.sh)\n");
    return 2;
  }
  const char* cache = std::getenv("XDG_CACHE_HOME");
  const fs::path work =
      fs::path(cache && *cache ? cache : std::string(std::getenv("HOME")) + "/.cache") / "strata" /
      "bench";
  fs::create_directories(work);
  TestModelOptions mo;
  mo.vocab_path = fs::path(STRATA_LLAMA_VOCAB_DIR) / "ggml-vocab-llama-spm.gguf";
  mo.n_embd = 512;
  mo.n_layer = 8;
  mo.n_head = 8;
  mo.n_head_kv = 4;
  mo.n_ff = 1536;
  mo.f16 = true;
  mo.seed = 7;
  if (model_path.empty()) {
    model_path = (work / "bench-512x8-f16.gguf").string();
    if (!fs::exists(model_path)) {
      if (auto st = WriteTestModel(mo, model_path); !st) {
        std::fprintf(stderr, "%s\n", FormatError(st.error()).c_str());
        return 1;
      }
    }
  }
  auto model = LocalModel::Load(model_path, work);
  if (!model) {
    std::fprintf(stderr, "%s\n", FormatError(model.error()).c_str());
    return 1;
  }
  std::printf(
      "model: %s, %.1fM parameters (n_embd %u, %u layers, n_ff %u, vocab 32000, f16), %d threads\n",
      model_path.c_str(), TestModelParameterCount(mo, 32000) / 1e6, mo.n_embd, mo.n_layer, mo.n_ff,
      threads);
  const std::string corpus = CorpusText(llama_src);
  const size_t max_size = *std::max_element(sizes.begin(), sizes.end());
  EngineOptions engine;
  engine.n_ctx = static_cast<uint32_t>(max_size + 1024);
  engine.n_threads = threads;

  auto run = [&](CheckpointStore& store, const std::string& text, const std::string& message) {
    SessionConfig config;
    config.system_instructions = text;
    LocalSession s(**model, store, config, engine);
    auto r = s.Submit(message, {"2026-11-29T12:00:00Z", "bench"}, {1});
    if (!r) {
      std::fprintf(stderr, "%s\n", FormatError(r.error()).c_str());
      std::exit(1);
    }
    return *r;
  };

  const fs::path store_dir = work / "kv";
  fs::remove_all(store_dir);
  auto store = CheckpointStore::Open({store_dir, 64ull << 30});
  if (!store) return 1;
  run(**store, "warm-up", "hello");  // first-use costs (page faults, allocator) out of the table

  std::printf(
      "\n| prefix tokens | checkpoint MB | TTFT cold ms | TTFT warm ms | speed-up | restore ms | "
      "page-cache read ms | restore / read |\n|---|---|---|---|---|---|---|---|\n");
  for (size_t target : sizes) {
    const std::string text = CutToTokens(**model, corpus, target);
    std::vector<double> cold, warm, restore, floor, rd, vf, ld;
    size_t prefix_tokens = 0;
    double mb = 0;
    for (int rep = 0; rep < reps; ++rep) {
      // Cold: nothing stored for this prefix.
      for (const auto& e : fs::directory_iterator(store_dir)) {
        if (e.path().extension() == ".kv") fs::remove(e.path());
      }
      LocalTurnReport c = run(**store, text, "Where is the build documented?");
      if (c.checkpoint != CheckpointOutcome::kMiss) std::fprintf(stderr, "expected a miss\n");
      cold.push_back(c.first_token_ms);
      LocalTurnReport w = run(**store, text, "Where is the build documented?");
      if (w.checkpoint != CheckpointOutcome::kHit) std::fprintf(stderr, "expected a hit\n");
      warm.push_back(w.first_token_ms);
      restore.push_back(w.restore_ms);
      rd.push_back(w.restore_read_ms);
      vf.push_back(w.restore_verify_ms);
      ld.push_back(w.restore_load_ms);
      const fs::path file = (*store)->PathFor(w.key);
      floor.push_back(ReadFloorMs(file));
      prefix_tokens = w.prefix_tokens;
      mb = fs::file_size(file) / 1048576.0;
    }
    const double mc = Median(cold), mw = Median(warm), mr = Median(restore), mf = Median(floor);
    std::printf(
        "| %zu | %.1f | %.1f | %.1f | %.1fx | %.2f (read %.2f, verify %.2f, load %.2f) | %.2f | "
        "%.2fx |\n",
        prefix_tokens, mb, mc, mw, mc / mw, mr, Median(rd), Median(vf), Median(ld), mf, mr / mf);
    std::fflush(stdout);
  }
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  std::printf(
      "\npeak RSS: %.0f MB; medians of %d runs; TTFT = Submit() to the first generated token of a "
      "new session (context creation, restore or prefix prefill, suffix prefill, one sample)\n",
      ru.ru_maxrss / 1024.0, reps);
  return 0;
}
