// hash.h: the hash and pseudo-random helpers every module shares (one implementation each).
//
// SplitMix64 is the deterministic generator behind test models, synthetic redaction text and cache
// model hashing: the same seed gives the same sequence on every platform. Sha256Hex is the
// content address of checkpoints and model fingerprints (OpenSSL).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace strata {

// splitmix64 (Steele, Lea, Flood 2014): advances `*state` and returns the next 64-bit value.
uint64_t SplitMix64Next(uint64_t* state);

// The splitmix64 finaliser alone: a stateless 64-bit mix of `x`.
uint64_t SplitMix64Mix(uint64_t x);

// Lower-case hex of the SHA-256 of `bytes` (64 characters).
std::string Sha256Hex(std::string_view bytes);

// Lower-case hex of `n` raw bytes (2n characters).
std::string HexOf(const unsigned char* bytes, size_t n);

}  // namespace strata
