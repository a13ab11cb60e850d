// serve_options.cc: ServeOptions checks (see serve_options.h).
#include "serve/serve_options.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <ggml-backend.h>
#include <llama.h>

#include <string>
#include <vector>

#include "local/gpu_offload.h"

namespace strata::serve {
namespace {

tl::unexpected<Error> Invalid(std::string message) {
  return MakeError(ErrorKind::kInvalidArgument, std::move(message));
}

}  // namespace

Status CheckServeOptions(const ServeOptions& o) {
  if (o.parallel < 1 || o.n_ctx < 16 || o.max_queue < 0)
    return Invalid("--parallel must be at least 1 and --ctx at least 16 tokens");
  if (o.host.find(',') != std::string::npos || o.host.ends_with(".sock"))
    return Invalid(
        fmt::format("--host {}: one TCP address only (no lists, no UNIX sockets)", o.host));
  if (o.n_predict == 0 || o.n_predict < -1)
    return Invalid(
        fmt::format("-n {}: must be a positive token count, or -1 (no limit but the "
                    "context)",
                    o.n_predict));
  if (!o.chat_template.empty() && !o.chat_template_file.empty())
    return Invalid("--chat-template and --chat-template-file: give one of them");
  if (!o.chat_template.empty() && o.chat_template.find("{{") == std::string::npos &&
      o.chat_template.find("{%") == std::string::npos) {
    return Invalid(fmt::format(
        "--chat-template {}: strata serve takes the Jinja text of a template, not the name of "
        "one of llama.cpp's built-in templates; give the template's text or --chat-template-file",
        o.chat_template));
  }
  if (o.reasoning_format != "auto" && o.reasoning_format != "deepseek" &&
      o.reasoning_format != "deepseek-legacy" && o.reasoning_format != "none")
    return Invalid(
        fmt::format("--reasoning-format {}: must be auto, deepseek, deepseek-legacy or "
                    "none",
                    o.reasoning_format));
  if (o.reasoning_budget < -1)
    return Invalid("--reasoning-budget: must be -1 (unbounded), 0 (no thinking) or a token count");
  if (o.top_k < 0) return Invalid("--top-k: must be 0 (off) or more");
  if (o.temperature < 0) return Invalid("--temp: must be 0 (greedy) or more");
  if (o.top_p < 0 || o.top_p > 1) return Invalid("--top-p: must be between 0 and 1");
  if (o.min_p < 0 || o.min_p > 1) return Invalid("--min-p: must be between 0 and 1");
  if (o.repeat_penalty < 0) return Invalid("--repeat-penalty: must be 0 or more (1: off)");
  if (o.repeat_last_n < -1) return Invalid("--repeat-last-n: must be -1 (the context) or more");
  if (o.seed < -1 || o.seed > UINT32_MAX)
    return Invalid("--seed: must be -1 (random) or from 0 to 4294967295");
  return {};
}

std::string GpuLayersWarning(const ServeOptions& o) {
  if (!RequestsGpuLayers(o.gpu_layers) || llama_supports_gpu_offload()) return "";
  const std::string flag =
      fmt::format("-ngl {}", o.gpu_layers <= -2 ? "all" : std::to_string(o.gpu_layers));
  std::vector<std::string> gpu_backends;  // ggml's registered backends other than the CPU's
  for (size_t i = 0; i < ggml_backend_reg_count(); ++i) {
    const std::string name = ggml_backend_reg_name(ggml_backend_reg_get(i));
    if (name != "CPU") gpu_backends.push_back(name);
  }
  if (!gpu_backends.empty()) {
    return fmt::format(
        "serve: warning: {}: llama.cpp's {} backend found no usable device, so every layer runs "
        "on the CPU (llama-server ignores -ngl the same way); the Vulkan backend skips CPU-type "
        "devices such as Mesa's lavapipe unless GGML_VK_VISIBLE_DEVICES names them",
        flag, fmt::join(gpu_backends, ", "));
  }
  return fmt::format(
      "serve: warning: {}: this build of llama.cpp has no GPU backend with a usable device, so "
      "every layer runs on the CPU (llama-server ignores -ngl the same way); for offload, build "
      "llama.cpp with STRATA_LLAMA_BACKEND=vulkan, cuda or metal scripts/setup-llama.sh "
      "(README.md, Building for a GPU)",
      flag);
}

}  // namespace strata::serve
