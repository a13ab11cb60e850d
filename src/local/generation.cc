// generation.cc: the sampling loop with stop strings, streaming deltas and cancellation (see
// generation.h).
#include "local/generation.h"

#include <llama.h>

#include <algorithm>

#include "local/reasoning_tokens.h"

namespace strata::serve {
namespace {

// The first stop string found in `text` and where; npos when none.
std::pair<size_t, std::string> FindStop(std::string_view text,
                                        const std::vector<std::string>& stops) {
  std::pair<size_t, std::string> best{std::string_view::npos, ""};
  for (const std::string& s : stops) {
    if (s.empty()) continue;
    const size_t at = text.find(s);
    if (at < best.first) best = {at, s};
  }
  return best;
}

std::string Piece(const llama_vocab* vocab, llama_token token) {
  char buf[256];
  const int n = llama_token_to_piece(vocab, token, buf, sizeof buf, 0, /*special=*/false);
  if (n >= 0) return std::string(buf, n);
  std::string big(static_cast<size_t>(-n), '\0');
  llama_token_to_piece(vocab, token, big.data(), static_cast<int32_t>(big.size()), 0, false);
  return big;
}

}  // namespace

size_t ShowableLength(std::string_view text, const std::vector<std::string>& stops) {
  size_t hold = 0;
  for (const std::string& s : stops) {
    for (size_t k = std::min(s.size() - (s.empty() ? 0 : 1), text.size()); k > hold; --k) {
      if (text.ends_with(std::string_view(s).substr(0, k))) {
        hold = k;
        break;
      }
    }
  }
  return text.size() - hold;
}

Status Generate(const LocalModel& model, const RenderedPrompt& prompt,
                const GenerationLimits& limits, std::span<const int32_t> input, Sequence& seq,
                const GenerationHooks& hooks, FinishedReply* reply) {
  const llama_vocab* vocab = llama_model_get_vocab(LlamaModel(model));
  TokenSampler sampler(LlamaModel(model), limits.sampling);
  ReplyParser parser(prompt, limits.parse_tool_calls);
  std::string text;
  std::vector<size_t> token_starts;  // where each generated token's text begins in `text`
  reply->finish = FinishReason::kLength;
  bool stopped_by_client = false, cancelled = false, first = true;
  // Log probabilities: every shown token's, with where its text starts (a stop string cuts the
  // tokens from it on), and those not yet handed over with a delta.
  size_t sampled = 0;
  std::vector<std::pair<size_t, TokenLogprob>> logprobs;
  size_t handed = 0;  // logprobs[0, handed) went out with deltas
  auto entry_of = [&](size_t i, int32_t token) {
    const SampledProbs p = sampler.ProbsOf(i);
    TokenLogprob e{{token, Piece(vocab, token), p.logprob}, {}};
    for (const auto& [id, lp] : p.top) e.top.push_back({id, Piece(vocab, id), lp});
    return e;
  };
  // Hands the pending log probabilities over with the first of `deltas` (a delta of their own
  // when `deltas` is empty and `flush`).
  auto attach = [&](std::vector<ReplyDelta> deltas, bool flush) {
    if (handed >= logprobs.size() || (deltas.empty() && !flush)) return deltas;
    if (deltas.empty()) deltas.emplace_back();
    for (; handed < logprobs.size(); ++handed)
      deltas.front().logprobs.push_back(logprobs[handed].second);
    return deltas;
  };
  // Runs on this thread for each token the engine samples; false: no more tokens.
  auto on_token = [&](int32_t token) {
    if (hooks.cancelled && hooks.cancelled()) {
      cancelled = true;
      return false;
    }
    if (first && hooks.on_first_token) hooks.on_first_token();
    first = false;
    const size_t index = sampled++;
    if (llama_vocab_is_eog(vocab, token)) {
      // Counted as llama-server counts it (n_decoded: every token sampled, the end of generation
      // included), though it adds no text and is never decoded.
      ++reply->usage.completion_tokens;
      reply->finish = FinishReason::kStop;
      return false;
    }
    if (limits.sampling.probs) logprobs.emplace_back(text.size(), entry_of(index, token));
    token_starts.push_back(text.size());
    text += Piece(vocab, token);
    reply->tokens.push_back(token);
    ++reply->usage.completion_tokens;
    auto [at, stop] = FindStop(text, limits.stops);
    if (at != std::string::npos) {
      text.resize(at);
      std::erase_if(logprobs, [at](const auto& e) { return e.first >= at; });
      handed = std::min(handed, logprobs.size());
      reply->finish = FinishReason::kStop;
      // Only a stop string the client sent is reported as one (Anthropic's stop_sequence); the
      // template's own end markers are an ordinary end of turn.
      if (std::find(limits.request_stops.begin(), limits.request_stops.end(), stop) !=
          limits.request_stops.end())
        reply->stop_sequence = stop;
      return false;
    }
    const std::string shown = text.substr(0, ShowableLength(text, limits.stops));
    if (hooks.on_deltas && !hooks.on_deltas(attach(parser.Update(shown, true), false))) {
      stopped_by_client = true;
      return false;
    }
    return true;
  };
  // The same stop strings matched on the engine's scheduler thread as each token is sampled, so
  // the token that completes one is never decoded and nothing is sampled after it (on_token sees
  // the tokens later, while the scheduler goes on). Its own copy of the text: the pieces in the
  // same order, so it ends at the token where on_token finds the stop. Only the end of the text
  // is searched: a stop string completed by the newest piece starts at most its length less one
  // byte before that piece.
  size_t longest_stop = 0;
  for (const std::string& s : limits.stops) longest_stop = std::max(longest_stop, s.size());
  std::string scanned;
  auto ends = [&](int32_t token) {
    if (llama_vocab_is_eog(vocab, token)) return false;  // the engine ends there itself
    const size_t from = scanned.size() > longest_stop - 1 ? scanned.size() - (longest_stop - 1) : 0;
    scanned += Piece(vocab, token);
    return FindStop(std::string_view(scanned).substr(from), limits.stops).first !=
           std::string_view::npos;
  };
  std::function<bool(int32_t)> ends_hook;
  if (longest_stop > 0) ends_hook = ends;
  if (hooks.cancelled && hooks.cancelled()) return MakeError(ErrorKind::kIo, "cancelled");
  Status st = seq.engine->Generate(seq.id, input, sampler, limits.max_tokens, on_token,
                                   hooks.cancelled, hooks.on_prefill, ends_hook);
  seq.tokens = seq.engine->Held(seq.id);
  reply->sampled_tokens = sampled;
  if (cancelled || (!st && hooks.cancelled && hooks.cancelled()))
    return MakeError(ErrorKind::kIo, "cancelled");
  if (!st) return MakeError(ErrorKind::kIo, "llama_decode failed during generation");
  if (stopped_by_client) return MakeError(ErrorKind::kIo, "cancelled");
  std::vector<ReplyDelta> last = attach(parser.Update(text, false), true);
  if (hooks.on_deltas) hooks.on_deltas(last);
  reply->reply = parser.reply();
  reply->usage.reasoning_tokens = CountReasoningTokens(token_starts, text, prompt.generation_prompt,
                                                       prompt.thinking_start, prompt.thinking_end);
  for (auto& [start, entry] : logprobs) reply->logprobs.push_back(std::move(entry));
  if (!reply->reply.tool_calls.empty() && reply->finish == FinishReason::kStop)
    reply->finish = FinishReason::kToolCalls;
  return {};
}

}  // namespace strata::serve
