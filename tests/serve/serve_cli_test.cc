// serve_cli_test.cc: `strata serve` with llama-server's command line: every llama-server option
// strata serve does not take is refused by name before any work, and values this build cannot
// honour get a message naming the flag (no model is loaded: the errors come first).
#include <gtest/gtest.h>

#include "support/test_support.h"

namespace strata::testing {
namespace {

class ServeCliTest : public ::testing::Test {
 protected:
  CliResult Serve(std::vector<std::string> args) {
    args.insert(args.begin(), {"serve", "-m", model_.string(), "--port", "0"});
    return RunCli(args, tmp_.path());
  }
  TempDir tmp_;
  std::filesystem::path model_ = tmp_.Write("model.gguf", "not a model");
};

TEST_F(ServeCliTest, LlamaServerOptionsItDoesNotTakeAreRefusedByName) {
  // A sample across common/arg.cpp's server options: short, long, negated, with and without
  // values, and '--flag=value'.
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"--rope-scaling", "linear"},
           {"-nkvo"},
           {"--no-kv-offload"},
           {"-hf", "user/model"},
           {"--lora", "x.gguf"},
           {"-dev", "none"},
           {"--cont-batching"},
           {"-sm", "row"},
           {"--mmproj", "p.gguf"},
           {"--cache-reuse", "256"},
           {"--no-context-shift"},
           {"--draft-max", "16"},
           {"--grammar-file", "g.gbnf"},
           {"--log-file=x.log"},
           {"--no-jinja"},
           {"--reasoning-effort", "high"},
           {"--threads-http", "4"},
           {"--rerank"},
           {"--ssl-key-file", "k.pem"},
           {"--keep", "-1"},
       }) {
    CliResult r = Serve(args);
    EXPECT_EQ(r.exit_code, 2) << args[0];
    const std::string flag = args[0].substr(0, args[0].find('='));
    EXPECT_NE(r.err.find("not supported by strata serve: " + flag + " "), std::string::npos)
        << args[0] << ": " << r.err;
  }
  CliResult jinja = Serve({"--no-jinja"});
  EXPECT_NE(jinja.err.find("renders every chat template with Jinja"), std::string::npos)
      << jinja.err;
}

TEST_F(ServeCliTest, ValuesThisBuildCannotHonourNameTheFlag) {
  struct Case {
    std::vector<std::string> args;
    std::string names;
  };
  for (const Case& k : std::vector<Case>{
           {{"-ctk", "q5_0"}, "q5_0: not supported by strata serve as a KV cache type"},
           {{"-ctv", "iq4_nl"}, "iq4_nl: not supported by strata serve as a KV cache type"},
           {{"--reasoning-format", "deepseek-old"}, "--reasoning-format: deepseek-old not in"},
           {{"--reasoning-budget", "-2"}, "--reasoning-budget: Value -2 not in range"},
           {{"--chat-template", "chatml"}, "--chat-template chatml: strata serve takes the Jinja"},
           {{"-n", "0"}, "-n 0: must be a positive token count, or -1"},
           {{"-n", "-2"}, "-n -2: must be a positive token count"},
           {{"-ngl", "lots"}, "-ngl lots: must be a layer count, auto or all"},
           {{"-ngl", "-2"}, "-ngl -2: must be a layer count, auto or all"},
           {{"--api-key", "a,b"}, "lists are not supported by strata serve"},
           {{"-fa", "maybe"}, "maybe"},
           {{"-lm", "mlock", "--no-mmap"}, "--load-mode and --mlock / --no-mmap"},
           {{"--top-p", "1.5"}, "--top-p: must be between 0 and 1"},
           {{"--max-connections", "17"},
            "--max-connections 17 must exceed --parallel + --max-queue (17"},
           {{"-np", "2", "--max-queue", "4", "--max-connections", "6"},
            "--max-connections 6 must exceed"},
           {{"--max-connections-per-client", "0"},
            "--max-connections-per-client: Value 0 not in range"},
           {{"-to", "0"}, "--timeout: Value 0 not in range"},
       }) {
    CliResult r = Serve(k.args);
    EXPECT_NE(r.exit_code, 0) << k.args[0];
    EXPECT_NE(r.err.find(k.names), std::string::npos) << k.args[0] << ": " << r.err;
  }
}

// llama-server takes -ngl on a build without a GPU and runs on the CPU with a warning; so does
// strata serve: the flag is accepted (it goes on to read the model, which fails here) and the
// warning names it.
TEST_F(ServeCliTest, GpuLayersWithoutAGpuBackendWarnAndRunOnTheCpu) {
  CliResult r = Serve({"-ngl", "99"});
  // A GPU build (STRATA_LLAMA_BACKENDS, from ggml's package) warns only when it finds no device;
  // tests/local/gpu_offload_slow_test.cc covers the offload there.
  if (std::string_view(STRATA_LLAMA_BACKENDS) != "ggml-cpu" &&
      r.err.find("warning: -ngl") == std::string::npos)
    GTEST_SKIP() << "llama.cpp's backends are " << STRATA_LLAMA_BACKENDS
                 << " and it found a device";
  EXPECT_NE(r.err.find("serve: warning: -ngl 99: this build of llama.cpp has no GPU backend with a "
                       "usable device, so every layer runs on the CPU"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("not a GGUF model"), std::string::npos) << r.err;
  EXPECT_EQ(r.exit_code, 1) << r.err;  // the model file's error, not the flag's
  CliResult all = Serve({"--n-gpu-layers", "all"});
  EXPECT_NE(all.err.find("serve: warning: -ngl all: this build"), std::string::npos) << all.err;
  // auto (the default; -1 is llama-server's spelling of it) and 0 ask for nothing: no warning.
  for (const char* quiet : {"auto", "-1", "0"}) {
    CliResult q = Serve({"-ngl", quiet});
    EXPECT_EQ(q.err.find("warning: -ngl"), std::string::npos) << quiet << ": " << q.err;
    EXPECT_NE(q.err.find("not a GGUF model"), std::string::npos) << q.err;
  }
}

}  // namespace
}  // namespace strata::testing
