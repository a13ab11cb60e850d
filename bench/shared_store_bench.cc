// shared_store_bench.cc: restoring a prefix from the shared tier (Redis on loopback) versus from
// the local disk store versus prefilling it, for prefixes of about 4k and 16k tokens of real text
// (llama.cpp's AGENTS.md and docs/*.md) on the generated benchmark model of
// local_checkpoint_bench; and the shared tier's read rate in bytes per second. Prints a table
// (medians over --reps runs). Run through bench/shared_store_bench.sh, which starts a redis-server
// on a free loopback port and adds redis-benchmark's GET rate for the same value size (the floor).
//
//   shared_store_bench --redis redis://127.0.0.1:PORT [--reps 3] [--sizes 4096,16384]
//                      [--threads 2] [--chunk-bytes 4194304] [--fetch-reps 5] [--fetch-only]
//
// Each arm ends with the state loaded into a llama.cpp context: prefill = DecodeTokenBatches of the
// prefix; local = CheckpointStore::Find (map, verify) + load; shared = SharedStore::Fetch (header,
// chunks, the file's checks) + load; "shared fetch MB/s" is the image size over the median of
// reps x fetch-reps fetches (Fetch alone).
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "io/file_io.h"
#include "local/llama_context.h"
#include "local/local_model.h"
#include "strata/checkpoint.h"
#include "strata/local_session.h"
#include "support/test_model.h"

namespace fs = std::filesystem;
using namespace strata;

namespace {

using Clock = std::chrono::steady_clock;
double MsSince(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0
                   : (v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2);
}

std::string Corpus(const fs::path& llama_src) {
  std::string text;
  if (auto a = ReadFileBytes(llama_src / "AGENTS.md")) text += *a;
  std::vector<fs::path> docs;
  for (const auto& e : fs::directory_iterator(llama_src / "docs"))
    if (e.path().extension() == ".md") docs.push_back(e.path());
  std::sort(docs.begin(), docs.end());
  for (const auto& d : docs)
    if (auto b = ReadFileBytes(d)) text += "\n\n" + *b;
  return text;
}

// The first `target` tokens of the corpus (repeated when it is shorter).
std::vector<int32_t> PrefixTokens(const LocalModel& model, const std::string& corpus,
                                  size_t target) {
  auto all = TokenizeText(model, corpus, true);
  std::vector<int32_t> out;
  while (all && !all->empty() && out.size() < target)
    out.insert(out.end(), all->begin(), all->begin() + std::min(all->size(), target - out.size()));
  return out;
}

struct Args {
  std::string redis;
  int reps = 3, threads = 2;
  int fetch_reps = 5;       // fetches per rep (the fetch rate is the median over reps x fetch_reps)
  bool fetch_only = false;  // no prefill: a synthetic image of the same size, Fetch alone
  size_t chunk_bytes = 4u << 20;
  std::vector<size_t> sizes = {4096, 16384};
};

Args Parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; i += 2) {
    if (std::string(argv[i]) == "--fetch-only") {
      a.fetch_only = true;
      --i;
      continue;
    }
    if (i + 1 >= argc) break;
    const std::string k = argv[i], v = argv[i + 1];
    if (k == "--redis") a.redis = v;
    if (k == "--reps") a.reps = std::stoi(v);
    if (k == "--threads") a.threads = std::stoi(v);
    if (k == "--fetch-reps") a.fetch_reps = std::max(1, std::stoi(v));
    if (k == "--chunk-bytes") a.chunk_bytes = std::stoul(v);
    if (k == "--sizes") {
      a.sizes.clear();
      for (size_t p = 0; p < v.size();) {
        const size_t q = v.find(',', p);
        a.sizes.push_back(std::stoul(v.substr(p, q - p)));
        p = q == std::string::npos ? v.size() : q + 1;
      }
    }
  }
  return a;
}

fs::path BenchModel(const fs::path& work) {
  testing::TestModelOptions mo;
  mo.vocab_path = fs::path(STRATA_LLAMA_VOCAB_DIR) / "ggml-vocab-llama-spm.gguf";
  mo.n_embd = 512;
  mo.n_layer = 8;
  mo.n_head = 8;
  mo.n_head_kv = 4;
  mo.n_ff = 1536;
  mo.f16 = true;
  mo.seed = 7;
  const fs::path path = work / "bench-512x8-f16.gguf";  // the file local_checkpoint_bench writes
  if (!fs::exists(path)) (void)testing::WriteTestModel(mo, path);
  return path;
}

