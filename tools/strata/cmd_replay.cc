// cmd_replay.cc: `strata replay`: runs a session transcript through an assembly layout and a
// provider cache model and prints per-request token accounting (docs/replay.md).
#include <cstdio>

#include <filesystem>
#include "commands.h"
#include "output.h"

#include "io/file_io.h"
#include "strata/explain.h"
#include "strata/replay.h"
#include "strata/vocab_tokenizer.h"

namespace strata::cli {

void AddReplayCommand(CLI::App& app, int* exit_code) {
  struct Args {
    std::string transcript;
    std::string format = "strata";
    std::string provider = "anthropic";
    std::string layout = "strata";
    std::string tokenizer = "qwen2";
    std::string vocab_dir;
    std::string model;
    int long_ttl = 0;
    double price = -1, read_mult = -1, write5 = -1, write1h = -1, retention = -1;
    bool json = false;
    bool compare = false;
    std::string dump;
  };
  auto a = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand(
      "replay", "Replay a session transcript through a layout and a cache model (docs/replay.md)");
  cmd->add_option("--transcript", a->transcript, "Transcript file (JSONL)")->required();
  cmd->add_option("--format", a->format, "strata | claude-code | codex");
  cmd->add_option(
      "--provider", a->provider,
      "Cache model: anthropic | openai | deepseek | block-hash (vllm) | radix (sglang)");
  cmd->add_option("--layout", a->layout, "strata | naive (with --compare: the first column)");
  cmd->add_flag("--compare", a->compare, "Print the strata and naive layouts side by side");
  cmd->add_option("--tokenizer", a->tokenizer,
                  "llama.cpp vocabulary name (gpt-2, llama-bpe, qwen2, ...) or a .gguf path");
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
  cmd->callback([a, exit_code] {
    auto kind = ParseCacheModelKind(a->provider);
    if (!kind) {
      *exit_code = PrintError(kind.error());
      return;
    }
    auto layout = ParseReplayLayout(a->layout);
    if (!layout) {
      *exit_code = PrintError(layout.error());
      return;
    }
    auto transcript = LoadTranscript(a->transcript, a->format);
    if (!transcript) {
      *exit_code = PrintError(transcript.error());
      return;
    }
    if (transcript->RequestCount() == 0) {
      // An empty file, or a log read with the wrong --format: no model call to replay.
      *exit_code = PrintError(
          {ErrorKind::kInvalidArgument,
           "no model requests found reading it as --format " + a->format +
               ": check the format (claude-code for Claude Code session logs, codex for Codex "
               "rollouts, strata for strata's JSONL; see docs/replay.md)",
           {a->transcript}});
      return;
    }
    auto tokenizer = LoadNamedTokenizer(a->tokenizer, a->vocab_dir);
    if (!tokenizer) {
      *exit_code = PrintError(tokenizer.error());
      return;
    }
    ReplayOptions options;
    options.cache.kind = *kind;
    options.cache.retention_s = a->retention;
    options.layout = *layout;
    options.long_ttl_breakpoints = a->long_ttl;
    options.model = a->model;
    if (a->price >= 0 || a->read_mult >= 0 || a->write5 >= 0 || a->write1h >= 0) {
      Pricing p = DefaultPricing(*kind);
      if (a->price >= 0) p.input_per_mtok = a->price;
      if (a->read_mult >= 0) p.read_multiplier = a->read_mult;
      if (a->write5 >= 0) p.write_5m_multiplier = a->write5;
      if (a->write1h >= 0) p.write_1h_multiplier = a->write1h;
      options.cache.pricing = p;
      options.cache.use_default_pricing = false;
    }
    Status dump_status;
    if (!a->dump.empty()) {
      std::filesystem::path dir = a->dump;
      options.on_request = [dir, &dump_status](size_t n, std::string_view bytes,
                                               const LayerMap& layers,
                                               const std::vector<Breakpoint>& bps) {
        if (!dump_status) return;
        ExplainInput in{std::string(bytes), layers, bps};
        dump_status = WriteFileAtomic(dir / (std::to_string(n) + ".json"), FormatExplainInput(in));
      };
      std::error_code ec;
      std::filesystem::create_directories(dir, ec);
    }
    auto first = Replay(*transcript, **tokenizer, options);
    if (!dump_status) {
      *exit_code = PrintError(dump_status.error());
      return;
    }
    options.on_request = nullptr;
    if (!first) {
      *exit_code = PrintError(first.error());
      return;
    }
    if (!a->compare) {
      std::string text = a->json ? FormatReplayJson(*first) : FormatReplayTable(*first);
      std::fputs(text.c_str(), stdout);
      *exit_code = 0;
      return;
    }
    options.layout =
        *layout == ReplayLayout::kStrata ? ReplayLayout::kNaive : ReplayLayout::kStrata;
    auto second = Replay(*transcript, **tokenizer, options);
    if (!second) {
      *exit_code = PrintError(second.error());
      return;
    }
    if (a->json) {
      std::string text = "{\"" + first->layout + "\":" + FormatReplayJson(*first) + ",\"" +
                         second->layout + "\":" + FormatReplayJson(*second) + "}\n";
      PrintJson(nlohmann::json::parse(text));
    } else {
      std::fputs(FormatReplayComparison(*first, *second).c_str(), stdout);
    }
    *exit_code = 0;
  });
}

}  // namespace strata::cli
