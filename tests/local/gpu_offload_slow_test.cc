// gpu_offload_slow_test.cc: a local session with every layer offloaded to a GPU backend (-ngl 99):
// llama.cpp really puts the weights and the KV cache on the device, restore + suffix still gives a
// full prefill's logits, a CPU checkpoint is never restored offloaded, and strata serve logs the
// offload. Built into its own binary (strata_gpu_tests, labels slow and vulkan;
// tests/CMakeLists.txt) and meaningful in a build tree whose STRATA_LLAMA_DIR is a GPU build of
// llama.cpp (STRATA_LLAMA_BACKEND=vulkan scripts/setup-llama.sh); it skips when llama.cpp has no
// GPU backend with a usable device (a CPU build, or Vulkan without a device: ctest sets
// GGML_VK_VISIBLE_DEVICES=0 so that Mesa's lavapipe, a CPU-type device llama.cpp otherwise skips,
// counts).
#include <ggml-backend.h>
#include <llama.h>
#include <stdlib.h>

#include "local/local_engine.h"
#include "local/local_fixture.h"
#include "local/local_model.h"
#include "strata/serve.h"

namespace strata::testing {
namespace {

namespace fs = std::filesystem;

// The tiny model has n_layer 2 (TestModelOptions): 2 repeating layers plus the output layer.
constexpr const char* kAllOffloaded = "3/3 layers on ";

// The name ggml gives the device llama.cpp offloads to: the first GPU, else the first integrated
// one.
std::string OffloadDeviceName() {
  for (enum ggml_backend_dev_type type :
       {GGML_BACKEND_DEVICE_TYPE_GPU, GGML_BACKEND_DEVICE_TYPE_IGPU}) {
    if (ggml_backend_dev_t dev = ggml_backend_dev_by_type(type)) return ggml_backend_dev_name(dev);
  }
  return "";
}

class GpuOffloadTest : public LocalTest {
 protected:
  void SetUp() override {
    LocalTest::SetUp();
    if (IsSkipped()) return;
    if (!llama_supports_gpu_offload()) {
      GTEST_SKIP() << "llama.cpp has no GPU backend with a usable device: build a tree with "
                      "-DSTRATA_LLAMA_DIR=$(STRATA_LLAMA_BACKEND=vulkan scripts/setup-llama.sh) "
                      "(README.md, Building for a GPU)";
    }
    device_ = OffloadDeviceName();
    ASSERT_FALSE(device_.empty());
  }

  // The tiny model loaded with `gpu_layers`; llama.cpp's log of the load in `log` when given.
  std::unique_ptr<LocalModel> Load(int gpu_layers, std::string* log = nullptr) {
    if (log != nullptr) {
      setenv("STRATA_LLAMA_LOG", "1", 1);  // local_model.cc passes llama.cpp's log to stderr
      ::testing::internal::CaptureStderr();
    }
    auto loaded = LocalModel::Load(TinyModelPath(1), tmp_.path() / "fp", gpu_layers);
    if (log != nullptr) {
      *log = ::testing::internal::GetCapturedStderr();
      unsetenv("STRATA_LLAMA_LOG");
    }
    EXPECT_TRUE(loaded.has_value()) << (loaded ? "" : FormatError(loaded.error()));
    return loaded ? std::move(*loaded) : nullptr;
  }

