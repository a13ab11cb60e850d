// serve_flags.cc: llama-server's options for `strata serve` (see serve_flags.h).
#include "serve_flags.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <string_view>

namespace strata::cli {
namespace {

// Every option of the llama-server of the pinned llama.cpp (common/arg.cpp, the options of
// LLAMA_EXAMPLE_SERVER and LLAMA_EXAMPLE_COMMON), one entry per option with all its spellings.
constexpr const char* kLlamaServerOptions[] = {
    "-h --help --usage",
    "--version",
    "-cl --cache-list",
    "--completion-bash",
    "-t --threads",
    "-tb --threads-batch",
    "-C --cpu-mask",
    "-Cr --cpu-range",
    "--cpu-strict",
    "--prio",
    "--poll",
    "-Cb --cpu-mask-batch",
    "-Crb --cpu-range-batch",
    "--cpu-strict-batch",
    "--prio-batch",
    "--poll-batch",
    "-lcs --lookup-cache-static",
    "-lcd --lookup-cache-dynamic",
    "-c --ctx-size",
    "--kv-unified-per-slot",
    "-n --predict --n-predict",
    "-b --batch-size",
    "-ub --ubatch-size",
    "--keep",
    "--swa-full",
    "-ctxcp --ctx-checkpoints --swa-checkpoints",
    "-cms --checkpoint-min-step",
    "-cram --cache-ram",
    "-kvu --kv-unified -no-kvu --no-kv-unified",
    "--cache-idle-slots --no-cache-idle-slots",
    "--context-shift --no-context-shift",
    "-fa --flash-attn",
    "--perf --no-perf",
    "-e --escape --no-escape",
    "-r --reverse-prompt",
    "-sp --special",
    "--warmup --no-warmup",
    "--spm-infill",
    "--samplers",
    "-s --seed",
    "--sampler-seq --sampling-seq",
    "--ignore-eos",
    "--temp --temperature",
    "--top-k",
    "--top-p",
    "--min-p",
    "--top-nsigma --top-n-sigma",
    "--xtc-probability",
    "--xtc-threshold",
    "--typical --typical-p",
    "--repeat-last-n",
    "--repeat-penalty",
    "--presence-penalty",
    "--frequency-penalty",
    "--dry-multiplier",
    "--dry-base",
    "--dry-allowed-length",
    "--dry-penalty-last-n",
    "--dry-sequence-breaker",
    "--adaptive-target",
    "--adaptive-decay",
    "--dynatemp-range",
    "--dynatemp-exp",
    "--mirostat",
    "--mirostat-lr",
    "--mirostat-ent",
    "-l --logit-bias",
    "--grammar",
    "--grammar-file",
    "-j --json-schema",
    "-jf --json-schema-file",
    "-bs --backend-sampling",
    "--pooling",
    "--rope-scaling",
    "--rope-scale",
    "--rope-freq-base",
    "--rope-freq-scale",
    "--yarn-orig-ctx",
    "--yarn-ext-factor",
    "--yarn-attn-factor",
    "--yarn-beta-slow",
    "--yarn-beta-fast",
    "-kvo --kv-offload -nkvo --no-kv-offload",
    "--repack -nr --no-repack",
    "--no-host",
    "-ctk --cache-type-k",
    "-ctv --cache-type-v",
    "-dt --defrag-thold",
    "-np --parallel",
    "-cb --cont-batching -nocb --no-cont-batching",
    "-mm --mmproj",
    "-mmu --mmproj-url",
    "--mmproj-auto --no-mmproj --no-mmproj-auto",
    "--mmproj-offload --no-mmproj-offload",
    "-mmdev --mmproj-device",
    "--image-min-tokens",
    "--image-max-tokens",
    "--mtmd-batch-max-tokens",
    "--video-fps",
    "--video-timestamp-interval",
    "--video-ffmpeg-dir",
    "--rpc",
    "-lm --load-mode",
    "-lzm --lazy-mode",
    "--numa",
    "-dev --device",
    "--list-devices",
    "-ot --override-tensor",
    "-cmoe --cpu-moe",
    "-ncmoe --n-cpu-moe",
    "-ncffn --n-cpu-ffn",
    "-ngl --gpu-layers --n-gpu-layers",
    "-sm --split-mode",
    "-ts --tensor-split",
    "-mg --main-gpu",
    "-fit --fit",
    "-fitt --fit-target",
    "-fitc --fit-ctx",
    "--check-tensors",
    "--override-kv",
    "--op-offload --no-op-offload",
    "--lora",
    "--lora-scaled",
    "--control-vector",
    "--control-vector-scaled",
    "--control-vector-layer-range",
    "-a --alias",
    "--tags",
    "-m --model",
    "-mu --model-url",
    "-dr --docker-repo",
    "-hf -hfr --hf-repo",
    "-hff --hf-file",
    "-hft --hf-token",
    "--embd-normalize",
    "--host",
    "--port",
    "--reuse-port",
    "--path",
    "--cors-origins",
    "--cors-methods",
    "--cors-headers",
    "--cors-credentials --no-cors-credentials",
    "--api-prefix",
    "--ui-config --webui-config",
    "--ui-config-file --webui-config-file",
    "--ui-mcp-proxy --webui-mcp-proxy --no-ui-mcp-proxy --no-webui-mcp-proxy",
    "--tools",
    "--tools-runtime",
    "--mcp-servers-config",
    "--mcp-servers-json",
    "-ag --agent -no-ag --no-agent",
    "--ui --webui --no-ui --no-webui",
    "--embedding --embeddings",
    "--rerank --reranking",
    "--api-key",
    "--api-key-file",
    "--ssl-key-file",
    "--ssl-cert-file",
    "--chat-template-kwargs",
    "-to --timeout",
    "--sse-ping-interval",
    "--threads-http",
    "--cache-prompt --no-cache-prompt",
    "--cache-reuse",
    "--metrics",
    "--props",
    "--slots --no-slots",
    "--slot-save-path",
    "--media-path",
    "--models-dir",
    "--models-preset",
    "--models-max",
    "--models-autoload --no-models-autoload",
    "--jinja --no-jinja",
    "--reasoning-format",
    "-rea --reasoning",
    "--reasoning-effort",
    "--reasoning-budget",
    "--reasoning-budget-message",
    "--reasoning-preserve --no-reasoning-preserve",
    "--chat-template",
    "--chat-template-file",
    "--skip-chat-parsing --no-skip-chat-parsing",
    "--prefill-assistant --no-prefill-assistant",
    "-sps --slot-prompt-similarity",
    "--lora-init-without-apply",
    "--sleep-idle-seconds",
    "--log-disable",
    "--log-file",
    "--log-jsonl --no-log-jsonl",
    "--log-prompts-dir",
    "--log-colors",
    "-v --verbose --log-verbose",
    "--offline",
    "-lv --verbosity --log-verbosity",
    "--log-prefix --no-log-prefix",
    "--log-timestamps --no-log-timestamps",
    "--spec-draft-hf -hfd -hfrd --hf-repo-draft",
    "--spec-draft-threads -td --threads-draft",
    "--spec-draft-threads-batch -tbd --threads-batch-draft",
    "--spec-draft-cpu-mask -Cd --cpu-mask-draft",
    "--spec-draft-cpu-range -Crd --cpu-range-draft",
    "--spec-draft-cpu-strict --cpu-strict-draft",
    "--spec-draft-prio --prio-draft",
    "--spec-draft-poll --poll-draft",
    "--spec-draft-cpu-mask-batch -Cbd --cpu-mask-batch-draft",
    "--spec-draft-cpu-strict-batch --cpu-strict-batch-draft",
    "--spec-draft-prio-batch --prio-batch-draft",
    "--spec-draft-poll-batch --poll-batch-draft",
    "--spec-draft-type-k -ctkd --cache-type-k-draft",
    "--spec-draft-type-v -ctvd --cache-type-v-draft",
    "--spec-draft-override-tensor -otd --override-tensor-draft",
    "--spec-draft-cpu-moe -cmoed --cpu-moe-draft",
    "--spec-draft-n-cpu-moe --spec-draft-ncmoe -ncmoed --n-cpu-moe-draft",
    "--spec-draft-n-max",
    "--spec-draft-n-min",
    "--spec-synth-len",
    "--spec-synth-rates",
    "--spec-draft-p-split --draft-p-split",
    "--spec-draft-p-min --draft-p-min",
    "--spec-draft-backend-sampling --no-spec-draft-backend-sampling",
    "--spec-draft-device -devd --device-draft",
    "--spec-draft-ngl -ngld --gpu-layers-draft --n-gpu-layers-draft",
    "--spec-draft-model -md --model-draft",
    "--spec-type",
    "--spec-ngram-mod-n-min",
    "--spec-ngram-mod-n-max",
    "--spec-ngram-mod-n-match",
    "--spec-ngram-simple-size-n",
    "--spec-ngram-simple-size-m",
    "--spec-ngram-simple-min-hits",
    "--spec-ngram-map-k-size-n",
    "--spec-ngram-map-k-size-m",
    "--spec-ngram-map-k-min-hits",
    "--spec-ngram-map-k4v-size-n",
    "--spec-ngram-map-k4v-size-m",
    "--spec-ngram-map-k4v-min-hits",
    "--draft --draft-n --draft-max",
    "--draft-min --draft-n-min",
    "--spec-ngram-size-n",
    "--spec-ngram-size-m",
    "--spec-ngram-min-hits",
    "--embd-gemma-default",
    "--fim-qwen-1.5b-default",
    "--fim-qwen-3b-default",
    "--fim-qwen-7b-default",
    "--fim-qwen-7b-spec",
    "--fim-qwen-14b-spec",
    "--fim-qwen-30b-default",
    "--gpt-oss-20b-default",
    "--gpt-oss-120b-default",
    "--vision-gemma-4b-default",
    "--vision-gemma-12b-default",
    "--spec-default",
};

// llama-server's multi-letter short spellings of options `serve` takes, and the long name each
// becomes (CLI11 takes one-letter short names only).
constexpr std::pair<std::string_view, std::string_view> kShortAliases[] = {
    {"-np", "--parallel"},      {"-ngl", "--gpu-layers"}, {"-tb", "--threads-batch"},
    {"-fa", "--flash-attn"},    {"-ub", "--ubatch-size"}, {"-ctk", "--cache-type-k"},
    {"-ctv", "--cache-type-v"}, {"-lm", "--load-mode"},   {"-to", "--timeout"},
};

// Why some refused options are refused, beyond "not supported".
constexpr std::pair<std::string_view, std::string_view> kWhy[] = {
    {"--no-jinja", "strata serve renders every chat template with Jinja"},
    {"--api-key-file", "give the key with --api-key"},
    {"-hf", "give a local GGUF file with -m"},
    {"-hfr", "give a local GGUF file with -m"},
    {"--hf-repo", "give a local GGUF file with -m"},
    {"-mu", "give a local GGUF file with -m"},
    {"--model-url", "give a local GGUF file with -m"},
    {"--context-shift", "a reply ends at the end of the context (its length reason)"},
    {"--no-cache-prompt", "reusing the prompt prefix is what strata serve is for"},
    {"--cache-reuse", "prefixes are reused whole, by exact token match"},
    {"--reuse-port", "a second server on a port in use fails at start instead"},
    {"-cram", "checkpoints go to the store (--slot-save-path) under --store-budget"},
    {"--cache-ram", "checkpoints go to the store (--slot-save-path) under --store-budget"},
};

bool IsLlamaServerOption(std::string_view name) {
  for (std::string_view entry : kLlamaServerOptions) {
    for (size_t at = 0; at < entry.size();) {
      const size_t end = std::min(entry.find(' ', at), entry.size());
      if (entry.substr(at, end - at) == name) return true;
      at = end + 1;
    }
  }
  return false;
}

bool IsNumber(std::string_view arg) {
  return arg.size() > 1 && arg[0] == '-' &&
         (std::isdigit(static_cast<unsigned char>(arg[1])) || arg[1] == '.');
}

}  // namespace

std::string RewriteServeArgs(const CLI::App& serve, std::vector<std::string>* args) {
  for (size_t i = 0; i < args->size(); ++i) {
    std::string& arg = (*args)[i];
    if (arg == "--") break;
    if (arg.size() < 2 || arg[0] != '-' || IsNumber(arg)) continue;
    const size_t eq = arg.find('=');
    std::string name = arg.substr(0, eq);
    for (auto [from, to] : kShortAliases) {
      if (name == from) {
        arg = std::string(to) + (eq == std::string::npos ? "" : arg.substr(eq));
        name = to;
      }
    }
    const CLI::Option* opt = serve.get_option_no_throw(name);
    if (opt != nullptr) {
      if (eq == std::string::npos && opt->get_items_expected_min() > 0) ++i;  // its value
      continue;
    }
    if (name == "-h" || name == "--help" || !IsLlamaServerOption(name)) continue;  // CLI11's
    std::string why = "it is a llama-server option strata serve does not implement";
    for (auto [flag, reason] : kWhy) {
      if (name == flag) why = reason;
    }
    return fmt::format(
        "not supported by strata serve: {} ({}; docs/serve.md lists the llama-server options "
        "strata serve takes)",
        name, why);
  }
  return "";
}

}  // namespace strata::cli
