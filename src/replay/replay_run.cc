// replay_run.cc: `strata replay` in one call (replay.h ReplayFile): the log read from its file, the
// provider, layout and tokenizer model settled from the run's choices or the log's own evidence
// (log_provider.h), --prefix-from applied, and --compare's second layout.
#include <nlohmann/json.hpp>

#include "io/file_io.h"
#include "replay/log_provider.h"
#include "replay/replay_run.h"
#include "replay/transcript_replay.h"
#include "strata/replay.h"
#include "transcripts/recorded_requests.h"
#include "transcripts/transcript.h"

namespace strata {
namespace {

// The provider a recorded file's first request was sent to ("" when the file is not one).
std::string RecordedProvider(std::string_view log) {
  std::string_view first = log.substr(0, log.find('\n'));
  auto j = nlohmann::json::parse(first, nullptr, false);
  if (!j.is_object() || !j.contains("api") || !j["api"].is_string()) return "";
  return j["api"] == "anthropic-messages" ? "anthropic" : "openai";
}

bool PricesGiven(const ReplayFileOptions& run) {
  return run.input_per_mtok || run.read_multiplier || run.write_5m_multiplier ||
         run.write_1h_multiplier;
}

// The prices the run's costs use: for a provider's cache (anthropic, openai, deepseek) the list
// price of the log's model (ModelPrice, as `strata usage` prices it: its input price and cache
// read multiplier; the write multipliers are the provider's rule) when the model is in the price
// table, else the cache model's default (block-hash, radix: a nominal unit of prefill); then each
// price the run gave replaces its own member only.
void SettlePricing(const ReplayFileOptions& run, const std::string& model, ReplayOptions* o) {
  if (!o->cache.use_default_pricing) return;  // the caller's own pricing in run.options
  const CacheModelKind kind = o->cache.kind;
  Pricing p = DefaultPricing(kind);
  std::string source = "the " + std::string(CacheModelName(kind)) + " default";
  const bool hosted = kind == CacheModelKind::kAnthropic || kind == CacheModelKind::kOpenAi ||
                      kind == CacheModelKind::kDeepSeek;
  if (const ModelPrice m = PriceForModel(model); hosted && !model.empty() && m.known) {
    p.input_per_mtok = m.input;
    p.read_multiplier = m.read_multiplier;
    source = model + " list price";
  } else if (!PricesGiven(run)) {
    return;  // the cache model's own default
  }
  if (PricesGiven(run)) {
    p.input_per_mtok = run.input_per_mtok.value_or(p.input_per_mtok);
    p.read_multiplier = run.read_multiplier.value_or(p.read_multiplier);
    p.write_5m_multiplier = run.write_5m_multiplier.value_or(p.write_5m_multiplier);
    p.write_1h_multiplier = run.write_1h_multiplier.value_or(p.write_1h_multiplier);
    source = "the run's prices over " + source;
  }
  o->cache.pricing = p;
  o->cache.use_default_pricing = false;
  o->price_source = source;
}

// The run's options with the cache model and layout settled (the pricing: SettlePricing, once the
// model is known). `implied`: the provider the
// log implies, used when the run names none.
Result<ReplayOptions> SettleOptions(const ReplayFileOptions& run, TranscriptFormat format,
                                    std::string_view log, std::string_view implied = {}) {
  ReplayOptions options = run.options;
  const bool recorded = format == TranscriptFormat::kRecorded;
  if (run.fill_harness_prefix &&
      (format == TranscriptFormat::kClaudeCode || format == TranscriptFormat::kCodex)) {
    options.fill_unlogged_prefix = true;
  }
  std::string provider = run.provider;
  if (provider.empty() && recorded) provider = RecordedProvider(log);
  if (provider.empty()) provider = implied;
  STRATA_TRY_ASSIGN(options.cache.kind,
                    ParseCacheModelKind(provider.empty() ? "anthropic" : provider));
  STRATA_TRY_ASSIGN(options.layout, ParseReplayLayout(!run.layout.empty() ? run.layout
                                                      : recorded          ? "recorded"
                                                                          : "strata"));
  return options;
}

// The log as a Transcript, with prefix_from applied.
Result<Transcript> LoadForLayouts(const ReplayFileOptions& run, TranscriptFormat format,
                                  std::string_view log, const std::string& label) {
  STRATA_TRY_ASSIGN(Transcript transcript,
                    ParseTranscript(log, label, format, run.options.instance));
  STRATA_TRY(ExpectRequests(transcript, label));  // before loading a tokenizer for nothing
  if (!run.prefix_from.empty()) {
    STRATA_TRY_ASSIGN(std::string bytes, ReadInputBytes(run.prefix_from));
    STRATA_TRY_ASSIGN(ContextInputs prefix, PrefixFromRequest(bytes, run.prefix_from.string()));
    ApplyPrefix(&transcript, prefix);
  }
  return transcript;
}

}  // namespace

Result<SettledLog> SettleLog(const ReplayFileOptions& run, bool stream_recorded) {
  SettledLog s;
  STRATA_TRY_ASSIGN(s.log, ReadInputBytes(run.log));
  s.label = run.log == "-" ? "<stdin>" : run.log.string();
  if (run.format) {
    s.format = *run.format;
  } else {
    STRATA_TRY_ASSIGN(s.format, DetectTranscriptFormat(s.log, s.label));
  }
  STRATA_TRY_ASSIGN(s.options, SettleOptions(run, s.format, s.log));
  // A recorded-layout replay without compare streams the file (one request body in memory).
  s.streamed = stream_recorded && s.options.layout == ReplayLayout::kRecorded;
  if (!s.streamed || run.compare) {
    STRATA_TRY_ASSIGN(s.transcript, LoadForLayouts(run, s.format, s.log, s.label));
  }
  if (!s.streamed && run.provider.empty()) {  // the provider the log implies (Codex: openai)
    STRATA_TRY_ASSIGN(
        s.options,
        SettleOptions(run, s.format, s.log, CacheModelName(ProviderForTranscript(s.transcript))));
  }
  // An OpenAI model picks its exact vocabulary; an OpenAI log without one o200k_base.
  const std::string model = s.options.model.empty() ? FirstModel(s.transcript) : s.options.model;
  s.tokenizer_model = TokenizerModel(model, s.options.cache.kind);
  SettlePricing(run, model, &s.options);
  return s;
}

Result<std::vector<ReplayReport>> ReplayFile(const ReplayFileOptions& run,
                                             const TokenizerLoader& load_tokenizer) {
  STRATA_TRY_ASSIGN(SettledLog settled, SettleLog(run, /*stream_recorded=*/true));
  const bool streamed = settled.streamed;
  ReplayOptions& options = settled.options;
  std::string& log = settled.log;
  const std::string& label = settled.label;
  Transcript& transcript = settled.transcript;
  if (!streamed) std::string().swap(log);  // read into the transcript: its memory is released
  STRATA_TRY_ASSIGN(auto tokenizer, load_tokenizer(settled.tokenizer_model));
  std::vector<ReplayReport> reports;
  if (streamed) {
    STRATA_TRY_ASSIGN(reports.emplace_back(),
                      ReplayLog(log, label, settled.format, *tokenizer, options));
  } else if (!run.compare) {  // the transcript is not needed again: replayed without a copy
    STRATA_TRY_ASSIGN(reports.emplace_back(), Replay(std::move(transcript), *tokenizer, options));
  } else {
    STRATA_TRY_ASSIGN(reports.emplace_back(), Replay(transcript, *tokenizer, options));
  }
  if (!run.compare) return reports;
  options.on_request = nullptr;
  options.layout =
      options.layout == ReplayLayout::kStrata ? ReplayLayout::kNaive : ReplayLayout::kStrata;
  STRATA_TRY_ASSIGN(reports.emplace_back(), Replay(transcript, *tokenizer, options));
  return reports;
}

}  // namespace strata
