// cache_model.cc: what every cache model shares (cache_model.h): names, default prices, the cost
// formula, chained prefix hashes, the one hit ratio, and the factory.
#include "cache_model/cache_model.h"

#include <algorithm>

#include "base/common_prefix.h"
#include "base/enum_names.h"
#include "base/hash.h"
#include "cache_model/anthropic_cache.h"
#include "cache_model/granular_cache.h"

namespace strata {
namespace {

constexpr EnumName<CacheModelKind> kKindNames[] = {
    {CacheModelKind::kAnthropic, "anthropic"}, {CacheModelKind::kOpenAi, "openai"},
    {CacheModelKind::kDeepSeek, "deepseek"},   {CacheModelKind::kBlockHash, "block-hash"},
    {CacheModelKind::kRadix, "radix"},
};

}  // namespace

const char* CacheModelName(CacheModelKind kind) {
  return NameOf(kKindNames, kind).data();  // the table's literals end in NUL
}

Result<CacheModelKind> ParseCacheModelKind(std::string_view name) {
  if (auto kind = ValueOf(kKindNames, name)) return *kind;
  if (name == "vllm") return CacheModelKind::kBlockHash;
  if (name == "sglang") return CacheModelKind::kRadix;
  return MakeError(ErrorKind::kInvalidArgument,
                   "unknown provider '" + std::string(name) +
                       "' (anthropic, openai, deepseek, block-hash|vllm, radix|sglang)");
}

Pricing DefaultPricing(CacheModelKind kind) {
  switch (kind) {
    case CacheModelKind::kAnthropic:
      return {3.0, 0.1, 1.25, 2.0};
    case CacheModelKind::kOpenAi:
      return {1.25, 0.1, 1.0, 1.0};
    case CacheModelKind::kDeepSeek:
      return {0.28, 0.1, 1.0, 1.0};
    case CacheModelKind::kBlockHash:
    case CacheModelKind::kRadix:
      return {1.0, 0.0, 1.0, 1.0};
  }
  return {};
}

size_t AnthropicMinimumCacheableTokens(std::string_view model) {
  std::string m(model);
  std::transform(m.begin(), m.end(), m.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  auto has = [&](std::string_view s) { return m.find(s) != std::string::npos; };
  if (has("haiku-4-5") || has("haiku-4.5")) return 4096;
  if (has("opus-4-5") || has("opus-4.5") || has("opus-4-6") || has("opus-4.6") || has("opus-4-7") ||
      has("opus-5")) {
    return 4096;
  }
  if (has("haiku-3") || has("3-haiku") || has("3-5-haiku")) return 2048;
  return 1024;
}

double HitRatio(size_t read_tokens, size_t input_tokens) {
  return input_tokens == 0 ? 0.0 : double(read_tokens) / double(input_tokens);
}

double CacheUsage::HitRatio() const { return strata::HitRatio(cache_read_tokens, input_tokens); }

double RecordedUsage::HitRatio() const { return strata::HitRatio(cache_read_tokens, input_tokens); }

double CacheModel::Cost(const CacheUsage& u) const {
  const Pricing& p = pricing_;
  double w5 = double(u.cache_write_tokens - u.cache_write_1h_tokens);
  return (double(u.uncached_tokens) * p.input_per_mtok +
          double(u.cache_read_tokens) * p.input_per_mtok * p.read_multiplier +
          w5 * p.input_per_mtok * p.write_5m_multiplier +
          double(u.cache_write_1h_tokens) * p.input_per_mtok * p.write_1h_multiplier) /
         1e6;
}

namespace {

uint64_t ChainHash(uint64_t parent, TokenId token) {
  uint64_t x = parent ^ (uint64_t(uint32_t(token)) * 0x100000001b3ULL);
  return SplitMix64Next(&x);  // the splitmix64 step of x: its golden-ratio add, then the mix
}

}  // namespace

uint64_t ChainPrefixHash(uint64_t h, TokenId next) { return ChainHash(h, next); }

uint64_t ModelSalt(std::string_view model) {
  uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a, then mixed
  for (unsigned char c : model) h = (h ^ c) * 0x100000001b3ULL;
  return SplitMix64Mix(h);
}

std::vector<uint64_t> PrefixHashes(std::span<const TokenId> tokens) {
  std::vector<uint64_t> h(tokens.size() + 1);
  h[0] = 0x5354524154410000ULL;  // "STRATA"
  for (size_t i = 0; i < tokens.size(); ++i) h[i + 1] = ChainHash(h[i], tokens[i]);
  return h;
}

bool PrefixHasher::Update(std::span<const TokenId> tokens, size_t known, bool exact,
                          std::vector<TokenId>* dropped) {
  size_t keep = std::min({known, size_, tokens.size()});
  const bool had_copy = copied_;
  if (dropped != nullptr) dropped->clear();
  if (exact) {
    if (dropped != nullptr && copied_)
      dropped->assign(tokens_.begin() + std::ptrdiff_t(keep), tokens_.end());
    std::vector<TokenId>().swap(tokens_);
    copied_ = false;
  } else {
    if (copied_) {
      keep +=
          CommonPrefixLength(std::span<const TokenId>(tokens_).subspan(keep), tokens.subspan(keep));
      if (dropped != nullptr)
        dropped->assign(tokens_.begin() + std::ptrdiff_t(keep), tokens_.end());
      tokens_.resize(keep);  // copy only the new tokens: the kept ones are equal
      tokens_.insert(tokens_.end(), tokens.begin() + std::ptrdiff_t(keep), tokens.end());
    } else {
      tokens_.assign(tokens.begin(), tokens.end());
    }
    copied_ = true;
  }
  shared_ = keep;
  size_ = tokens.size();
  current_ = tokens;
  kept_.resize(keep / kStride + 1);  // the hashes at or below `keep` hold
  uint64_t h = kept_.back();
  for (size_t i = (kept_.size() - 1) * kStride; i < tokens.size(); ++i) {
    h = ChainHash(h, tokens[i]);
    if ((i + 1) % kStride == 0) kept_.push_back(h);
  }
  return had_copy;
}

uint64_t PrefixHasher::At(size_t len) const {
  uint64_t h = kept_[len / kStride];
  for (size_t i = len / kStride * kStride; i < len; ++i) h = ChainHash(h, current_[i]);
  return h;
}

size_t CacheMinimumTokens(const CacheModelOptions& o) {
  switch (o.kind) {
    case CacheModelKind::kOpenAi:
      return 1024;
    case CacheModelKind::kDeepSeek:
      return 64;
    default:
      return CacheGranuleTokens(o);
  }
}

size_t CacheGranuleTokens(const CacheModelOptions& o) {
  switch (o.kind) {
    case CacheModelKind::kOpenAi:
      return 128;
    case CacheModelKind::kDeepSeek:
      return 64;
    case CacheModelKind::kBlockHash:
      return std::max<size_t>(1, o.block_tokens);
    default:
      return 1;
  }
}

std::unique_ptr<CacheModel> MakeCacheModel(const CacheModelOptions& o) {
  auto retention = [&](double def) { return o.retention_s < 0 ? def : o.retention_s; };
  const size_t minimum = CacheMinimumTokens(o), granule = CacheGranuleTokens(o);
  switch (o.kind) {
    case CacheModelKind::kAnthropic:
      return MakeAnthropicCache(o);
    case CacheModelKind::kOpenAi:
      return MakeGranularCache(o, minimum, granule, retention(600));
    case CacheModelKind::kDeepSeek:
      return MakeGranularCache(o, minimum, granule, retention(3600));
    case CacheModelKind::kBlockHash:
    case CacheModelKind::kRadix:
      return MakeGranularCache(o, minimum, granule, retention(0));
  }
  return nullptr;
}

}  // namespace strata
