// vocab_tokenizer.cc: the Tokenizer backed by a llama.cpp vocabulary (vocab-only model load).
// llama.cpp's log output is dropped unless STRATA_LLAMA_LOG is set (errors always print).
// A byte-level BPE vocabulary whose pre-tokenizer strata runs itself (llama_pre_tokenizer.h:
// qwen2, llama3, gpt-2, o200k_base) gets strata's own tokenizer over the same file
// (byte_bpe_tokenizer.h): llama.cpp's ids, several times faster, and the llama.cpp model is freed.
#include "strata/accounting.h"

#include <llama.h>
#include <malloc.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <system_error>

#include "tokenize/byte_bpe.h"
#include "tokenize/byte_bpe_tokenizer.h"
#include "tokenize/llama_pre_tokenizer.h"
#include "tokenize/llama_tokenize.h"
#include "tokenize/user_tokens.h"

namespace strata {
namespace {

class VocabTokenizer final : public Tokenizer {
 public:
  VocabTokenizer(llama_model* model, std::string name) : model_(model), name_(std::move(name)) {
    vocab_ = llama_model_get_vocab(model_);
  }
  ~VocabTokenizer() override { llama_model_free(model_); }

  const std::string& name() const override { return name_; }

  Result<std::vector<TokenId>> Tokenize(std::string_view text) const override {
    return LlamaTokenize(vocab_, text, /*add_special=*/false, /*parse_special=*/false);
  }

  // Computed on first use (reading every piece takes ~0.1 s for a 150k vocabulary).
  size_t max_token_bytes() const override {
    std::call_once(max_once_, [&] { max_token_bytes_ = MaxTokenBytes(vocab_); });
    return max_token_bytes_;
  }

  Result<TokenizedText> TokenizeWithOffsets(std::string_view text) const override {
    auto ids = Tokenize(text);
    if (!ids) return tl::unexpected(ids.error());
    TokenizedText out;
    out.ids = std::move(*ids);
    out.ends.reserve(out.ids.size());
    std::vector<size_t> lengths;
    lengths.reserve(out.ids.size());
    size_t total = 0;
    char buf[256];
    for (TokenId id : out.ids) {
      int32_t n = llama_token_to_piece(vocab_, id, buf, sizeof buf, 0, false);
      size_t len = n > 0 ? static_cast<size_t>(n) : 0;
      lengths.push_back(len);
      total += len;
    }
    // Pieces longer than the text (an added leading space): take the excess off the first token.
    size_t excess = total > text.size() ? total - text.size() : 0;
    size_t end = 0;
    for (size_t i = 0; i < lengths.size(); ++i) {
      size_t len = lengths[i];
      if (excess > 0) {
        size_t cut = std::min(excess, len);
        len -= cut;
        excess -= cut;
      }
      end = std::min(end + len, text.size());
      out.ends.push_back(end);
    }
    if (!out.ends.empty()) out.ends.back() = text.size();
    return out;
  }

 private:
  llama_model* model_ = nullptr;
  const llama_vocab* vocab_ = nullptr;
  std::string name_;
  mutable std::once_flag max_once_;
  mutable size_t max_token_bytes_ = 0;
};

std::string VocabStem(const std::filesystem::path& path) {
  std::string stem = path.filename().string();
  if (stem.starts_with("ggml-vocab-")) stem = stem.substr(11);
  if (stem.ends_with(".gguf")) stem.resize(stem.size() - 5);
  return stem;
}

}  // namespace

Result<std::unique_ptr<Tokenizer>> LoadVocabTokenizer(const std::filesystem::path& gguf) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(gguf, ec)) {
    return MakeError(ErrorKind::kNotFound, "vocabulary file not found", {gguf.string()});
  }
  InitQuietLlamaBackend();
  llama_model_params params = llama_model_default_params();
  params.vocab_only = true;
  params.n_gpu_layers = 0;
  llama_model* model = llama_model_load_from_file(gguf.c_str(), params);
  if (model == nullptr) {
    return MakeError(ErrorKind::kParse, "llama.cpp cannot load the vocabulary", {gguf.string()});
  }
  std::string name = "llama.cpp vocab " + VocabStem(gguf);
  // Loading a vocabulary reads the whole GGUF metadata (every token and merge as a string) and
  // frees it again: malloc_trim gives that memory back, or it stays in the process beside the
  // requests replay then builds (a 50 MB message peaks ~20 MB lower).
  // A vocabulary strata tokenizes as llama.cpp does without its model: a byte-level BPE one with
  // a pre-tokenizer it runs and only user-defined tokens it splits out the same way.
  std::optional<LlamaPreTokenizer> pre = LlamaPreTokenizer::For(model);
  std::optional<UserTokens> user_tokens;
  if (pre) user_tokens = UserTokens::FromVocab(llama_model_get_vocab(model));
  if (pre && user_tokens) {
    llama_model_free(model);  // ~33 MB for qwen2, ~50 MB for o200k_base: its own tables do not
    auto bpe = ByteBpe::Load(gguf);
    malloc_trim(0);
    if (!bpe) return tl::unexpected(bpe.error());
    return MakeByteBpeTokenizer(std::move(name), std::move(*bpe), std::move(*pre),
                                std::move(*user_tokens));
  }
  malloc_trim(0);
  return std::unique_ptr<Tokenizer>(new VocabTokenizer(model, std::move(name)));
}

