// local_fixture.h: tiny generated models and a scratch store for the local-session tests.
// Models are written once per test binary into a temporary directory (llama-spm vocabulary from
// the llama.cpp source tree, random weights): "a" and "b" have identical shapes and different
// seeds. Tests skip when the vocabulary directory is unknown.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>

#include "strata/checkpoint.h"
#include "strata/local_session.h"
#include "support/test_model.h"
#include "support/test_support.h"

namespace strata::testing {

inline std::filesystem::path VocabPath() {
  return std::filesystem::path(STRATA_LLAMA_VOCAB_DIR) / "ggml-vocab-llama-spm.gguf";
}

// Path of the tiny model with `seed` (1 or 2), written on first use.
inline std::filesystem::path TinyModelPath(uint64_t seed) {
  static TempDir dir;  // removed at exit
  std::filesystem::path out = dir.path() / ("tiny-" + std::to_string(seed) + ".gguf");
  if (!std::filesystem::exists(out)) {
    TestModelOptions o;
    o.vocab_path = VocabPath();
    o.seed = seed;
    auto st = WriteTestModel(o, out);
    if (!st) ADD_FAILURE() << FormatError(st.error());
  }
  return out;
}

inline const LocalModel& TinyModel(uint64_t seed = 1) {
  static std::unique_ptr<LocalModel> models[3];
  auto& m = models[seed];
  if (!m) {
    auto loaded = LocalModel::Load(TinyModelPath(seed));
    if (!loaded) {
      ADD_FAILURE() << FormatError(loaded.error());
      std::abort();
    }
    m = std::move(*loaded);
  }
  return *m;
}

class LocalTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::string(STRATA_LLAMA_VOCAB_DIR).empty() || !std::filesystem::exists(VocabPath())) {
      GTEST_SKIP() << "llama.cpp vocabulary files not available";
    }
    auto opened = CheckpointStore::Open({tmp_.path() / "kv", 1ull << 30});
    ASSERT_TRUE(opened.has_value());
    store_ = std::move(*opened);
    project_ = tmp_.path() / "project";
    std::filesystem::create_directories(project_);
    engine_.n_ctx = 1024;
    engine_.n_threads = 1;  // robust when other jobs load the cores (ggml threads spin-wait)
    // Bitwise-equal logits of restore + suffix and of one full prefill hold without flash
    // attention (its accumulation order follows how the KV cache was filled), so the tests that
    // compare them run without it; serve's and chat's default (on) is exercised by the others.
    engine_.flash_attn = false;
  }

  SessionConfig Config() const {
    SessionConfig c;
    c.project_root = project_;
    c.system_instructions = "Answer briefly.";
    c.tools = {{"read_file", "Reads a file of the project.",
                R"({"type":"object","properties":{"path":{"type":"string"}}})"}};
    return c;
  }

  // Runs one first turn in a new session and returns its report.
  LocalTurnReport FirstTurn(const SessionConfig& config, const SessionContext& ctx = {},
                            const LocalModel* model = nullptr,
                            const EngineOptions* engine = nullptr) {
    LocalSession s(model ? *model : TinyModel(), *store_, config, engine ? *engine : engine_);
    auto r = s.Submit("Where are the tests?", ctx);
    EXPECT_TRUE(r.has_value()) << (r ? "" : FormatError(r.error()));
    return r ? *r : LocalTurnReport{};
  }

  size_t KvFiles() const {
    size_t n = 0;
    for (const auto& e : std::filesystem::directory_iterator(store_->dir()))
      n += e.path().extension() == ".kv";
    return n;
  }

  TempDir tmp_;
  std::unique_ptr<CheckpointStore> store_;
  std::filesystem::path project_;
  EngineOptions engine_;
};

}  // namespace strata::testing
