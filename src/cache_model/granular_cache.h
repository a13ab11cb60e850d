// granular_cache.h (private): the automatic prefix caches (openai, deepseek, block-hash, radix) as
// one CacheModel: every prefix of `minimum` + k * `granule` tokens is cached, a hit is the longest
// live run of them, with optional retention and LRU capacity.
#pragma once

#include <cstddef>
#include <memory>

#include "cache_model/cache_model.h"

namespace strata {

// `retention_s` 0: entries never expire.
std::unique_ptr<CacheModel> MakeGranularCache(const CacheModelOptions& options, size_t minimum,
                                              size_t granule, double retention_s);

}  // namespace strata
