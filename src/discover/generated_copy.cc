// generated_copy.cc: reads the generated header of a strata-compiled client file and the source
// name it carries (the skip rule itself is in discover.cc, LoadDirectory).
#include "discover/generated_copy.h"

#include <sys/stat.h>

#include "strata/compile.h"
#include "strata/file_io.h"

namespace strata::discover {

std::optional<std::string> GeneratedSourceName(std::string_view text) {
  if (!HasGeneratedHeader(text)) return std::nullopt;
  size_t at = text.find(kGeneratedMarker);
  if (at == std::string_view::npos) return std::nullopt;
  std::string_view rest = text.substr(at + kGeneratedMarker.size());
  size_t end = rest.find_first_of(" \t\r\n");
  std::string_view name = rest.substr(0, end);
  while (!name.empty() && name.back() == '.')
    name.remove_suffix(1);  // "AGENTS.md." ends a sentence
  if (name.empty()) return std::nullopt;
  return std::string(name);
}

std::optional<std::string> GeneratedSourceOfFile(const std::filesystem::path& path,
                                                 size_t max_read_bytes,
                                                 const HygieneOptions& hygiene) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) ||
      static_cast<uint64_t>(st.st_size) > max_read_bytes) {
    return std::nullopt;
  }
  Result<std::string> bytes = ReadFileBytes(path);
  if (!bytes) return std::nullopt;
  Result<CleanedText> cleaned = CleanText(*bytes, path.string(), hygiene);
  if (!cleaned) return std::nullopt;
  return GeneratedSourceName(cleaned->text);
}

}  // namespace strata::discover
