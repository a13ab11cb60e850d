// generated_copy.cc: reads the generated header of a strata-compiled client file and the source
// name it carries (the skip rule itself is in discover.cc, LoadDirectory).
#include "discover/generated_copy.h"

#include <sys/stat.h>

#include "discover/instruction_text.h"
#include "io/file_io.h"
#include "targets/generated_header.h"

namespace strata::discover {

std::optional<std::string> GeneratedSourceName(std::string_view text) {
  std::string name = strata::GeneratedSourceName(text);
  if (name.empty()) return std::nullopt;
  return name;
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
  Result<CleanedText> cleaned = CleanText(*bytes, path.string(), ToCleanOptions(hygiene));
  if (!cleaned) return std::nullopt;
  return GeneratedSourceName(cleaned->text);
}

}  // namespace strata::discover
