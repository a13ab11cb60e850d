// cmd_replay.cc: `strata replay`: runs a session transcript through an assembly layout and a
// provider cache model and prints per-request token accounting (docs/replay.md). Thin: parse the
// flags, call ReplayFile (replay.h), print.
#include <cstdio>
#include <filesystem>
#include <optional>

#include "commands.h"
#include "flag_checks.h"
#include "output.h"
#include "strata/accounting.h"
#include "strata/replay.h"

namespace strata::cli {
namespace {

struct ReplayArgs {
  std::string transcript;
  std::string format = "auto";
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
                  "auto (default: told from the log's first lines) | strata | claude-code | codex "
                  "| recorded (a `strata record` file) | openhands (an OpenHands output.jsonl) | "
                  "swe-agent (a SWE-agent .traj)");
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
  cmd->add_option("--long-ttl", a->long_ttl, "Anthropic: the first N breakpoints get a 1 h TTL")
      ->check(CLI::Range(0, 4));
  cmd->add_option("--price", a->price, "Input price, dollars per million tokens")
      ->check(FiniteNonNegative());
  cmd->add_option("--read-multiplier", a->read_mult, "Cache read price / input price")
      ->check(FiniteNonNegative());
  cmd->add_option("--write-multiplier", a->write5, "Cache write (5 min) price / input price")
      ->check(FiniteNonNegative());
  cmd->add_option("--write-1h-multiplier", a->write1h, "Cache write (1 h) price / input price")
      ->check(FiniteNonNegative());
  cmd->add_option("--retention", a->retention, "openai/deepseek retention, seconds (0: forever)")
      ->check(FiniteNonNegative());
  cmd->add_flag("--json", a->json, "Print one JSON object (turns, totals)");
  cmd->add_option("--dump-requests", a->dump,
                  "Write each rebuilt request to DIR/<n>.json ({request, layers, breakpoints}, "
                  "for strata explain)");
}

// The replay the flags ask for; the tokenizer and the dump directory are the caller's.
Result<ReplayFileOptions> RunFrom(const ReplayArgs& a) {
  ReplayFileOptions run;
  run.log = a.transcript;
  if (a.format != "auto") {
    STRATA_TRY_ASSIGN(run.format, ParseTranscriptFormat(a.format));
  }
  run.provider = a.provider;
  run.layout = a.layout;
  run.compare = a.compare;
  run.prefix_from = a.prefix_from;
  auto given = [](double v) { return v >= 0 ? std::optional<double>(v) : std::nullopt; };
  run.input_per_mtok = given(a.price);
  run.read_multiplier = given(a.read_mult);
  run.write_5m_multiplier = given(a.write5);
  run.write_1h_multiplier = given(a.write1h);
  run.options.cache.retention_s = a.retention;
  run.options.long_ttl_breakpoints = a.long_ttl;
  run.options.model = a.model;
  run.options.instance = a.instance;
  run.fill_harness_prefix = !a.no_fill_prefix;
  return run;
}

// The replays the flags ask for: one, or (--compare) the --layout one and then the other.
Result<std::vector<ReplayReport>> RunReplays(const ReplayArgs& a) {
  STRATA_TRY_ASSIGN(ReplayFileOptions run, RunFrom(a));
  Status dump_status;
  if (!a.dump.empty()) {
    std::filesystem::path dir = a.dump;
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    run.options.on_request = [dir, &dump_status](size_t n, std::string_view bytes,
                                                 const LayerMap& layers,
                                                 const std::vector<Breakpoint>& bps) {
      if (!dump_status) return;
      ExplainInput in{std::string(bytes), layers, bps, "", ""};
      dump_status = SaveExplainInput(dir / (std::to_string(n) + ".json"), in);
    };
  }
  auto reports = ReplayFile(run, [&a](std::string_view model) {
    return LoadTokenizerForModel(a.tokenizer, model, a.vocab_dir);
  });
  STRATA_TRY(dump_status);
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
    auto reports = RunReplays(*a);
    if (!reports) {
      *exit_code = PrintError(reports.error());
      return;
    }
    PrintReplays(*reports, a->json);
    *exit_code = 0;
  });
}

}  // namespace strata::cli
