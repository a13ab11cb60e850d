// checkpoint.cc: the checkpoint identity, key, and file format (encode, verify, decode). See
// include/strata/checkpoint.h for the layout. Verification is ordered from cheap to expensive and
// every refusal names its reason, because the session reports it as `rebuilt: <reason>`.
#include "strata/checkpoint.h"

#include <fmt/format.h>
#include <openssl/sha.h>
#include <xxhash.h>

#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>

namespace strata {
namespace {

constexpr size_t kFixedHead = 16;  // magic + version + header length
constexpr char kBodySumField[] = "\"body_xxh3\":\"";

uint32_t ReadU32(std::string_view s, size_t at) {
  uint32_t v = 0;
  for (int b = 3; b >= 0; --b) v = (v << 8) | static_cast<uint8_t>(s[at + b]);
  return v;
}
uint64_t ReadU64(std::string_view s, size_t at) {
  uint64_t v = 0;
  for (int b = 7; b >= 0; --b) v = (v << 8) | static_cast<uint8_t>(s[at + b]);
  return v;
}
void PutU32(std::string& s, uint32_t v) {
  for (int b = 0; b < 4; ++b) s.push_back(static_cast<char>((v >> (8 * b)) & 0xff));
}
void WriteU64(std::string& s, size_t at, uint64_t v) {
  for (int b = 0; b < 8; ++b) s[at + b] = static_cast<char>((v >> (8 * b)) & 0xff);
}

nlohmann::json IdentityObject(const CheckpointIdentity& id) {
  // nlohmann::json objects keep keys sorted, so dump() is canonical.
  return nlohmann::json{{"engine", id.engine},
                        {"model", id.model},
                        {"tokenizer", id.tokenizer},
                        {"chat_template", id.chat_template},
                        {"reasoning_mode", id.reasoning_mode},
                        {"n_ctx", id.n_ctx},
                        {"type_k", id.type_k},
                        {"type_v", id.type_v},
                        {"flash_attn", id.flash_attn},
                        {"n_batch", id.n_batch},
                        {"n_ubatch", id.n_ubatch},
                        {"prefix_sha256", id.prefix_sha256}};
}

// Names the first identity field that differs, for the rebuild reason.
std::string FirstDifference(const CheckpointIdentity& a, const CheckpointIdentity& b) {
  const nlohmann::json ja = IdentityObject(a), jb = IdentityObject(b);
  for (auto it = ja.begin(); it != ja.end(); ++it) {
    if (!jb.contains(it.key()) || jb[it.key()] != it.value()) return it.key();
  }
  return "unknown";
}

tl::unexpected<Error> Corrupt(std::string reason) {
  return MakeError(ErrorKind::kCorrupt, std::move(reason));
}

}  // namespace

// Sha256Hex (declared in strata/checkpoint.h) is defined once, in src/base/hash.cc.

std::string IdentityJson(const CheckpointIdentity& identity) {
  return IdentityObject(identity).dump();
}

Result<CheckpointIdentity> IdentityFromJson(std::string_view text) {
  nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return Corrupt("identity is not a JSON object");
  CheckpointIdentity id;
  try {
    id.engine = j.at("engine").get<std::string>();
    id.model = j.at("model").get<std::string>();
    id.tokenizer = j.at("tokenizer").get<std::string>();
    id.chat_template = j.at("chat_template").get<std::string>();
    id.reasoning_mode = j.at("reasoning_mode").get<std::string>();
    id.n_ctx = j.at("n_ctx").get<uint32_t>();
    id.type_k = j.at("type_k").get<std::string>();
    id.type_v = j.at("type_v").get<std::string>();
    id.flash_attn = j.at("flash_attn").get<bool>();
    id.n_batch = j.at("n_batch").get<uint32_t>();
    id.n_ubatch = j.at("n_ubatch").get<uint32_t>();
    id.prefix_sha256 = j.at("prefix_sha256").get<std::string>();
  } catch (const nlohmann::json::exception& e) {
    return Corrupt(std::string("identity field missing or mistyped: ") + e.what());
  }
  return id;
}

std::string CheckpointKey(const CheckpointIdentity& identity) {
  return Sha256Hex(IdentityJson(identity)).substr(0, 32);
}

std::string EncodeCheckpointHeader(const CheckpointIdentity& identity, std::string_view prefix_text,
                                   size_t token_count, size_t payload_bytes, double prefill_ms) {
  // body_xxh3 is a fixed-width placeholder that SealCheckpoint overwrites in place.
  nlohmann::json header{{"identity", IdentityObject(identity)},
                        {"key", CheckpointKey(identity)},
                        {"prefix_bytes", prefix_text.size()},
                        {"token_count", token_count},
                        {"payload_bytes", payload_bytes},
                        {"body_xxh3", std::string(16, '0')},
                        {"prefill_ms", std::round(prefill_ms * 100) / 100}};
  const std::string json = header.dump();
  std::string image(kCheckpointMagic, 8);
  PutU32(image, kCheckpointFormatVersion);
  PutU32(image, static_cast<uint32_t>(json.size()));
  image += json;
  image.append(8, '\0');  // header checksum
  return image;
}

void SealCheckpoint(std::string& image, size_t header_end) {
  const uint64_t body = XXH3_64bits(image.data() + header_end, image.size() - header_end);
  const size_t field = image.find(kBodySumField, kFixedHead);
  const std::string hex = fmt::format("{:016x}", body);
  std::memcpy(image.data() + field + std::strlen(kBodySumField), hex.data(), 16);
  WriteU64(image, header_end - 8, XXH3_64bits(image.data(), header_end - 8));
}

Result<Checkpoint> DecodeCheckpoint(std::string_view image, std::shared_ptr<const void> storage,
                                    const CheckpointIdentity& expected,
                                    std::string_view expected_prefix_text) {
  if (image.size() < kFixedHead) return Corrupt(fmt::format("truncated: {} bytes", image.size()));
  if (image.substr(0, 8) != std::string_view(kCheckpointMagic, 8)) return Corrupt("bad magic");
  const uint32_t version = ReadU32(image, 8);
  if (version != kCheckpointFormatVersion) {
    return Corrupt(
        fmt::format("format version {}, expected {}", version, kCheckpointFormatVersion));
  }
  const uint64_t header_len = ReadU32(image, 12);
  const uint64_t header_end = kFixedHead + header_len + 8;
  if (image.size() < header_end) return Corrupt("truncated header");
  if (ReadU64(image, header_end - 8) != XXH3_64bits(image.data(), header_end - 8)) {
    return Corrupt("header checksum mismatch");
  }
  nlohmann::json header = nlohmann::json::parse(image.substr(kFixedHead, header_len), nullptr,
                                                /*allow_exceptions=*/false);
  if (!header.is_object() || !header.contains("identity")) return Corrupt("header is not JSON");
  auto identity = IdentityFromJson(header["identity"].dump());
  if (!identity) return tl::unexpected(identity.error());
  if (!(*identity == expected)) {
    return Corrupt("identity differs: " + FirstDifference(*identity, expected));
  }
  uint64_t prefix_bytes = 0, token_count = 0, payload_bytes = 0;
  std::string body_sum;
  try {
    prefix_bytes = header.at("prefix_bytes").get<uint64_t>();
    token_count = header.at("token_count").get<uint64_t>();
    payload_bytes = header.at("payload_bytes").get<uint64_t>();
    body_sum = header.at("body_xxh3").get<std::string>();
  } catch (const nlohmann::json::exception&) {
    return Corrupt("header sizes missing");
  }
  const uint64_t body_len = prefix_bytes + 4 * token_count + payload_bytes;
  if (image.size() - header_end < body_len) {
    return Corrupt(
        fmt::format("truncated: body has {} of {} bytes", image.size() - header_end, body_len));
  }
  if (image.size() - header_end > body_len) return Corrupt("trailing bytes after payload");
  const uint64_t actual_sum = XXH3_64bits(image.data() + header_end, body_len);
  if (fmt::format("{:016x}", actual_sum) != body_sum) return Corrupt("payload checksum mismatch");
  std::string_view text = image.substr(header_end, prefix_bytes);
  if (text != expected_prefix_text) return Corrupt("prefix text differs");
  Checkpoint cp;
  cp.identity = std::move(*identity);
  cp.prefix_text = std::string(text);
  if (header.contains("prefill_ms") && header["prefill_ms"].is_number()) {
    cp.prefill_ms = header["prefill_ms"].get<double>();
  }
  cp.tokens.resize(token_count);
  const size_t token_at = header_end + prefix_bytes;
  for (size_t i = 0; i < token_count; ++i)
    cp.tokens[i] = static_cast<int32_t>(ReadU32(image, token_at + 4 * i));
  cp.payload_offset = token_at + 4 * token_count;
  cp.payload_size = payload_bytes;
  cp.image = image;
  cp.storage = std::move(storage);
  return cp;
}

}  // namespace strata
