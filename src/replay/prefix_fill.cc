// prefix_fill.cc: sizing and placing the stand-in for a log's unrecorded prefix (prefix_fill.h).
#include "replay/prefix_fill.h"

#include <algorithm>
#include <cmath>

#include "replay/transcript_replay.h"
#include "transcripts/redaction.h"

namespace strata {
namespace {

constexpr double kToolTokens = 2000;  // the size of one stand-in tool

// The stand-in tools for `tokens` tokens at `bytes_per_token`.
std::vector<ToolDefinition> FillTools(double tokens, double bytes_per_token) {
  std::vector<ToolDefinition> out;
  size_t n = size_t(std::ceil(tokens / kToolTokens));
  for (size_t i = 0; i < n; ++i) {
    double share = std::min(kToolTokens, tokens - kToolTokens * double(i));
    char name[48];
    std::snprintf(name, sizeof name, "unlogged_prefix_%02zu", i);
    out.push_back({name, SynthesizeText(size_t(std::max(1.0, share * bytes_per_token)), name),
                   R"({"type":"object"})"});
  }
  return out;
}

void AddTools(Transcript* t, const std::vector<ToolDefinition>& tools) {
  for (auto& e : t->events) {
    if (e.kind != TranscriptEventKind::kContext) continue;
    e.context.tools.insert(e.context.tools.end(), tools.begin(), tools.end());
  }
}

// The transcript up to and including its first request, with `tools` added to every context.
Transcript FirstRequest(const Transcript& t, const std::vector<ToolDefinition>& tools) {
  Transcript out;
  out.format = t.format;
  for (const auto& e : t.events) {
    out.events.push_back(e);
    if (e.kind == TranscriptEventKind::kAssistant) break;
  }
  AddTools(&out, tools);
  return out;
}

// The modelled input tokens of the first request with `tools` added.
Result<size_t> FirstInput(const Transcript& t, const Tokenizer& tokenizer,
                          const ReplayOptions& options, const std::vector<ToolDefinition>& tools) {
  ReplayOptions o = options;
  o.fill_unlogged_prefix = false;
  o.warm_prefix_tokens = 0;
  o.on_request = nullptr;
  STRATA_TRY_ASSIGN(ReplayReport r, Replay(FirstRequest(t, tools), tokenizer, o));
  return r.turns.empty() ? size_t{0} : r.turns.front().usage.input_tokens;
}

}  // namespace

Result<size_t> FillUnloggedPrefix(Transcript* transcript, const Tokenizer& tokenizer,
                                  const ReplayOptions& options) {
  auto first = std::find_if(
      transcript->events.begin(), transcript->events.end(),
      [](const TranscriptEvent& e) { return e.kind == TranscriptEventKind::kAssistant; });
  if (first == transcript->events.end() || !first->recorded) return size_t{0};
  const size_t target = first->recorded->input_tokens;
  // Every byte of the messages before the first answer is in its request (escaping only adds),
  // so the request has at least bytes / max_token_bytes tokens: when that reaches the recorded
  // input, no fill is needed and the first request is not replayed to measure it (a huge first
  // message would otherwise be copied and tokenized twice).
  if (const size_t per_token = tokenizer.max_token_bytes(); per_token > 0) {
    size_t bytes = 0;
    for (auto e = transcript->events.begin(); e != first; ++e) bytes += e->message.text.size();
    if ((bytes + per_token - 1) / per_token >= target) return size_t{0};
  }
  STRATA_TRY_ASSIGN(size_t bare, FirstInput(*transcript, tokenizer, options, {}));
  if (bare >= target) return size_t{0};
  // Bytes per token of the synthetic text, then corrections on the measured request (the tools'
  // JSON around the text adds tokens too).
  const double want = double(target - bare);
  std::string sample = SynthesizeText(size_t{64} * 1024, "unlogged prefix");
  STRATA_TRY_ASSIGN(auto sample_ids, tokenizer.Tokenize(sample));
  double bytes_per_token = double(sample.size()) / double(std::max<size_t>(1, sample_ids.size()));
  double text_tokens = want;
  std::vector<ToolDefinition> tools;
  size_t got = bare;
  for (int round = 0; round < 3; ++round) {
    tools = FillTools(text_tokens, bytes_per_token);
    STRATA_TRY_ASSIGN(got, FirstInput(*transcript, tokenizer, options, tools));
    if (got <= bare || std::abs(double(got) - double(target)) <= 0.002 * double(target)) break;
    text_tokens *= want / double(got - bare);
  }
  AddTools(transcript, tools);
  return got - bare;
}

}  // namespace strata
