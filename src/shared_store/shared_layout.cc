// shared_layout.cc: the Redis layout of the shared tier (shared_store.h): key names, the header
// entry (JSON), the index entry (binary), chunk ranges and the error names used as metric labels.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "strata/checkpoint.h"

namespace strata {
namespace {

constexpr const char* kErrorNames[] = {"unreachable", "timeout",  "auth",
                                       "full",        "protocol", "incomplete",
                                       "checksum",    "identity", "queue_full"};
static_assert(std::size(kErrorNames) == static_cast<size_t>(SharedError::kCount));

void PutLe(std::string& out, uint64_t v, int bytes) {
  for (int b = 0; b < bytes; ++b) out.push_back(static_cast<char>((v >> (8 * b)) & 0xff));
}

uint64_t GetLe(std::string_view s, size_t at, int bytes) {
  uint64_t v = 0;
  for (int b = bytes - 1; b >= 0; --b) v = (v << 8) | static_cast<uint8_t>(s[at + b]);
  return v;
}

}  // namespace

const char* SharedErrorName(SharedError error) {
  return kErrorNames[static_cast<size_t>(error) % std::size(kErrorNames)];
}

std::string SharedScope(const CheckpointIdentity& identity) {
  CheckpointIdentity scope = identity;
  scope.prefix_sha256.clear();
  return CheckpointKey(scope);
}

std::string SharedHeaderKey(std::string_view prefix, std::string_view key) {
  return fmt::format("{}kv:{{{}}}:h", prefix, key);
}
std::string SharedChunkKey(std::string_view prefix, std::string_view key, size_t chunk) {
  return fmt::format("{}kv:{{{}}}:{}", prefix, key, chunk);
}
std::string SharedIndexKey(std::string_view prefix, std::string_view scope) {
  return fmt::format("{}idx:{}", prefix, scope);
}
std::string SharedLeaseKey(std::string_view prefix, std::string_view key) {
  return fmt::format("{}lease:{{{}}}", prefix, key);
}

std::string EncodeSharedHeader(const SharedHeader& h) {
  nlohmann::ordered_json j;
  j["format"] = 1;
  j["key"] = h.key;
  j["identity"] = nlohmann::json::parse(IdentityJson(h.identity));
  j["token_count"] = h.token_count;
  j["prefix_bytes"] = h.prefix_bytes;
  j["image_bytes"] = h.image_bytes;
  j["chunk_bytes"] = h.chunk_bytes;
  j["chunks"] = h.chunks;
  j["xxh3"] = fmt::format("{:016x}", h.xxh3);
  return j.dump();
}

Result<SharedHeader> DecodeSharedHeader(std::string_view json) {
  const nlohmann::json j = nlohmann::json::parse(json, nullptr, false);
  if (!j.is_object()) return MakeError(ErrorKind::kCorrupt, "header entry: not a JSON object");
  SharedHeader h;
  try {
    if (j.at("format").get<int>() != 1)
      return MakeError(ErrorKind::kCorrupt, "header entry: format is not 1");
    h.key = j.at("key").get<std::string>();
    STRATA_TRY_ASSIGN(h.identity, IdentityFromJson(j.at("identity").dump()));
    h.token_count = j.at("token_count").get<uint64_t>();
    h.prefix_bytes = j.at("prefix_bytes").get<uint64_t>();
    h.image_bytes = j.at("image_bytes").get<uint64_t>();
    h.chunk_bytes = j.at("chunk_bytes").get<uint64_t>();
    h.chunks = j.at("chunks").get<uint64_t>();
    const std::string hex = j.at("xxh3").get<std::string>();
    size_t used = 0;
    h.xxh3 = std::stoull(hex, &used, 16);
    if (hex.size() != 16 || used != 16)
      return MakeError(ErrorKind::kCorrupt, "header entry: xxh3 is not 16 hex digits");
  } catch (const std::exception& e) {
    return MakeError(ErrorKind::kCorrupt, fmt::format("header entry: {}", e.what()));
  }
  if (h.chunk_bytes == 0 || h.chunk_bytes > kMaxChunkBytes ||
      h.chunks != ChunkRanges(h.image_bytes, h.chunk_bytes).size())
    return MakeError(ErrorKind::kCorrupt, "header entry: chunk_bytes and chunks do not agree");
  return h;
}

std::string EncodeIndexEntry(uint64_t prefix_bytes, const std::vector<int32_t>& tokens) {
  std::string out;
  out.reserve(8 + 4 * tokens.size());
  PutLe(out, prefix_bytes, 8);
  for (int32_t t : tokens) PutLe(out, static_cast<uint32_t>(t), 4);
  return out;
}

Result<SharedIndexEntry> DecodeIndexEntry(std::string_view key, std::string_view bytes) {
  if (bytes.size() < 8 || (bytes.size() - 8) % 4 != 0)
    return MakeError(
        ErrorKind::kCorrupt,
        fmt::format("index entry {}: {} bytes, not 8 + 4 per token", key, bytes.size()));
  SharedIndexEntry e{std::string(key), GetLe(bytes, 0, 8), {}};
  e.tokens.resize((bytes.size() - 8) / 4);
  for (size_t i = 0; i < e.tokens.size(); ++i)
    e.tokens[i] = static_cast<int32_t>(GetLe(bytes, 8 + 4 * i, 4));
  return e;
}

std::vector<std::pair<size_t, size_t>> ChunkRanges(size_t image_bytes, size_t chunk_bytes) {
  std::vector<std::pair<size_t, size_t>> out;
  if (chunk_bytes == 0) return out;
  for (size_t at = 0; at < image_bytes; at += chunk_bytes)
    out.emplace_back(at, std::min(chunk_bytes, image_bytes - at));
  return out;
}

}  // namespace strata