namespace {

// $`variable` when set and not empty, else `built_in` (the directory known at build time).
std::filesystem::path DirFromEnvironment(const char* variable, const char* built_in) {
  if (const char* env = std::getenv(variable); env != nullptr && *env != '\0') return env;
  return built_in;
}

}  // namespace

std::filesystem::path DefaultVocabDir() {
#ifdef STRATA_LLAMA_VOCAB_DIR
  return DirFromEnvironment("STRATA_VOCAB_DIR", STRATA_LLAMA_VOCAB_DIR);
#else
  return DirFromEnvironment("STRATA_VOCAB_DIR", "");
#endif
}

std::vector<std::string> ListVocabs(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  if (dir.empty() || !std::filesystem::is_directory(dir, ec)) return names;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    std::string file = entry.path().filename().string();
    if (file.starts_with("ggml-vocab-") && file.ends_with(".gguf")) {
      names.push_back(VocabStem(entry.path()));
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::filesystem::path OpenAIVocabDir() {
#ifdef STRATA_OPENAI_VOCAB_DIR
  return DirFromEnvironment("STRATA_OPENAI_VOCAB_DIR", STRATA_OPENAI_VOCAB_DIR);
#else
  return DirFromEnvironment("STRATA_OPENAI_VOCAB_DIR", "");
#endif
}

std::string_view OpenAIEncodingForModel(std::string_view model) {
  if (model.starts_with("openai/")) model.remove_prefix(7);
  for (std::string_view prefix : {"gpt-4o", "chatgpt-4o", "gpt-4.1", "gpt-4.5", "gpt-5", "o1", "o3",
                                  "o4", "codex-", "gpt-oss", "gpt-realtime", "gpt-audio"}) {
    if (model.starts_with(prefix)) return "o200k_base";
  }
  for (std::string_view prefix : {"gpt-4", "gpt-3.5", "gpt-35", "text-embedding-ada-002",
                                  "text-embedding-3", "davinci-002", "babbage-002"}) {
    if (model.starts_with(prefix)) return "cl100k_base";
  }
  return {};
}

Result<std::unique_ptr<Tokenizer>> LoadTokenizerForModel(std::string_view requested,
                                                         std::string_view model,
                                                         const std::filesystem::path& dir,
                                                         std::string_view fallback) {
  if (requested != "auto") return LoadNamedTokenizer(requested, dir);
  std::string_view encoding = OpenAIEncodingForModel(model);
  std::error_code ec;
  if (!encoding.empty() &&
      std::filesystem::is_regular_file(
          OpenAIVocabDir() / ("ggml-vocab-" + std::string(encoding) + ".gguf"), ec)) {
    return LoadNamedTokenizer(encoding, dir);
  }
  return LoadNamedTokenizer(fallback, dir);
}

Result<std::unique_ptr<Tokenizer>> LoadNamedTokenizer(std::string_view name,
                                                      const std::filesystem::path& dir) {
  if (name == "estimate") return MakeEstimateTokenizer();
  if (name.ends_with(".gguf")) return LoadVocabTokenizer(std::filesystem::path(name));
  if (name == "o200k_base" || name == "cl100k_base") {
    std::filesystem::path openai = OpenAIVocabDir() / ("ggml-vocab-" + std::string(name) + ".gguf");
    std::error_code ec;
    if (std::filesystem::is_regular_file(openai, ec)) return LoadVocabTokenizer(openai);
  }
  std::filesystem::path base = dir.empty() ? DefaultVocabDir() : dir;
  if (base.empty()) {
    return MakeError(ErrorKind::kNotFound,
                     "no vocabulary directory: set STRATA_VOCAB_DIR or pass --vocab-dir "
                     "(llama.cpp's models/ directory, see scripts/setup-llama.sh)");
  }
  std::filesystem::path path = base / ("ggml-vocab-" + std::string(name) + ".gguf");
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    std::string known;
    for (const auto& v : ListVocabs(base)) known += (known.empty() ? "" : ", ") + v;
    return MakeError(ErrorKind::kNotFound,
                     "unknown tokenizer '" + std::string(name) + "' (available: " + known +
                         "; \"estimate\" needs no vocabulary)",
                     {base.string()});
  }
  return LoadVocabTokenizer(path);
}

}  // namespace strata
