// token_sampler.cc: common_sampler behind strata's TokenSampler (see token_sampler.h).
#include "local/token_sampler.h"

#include <llama.h>
#include <sampling.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace strata {
namespace {

// log(x), but a probability of 0 gives the lowest float, as llama-server writes it (JSON has no
// -inf).
float LogOf(double p) {
  return p <= 0 ? std::numeric_limits<float>::lowest() : static_cast<float>(std::log(p));
}

// llama-server's get_token_probabilities: a softmax over the raw logits of output `index`.
SampledProbs ProbsFromLogits(llama_context* ctx, int index, llama_token token, int n_top) {
  const float* logits = llama_get_logits_ith(ctx, index);
  const int n_vocab = llama_vocab_n_tokens(llama_model_get_vocab(llama_get_model(ctx)));
  const float max = *std::max_element(logits, logits + n_vocab);
  double sum = 0;
  for (int i = 0; i < n_vocab; ++i) sum += std::exp(static_cast<double>(logits[i] - max));
  auto prob = [&](int i) { return std::exp(static_cast<double>(logits[i] - max)) / sum; };
  SampledProbs out;
  out.logprob = LogOf(prob(token));
  std::vector<int32_t> ids(static_cast<size_t>(n_vocab));
  for (int i = 0; i < n_vocab; ++i) ids[static_cast<size_t>(i)] = i;
  const size_t n = std::min(static_cast<size_t>(n_top), ids.size());
  // Ties by token id, so the order is the same on every run.
  std::partial_sort(
      ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(n), ids.end(),
      [&](int32_t a, int32_t b) { return logits[a] != logits[b] ? logits[a] > logits[b] : a < b; });
  for (size_t i = 0; i < n; ++i) out.top.emplace_back(ids[i], LogOf(prob(ids[i])));
  return out;
}

}  // namespace

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
  // llama-server's chat path: the generation prompt and, when the template has thinking tags, the
  // budget and tags (tools/server/server-common.cpp, server-schema.cpp of the pinned source).
  params.generation_prompt = options.generation_prompt;
  if (!options.thinking_end.empty()) {
    const llama_vocab* vocab = llama_model_get_vocab(model);
    params.reasoning_budget_tokens = options.reasoning_budget;
    params.reasoning_budget_start = common_tokenize(vocab, options.thinking_start, false, true);
    for (const std::string& tag : options.thinking_end) {
      if (!tag.empty())
        params.reasoning_budget_end.push_back(common_tokenize(vocab, tag, false, true));
    }
    if (!params.reasoning_budget_end.empty())
      params.reasoning_budget_forced = params.reasoning_budget_end.front();
  }
  sampler_ = common_sampler_init(model, params);
  probs_ = options.probs;
  n_probs_ = std::max(0, options.n_probs);
}

TokenSampler::~TokenSampler() {
  if (sampler_ != nullptr) common_sampler_free(sampler_);
}

int32_t TokenSampler::Next(llama_context* ctx) { return NextAt(ctx, -1); }

int32_t TokenSampler::NextAt(llama_context* ctx, int index) {
  const llama_token token = common_sampler_sample(sampler_, ctx, index);
  common_sampler_accept(sampler_, token, true);
  if (probs_) {
    SampledProbs p = ProbsFromLogits(ctx, index, token, n_probs_);
    std::lock_guard lock(mu_);
    probs_of_.push_back(std::move(p));
  }
  return token;
}

SampledProbs TokenSampler::ProbsOf(size_t i) const {
  std::lock_guard lock(mu_);
  return i < probs_of_.size() ? probs_of_[i] : SampledProbs{};
}

}  // namespace strata
