// accounting.h: the vocabulary of cache accounting that log readers, cache models and replay
// share: the provider cache model to apply and its prices, the usage a model computes, the usage a
// provider recorded, the log formats strata reads (docs/replay.md states each rule), and the
// tokenizer interface every count comes from (first, below).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "strata/status.h"

// The tokenizer interface cache accounting counts with.
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

// The tokenizer that needs no vocabulary, for accounting where none is at hand (a build without
// llama.cpp, a machine without the vocabulary files): whole UTF-8 characters packed into tokens
// of at most 4 bytes, left to right, a NUL byte a token of its own (a byte that does not start a
// UTF-8 character counts as one). Real vocabularies average 3 to 4.5 bytes per token on English
// text and code, so counts are an estimate of the right size, not a provider's figures; what it
// keeps exact is the structure the cache models need: equal text gives equal tokens, and a
// prefix of the text tokenizes as a prefix of the text's tokens but for its last token. Ids are the
// token's bytes packed little-endian (unique). Named "estimate (4 bytes per token, no
// vocabulary)"; part of the core library. Never fails.
std::unique_ptr<Tokenizer> MakeEstimateTokenizer();

// ---- Loaders (the llama.cpp part: STRATA_HAS_LOCAL) ----

// Loads `gguf` (a ggml-vocab-*.gguf or any GGUF model: only the vocabulary is read). The
// tokenizer's name is "llama.cpp vocab <stem>" with <stem> the file name without "ggml-vocab-"
// and ".gguf". A byte-level BPE vocabulary whose pre-tokenizer strata runs (qwen2, llama-bpe,
// gpt-2, mpt, o200k_base, cl100k_base: src/tokenize/llama_pre_tokenizer.h) is tokenized without
// llama.cpp's model, which is freed after the load, with llama.cpp's ids. Errors: kNotFound when
// the file is missing, kParse when llama.cpp refuses it.
Result<std::unique_ptr<Tokenizer>> LoadVocabTokenizer(const std::filesystem::path& gguf);

// The directory holding the vocabulary files: $STRATA_VOCAB_DIR when set, else the llama.cpp
// source tree found at build time (setup-llama.sh's cache); empty when neither is known.
std::filesystem::path DefaultVocabDir();

// Loads vocabulary `name` (e.g. "qwen2") from `dir` (empty: DefaultVocabDir()), or a path when
// `name` ends in ".gguf"; "estimate" gives MakeEstimateTokenizer(). Errors: kNotFound naming the
// available vocabularies.
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

