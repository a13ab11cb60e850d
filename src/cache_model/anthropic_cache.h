// anthropic_cache.h (private): Anthropic's explicit-breakpoint prompt cache as a CacheModel
// (rules in cache_model.h: at most 4 breakpoints, per-model minimum, 20-block lookback, 5 min or
// 1 h TTL refreshed on a hit).
#pragma once

#include <memory>

#include "cache_model/cache_model.h"

namespace strata {

std::unique_ptr<CacheModel> MakeAnthropicCache(const CacheModelOptions& options);

}  // namespace strata
