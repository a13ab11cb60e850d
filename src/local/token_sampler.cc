// token_sampler.cc: common_sampler behind strata's TokenSampler (see token_sampler.h).
#include "local/token_sampler.h"

#include <llama.h>
#include <sampling.h>

namespace strata {

TokenSampler::TokenSampler(const llama_model* model, const SamplingOptions& options) {
  common_params_sampling params;
  params.temp = options.temperature;
  params.top_p = options.top_p;
  params.seed = options.seed;
  params.top_k = options.top_k;
  params.min_p = options.min_p;
  params.penalty_repeat = options.repeat_penalty;
  params.penalty_last_n = options.repeat_last_n;
  params.penalty_present = options.presence_penalty;
  params.penalty_freq = options.frequency_penalty;
  if (!options.grammar.empty()) params.grammar = {COMMON_GRAMMAR_TYPE_USER, options.grammar};
  sampler_ = common_sampler_init(model, params);
}

TokenSampler::~TokenSampler() {
  if (sampler_ != nullptr) common_sampler_free(sampler_);
}

int32_t TokenSampler::Next(llama_context* ctx) { return NextAt(ctx, -1); }

int32_t TokenSampler::NextAt(llama_context* ctx, int index) {
  const llama_token token = common_sampler_sample(sampler_, ctx, index);
  common_sampler_accept(sampler_, token, true);
  return token;
}

}  // namespace strata
