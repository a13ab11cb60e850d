// llama_tokenize.cc: the one llama_tokenize call site (llama_tokenize.h).
#include "tokenize/llama_tokenize.h"

#include <llama.h>

#include <cstdio>
#include <cstdlib>

#include <algorithm>
#include <climits>
#include <exception>
#include <string>

namespace strata {

Result<std::vector<int32_t>> LlamaTokenize(const llama_vocab* vocab, std::string_view text,
                                           bool add_special, bool parse_special) {
  if (text.size() > static_cast<size_t>(INT32_MAX / 2)) {
    return MakeError(ErrorKind::kLimit, "text too long to tokenize");
  }
  std::vector<llama_token> ids(text.size() + 8);
  // llama.cpp's C function throws from inside on some texts (its pre-tokenizer regex refuses a
  // code point past U+10FFFF that a lenient UTF-8 decode produced): an error value here, never an
  // exception through a C API into a server loop.
  std::string failure;
  auto call = [&]() -> int32_t {
    try {
      return llama_tokenize(vocab, text.data(), static_cast<int32_t>(text.size()), ids.data(),
                            static_cast<int32_t>(ids.size()), add_special, parse_special);
    } catch (const std::exception& e) {
      failure = e.what();
      return INT32_MIN;
    }
  };
  int32_t n = call();
  if (n < 0 && n != INT32_MIN) {
    ids.resize(static_cast<size_t>(-n));
    n = call();
  }
  if (n < 0) {
    return MakeError(ErrorKind::kInvalidArgument,
                     "llama.cpp could not tokenize the text" +
                         (failure.empty() ? std::string() : ": " + failure));
  }
  ids.resize(static_cast<size_t>(n));
  return ids;
}

size_t MaxTokenBytes(const llama_vocab* vocab) {
  const enum llama_vocab_type type = llama_vocab_type(vocab);
  if (type != LLAMA_VOCAB_TYPE_BPE && type != LLAMA_VOCAB_TYPE_SPM) return 0;
  size_t longest = 1;
  std::vector<char> piece(256);
  const int32_t n_tokens = llama_vocab_n_tokens(vocab);
  for (llama_token t = 0; t < n_tokens; ++t) {
    int32_t n = llama_token_to_piece(vocab, t, piece.data(), static_cast<int32_t>(piece.size()),
                                     /*lstrip=*/0, /*special=*/true);
    if (n < 0) {
      piece.resize(static_cast<size_t>(-n));
      n = llama_token_to_piece(vocab, t, piece.data(), static_cast<int32_t>(piece.size()), 0, true);
    }
    if (n > 0) longest = std::max(longest, static_cast<size_t>(n));
  }
  return longest;
}

size_t MaxTokenBytes(const llama_model* model) {
  return MaxTokenBytes(llama_model_get_vocab(model));
}

namespace {

void QuietLog(ggml_log_level level, const char* text, void*) {
  if (std::getenv("STRATA_LLAMA_LOG") != nullptr || level == GGML_LOG_LEVEL_ERROR) {
    std::fputs(text, stderr);
  }
}

}  // namespace

void InitQuietLlamaBackend() {
  llama_log_set(QuietLog, nullptr);
  llama_backend_init();
}

}  // namespace strata
