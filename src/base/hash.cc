// hash.cc: splitmix64 and SHA-256 hex (hash.h).
#include "base/hash.h"

#include <openssl/sha.h>

namespace strata {

uint64_t SplitMix64Mix(uint64_t x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

uint64_t SplitMix64Next(uint64_t* state) { return SplitMix64Mix(*state += 0x9e3779b97f4a7c15ULL); }

std::string HexOf(const unsigned char* bytes, size_t n) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out(2 * n, '0');
  for (size_t i = 0; i < n; ++i) {
    out[2 * i] = kDigits[bytes[i] >> 4];
    out[2 * i + 1] = kDigits[bytes[i] & 15];
  }
  return out;
}

std::string Sha256Hex(std::string_view bytes) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), digest);
  return HexOf(digest, sizeof digest);
}

}  // namespace strata
