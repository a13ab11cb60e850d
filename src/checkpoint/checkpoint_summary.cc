// checkpoint_summary.cc: a checkpoint file's header and prefix tokens without its payload (see
// ReadCheckpointSummary in include/strata/checkpoint.h), so an index over a store of large files
// reads a few kilobytes per file.
#include <fmt/format.h>
#include <xxhash.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "strata/checkpoint.h"

namespace strata {
namespace {

uint64_t LittleEndian(std::string_view s, size_t at, int bytes) {
  uint64_t v = 0;
  for (int b = bytes - 1; b >= 0; --b) v = (v << 8) | static_cast<uint8_t>(s[at + b]);
  return v;
}

bool ReadExactly(std::ifstream& in, std::string& out, size_t n) {
  out.resize(n);
  return static_cast<bool>(in.read(out.data(), static_cast<std::streamsize>(n)));
}

}  // namespace

Result<CheckpointSummary> ReadCheckpointSummary(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return MakeError(ErrorKind::kIo, fmt::format("{}: cannot open", file.string()));
  std::string head;
  if (!ReadExactly(in, head, 16) || head.substr(0, 8) != std::string_view(kCheckpointMagic, 8) ||
      LittleEndian(head, 8, 4) != kCheckpointFormatVersion) {
    return MakeError(ErrorKind::kCorrupt, fmt::format("{}: not a checkpoint", file.string()));
  }
  std::string header;
  const size_t header_len = LittleEndian(head, 12, 4);
  if (!ReadExactly(in, header, header_len + 8) ||
      LittleEndian(header, header_len, 8) !=
          XXH3_64bits((head + header.substr(0, header_len)).data(), 16 + header_len)) {
    return MakeError(ErrorKind::kCorrupt, fmt::format("{}: header checksum", file.string()));
  }
  nlohmann::json j = nlohmann::json::parse(header.substr(0, header_len), nullptr, false);
  CheckpointSummary out;
  uint64_t token_count = 0;
  try {
    STRATA_TRY_ASSIGN(out.identity, IdentityFromJson(j.at("identity").dump()));
    out.key = j.at("key").get<std::string>();
    out.prefix_bytes = j.at("prefix_bytes").get<uint64_t>();
    token_count = j.at("token_count").get<uint64_t>();
  } catch (const nlohmann::json::exception& e) {
    return MakeError(ErrorKind::kCorrupt, fmt::format("{}: header: {}", file.string(), e.what()));
  }
  std::string body;
  in.seekg(static_cast<std::streamoff>(16 + header_len + 8 + out.prefix_bytes));
  if (!ReadExactly(in, body, token_count * 4))
    return MakeError(ErrorKind::kCorrupt, fmt::format("{}: truncated tokens", file.string()));
  out.tokens.resize(token_count);
  for (size_t i = 0; i < token_count; ++i)
    out.tokens[i] = static_cast<int32_t>(LittleEndian(body, 4 * i, 4));
  std::error_code ec;
  out.file_bytes = std::filesystem::file_size(file, ec);
  return out;
}

}  // namespace strata
