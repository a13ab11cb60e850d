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

// OpenAI's own vocabularies, o200k_base and cl100k_base, converted from the npm tiktoken package's
// rank data at build time (scripts/make-openai-vocab.sh, tools/make_openai_vocab): the directory
// holding them is $STRATA_OPENAI_VOCAB_DIR when set, else the build's cache. LoadNamedTokenizer
// finds "o200k_base" and "cl100k_base" there when `dir` lacks them.
std::filesystem::path OpenAIVocabDir();

// The tiktoken encoding of an OpenAI model id (a provider prefix such as "openai/" ignored):
// "o200k_base" for gpt-4o, gpt-4.1, gpt-4.5, gpt-5, o1, o3, o4, codex and gpt-oss models,
// "cl100k_base" for gpt-4, gpt-4-turbo, gpt-3.5 and text-embedding models (tiktoken's own model
// table and prefixes); "" for any other model.
std::string_view OpenAIEncodingForModel(std::string_view model);

// `requested` as LoadNamedTokenizer takes it, or "auto": the OpenAI encoding of `model` when it
// has one and its file is built, else `fallback` (a named proxy, e.g. "qwen2"; Anthropic's
// tokenizer is not public). The tokenizer's name says which was taken.
Result<std::unique_ptr<Tokenizer>> LoadTokenizerForModel(std::string_view requested,
                                                         std::string_view model,
                                                         const std::filesystem::path& dir = {},
                                                         std::string_view fallback = "qwen2");

}  // namespace strata