namespace STRATA_EXPORT strata {

// read / input, 0 when input is 0: every hit ratio strata prints is this one quotient.
double HitRatio(size_t read_tokens, size_t input_tokens);

// ---- The cache model to replay against ----

enum class CacheModelKind { kAnthropic, kOpenAi, kDeepSeek, kBlockHash, kRadix };

// "anthropic", "openai", "deepseek", "block-hash", "radix".
const char* CacheModelName(CacheModelKind kind);
// The inverse of CacheModelName; also accepts "vllm" (block-hash) and "sglang" (radix).
// kInvalidArgument naming the accepted values otherwise.
Result<CacheModelKind> ParseCacheModelKind(std::string_view name);

// Prices in dollars per million tokens. Cost of a request =
//   (uncached * input + read * input * read_multiplier + write_5m * input * write_5m_multiplier
//    + write_1h * input * write_1h_multiplier) / 1e6.
struct Pricing {
  double input_per_mtok = 0;
  double read_multiplier = 0.1;
  double write_5m_multiplier = 1.0;
  double write_1h_multiplier = 1.0;
};

// Documented defaults: anthropic $3/Mtok (Sonnet 4.x), read 0.1, write 1.25 / 2.0; openai
// $1.25/Mtok (GPT-5), read 0.1, write 1.0; deepseek $0.28/Mtok (cache-miss price), read 0.1,
// write 1.0; block-hash and radix: a nominal 1 unit per million prefilled tokens, read 0
// (a local engine pays in compute for what it prefills, nothing for what it reuses).
Pricing DefaultPricing(CacheModelKind kind);

struct CacheModelOptions {
  CacheModelKind kind = CacheModelKind::kAnthropic;
  Pricing pricing;  // set use_default_pricing = false to use it
  bool use_default_pricing = true;
  double retention_s = -1;      // openai/deepseek retention; < 0: the default; 0: forever
  size_t capacity_tokens = 0;   // block-hash/radix LRU capacity; 0: unbounded
  size_t block_tokens = 16;     // block-hash block size
  size_t lookback_blocks = 20;  // anthropic
  size_t max_breakpoints = 4;   // anthropic
  size_t minimum_tokens = 0;    // anthropic: overrides the per-model minimum when > 0
};

// What the cache model says about one request.
struct CacheUsage {
  size_t input_tokens = 0;  // the whole prompt = read + write + uncached
  size_t cache_read_tokens = 0;
  size_t cache_write_tokens = 0;  // newly cached (5 min and 1 h together)
  size_t cache_write_1h_tokens = 0;
  size_t uncached_tokens = 0;
  double cost = 0;                 // dollars (or nominal units for engines), see Pricing
  std::vector<std::string> notes;  // rule applications worth reporting, e.g. an ignored breakpoint
  double HitRatio() const;         // read / input; 0 for an empty prompt
};

// Usage figures the provider reported for one request, when the log records them.
struct RecordedUsage {
  size_t input_tokens = 0;  // the whole prompt (uncached + cache read + cache write)
  size_t cache_read_tokens = 0;
  size_t cache_write_tokens = 0;
  double HitRatio() const;  // read / input; 0 for an empty prompt
};

// ---- The log formats ----

// The provider API a captured request was written for (`strata record` files, explain inputs):
// "anthropic-messages" (POST /v1/messages), "openai-chat" (POST /v1/chat/completions),
// "openai-responses" (POST /v1/responses).
enum class RequestApi { kAnthropicMessages, kOpenAiChat, kOpenAiResponses };
const char* RequestApiName(RequestApi api);
// The inverse of RequestApiName; kInvalidArgument naming the accepted values otherwise.
Result<RequestApi> ParseRequestApi(std::string_view name);

// strata: strata's own JSONL transcript; claude-code: Claude Code session logs
// (~/.claude/projects/*/*.jsonl, subagent files included); codex: Codex CLI and Codex Desktop
// rollouts; recorded: the requests `strata record` captured (one line per request, full body and
// the provider's usage); openhands: an OpenHands evaluation output.jsonl (one instance per line,
// system prompt and tools in history[0], usage per response); swe-agent: a SWE-agent `.traj`
// trajectory (one JSON document; only the total input is recorded). docs/replay.md describes each.
enum class TranscriptFormat { kStrata, kClaudeCode, kCodex, kRecorded, kOpenHands, kSweAgent };
// "strata", "claude-code", "codex", "recorded", "openhands", "swe-agent"
const char* TranscriptFormatName(TranscriptFormat format);
Result<TranscriptFormat> ParseTranscriptFormat(std::string_view name);
// The format of the log `log` holds, told from its first 20 non-blank lines (a document over
// several lines, as a SWE-agent .traj is written, from the whole): the first line carrying a
// member only one format has decides (recorded: api and request; openhands: instance_id and
// history; swe-agent: trajectory, or history and info; codex: payload with a Codex record type;
// claude-code: uuid, sessionId, leafUuid, messageId, parentUuid or a message object; strata: a
// strata event type).
// kInvalidArgument naming `path` and the --format values when no line decides, or saying the log
// is empty.
Result<TranscriptFormat> DetectTranscriptFormat(std::string_view log, std::string_view path);

// ---- Accounting the requests a harness sends ----

class Tokenizer;

// A cache breakpoint of an accounted request, in tokens.
struct TokenBreakpointReport {
  std::string block;  // the canonical block it closes, e.g. "system[1]", "messages[3].content[0]"
  size_t tokens = 0;  // the prefix [0, tokens) it marks
  std::string ttl;    // "5m" or "1h"
};

// What the cache model says about one request a harness rendered and sent.
struct AccountedRequest {
  CacheUsage usage;          // read / write / uncached tokens, cost, notes
  size_t shared_tokens = 0;  // leading tokens equal to the previous request's (the bound
                             // any cache can reach)
  std::vector<TokenBreakpointReport> breakpoints;  // the request's own, in order
};

// Accounts a conversation's requests, one after another, under one provider's cache model
// (the rules of replay.h), as `strata replay --layout recorded` accounts recorded requests: each
// request body is read as its provider caches it (its canonical prompt, docs/replay.md), cut at
// every content block and breakpoint, tokenized with `tokenizer` piece by piece, and passed to
// the cache model, which remembers what earlier requests cached. Not thread-safe.
class RequestAccountant {
 public:
  // `tokenizer` must outlive the accountant.
  RequestAccountant(const Tokenizer& tokenizer, const CacheModelOptions& options);
  RequestAccountant(RequestAccountant&&) noexcept;
  RequestAccountant& operator=(RequestAccountant&&) noexcept;
  ~RequestAccountant();

  // Accounts `request` (a request body for `api`) sent at `time_s` seconds on any fixed clock
  // (non-decreasing; an earlier time is taken as the previous request's). Errors: kParse for a
  // body that is not JSON or a prompt member of the wrong shape (naming the member path);
  // kInvalidArgument from the tokenizer.
  Result<AccountedRequest> Account(std::string_view request, RequestApi api, double time_s);

  // "anthropic: explicit breakpoints, ..." (the cache model's rules, one line).
  std::string Describe() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// The request API a render provider writes: anthropic -> anthropic-messages, openai-chat,
// openai-responses. kInvalidArgument for the chat-template text render (no provider API).
Result<RequestApi> RequestApiOfProvider(std::string_view provider);

}  // namespace strata
