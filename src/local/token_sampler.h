// token_sampler.h: next-token sampling through llama.cpp's common sampler (common_sampler: top-k,
// top-p, min-p, temperature, seeded), as llama-server samples. Temperature <= 0 is greedy, so a
// run at temperature 0 is deterministic.
#pragma once

#include <cstdint>
#include <memory>

struct llama_context;
struct llama_model;
struct common_sampler;

namespace strata {

struct SamplingOptions {
  float temperature = 0.8f;    // <= 0: greedy
  float top_p = 0.95f;         // 1: off
  uint32_t seed = 0xFFFFFFFF;  // LLAMA_DEFAULT_SEED: random
};

class TokenSampler {
 public:
  TokenSampler(const llama_model* model, const SamplingOptions& options);
  ~TokenSampler();
  TokenSampler(const TokenSampler&) = delete;
  TokenSampler& operator=(const TokenSampler&) = delete;

  // Samples from the logits of the last decoded token of `ctx` and accepts the token.
  int32_t Next(llama_context* ctx);
  // The same for the output of batch position `index` of the last decode.
  int32_t NextAt(llama_context* ctx, int index);

 private:
  common_sampler* sampler_ = nullptr;
};

}  // namespace strata
