// local_model.cc: loads a GGUF model with llama.cpp on the CPU and computes its fingerprint.
// llama.cpp's log output is dropped unless STRATA_LLAMA_LOG is set, so the CLI's stderr stays
// readable.
#include <llama.h>

#include <stdexcept>

#include "strata/local_session.h"
#include "tokenize/llama_tokenize.h"

namespace strata {

Result<std::unique_ptr<LocalModel>> LocalModel::Load(const std::filesystem::path& gguf,
                                                     const std::filesystem::path& fingerprint_cache,
                                                     int gpu_layers, WeightMemory memory) {
  auto fp = FingerprintModel(gguf, fingerprint_cache);
  if (!fp) return tl::unexpected(fp.error());
  InitQuietLlamaBackend();
  llama_model_params params = llama_model_default_params();
  params.n_gpu_layers = gpu_layers;
  try {
    params.load_mode = llama_load_mode_from_str(memory.load_mode.c_str());
  } catch (const std::invalid_argument&) {
    return MakeError(ErrorKind::kInvalidArgument,
                     "unknown load mode '" + memory.load_mode +
                         "' (auto, none, mmap, mlock, mmap+mlock or dio)");
  }
  llama_model* model = llama_model_load_from_file(gguf.c_str(), params);
  if (model == nullptr)
    return MakeError(ErrorKind::kParse, "llama.cpp cannot load the model", {gguf.string()});
  std::unique_ptr<LocalModel> out(new LocalModel());
  out->model_ = model;
  out->fingerprint_ = std::move(*fp);
  out->path_ = gguf;
  out->template_ = out->fingerprint_.chat_template;
  return out;
}

LocalModel::~LocalModel() {
  if (model_ != nullptr) llama_model_free(model_);
}

}  // namespace strata
