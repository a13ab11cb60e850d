// embedding_context.h: embeddings of a model served with --embeddings, computed as llama-server
// computes them (tools/server/server-context.cpp of the pinned source, send_embedding): one
// llama.cpp context with embeddings on and the model's pooling type (or the one given, its
// --pooling), each input decoded whole in one batch (every token an output, as llama-server asks
// for embeddings) into an emptied sequence 0. With pooling the sequence's pooled vector is read
// (llama_get_embeddings_seq) and normalised by common_embd_normalize (llama-server's
// embd_normalize: 2 Euclidean, -1 none, 0 max absolute int16, 1 taxicab, > 2 p-norm); pooling
// none gives every token's vector, unnormalised. One input at a time (a mutex); the generation
// engine's context is not touched.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "local/llama_context.h"
#include "strata/status.h"

namespace strata {

class EmbeddingContext {
 public:
  // `pooling`: "" (the model's own: its GGUF's <arch>.pooling_type, none when it declares none),
  // or one of none, mean, cls, last, rank. `n_ctx`: the most tokens of one input; `n_threads` 0:
  // all cores. Errors: kInvalidArgument for an unknown pooling name or settings llama.cpp
  // refuses.
  static Result<std::unique_ptr<EmbeddingContext>> Create(const LocalModel& model, uint32_t n_ctx,
                                                          int n_threads, bool flash_attn,
                                                          const std::string& pooling);

  // The embedding of `tokens` (one vector with pooling, one per token without). Errors:
  // kInvalidArgument when `tokens` is empty or longer than n_ctx; kIo when llama_decode fails.
  Result<std::vector<std::vector<float>>> Embed(const std::vector<int32_t>& tokens, int normalize);

  bool pooled() const { return pooled_; }
  const std::string& pooling() const { return pooling_name_; }  // e.g. "mean"
  uint32_t n_ctx() const { return n_ctx_; }

 private:
  EmbeddingContext() = default;
  std::mutex mu_;
  LlamaContextPtr ctx_;
  const llama_model* model_ = nullptr;
  uint32_t n_ctx_ = 0;
  bool pooled_ = false;
  std::string pooling_name_;
};

}  // namespace strata
