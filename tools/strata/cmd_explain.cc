// cmd_explain.cc: `strata explain A.json B.json`: the first difference between two consecutive
// requests, the layer that owns it, the breakpoints it invalidates; `strata explain --log LOG
// --request N`: the same for two requests of a session log as replay rebuilds them
// (docs/explain.md).
#include <cstdio>
#include <optional>

#include "commands.h"
#include "output.h"
#include "strata/accounting.h"
#include "strata/replay.h"

namespace strata::cli {
namespace {

struct LogArgs {
  std::string log, format = "auto", provider, tokenizer, vocab_dir;
  size_t request = 0;
  bool no_fill_prefix = false;
};

// `--log LOG --request N`: request N of the log against N-1, rebuilt as `strata replay` does
// (strata's layout, recorded files as recorded), the provider and tokenizer from the log.
Result<Explanation> ExplainFromLog(const LogArgs& a) {
  ReplayFileOptions run;
  run.log = a.log;
  if (a.format != "auto") {
    STRATA_TRY_ASSIGN(run.format, ParseTranscriptFormat(a.format));
  }
  run.provider = a.provider;
  run.fill_harness_prefix = !a.no_fill_prefix;
  return ExplainLogFile(run, a.request, [&a](std::string_view model) {
    return LoadTokenizerForModel(a.tokenizer, model, a.vocab_dir);
  });
}

}  // namespace

void AddExplainCommand(CLI::App& app, int* exit_code) {
  struct Args {
    std::string a, b, layers_a, layers_b;
    std::string tokenizer = "auto";
    std::string vocab_dir;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand(
      "explain", "Explain why request B misses the cache request A filled (docs/explain.md)");
  auto log = std::make_shared<LogArgs>();
  cmd->add_option("A", args->a,
                  "Earlier request (strata assemble [--with-layers] output; - reads stdin)");
  cmd->add_option("B", args->b, "Later request (- reads stdin)");
  cmd->add_option("--log", log->log,
                  "A session log (- reads stdin): explain --request N against the request before "
                  "it, both rebuilt as strata replay rebuilds them (instead of A and B)");
  cmd->add_option("--format", log->format,
                  "--log's format: auto (told from its first lines) | strata | claude-code | "
                  "codex | recorded | openhands | swe-agent");
  cmd->add_option("--request", log->request, "--log: the request to explain (1-based, 2 or more)");
  cmd->add_option("--provider", log->provider,
                  "The cache model whose rules give the cached, read and lost tokens and the "
                  "drop (anthropic, openai, deepseek, block-hash, radix); --log: default the "
                  "provider the log implies, as replay; A B: default none (the byte view)");
  cmd->add_flag("--no-fill-prefix", log->no_fill_prefix,
                "--log (claude-code, codex): no stand-in for the unlogged system prompt and tools");
  cmd->add_option("--layers-a", args->layers_a, "Layer map of A (strata assemble --layers)");
  cmd->add_option("--layers-b", args->layers_b, "Layer map of B (strata assemble --layers)");
  cmd->add_option("--tokenizer", args->tokenizer,
                  "auto (OpenAI models: o200k_base/cl100k_base, else qwen2), a llama.cpp "
                  "vocabulary name or a .gguf path");
  cmd->add_option("--vocab-dir", args->vocab_dir, "Directory of ggml-vocab-*.gguf");
  cmd->add_flag("--json", args->json, "Print the explanation as JSON");
  cmd->callback([args, log, exit_code] {
    if (!log->log.empty()) {
      if (!args->a.empty() || !args->b.empty() || log->request == 0) {
        *exit_code = PrintError({ErrorKind::kInvalidArgument,
                                 "--log takes --request N and no A or B files (explain A B "
                                 "compares two request files)",
                                 {}});
        return;
      }
      log->tokenizer = args->tokenizer;
      log->vocab_dir = args->vocab_dir;
      auto e = ExplainFromLog(*log);
      if (!e) {
        *exit_code = PrintError(e.error());
        return;
      }
      std::fputs((args->json ? FormatExplanationJson(*e) : FormatExplanation(*e)).c_str(), stdout);
      *exit_code = 0;
      return;
    }
    if (args->a.empty() || args->b.empty()) {
      *exit_code = PrintError({ErrorKind::kInvalidArgument,
                               "explain needs two requests A and B, or --log LOG --request N",
                               {}});
      return;
    }
    if (args->a == "-" && args->b == "-") {
      *exit_code = PrintError({ErrorKind::kInvalidArgument,
                               "A and B are both '-': standard input can hold only one of them",
                               {}});
      return;
    }
    auto a = LoadExplainInput(args->a, args->layers_a);
    if (!a) {
      *exit_code = PrintError(a.error());
      return;
    }
    auto b = LoadExplainInput(args->b, args->layers_b);
    if (!b) {
      *exit_code = PrintError(b.error());
      return;
    }
    if (!a->model.empty() && !b->model.empty() && a->model != b->model) {
      PrintDiagnostic({Severity::kWarning,
                       "different-models",
                       "the requests name different models ('" + a->model + "' and '" + b->model +
                           "'): a provider never shares a cache entry between them, so nothing A "
                           "cached serves B whatever the bytes",
                       {args->b}});
    }
    std::optional<CacheModelOptions> cache;
    if (!log->provider.empty()) {
      auto kind = ParseCacheModelKind(log->provider);
      if (!kind) {
        *exit_code = PrintError(kind.error());
        return;
      }
      cache.emplace();
      cache->kind = *kind;
    }
    // With a provider, the tokenizer replay takes for it (docs/replay.md, "Provider and
    // tokenizer": an OpenAI provider and a model of another vendor or none: o200k_base, as
    // gpt-5's), so the figures are replay's.
    const bool openai_proxy =
        cache && cache->kind == CacheModelKind::kOpenAi && OpenAIEncodingForModel(b->model).empty();
    auto tokenizer =
        LoadTokenizerForModel(args->tokenizer, openai_proxy ? "gpt-5" : b->model, args->vocab_dir);
    if (!tokenizer) {
      *exit_code = PrintError(tokenizer.error());
      return;
    }
    auto e = Explain(*a, *b, **tokenizer, cache ? &*cache : nullptr);
    if (!e) {
      *exit_code = PrintError(e.error());
      return;
    }
    std::string text = args->json ? FormatExplanationJson(*e) : FormatExplanation(*e);
    std::fputs(text.c_str(), stdout);
    *exit_code = 0;
  });
}

}  // namespace strata::cli
