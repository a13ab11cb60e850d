// vocab_model.h: a vocabulary file loaded through llama.cpp itself (vocabulary only), for tests
// that compare strata's tokenizers with llama.cpp's. Only tests built with llama.cpp include it.
#pragma once

#include <llama.h>

#include <filesystem>
#include <string>

#include "tokenize/llama_tokenize.h"

namespace strata::testing {

// llama.cpp's ggml-vocab-<name>.gguf (its source tree's models/ directory).
inline std::filesystem::path LlamaVocabFile(const std::string& name) {
  return std::filesystem::path(STRATA_LLAMA_VOCAB_DIR) / ("ggml-vocab-" + name + ".gguf");
}

// `file` loaded by llama_model_load_from_file with vocab_only; model() is null when the file is
// missing or llama.cpp refuses it.
class VocabModel {
 public:
  explicit VocabModel(const std::filesystem::path& file) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec)) return;
    InitQuietLlamaBackend();
    llama_model_params params = llama_model_default_params();
    params.vocab_only = true;
    model_ = llama_model_load_from_file(file.c_str(), params);
  }
  ~VocabModel() {
    if (model_ != nullptr) llama_model_free(model_);
  }
  VocabModel(const VocabModel&) = delete;
  VocabModel& operator=(const VocabModel&) = delete;

  llama_model* model() const { return model_; }
  const llama_vocab* vocab() const { return llama_model_get_vocab(model_); }

 private:
  llama_model* model_ = nullptr;
};

}  // namespace strata::testing
