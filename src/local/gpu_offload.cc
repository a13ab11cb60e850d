// gpu_offload.cc: llama.cpp's layer offload rule for a loaded model (see gpu_offload.h).
#include "local/gpu_offload.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <ggml-backend.h>

#include <algorithm>

namespace strata {
namespace {

std::vector<std::string> DevicesOfType(enum ggml_backend_dev_type type) {
  std::vector<std::string> out;
  for (size_t i = 0; i < ggml_backend_dev_count(); ++i) {
    ggml_backend_dev_t dev = ggml_backend_dev_get(i);
    if (ggml_backend_dev_type(dev) != type) continue;
    out.push_back(
        fmt::format("{} ({})", ggml_backend_dev_name(dev), ggml_backend_dev_description(dev)));
  }
  return out;
}

}  // namespace

GpuOffload PlanGpuOffload(const llama_model* model, int gpu_layers) {
  GpuOffload o;
  o.available = llama_supports_gpu_offload();
  o.total = llama_model_n_layer(model) + 1;
  if (!o.available) return o;
  o.layers = gpu_layers < 0 ? o.total : std::min(gpu_layers, o.total);
  o.devices = DevicesOfType(GGML_BACKEND_DEVICE_TYPE_GPU);
  if (o.devices.empty()) o.devices = DevicesOfType(GGML_BACKEND_DEVICE_TYPE_IGPU);
  return o;
}

std::string DescribeGpuOffload(const GpuOffload& offload) {
  if (offload.layers == 0) return "";
  return fmt::format("{}/{} layers on {}", offload.layers, offload.total,
                     fmt::join(offload.devices, ", "));
}

}  // namespace strata
