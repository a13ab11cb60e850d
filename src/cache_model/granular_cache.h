// granular_cache.h (private): the automatic prefix caches (openai, deepseek, block-hash, radix) as
// one CacheModel: every prefix of `minimum` + k * `granule` tokens is cached, a hit is the longest
// live run of them, with optional retention and LRU capacity.
//
// Memory without retention or capacity (radix, block-hash): the prefixes the last request cached
// (the chain) hold no key, since a request reads them through the tokens it shares with that one;
// a prefix is keyed (9 to 14 bytes) when a request leaves it, from the previous request's tokens
// (CacheRequest::previous_tail, or the hasher's copy). A session that only appends, or one huge
// request, holds no key per token; a branching one holds keys for what left the chain.
#pragma once

#include <cstddef>
#include <memory>

#include "cache_model/cache_model.h"

namespace strata {

// `retention_s` 0: entries never expire.
std::unique_ptr<CacheModel> MakeGranularCache(const CacheModelOptions& options, size_t minimum,
                                              size_t granule, double retention_s);

}  // namespace strata
