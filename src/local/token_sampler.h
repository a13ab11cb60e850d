// token_sampler.h: next-token sampling through llama.cpp's common sampler (common_sampler: top-k,
// top-p, min-p, temperature, seeded), as llama-server samples. Temperature <= 0 is greedy, so a
// run at temperature 0 is deterministic.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

struct llama_context;
struct llama_model;
struct common_sampler;

namespace strata {

// Defaults are common_params_sampling's (llama-server's --temp, --top-p, ... defaults).
struct SamplingOptions {
  float temperature = 0.8f;       // <= 0: greedy
  float top_p = 0.95f;            // 1: off
  uint32_t seed = 0xFFFFFFFF;     // LLAMA_DEFAULT_SEED: random
  int top_k = 40;                 // <= 0: off
  float min_p = 0.05f;            // 0: off
  float repeat_penalty = 1.0f;    // 1: off
  int repeat_last_n = 64;         // tokens the penalties look back over (-1: the context)
  float presence_penalty = 0.0f;  // 0: off
  float frequency_penalty = 0.0f;
  // GBNF the reply must match (start rule "root"; empty: none). It must parse (GrammarParses in
  // json_schema_grammar.h): common's sampler throws on one that does not.
  std::string grammar;
  // Log probabilities of each sampled token and of the `n_probs` likeliest candidates, from the
  // logits before any sampler (llama-server's default, post_sampling_probs false: a softmax over
  // the whole vocabulary). False: none are computed.
  bool probs = false;
  int n_probs = 0;
  // The reasoning budget, as llama-server applies it (common's reasoning-budget sampler): once
  // `thinking_start` has been generated (or ends the generation prompt), at most
  // `reasoning_budget` tokens follow before the first of `thinking_end` is forced token by token
  // (0: forced at once). -1, or no end tag (a template without thinking): unbounded.
  int reasoning_budget = -1;
  std::string generation_prompt;  // the template's generation prompt (the sampler's prefill)
  std::string thinking_start;
  std::vector<std::string> thinking_end;
};

// One sampled token's log probability and the likeliest candidates' (natural log, descending).
struct SampledProbs {
  float logprob = 0;
  std::vector<std::pair<int32_t, float>> top;  // (token, log probability)
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
  // With SamplingOptions::probs: the probabilities of the i-th token sampled (in call order).
  // Safe to call from another thread than the one sampling; `i` must be below the count sampled.
  SampledProbs ProbsOf(size_t i) const;

 private:
  common_sampler* sampler_ = nullptr;
  bool probs_ = false;
  int n_probs_ = 0;
  mutable std::mutex mu_;  // guards probs_of_
  std::vector<SampledProbs> probs_of_;
};

}  // namespace strata
