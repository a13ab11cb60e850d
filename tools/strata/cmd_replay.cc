// cmd_replay.cc: `strata replay`: runs a session transcript through an assembly layout and a
// provider cache model and prints per-request token accounting (docs/replay.md). Thin: parse the
// flags, call ReplayLog (replay.h), print.
#include <cstdio>
#include <filesystem>

#include "commands.h"
#include "io/file_io.h"
#include "output.h"
#include "replay/log_provider.h"
#include "replay/transcript_replay.h"
#include "strata/explain.h"
#include "strata/replay.h"
#include "tokenize/vocab_tokenizer.h"
#include "transcripts/recorded_requests.h"
#include "transcripts/transcript.h"

namespace strata::cli {
namespace {

struct ReplayArgs {
  std::string transcript;
  std::string format = "strata";
  std::string provider;  // "": from the recorded API, else anthropic
  std::string layout;    // "": recorded for recorded files, else strata
  std::string prefix_from;
  std::string instance;
  std::string tokenizer = "auto";
  std::string vocab_dir;
  std::string model;
  int long_ttl = 0;
  double price = -1, read_mult = -1, write5 = -1, write1h = -1, retention = -1;
  bool json = false;
  bool compare = false;
  bool no_fill_prefix = false;
  std::string dump;
};

void AddReplayOptions(CLI::App* cmd, ReplayArgs* a) {
  cmd->add_option("--transcript", a->transcript, "Transcript file (JSONL; - reads stdin)")
      ->required();
  cmd->add_option("--format", a->format,
                  "strata | claude-code | codex | recorded (a `strata record` file) | openhands "
                  "(an OpenHands output.jsonl) | swe-agent (a SWE-agent .traj)");
  cmd->add_option("--instance", a->instance,
                  "OpenHands output.jsonl: the instance_id to replay (required when the file "
                  "holds several)");
  cmd->add_option("--provider", a->provider,
                  "Cache model: anthropic | openai | deepseek | block-hash (vllm) | radix "
                  "(sglang); default: the provider the log implies (a recorded API; Codex and "
                  "OpenAI models: openai), else anthropic");
  cmd->add_option("--layout", a->layout,
                  "recorded (default for recorded files) | strata (default otherwise) | naive");
  cmd->add_flag("--compare", a->compare,
                "Recorded files: the recorded layout beside strata's layout of the same "
                "conversation; other logs: --layout beside the other of strata and naive");
  cmd->add_option("--prefix-from", a->prefix_from,
                  "A captured request (JSON body, or a `strata record` file) whose tools and "
                  "system become the prefix of a log that lacks them (Claude Code, Codex)");
  cmd->add_flag("--no-fill-prefix", a->no_fill_prefix,
                "claude-code and codex logs: no stand-in for the system prompt and tools the log "
                "omits (by default one as large as the first request's recorded input requires)");
  cmd->add_option("--tokenizer", a->tokenizer,
                  "auto (OpenAI models and logs: o200k_base/cl100k_base, else qwen2), a llama.cpp "
                  "vocabulary name (gpt-2, llama-bpe, qwen2, ...) or a .gguf path");
  cmd->add_option("--vocab-dir", a->vocab_dir,
                  "Directory of ggml-vocab-*.gguf (default: $STRATA_VOCAB_DIR or the build's)");
  cmd->add_option("--model", a->model, "Model id to assume (e.g. claude-sonnet-4-5)");
  cmd->add_option("--long-ttl", a->long_ttl, "Anthropic: the first N breakpoints get a 1 h TTL");
  cmd->add_option("--price", a->price, "Input price, dollars per million tokens");
  cmd->add_option("--read-multiplier", a->read_mult, "Cache read price / input price");
  cmd->add_option("--write-multiplier", a->write5, "Cache write (5 min) price / input price");
  cmd->add_option("--write-1h-multiplier", a->write1h, "Cache write (1 h) price / input price");
  cmd->add_option("--retention", a->retention, "openai/deepseek retention, seconds (0: forever)");
  cmd->add_flag("--json", a->json, "Print one JSON object (turns, totals)");
  cmd->add_option("--dump-requests", a->dump,
                  "Write each rebuilt request to DIR/<n>.json ({request, layers, breakpoints}, "
                  "for strata explain)");
}

// The provider a recorded file's first request was sent to ("" when the file is not one).
std::string RecordedProvider(std::string_view log) {
  std::string_view first = log.substr(0, log.find('\n'));
  auto j = nlohmann::json::parse(first, nullptr, false);
  if (!j.is_object() || !j.contains("api") || !j["api"].is_string()) return "";
  return j["api"] == "anthropic-messages" ? "anthropic" : "openai";
}

// `implied`: the provider the log implies (log_provider.h), used when --provider is not given.
Result<ReplayOptions> OptionsFrom(const ReplayArgs& a, std::string_view log,
                                  std::string_view implied = {}) {
  ReplayOptions options;
  const bool recorded = a.format == "recorded";
  std::string provider = a.provider;
  if (provider.empty() && recorded) provider = RecordedProvider(log);
  if (provider.empty()) provider = implied;
  STRATA_TRY_ASSIGN(options.cache.kind,
                    ParseCacheModelKind(provider.empty() ? "anthropic" : provider));
  STRATA_TRY_ASSIGN(options.layout, ParseReplayLayout(!a.layout.empty() ? a.layout
                                                      : recorded        ? "recorded"
                                                                        : "strata"));
  options.cache.retention_s = a.retention;
  options.long_ttl_breakpoints = a.long_ttl;
  options.model = a.model;
  options.instance = a.instance;
  options.fill_unlogged_prefix =
      !a.no_fill_prefix && (a.format == "claude-code" || a.format == "codex");
  if (a.price >= 0 || a.read_mult >= 0 || a.write5 >= 0 || a.write1h >= 0) {
    Pricing p = DefaultPricing(options.cache.kind);
    if (a.price >= 0) p.input_per_mtok = a.price;
    if (a.read_mult >= 0) p.read_multiplier = a.read_mult;
    if (a.write5 >= 0) p.write_5m_multiplier = a.write5;
    if (a.write1h >= 0) p.write_1h_multiplier = a.write1h;
    options.cache.pricing = p;
    options.cache.use_default_pricing = false;
  }
  return options;
}

// The layout --compare puts beside `first`: strata beside recorded or naive, naive beside strata.
ReplayLayout OtherLayout(ReplayLayout first) {
  return first == ReplayLayout::kStrata ? ReplayLayout::kNaive : ReplayLayout::kStrata;
}

// The log as a Transcript, with --prefix-from applied; not read for a recorded-layout replay
// without --compare (that one streams the file).
Result<Transcript> LoadForLayouts(const ReplayArgs& a, std::string_view log,
                                  const std::string& label, TranscriptFormat format) {
  STRATA_TRY_ASSIGN(Transcript transcript, ParseTranscript(log, label, format, a.instance));
  STRATA_TRY(ExpectRequests(transcript, label));  // before loading a tokenizer for nothing
  if (!a.prefix_from.empty()) {
    STRATA_TRY_ASSIGN(std::string bytes, ReadInputBytes(a.prefix_from));
    STRATA_TRY_ASSIGN(ContextInputs prefix, PrefixFromRequest(bytes, a.prefix_from));
    ApplyPrefix(&transcript, prefix);
  }
  return transcript;
}

// The replays the flags ask for: one, or (--compare) the --layout one and then the other.
Result<std::vector<ReplayReport>> RunReplays(const ReplayArgs& a, std::string log,
                                             ReplayOptions options) {
  STRATA_TRY_ASSIGN(TranscriptFormat format, ParseTranscriptFormat(a.format));
  std::string label = a.transcript == "-" ? "<stdin>" : a.transcript;
  std::vector<ReplayReport> reports;
  const bool streamed = options.layout == ReplayLayout::kRecorded;
  Transcript transcript;
  if (!streamed || a.compare) {
    STRATA_TRY_ASSIGN(transcript, LoadForLayouts(a, log, label, format));
  }
  if (!streamed && a.provider.empty()) {  // the provider the log implies (Codex: openai)
    STRATA_TRY_ASSIGN(options,
                      OptionsFrom(a, log, CacheModelName(ProviderForTranscript(transcript))));
  }
  if (!streamed) std::string().swap(log);  // read into the transcript: its memory is released
  // An OpenAI model picks its exact vocabulary (--tokenizer auto); an OpenAI log without one
  // o200k_base.
  std::string model = a.model.empty() ? FirstModel(transcript) : a.model;
  model = TokenizerModel(model, options.cache.kind);
  STRATA_TRY_ASSIGN(auto tokenizer, LoadTokenizerForModel(a.tokenizer, model, a.vocab_dir));
  Status dump_status;
  if (!a.dump.empty()) {
    std::filesystem::path dir = a.dump;
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    options.on_request = [dir, &dump_status](size_t n, std::string_view bytes,
                                             const LayerMap& layers,
                                             const std::vector<Breakpoint>& bps) {
      if (!dump_status) return;
      ExplainInput in{std::string(bytes), layers, bps, "", ""};
      dump_status = WriteFileAtomic(dir / (std::to_string(n) + ".json"), FormatExplainInput(in));
    };
  }
  if (streamed) {
    STRATA_TRY_ASSIGN(reports.emplace_back(), ReplayLog(log, label, format, *tokenizer, options));
  } else if (!a.compare) {  // the transcript is not needed again: replayed without a copy
    STRATA_TRY_ASSIGN(reports.emplace_back(), Replay(std::move(transcript), *tokenizer, options));
  } else {
    STRATA_TRY_ASSIGN(reports.emplace_back(), Replay(transcript, *tokenizer, options));
  }
  STRATA_TRY(dump_status);
  if (!a.compare) return reports;
  options.on_request = nullptr;
  options.layout = OtherLayout(options.layout);
  STRATA_TRY_ASSIGN(reports.emplace_back(), Replay(transcript, *tokenizer, options));
  return reports;
}

void PrintReplays(const std::vector<ReplayReport>& reports, bool json) {
  if (reports.size() == 1) {
    std::string text = json ? FormatReplayJson(reports[0]) : FormatReplayTable(reports[0]);
    std::fputs(text.c_str(), stdout);
  } else if (json) {
    nlohmann::json both;
    for (const auto& r : reports) both[r.layout] = nlohmann::json::parse(FormatReplayJson(r));
    PrintJson(both);
  } else {
    std::fputs(FormatReplayComparison(reports[0], reports[1]).c_str(), stdout);
  }
}

}  // namespace

void AddReplayCommand(CLI::App& app, int* exit_code) {
  auto a = std::make_shared<ReplayArgs>();
  CLI::App* cmd = app.add_subcommand(
      "replay", "Replay a session transcript through a layout and a cache model (docs/replay.md)");
  AddReplayOptions(cmd, a.get());
  cmd->callback([a, exit_code] {
    auto log = ReadInputBytes(a->transcript);
    if (!log) {
      *exit_code = PrintError(log.error());
      return;
    }
    auto options = OptionsFrom(*a, *log);
    if (!options) {
      *exit_code = PrintError(options.error());
      return;
    }
    auto reports = RunReplays(*a, std::move(*log), std::move(*options));
    if (!reports) {
      *exit_code = PrintError(reports.error());
      return;
    }
    PrintReplays(*reports, a->json);
    *exit_code = 0;
  });
}

}  // namespace strata::cli
