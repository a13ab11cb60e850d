// make_test_model: writes a llama-architecture GGUF with seeded random weights for tests, the
// benchmark and the chat demo (see tests/support/test_model.h).
//   make_test_model --vocab models/ggml-vocab-llama-spm.gguf --out tiny.gguf [--embd 64 ...]
#include <CLI/CLI.hpp>
#include <cstdio>
#include <fstream>
#include <iterator>

#include "strata/status.h"
#include "support/test_model.h"

static int Run(int argc, char** argv) {
  CLI::App app{"Write a llama-architecture GGUF with seeded random weights"};
  strata::testing::TestModelOptions o;
  std::string vocab, out;
  app.add_option("--vocab", vocab, "vocabulary GGUF (llama.cpp models/ggml-vocab-*.gguf)")
      ->required();
  app.add_option("--out", out, "output GGUF path")->required();
  app.add_option("--embd", o.n_embd, "hidden size");
  app.add_option("--layers", o.n_layer, "number of layers");
  app.add_option("--heads", o.n_head, "attention heads");
  app.add_option("--kv-heads", o.n_head_kv, "key/value heads");
  app.add_option("--ff", o.n_ff, "feed-forward size");
  app.add_option("--seed", o.seed, "weight seed");
  app.add_flag("--f16", o.f16, "store matrices as F16");
  app.add_option("--pooling", o.pooling_type,
                 "write llama.pooling_type (0 none, 1 mean, 2 cls, 3 last): an embedding model");
  app.add_option("--add-token", o.added_tokens,
                 "append a user-defined token to the vocabulary (e.g. <think>); repeatable");
  std::string chat_template_file;
  app.add_option("--chat-template-file", chat_template_file,
                 "write this Jinja file as tokenizer.chat_template (e.g. a reasoning template of "
                 "llama.cpp's models/templates)")
      ->check(CLI::ExistingFile);
  CLI11_PARSE(app, argc, argv);
  o.vocab_path = vocab;
  if (!chat_template_file.empty()) {
    std::ifstream in(chat_template_file, std::ios::binary);
    o.chat_template.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  if (auto st = strata::testing::WriteTestModel(o, out); !st) {
    std::fprintf(stderr, "%s\n", strata::FormatError(st.error()).c_str());
    return 2;
  }
  return 0;
}

int main(int argc, char** argv) {
  try {
    return Run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "make_test_model: error: %s\n", e.what());
    return 2;
  }
}
