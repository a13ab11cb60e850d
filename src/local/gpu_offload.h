// gpu_offload.h: where llama.cpp puts a model's layers for a given n_gpu_layers (llama-server's
// -ngl), by the rule of the pinned llama.cpp's loader (llama_model::n_gpu_layers and
// llama_model::load_tensors in src/llama-model.cpp): the layers are the n_layer repeating ones
// plus the output layer; a negative count means all of them; a count above that is capped; and
// nothing is offloaded when llama_supports_gpu_offload() is false (ggml was built without a GPU
// backend, or the backend found no usable device: the Vulkan backend, for one, skips CPU-type
// devices such as Mesa's lavapipe unless GGML_VK_VISIBLE_DEVICES names them).
#pragma once

#include <llama.h>

#include <string>
#include <vector>

namespace strata {

struct GpuOffload {
  bool available = false;  // llama_supports_gpu_offload()
  int layers = 0;          // layers llama.cpp offloads
  int total = 0;           // n_layer + 1 (the output layer)
  // The devices llama.cpp offloads to, as "<name> (<description>)": the GPU devices, or the
  // integrated ones when there is none (llama.cpp's own choice when no device list is given).
  std::vector<std::string> devices;
};

// The offload of `model` loaded with `gpu_layers` (never null).
GpuOffload PlanGpuOffload(const llama_model* model, int gpu_layers);

// "3/3 layers on Vulkan0 (llvmpipe (LLVM 15.0.6, 256 bits))"; "" when no layer is offloaded.
std::string DescribeGpuOffload(const GpuOffload& offload);

// True when `gpu_layers` asks for offloaded layers explicitly: a count above 0, or -2
// (llama-server's "all"); -1 ("auto") and 0 do not.
inline bool RequestsGpuLayers(int gpu_layers) { return gpu_layers > 0 || gpu_layers <= -2; }

}  // namespace strata
