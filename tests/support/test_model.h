// test_model.h: writes a small llama-architecture GGUF model with seeded random weights (test
// support: used by the tests, tools/make_test_model and bench/local_checkpoint_bench.cc, never by
// the library).
//
// Tests and benchmarks need a model without downloading one. The vocabulary (tokenizer.* metadata)
// is copied from a vocabulary-only GGUF of the llama.cpp source tree (models/ggml-vocab-*.gguf);
// the weights are uniform random numbers from a seeded generator, so the same options always give
// the same file and a different seed gives a model of identical shapes and different weights.
// Tensor names and shapes follow llama.cpp's LLM_ARCH_LLAMA loader (token_embd, output_norm,
// output, and per layer attn_norm, attn_q/k/v, attn_output, ffn_norm, ffn_gate/up/down).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "strata/status.h"

namespace strata::testing {

struct TestModelOptions {
  std::filesystem::path vocab_path;  // a models/ggml-vocab-*.gguf file
  uint32_t n_embd = 64;              // hidden size; a multiple of n_head
  uint32_t n_layer = 2;
  uint32_t n_head = 4;
  uint32_t n_head_kv = 2;  // grouped-query attention when < n_head; divides n_head
  uint32_t n_ff = 128;     // feed-forward hidden size
  uint32_t n_ctx_train = 32768;
  uint64_t seed = 1;
  bool f16 = false;  // matrices stored as F16 (norm weights stay F32)
  // tokenizer.chat_template: a Jinja template text; empty keeps the vocabulary's own, or writes
  // DefaultTestChatTemplate() when it has none.
  std::string chat_template;
  bool omit_chat_template = false;  // true: write no tokenizer.chat_template at all
  // llama.pooling_type (llama.cpp's enum llama_pooling_type: 0 none, 1 mean, 2 cls, 3 last,
  // 4 rank): an embedding model, as llama-server --embeddings and strata serve --embeddings
  // serve it; -1 writes no pooling type (a generation model).
  int pooling_type = -1;
  // Tokens appended to the vocabulary as user-defined tokens (llama.cpp matches them whole before
  // the tokenizer runs, as Qwen3's GGUF carries "<think>" and "</think>"), so a reasoning
  // template's tags are single tokens, as llama.cpp's reasoning budget expects.
  std::vector<std::string> added_tokens;
};

// The ChatML template as Jinja text, recognised by llama_chat_apply_template's built-in list.
// Written when the vocabulary has no template of its own.
const char* DefaultTestChatTemplate();

// A Jinja template that llama.cpp's built-in list (llama_chat_apply_template) does not recognise,
// for tests of the model's own template:
//   [[BEGIN]]\n                          once, at the start
//   [[ROLE]]\n{content}\n[[END]]\n      per message, ROLE upper-cased
//   [[ASSISTANT]]\n                      the generation prompt
const char* CustomTestChatTemplate();

// Writes the model to `out` (atomically: temporary file, then rename). Errors: kNotFound or kParse
// when the vocabulary cannot be read, kInvalidArgument for inconsistent dimensions, kIo on write.
Status WriteTestModel(const TestModelOptions& options, const std::filesystem::path& out);

// Number of weights the model would have (for reporting).
uint64_t TestModelParameterCount(const TestModelOptions& options, uint32_t n_vocab);

}  // namespace strata::testing
