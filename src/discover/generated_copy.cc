// generated_copy.cc: reads the generated header of a strata-compiled client file and the source
// name it carries (the skip rule itself is in discover.cc, LoadDirectory).
#include "discover/generated_copy.h"

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
  OpenedPath file = OpenContained(path.parent_path(), path, OpenIntent::kRegularFile,
                                  OutsideRootAccess{true, {}});
  if (!file.ok()) return std::nullopt;
  return GeneratedSourceOfFile(file, path, max_read_bytes, hygiene);
}

std::optional<std::string> GeneratedSourceOfFile(const OpenedPath& file,
                                                 const std::filesystem::path& path,
                                                 size_t max_read_bytes,
                                                 const HygieneOptions& hygiene) {
  if (static_cast<uint64_t>(file.st.st_size) > max_read_bytes) return std::nullopt;
  Result<std::string> bytes =
      ReadOpenedFile(file.fd.get(), static_cast<size_t>(file.st.st_size), max_read_bytes, path);
  if (!bytes) return std::nullopt;
  Result<CleanedText> cleaned = CleanText(*bytes, path.string(), ToCleanOptions(hygiene));
  if (!cleaned) return std::nullopt;
  return GeneratedSourceName(cleaned->text);
}

}  // namespace strata::discover