// --fetch-only: the shared tier's read rate without the model's prefill; the image is a checkpoint
// of the bench model's size (8 KiB per token) with a patterned payload.
int FetchOnly(const Args& args, SharedStore& shared, const CheckpointIdentity& base) {
  std::printf(
      "| prefix tokens | checkpoint MB | fetch ms (median) | shared fetch MB/s |\n"
      "|---|---|---|---|\n");
  for (size_t target : args.sizes) {
    const std::string text = fmt::format("synthetic prefix of {} tokens", target);
    CheckpointIdentity id = base;
    id.prefix_sha256 = fmt::format("{:064x}", target);
    const std::vector<int32_t> tokens(target, 7);
    const size_t payload = target * 8192;
    const std::string image = EncodeCheckpoint(id, text, tokens, payload, [&](char* dst) {
      for (size_t i = 0; i < payload; ++i) dst[i] = static_cast<char>((i * 7 + 3) & 0xff);
    });
    shared.Publish(id, {CheckpointKey(id), text.size(), tokens}, image, false);
    shared.Flush();
    std::vector<double> fetch;
    for (int j = 0; j < args.reps * args.fetch_reps; ++j) {
      const auto t = Clock::now();
      SharedFetch f = shared.Fetch(CheckpointKey(id), id, text);
      fetch.push_back(MsSince(t));
      if (f.state != SharedFetch::kHit) {
        std::fprintf(stderr, "shared fetch failed: %s\n", f.reason.c_str());
        return 1;
      }
    }
    const double mb = image.size() / 1048576.0;
    std::printf("| %zu | %.1f | %.1f | %.0f |\n", target, mb, Median(fetch),
                mb / (Median(fetch) / 1000.0));
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = Parse(argc, argv);
  auto url = ParseSharedStoreUrl(args.redis);
  if (!url) {
    std::fprintf(stderr, "%s (pass --redis redis://127.0.0.1:PORT)\n", url.error().message.c_str());
    return 2;
  }
  const char* cache = std::getenv("XDG_CACHE_HOME");
  const fs::path work =
      fs::path(cache && *cache ? cache : std::string(std::getenv("HOME")) + "/.cache") / "strata" /
      "bench";
  fs::create_directories(work);
  auto model = LocalModel::Load(BenchModel(work), work);
  if (!model) return 1;
  EngineOptions engine;
  engine.n_ctx =
      static_cast<uint32_t>(*std::max_element(args.sizes.begin(), args.sizes.end()) + 256);
  engine.n_threads = args.threads;
  const fs::path store_dir = work / "kv-shared-bench";
  fs::remove_all(store_dir);
  auto store = CheckpointStore::Open({store_dir, 64ull << 30});
  SharedStoreOptions so;
  so.url = *url;
  so.chunk_bytes = args.chunk_bytes;
  so.timeout_ms = 60000;
  so.prefix = "strata-bench:";
  auto shared = SharedStore::Open(so);
  if (!store || !shared) return 1;
  if (args.fetch_only) return FetchOnly(args, **shared, MakeIdentity(**model, engine, "off", ""));
  const std::string corpus = Corpus(STRATA_LLAMA_SOURCE_DIR);
  std::printf(
      "| prefix tokens | checkpoint MB | prefill ms | local restore ms | shared restore ms "
      "(fetch + load) | shared fetch MB/s |\n|---|---|---|---|---|---|\n");
  for (size_t target : args.sizes) {
    const std::vector<int32_t> tokens = PrefixTokens(**model, corpus, target);
    const std::string text = fmt::format("bench prefix of {} tokens", tokens.size());
    const CheckpointIdentity id = MakeIdentity(**model, engine, "off", text);
    const std::string key = CheckpointKey(id);
    std::vector<double> prefill, local, remote, fetch;
    double mb = 0;
    for (int rep = 0; rep < args.reps; ++rep) {
      auto ctx = NewLlamaContext(**model, engine);
      if (!ctx) return 1;
      auto t = Clock::now();
      if (!DecodeTokenBatches(ctx->get(), engine, tokens, nullptr)) return 1;
      prefill.push_back(MsSince(t));
      std::string image = EncodeSequenceCheckpoint(ctx->get(), id, text, tokens, prefill.back());
      mb = image.size() / 1048576.0;
      (void)(*store)->Save(key, image);
      if (rep == 0) {
        (*shared)->Publish(id, {key, text.size(), tokens}, image, false);
        (*shared)->Flush();
      }
      llama_memory_clear(llama_get_memory(ctx->get()), true);
      t = Clock::now();
      Lookup found = (*store)->Find(key, id, text);
      if (found.state != LookupState::kHit || !LoadSequenceCheckpoint(ctx->get(), found.checkpoint))
        return 1;
      local.push_back(MsSince(t));
      for (int j = 0; j < args.fetch_reps; ++j) {  // the first one also loads the state
        llama_memory_clear(llama_get_memory(ctx->get()), true);
        t = Clock::now();
        SharedFetch f = (*shared)->Fetch(key, id, text);
        fetch.push_back(MsSince(t));
        if (f.state != SharedFetch::kHit ||
            (j == 0 && !LoadSequenceCheckpoint(ctx->get(), f.checkpoint))) {
          std::fprintf(stderr, "shared fetch failed: %s\n", f.reason.c_str());
          return 1;
        }
        if (j == 0) remote.push_back(MsSince(t));
      }
    }
    std::printf("| %zu | %.1f | %.1f | %.1f | %.1f | %.0f |\n", tokens.size(), mb, Median(prefill),
                Median(local), Median(remote), mb / (Median(fetch) / 1000.0));
    std::fflush(stdout);
  }
  return 0;
}
