// local_model.cc: loads a GGUF model with llama.cpp (on the CPU, or with layers offloaded to a GPU
// backend) and computes its fingerprint; the model's tokenization and the checkpoint identity of a
// prefix under it.
// llama.cpp's log output is dropped unless STRATA_LLAMA_LOG is set, so the CLI's stderr stays
// readable.
#include <llama.h>

#include <algorithm>
#include <stdexcept>

#include "base/hash.h"
#include "local/gpu_offload.h"
#include "local/local_model.h"
#include "tokenize/llama_tokenize.h"

namespace strata {

struct LocalModel::Weights {
  llama_model* model = nullptr;
  ~Weights() {
    if (model != nullptr) llama_model_free(model);
  }
};

LocalModel::LocalModel() : weights_(std::make_unique<Weights>()) {}

llama_model* LocalModelAccess::Get(const LocalModel& model) { return model.weights_->model; }

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
  out->weights_->model = model;
  out->fingerprint_ = std::move(*fp);
  out->path_ = gguf;
  out->template_ = out->fingerprint_.chat_template;
  out->offload_ = DescribeGpuOffload(PlanGpuOffload(model, gpu_layers));
  return out;
}

LocalModel::~LocalModel() = default;

size_t LocalModel::max_token_bytes() const { return MaxTokenBytes(LlamaModel(*this)); }

Result<std::vector<int32_t>> TokenizeText(const LocalModel& model, std::string_view text,
                                          bool add_special) {
  return LlamaTokenize(llama_model_get_vocab(LlamaModel(model)), text, add_special,
                       /*parse_special=*/true);
}

CheckpointIdentity MakeIdentity(const LocalModel& model, const EngineOptions& engine,
                                std::string_view reasoning_mode, std::string_view prefix_text) {
  CheckpointIdentity id;
  id.engine = STRATA_LLAMA_BUILD;
  // Offloaded layers compute other KV bytes than the CPU (CPU-only identities stay as they were).
  if (!model.offload().empty()) id.engine += " offload " + model.offload();
  id.model = model.fingerprint().digest;
  id.tokenizer = model.fingerprint().tokenizer;
  id.chat_template = Sha256Hex(model.chat_template());
  id.reasoning_mode = std::string(reasoning_mode);
  id.n_ctx = engine.n_ctx;
  id.type_k = engine.type_k;
  id.type_v = engine.type_v;
  id.flash_attn = engine.flash_attn;
  id.n_batch = engine.n_batch;
  id.n_ubatch = std::min(engine.n_ubatch, engine.n_batch);
  id.prefix_sha256 = Sha256Hex(prefix_text);
  return id;
}

}  // namespace strata
