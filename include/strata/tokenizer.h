// tokenizer.h: the tokenizer interface cache accounting counts with.
//
// Providers cache token sequences, not bytes, so every figure strata reports (cached, written,
// uncached tokens) comes from a real tokenizer. The interface lives in the core library so the
// cache models and replay need no inference engine; the loaders below (llama.cpp vocabulary files,
// read with vocab_only: no weights) live in the llama.cpp part of the library, present when
// strata/build_config.h sets STRATA_HAS_LOCAL. Every report names the tokenizer.
//
// The llama.cpp source tree ships vocabulary-only GGUF files, models/ggml-vocab-<name>.gguf
// (gpt-2, llama-bpe, qwen2, phi-3, deepseek-coder, ...). A loaded vocabulary tokenizes through
// llama_tokenize, exactly as llama.cpp tokenizes a prompt (no BOS/EOS, special text not parsed).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "strata/export.h"
#include "strata/status.h"

namespace STRATA_EXPORT strata {

using TokenId = int32_t;

// Token ids of a text with, for each token, the byte offset one past its last byte in the text.
// `ends` is non-decreasing and its last entry is the text size (an empty text has no tokens).
struct TokenizedText {
  std::vector<TokenId> ids;
  std::vector<size_t> ends;
};

class Tokenizer {
 public:
  virtual ~Tokenizer() = default;
  // Names the tokenizer in reports, e.g. "llama.cpp vocab qwen2".
  virtual const std::string& name() const = 0;
  // The ids of `text` as the engine tokenizes a prompt body: no BOS/EOS added, special-token text
  // treated as plain text. Errors: kInvalidArgument when the engine refuses the text.
  virtual Result<std::vector<TokenId>> Tokenize(std::string_view text) const = 0;
  // Tokenize plus byte ends, from the tokens' pieces. Where the pieces do not concatenate to the
  // text exactly (a SentencePiece vocabulary adds a leading space), the difference is taken off
  // the first token, so offsets stay within [0, text.size()].
  virtual Result<TokenizedText> TokenizeWithOffsets(std::string_view text) const = 0;
  // The most text bytes one token stands for, so that a text of B bytes has at least
  // ceil(B / max_token_bytes()) tokens: a lower bound that needs no tokenization (replay uses it
  // to skip measuring a request already known to be large enough). 0: no bound known (the
  // default; vocabularies that drop input bytes, e.g. WordPiece).
  virtual size_t max_token_bytes() const { return 0; }
};

// Number of tokens whose end is at or before byte `offset`: the length in tokens of the prefix
// that ends at that byte (a token straddling it is not part of the prefix).
size_t TokensBefore(const TokenizedText& text, size_t offset);

// ---- Loaders (the llama.cpp part: STRATA_HAS_LOCAL) ----

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
