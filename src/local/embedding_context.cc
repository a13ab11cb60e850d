// embedding_context.cc: llama-server's embeddings on their own context (see embedding_context.h).
#include "local/embedding_context.h"

#include <common.h>
#include <fmt/format.h>

#include <algorithm>
#include <thread>

namespace strata {
namespace {

constexpr std::pair<const char*, enum llama_pooling_type> kPoolings[] = {
    {"none", LLAMA_POOLING_TYPE_NONE}, {"mean", LLAMA_POOLING_TYPE_MEAN},
    {"cls", LLAMA_POOLING_TYPE_CLS},   {"last", LLAMA_POOLING_TYPE_LAST},
    {"rank", LLAMA_POOLING_TYPE_RANK},
};

}  // namespace

Result<std::unique_ptr<EmbeddingContext>> EmbeddingContext::Create(const LocalModel& model,
                                                                   uint32_t n_ctx, int n_threads,
                                                                   bool flash_attn,
                                                                   const std::string& pooling) {
  llama_context_params p = llama_context_default_params();
  p.pooling_type = LLAMA_POOLING_TYPE_UNSPECIFIED;  // the model's own
  if (!pooling.empty()) {
    const auto* it = std::find_if(std::begin(kPoolings), std::end(kPoolings),
                                  [&](const auto& k) { return pooling == k.first; });
    if (it == std::end(kPoolings))
      return MakeError(ErrorKind::kInvalidArgument,
                       fmt::format("--pooling {}: must be none, mean, cls, last or rank", pooling));
    p.pooling_type = it->second;
  }
  p.embeddings = true;
  p.n_ctx = n_ctx;
  // The whole input in one batch and one micro-batch (llama-server sets n_batch = n_ubatch for
  // embeddings: a non-causal model needs every token of a sequence in one ubatch).
  p.n_batch = n_ctx;
  p.n_ubatch = n_ctx;
  p.n_seq_max = 1;
  const int threads = n_threads > 0 ? n_threads : std::max(1u, std::thread::hardware_concurrency());
  p.n_threads = threads;
  p.n_threads_batch = threads;
  p.flash_attn_type = flash_attn ? LLAMA_FLASH_ATTN_TYPE_ENABLED : LLAMA_FLASH_ATTN_TYPE_DISABLED;
  p.no_perf = true;
  llama_context* ctx = llama_init_from_model(LlamaModel(model), p);
  if (ctx == nullptr)
    return MakeError(ErrorKind::kInvalidArgument,
                     "llama.cpp refused the embedding context (context size, pooling type)");
  std::unique_ptr<EmbeddingContext> e(new EmbeddingContext());
  e->ctx_ = LlamaContextPtr(ctx);
  e->model_ = LlamaModel(model);
  e->n_ctx_ = n_ctx;
  const enum llama_pooling_type used = llama_pooling_type(ctx);
  e->pooled_ = used != LLAMA_POOLING_TYPE_NONE;
  e->pooling_name_ = "none";
  for (const auto& [name, type] : kPoolings) {
    if (type == used) e->pooling_name_ = name;
  }
  return e;
}

Result<std::vector<std::vector<float>>> EmbeddingContext::Embed(const std::vector<int32_t>& tokens,
                                                                int normalize) {
  if (tokens.empty()) return MakeError(ErrorKind::kInvalidArgument, "the input is empty");
  if (tokens.size() > n_ctx_)
    return MakeError(
        ErrorKind::kInvalidArgument,
        fmt::format("the input has {} tokens; the context holds {}", tokens.size(), n_ctx_));
  std::lock_guard lock(mu_);
  // The previous input out (a model without a KV cache, BERT-like, has no memory to clear).
  if (llama_memory_t mem = llama_get_memory(ctx_.get())) llama_memory_clear(mem, true);
  llama_batch batch = llama_batch_init(static_cast<int32_t>(tokens.size()), 0, 1);
  for (size_t i = 0; i < tokens.size(); ++i)
    common_batch_add(batch, tokens[i], static_cast<llama_pos>(i), {0}, true);
  const int rc = llama_decode(ctx_.get(), batch);
  std::vector<std::vector<float>> out;
  const int n_embd = llama_model_n_embd_out(model_);
  if (rc == 0 && pooled_) {
    const float* embd = llama_get_embeddings_seq(ctx_.get(), 0);
    if (embd != nullptr) {
      std::vector<float> v(static_cast<size_t>(n_embd));
      common_embd_normalize(embd, v.data(), n_embd, normalize);
      out.push_back(std::move(v));
    }
  } else if (rc == 0) {
    for (int i = 0; i < batch.n_tokens; ++i) {
      const float* embd = llama_get_embeddings_ith(ctx_.get(), i);
      if (embd != nullptr) out.emplace_back(embd, embd + n_embd);
    }
  }
  llama_batch_free(batch);
  if (rc != 0 || out.empty())
    return MakeError(ErrorKind::kIo,
                     fmt::format("llama_decode failed ({}) computing embeddings", rc));
  return out;
}

}  // namespace strata