  std::string device_;
};

std::vector<int32_t> Concat(const std::vector<int32_t>& a, const std::vector<int32_t>& b) {
  std::vector<int32_t> out = a;
  out.insert(out.end(), b.begin(), b.end());
  return out;
}

// -ngl 99 on a 2-layer model offloads the 2 layers and the output layer: llama.cpp says so, and its
// weight buffer is on the device, not only on the CPU.
TEST_F(GpuOffloadTest, EveryLayerIsOffloadedToTheDevice) {
  std::string log;
  std::unique_ptr<LocalModel> model = Load(99, &log);
  ASSERT_NE(model, nullptr);
  EXPECT_EQ(model->offload().rfind(kAllOffloaded + device_ + " (", 0), 0u) << model->offload();
  EXPECT_NE(log.find("offloaded 3/3 layers to GPU"), std::string::npos) << log;
  EXPECT_NE(log.find(device_ + " model buffer size"), std::string::npos) << log;
  // The KV cache of a context on this model is on the device too.
  setenv("STRATA_LLAMA_LOG", "1", 1);
  ::testing::internal::CaptureStderr();
  auto engine = LocalEngine::Create(*model, engine_, 1);
  const std::string context_log = ::testing::internal::GetCapturedStderr();
  unsetenv("STRATA_LLAMA_LOG");
  ASSERT_TRUE(engine.has_value()) << FormatError(engine.error());
  EXPECT_NE(context_log.find(device_ + " KV buffer size"), std::string::npos) << context_log;
}

// -ngl 0 keeps every layer on the CPU even with a GPU backend: no offload, identity unchanged.
TEST_F(GpuOffloadTest, ZeroLayersStayOnTheCpu) {
  std::string log;
  std::unique_ptr<LocalModel> model = Load(0, &log);
  ASSERT_NE(model, nullptr);
  EXPECT_EQ(model->offload(), "");
  EXPECT_NE(log.find("offloaded 0/3 layers to GPU"), std::string::npos) << log;
}

// The acceptance check of the CPU tests (local_session_test.cc, 8.) with every layer offloaded:
// the second session restores the first's checkpoint (written from device memory), prefills only
// the suffix, and its logits equal a full prefill's on the same device.
TEST_F(GpuOffloadTest, RestorePlusSuffixEqualsFullPrefillLogits) {
  std::unique_ptr<LocalModel> model = Load(99);
  ASSERT_NE(model, nullptr);
  tmp_.Write("project/AGENTS.md", "Prefer small functions.\n");
  LocalSession miss(*model, *store_, Config(), engine_);
  auto m = miss.Submit("Where are the tests?");
  ASSERT_TRUE(m.has_value()) << FormatError(m.error());
  ASSERT_EQ(m->checkpoint, CheckpointOutcome::kMiss);
  LocalSession hit(*model, *store_, Config(), engine_);
  auto h = hit.Submit("Where are the tests?");
  ASSERT_TRUE(h.has_value()) << FormatError(h.error());
  ASSERT_EQ(h->checkpoint, CheckpointOutcome::kHit);
  EXPECT_EQ(hit.prefix_tokens(), miss.prefix_tokens());
  // The hit decoded the suffix only; the miss decoded the prefix too.
  EXPECT_EQ(hit.counters().prefill_tokens, static_cast<int64_t>(hit.first_suffix_tokens().size()));
  EXPECT_EQ(miss.counters().prefill_tokens,
            static_cast<int64_t>(miss.prefix_tokens().size() + miss.first_suffix_tokens().size()));
  auto full =
      FullPrefillLogits(*model, engine_, Concat(hit.prefix_tokens(), hit.first_suffix_tokens()));
  ASSERT_TRUE(full.has_value());
  ASSERT_EQ(full->size(), hit.prompt_logits().size());
  EXPECT_TRUE(*full == hit.prompt_logits()) << "restored logits differ from a full prefill";
  EXPECT_TRUE(*full == miss.prompt_logits());
}

// A checkpoint written on the CPU is not restored with the layers offloaded (nor the other way):
// the offload is part of the identity, since the device rounds differently.
TEST_F(GpuOffloadTest, CheckpointsOfTheCpuAndTheDeviceAreKeptApart) {
  std::unique_ptr<LocalModel> cpu = Load(0);
  std::unique_ptr<LocalModel> gpu = Load(99);
  ASSERT_NE(cpu, nullptr);
  ASSERT_NE(gpu, nullptr);
  EXPECT_EQ(FirstTurn(Config(), {}, cpu.get()).checkpoint, CheckpointOutcome::kMiss);
  EXPECT_EQ(FirstTurn(Config(), {}, gpu.get()).checkpoint, CheckpointOutcome::kMiss);
  EXPECT_EQ(FirstTurn(Config(), {}, gpu.get()).checkpoint, CheckpointOutcome::kHit);
  EXPECT_EQ(FirstTurn(Config(), {}, cpu.get()).checkpoint, CheckpointOutcome::kHit);
}

// strata serve -ngl 99 logs where the layers went.
TEST_F(GpuOffloadTest, ServeLogsTheOffload) {
  ServeOptions o;
  o.model = TinyModelPath(1);
  o.port = 0;
  o.n_ctx = 256;
  o.store_dir = tmp_.path() / "serve-kv";
  o.gpu_layers = 99;
  std::vector<std::string> lines;
  o.log = [&lines](std::string_view line) { lines.emplace_back(line); };
  auto server = Server::Create(o);
  ASSERT_TRUE(server.has_value()) << FormatError(server.error());
  const std::string expected = std::string("serve: offloaded ") + kAllOffloaded + device_ + " (";
  bool found = false;
  for (const std::string& line : lines) found = found || line.rfind(expected, 0) == 0;
  EXPECT_TRUE(found) << "no line starting with '" << expected << "'";
}

}  // namespace
}  // namespace strata::testing
