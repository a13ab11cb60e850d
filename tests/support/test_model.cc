// test_model.cc: writes llama-architecture GGUF files with seeded random weights (see
// test_model.h). The tokenizer metadata is copied from a vocabulary-only GGUF; every other key is
// written here so the result depends only on the options. Weights come from splitmix64, scaled by
// 1/sqrt(fan-in) so activations stay in range through the layers.
#include "support/test_model.h"

#include <fmt/format.h>
#include <ggml.h>
#include <gguf.h>

#include <unistd.h>
#include <cmath>
#include <memory>
#include <string_view>
#include <system_error>
#include <vector>

#include "base/hash.h"

namespace strata::testing {
namespace {

struct GgufFree {
  void operator()(gguf_context* ctx) const { gguf_free(ctx); }
};
struct GgmlFree {
  void operator()(ggml_context* ctx) const { ggml_free(ctx); }
};

// Uniform in [-1, 1), from the splitmix64 sequence of `*state`.
float Uniform(uint64_t* state) {
  return static_cast<float>((SplitMix64Next(state) >> 40) * (1.0 / 8388608.0) - 1.0);
}

struct TensorSpec {
  std::string name;
  int64_t ne0, ne1;  // ne1 == 0: a vector
  bool norm;         // RMS-norm weight: values near 1, always F32
};

std::vector<TensorSpec> Specs(const TestModelOptions& o, uint32_t n_vocab) {
  const int64_t head_dim = o.n_embd / o.n_head;
  const int64_t n_embd_kv = head_dim * o.n_head_kv;
  std::vector<TensorSpec> specs = {
      {"token_embd.weight", o.n_embd, n_vocab, false},
      {"output_norm.weight", o.n_embd, 0, true},
      {"output.weight", o.n_embd, n_vocab, false},
  };
  for (uint32_t i = 0; i < o.n_layer; ++i) {
    auto blk = [i](std::string_view what) { return fmt::format("blk.{}.{}.weight", i, what); };
    specs.push_back({blk("attn_norm"), o.n_embd, 0, true});
    specs.push_back({blk("attn_q"), o.n_embd, o.n_embd, false});
    specs.push_back({blk("attn_k"), o.n_embd, n_embd_kv, false});
    specs.push_back({blk("attn_v"), o.n_embd, n_embd_kv, false});
    specs.push_back({blk("attn_output"), o.n_embd, o.n_embd, false});
    specs.push_back({blk("ffn_norm"), o.n_embd, 0, true});
    specs.push_back({blk("ffn_gate"), o.n_embd, o.n_ff, false});
    specs.push_back({blk("ffn_up"), o.n_embd, o.n_ff, false});
    specs.push_back({blk("ffn_down"), o.n_ff, o.n_embd, false});
  }
  return specs;
}

// Appends `added` to the tokenizer's token, score and type arrays as user-defined tokens
// (LLAMA_TOKEN_ATTR... type 4, score 0).
void AddTokens(gguf_context* model, const std::vector<std::string>& added) {
  if (added.empty()) return;
  const int64_t tokens_key = gguf_find_key(model, "tokenizer.ggml.tokens");
  const size_t n = gguf_get_arr_n(model, tokens_key);
  std::vector<std::string> tokens;
  for (size_t i = 0; i < n; ++i) tokens.emplace_back(gguf_get_arr_str(model, tokens_key, i));
  tokens.insert(tokens.end(), added.begin(), added.end());
  std::vector<const char*> ptrs;
  for (const std::string& t : tokens) ptrs.push_back(t.c_str());
  gguf_set_arr_str(model, "tokenizer.ggml.tokens", ptrs.data(), ptrs.size());
  if (const int64_t key = gguf_find_key(model, "tokenizer.ggml.scores"); key >= 0) {
    const auto* data = static_cast<const float*>(gguf_get_arr_data(model, key));
    std::vector<float> scores(data, data + n);
    scores.resize(tokens.size(), 0.0f);
    gguf_set_arr_data(model, "tokenizer.ggml.scores", GGUF_TYPE_FLOAT32, scores.data(),
                      scores.size());
  }
  if (const int64_t key = gguf_find_key(model, "tokenizer.ggml.token_type"); key >= 0) {
    const auto* data = static_cast<const int32_t*>(gguf_get_arr_data(model, key));
    std::vector<int32_t> types(data, data + n);
    types.resize(tokens.size(), 4);  // LLAMA_TOKEN_TYPE_USER_DEFINED
    gguf_set_arr_data(model, "tokenizer.ggml.token_type", GGUF_TYPE_INT32, types.data(),
                      types.size());
  }
}

// The model's metadata: the vocabulary's tokenizer.* keys, the llama architecture keys, and the
// chat template the options ask for.
void SetMetadata(gguf_context* model, const gguf_context* vocab, const TestModelOptions& o,
                 uint32_t n_vocab) {
  gguf_set_kv(model, vocab);
  AddTokens(model, o.added_tokens);
  // Keep only the tokenizer; drop the vocabulary file's own architecture keys.
  for (int64_t i = gguf_get_n_kv(model) - 1; i >= 0; --i) {
    std::string key = gguf_get_key(model, i);
    if (key.rfind("tokenizer.", 0) != 0) gguf_remove_key(model, key.c_str());
  }
  gguf_set_val_str(model, "general.architecture", "llama");
  gguf_set_val_str(model, "general.name", fmt::format("strata-test-seed{}", o.seed).c_str());
  gguf_set_val_u32(model, "general.file_type", o.f16 ? 1 : 0);
  gguf_set_val_u32(model, "llama.context_length", o.n_ctx_train);
  gguf_set_val_u32(model, "llama.embedding_length", o.n_embd);
  gguf_set_val_u32(model, "llama.block_count", o.n_layer);
  gguf_set_val_u32(model, "llama.feed_forward_length", o.n_ff);
  gguf_set_val_u32(model, "llama.attention.head_count", o.n_head);
  gguf_set_val_u32(model, "llama.attention.head_count_kv", o.n_head_kv);
  gguf_set_val_u32(model, "llama.rope.dimension_count", o.n_embd / o.n_head);
  gguf_set_val_f32(model, "llama.rope.freq_base", 10000.0f);
  gguf_set_val_f32(model, "llama.attention.layer_norm_rms_epsilon", 1e-5f);
  gguf_set_val_u32(model, "llama.vocab_size", n_vocab);
  if (o.pooling_type >= 0)
    gguf_set_val_u32(model, "llama.pooling_type", static_cast<uint32_t>(o.pooling_type));
  if (o.omit_chat_template) {
    gguf_remove_key(model, "tokenizer.chat_template");
  } else if (!o.chat_template.empty()) {
    gguf_set_val_str(model, "tokenizer.chat_template", o.chat_template.c_str());
  } else if (gguf_find_key(model, "tokenizer.chat_template") < 0) {
    gguf_set_val_str(model, "tokenizer.chat_template", DefaultTestChatTemplate());
  }
}

}  // namespace

const char* DefaultTestChatTemplate() {
  return "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + "
         "message['content'] + '<|im_end|>' + '\\n'}}{% endfor %}{% if add_generation_prompt %}"
         "{{ '<|im_start|>assistant\\n' }}{% endif %}";
}

const char* CustomTestChatTemplate() {
  return "[[BEGIN]]\n{% for message in messages %}[[{{ message['role'] | upper }}]]\n"
         "{{ message['content'] }}\n[[END]]\n{% endfor %}"
         "{% if add_generation_prompt %}[[ASSISTANT]]\n{% endif %}";
}

uint64_t TestModelParameterCount(const TestModelOptions& options, uint32_t n_vocab) {
  uint64_t total = 0;
  for (const TensorSpec& s : Specs(options, n_vocab)) total += s.ne0 * (s.ne1 ? s.ne1 : 1);
  return total;
}

Status WriteTestModel(const TestModelOptions& o, const std::filesystem::path& out) {
  if (o.n_head == 0 || o.n_head_kv == 0 || o.n_embd % o.n_head != 0 ||
      o.n_head % o.n_head_kv != 0 || o.n_layer == 0 || o.n_ff == 0 ||
      (o.n_embd / o.n_head) % 2 != 0) {
    return MakeError(ErrorKind::kInvalidArgument,
                     "test model: n_embd must be a multiple of n_head with an even head size, and "
                     "n_head a multiple of n_head_kv");
  }
  std::error_code ec;
  if (!std::filesystem::is_regular_file(o.vocab_path, ec)) {
    return MakeError(ErrorKind::kNotFound, "vocabulary file not found", {o.vocab_path.string()});
  }
  gguf_init_params vparams{/*no_alloc=*/true, /*ctx=*/nullptr};
  std::unique_ptr<gguf_context, GgufFree> vocab(gguf_init_from_file(o.vocab_path.c_str(), vparams));
  if (!vocab) return MakeError(ErrorKind::kParse, "not a GGUF file", {o.vocab_path.string()});
  const int64_t tokens_key = gguf_find_key(vocab.get(), "tokenizer.ggml.tokens");
  if (tokens_key < 0) {
    return MakeError(ErrorKind::kParse, "GGUF has no tokenizer.ggml.tokens",
                     {o.vocab_path.string()});
  }
  const uint32_t n_vocab =
      static_cast<uint32_t>(gguf_get_arr_n(vocab.get(), tokens_key) + o.added_tokens.size());

  std::unique_ptr<gguf_context, GgufFree> model(gguf_init_empty());
  SetMetadata(model.get(), vocab.get(), o, n_vocab);

  const std::vector<TensorSpec> specs = Specs(o, n_vocab);
  size_t bytes = 0;
  for (const TensorSpec& s : specs) {
    bytes += ggml_tensor_overhead() + s.ne0 * (s.ne1 ? s.ne1 : 1) * 4 + 64;
  }
  ggml_init_params gparams{bytes, nullptr, /*no_alloc=*/false};
  std::unique_ptr<ggml_context, GgmlFree> tensors(ggml_init(gparams));
  if (!tensors) return MakeError(ErrorKind::kIo, "test model: out of memory");
  uint64_t rng = o.seed;
  std::vector<float> row;
  for (const TensorSpec& s : specs) {
    const bool f16 = o.f16 && !s.norm;
    ggml_tensor* t =
        s.ne1 ? ggml_new_tensor_2d(tensors.get(), f16 ? GGML_TYPE_F16 : GGML_TYPE_F32, s.ne0, s.ne1)
              : ggml_new_tensor_1d(tensors.get(), GGML_TYPE_F32, s.ne0);
    ggml_set_name(t, s.name.c_str());
    const float scale = s.norm ? 0.1f : 1.0f / std::sqrt(static_cast<float>(s.ne0));
    const int64_t rows = s.ne1 ? s.ne1 : 1;
    row.resize(s.ne0);
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t c = 0; c < s.ne0; ++c) row[c] = (s.norm ? 1.0f : 0.0f) + scale * Uniform(&rng);
      if (f16) {
        ggml_fp32_to_fp16_row(row.data(), static_cast<ggml_fp16_t*>(t->data) + r * s.ne0, s.ne0);
      } else {
        std::copy(row.begin(), row.end(), static_cast<float*>(t->data) + r * s.ne0);
      }
    }
    gguf_add_tensor(model.get(), t);
  }

  std::filesystem::create_directories(out.parent_path().empty() ? "." : out.parent_path(), ec);
  const std::filesystem::path tmp = out.string() + fmt::format(".tmp{}", ::getpid());
  if (!gguf_write_to_file(model.get(), tmp.c_str(), /*only_meta=*/false)) {
    std::filesystem::remove(tmp, ec);
    return MakeError(ErrorKind::kIo, "cannot write the model", {out.string()});
  }
  std::filesystem::rename(tmp, out, ec);
  if (ec)
    return MakeError(ErrorKind::kIo, "cannot rename the model: " + ec.message(), {out.string()});
  return {};
}

}  // namespace strata::testing
