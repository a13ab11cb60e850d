// local_model.h: the llama.cpp model inside a LocalModel (include/strata/local_session.h keeps it
// opaque, so the public API carries no llama.cpp type), for the code that calls llama.cpp.
#pragma once

#include <llama.h>

#include <cstdint>
#include <string_view>
#include <vector>

#include "strata/local_session.h"

namespace strata {

struct LocalModelAccess {
  static llama_model* Get(const LocalModel& model);
};

// The loaded llama.cpp model of `model` (never null; owned by `model`).
inline llama_model* LlamaModel(const LocalModel& model) { return LocalModelAccess::Get(model); }

// Tokens of `text` under the model's vocabulary (special tokens parsed), with BOS when add_special.
Result<std::vector<int32_t>> TokenizeText(const LocalModel& model, std::string_view text,
                                          bool add_special);

// The checkpoint identity for a rendered prefix under `engine` and `reasoning_mode` (the prefix
// engine's, local/prefix_engine.h, replaces chat_template with the digest of the template in use).
CheckpointIdentity MakeIdentity(const LocalModel& model, const EngineOptions& engine,
                                std::string_view reasoning_mode, std::string_view prefix_text);

}  // namespace strata
