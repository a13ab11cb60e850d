// vocab_tokenizer.h (private): tokenizers loaded from llama.cpp vocabulary files.
//
// The llama.cpp source tree ships vocabulary-only GGUF files, models/ggml-vocab-<name>.gguf
// (gpt-2, llama-bpe, qwen2, phi-3, deepseek-coder, ...), with bundled test texts
// (ggml-vocab-<name>.gguf.inp / .out). A VocabTokenizer loads one with vocab_only (no weights) and
// tokenizes through llama_tokenize, exactly as llama.cpp tokenizes a prompt (no BOS/EOS, special
// text not parsed). Part of strata_local: it links llama.cpp.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "strata/status.h"
#include "strata/tokenizer.h"

namespace strata {

// Loads `gguf` (a ggml-vocab-*.gguf or any GGUF model: only the vocabulary is read). The
// tokenizer's name is "llama.cpp vocab <stem>" with <stem> the file name without "ggml-vocab-"
// and ".gguf". Errors: kNotFound when the file is missing, kParse when llama.cpp refuses it.
Result<std::unique_ptr<Tokenizer>> LoadVocabTokenizer(const std::filesystem::path& gguf);

// The directory holding the vocabulary files: $STRATA_VOCAB_DIR when set, else the llama.cpp
// source tree found at build time (setup-llama.sh's cache); empty when neither is known.
std::filesystem::path DefaultVocabDir();

// Loads vocabulary `name` (e.g. "qwen2") from `dir` (empty: DefaultVocabDir()), or a path when
// `name` ends in ".gguf". Errors: kNotFound naming the available vocabularies.
Result<std::unique_ptr<Tokenizer>> LoadNamedTokenizer(std::string_view name,
                                                      const std::filesystem::path& dir = {});

// The vocabulary names in `dir` (ggml-vocab-<name>.gguf), sorted.
std::vector<std::string> ListVocabs(const std::filesystem::path& dir);

}  // namespace strata
