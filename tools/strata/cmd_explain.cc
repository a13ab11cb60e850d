// cmd_explain.cc: `strata explain A.json B.json`: the first difference between two consecutive
// requests, the layer that owns it, the breakpoints it invalidates (docs/explain.md).
#include <cstdio>

#include "commands.h"
#include "output.h"
#include "strata/replay.h"
#include "strata/tokenizer.h"

namespace strata::cli {

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
  cmd->add_option("A", args->a,
                  "Earlier request (strata assemble [--with-layers] output; - reads stdin)")
      ->required();
  cmd->add_option("B", args->b, "Later request (- reads stdin)")->required();
  cmd->add_option("--layers-a", args->layers_a, "Layer map of A (strata assemble --layers)");
  cmd->add_option("--layers-b", args->layers_b, "Layer map of B (strata assemble --layers)");
  cmd->add_option("--tokenizer", args->tokenizer,
                  "auto (OpenAI models: o200k_base/cl100k_base, else qwen2), a llama.cpp "
                  "vocabulary name or a .gguf path");
  cmd->add_option("--vocab-dir", args->vocab_dir, "Directory of ggml-vocab-*.gguf");
  cmd->add_flag("--json", args->json, "Print the explanation as JSON");
  cmd->callback([args, exit_code] {
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
    auto tokenizer = LoadTokenizerForModel(args->tokenizer, b->model, args->vocab_dir);
    if (!tokenizer) {
      *exit_code = PrintError(tokenizer.error());
      return;
    }
    auto e = Explain(*a, *b, **tokenizer);
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
