// instruction_text.cc: reading, hygiene and the symlink-placeholder check for one file.
#include "discover/instruction_text.h"

#include <sys/stat.h>

#include <algorithm>

#include "io/file_io.h"
#include "markdown/unclosed_fence.h"
#include "text/text.h"

namespace strata::discover {

namespace fs = std::filesystem;

size_t StripLineStartBoms(std::string* text, const std::string& display, Location* first) {
  static constexpr std::string_view kBom = "\xEF\xBB\xBF";
  size_t count = 0;
  size_t pos = 0;
  while ((pos = text->find(kBom, pos)) != std::string::npos) {
    if (pos > 0 && (*text)[pos - 1] == '\n') {
      if (count++ == 0) *first = LocationAt(display, *text, pos);
      text->erase(pos, kBom.size());
    } else {
      pos += kBom.size();
    }
  }
  return count;
}

std::optional<Diagnostic> CheckSymlinkPlaceholder(const fs::path& path, const std::string& display,
                                                  std::string_view text,
                                                  const DiscoverOptions& options) {
  std::string_view name = text;
  while (!name.empty() && (name.back() == '\n' || name.back() == ' ')) name.remove_suffix(1);
  if (name.empty() || name.size() > 255 || name.front() == '@') return std::nullopt;
  if (name.find_first_of(" \t\n") != std::string_view::npos) return std::nullopt;
  bool configured = std::find(options.file_names.begin(), options.file_names.end(), name) !=
                        options.file_names.end() ||
                    std::find(options.local_file_names.begin(), options.local_file_names.end(),
                              name) != options.local_file_names.end();
  struct stat st {};
  bool beside =
      ::stat((path.parent_path() / std::string(name)).c_str(), &st) == 0 && S_ISREG(st.st_mode);
  if (!configured && !beside) return std::nullopt;
  std::string target(name);
  return Diagnostic{Severity::kWarning, "symlink-placeholder",
                    "file holds only the text '" + target +
                        "': probably a symlink checked out as a plain file (git with "
                        "core.symlinks=false); loaded as text. Recreate the link (ln -sf " +
                        target + " " + path.filename().string() + ") or write @" + target +
                        " to import it",
                    Location{display, 1, 1}};
}

CleanOptions ToCleanOptions(const HygieneOptions& hygiene) {
  return {.normalize_nfc = hygiene.normalize_nfc, .strip_tags = hygiene.strip_tags};
}

std::optional<std::string> LoadInstructionText(const OpenedPath& file, const fs::path& path,
                                               const std::string& display,
                                               const DiscoverOptions& options,
                                               std::vector<Diagnostic>* diagnostics) {
  if (static_cast<uint64_t>(file.st.st_size) > options.max_read_bytes) {
    diagnostics->push_back({Severity::kError,
                            "file-too-large",
                            std::to_string(file.st.st_size) + " bytes is more than the " +
                                std::to_string(options.max_read_bytes) +
                                "-byte read limit; skipped unread",
                            {display}});
    return std::nullopt;
  }
  Result<std::string> bytes = ReadOpenedFile(file.fd.get(), static_cast<size_t>(file.st.st_size),
                                             options.max_read_bytes, path);
  if (!bytes) {
    diagnostics->push_back({Severity::kError, "unreadable", bytes.error().message, {display}});
    return std::nullopt;
  }
  Result<CleanedText> cleaned = CleanText(*bytes, display, ToCleanOptions(options.hygiene));
  if (!cleaned) {
    Location where = cleaned.error().where;
    if (where.path.empty()) where.path = display;
    diagnostics->push_back(
        {Severity::kError,
         cleaned.error().kind == ErrorKind::kInvalidUtf8 ? "invalid-utf8" : "binary-file",
         cleaned.error().message + "; skipped", where});
    return std::nullopt;
  }
  for (auto& d : cleaned->diagnostics) diagnostics->push_back(std::move(d));
  std::string text = std::move(cleaned->text);
  Location first;
  if (size_t n = StripLineStartBoms(&text, display, &first); n > 0) {
    diagnostics->push_back({Severity::kWarning, "stray-bom",
                            std::to_string(n) +
                                " byte order mark(s) at line starts removed (files concatenated "
                                "with their BOMs?)",
                            first});
  }
  if (std::optional<UnclosedFence> open = CloseUnclosedFence(&text)) {
    diagnostics->push_back(
        {Severity::kWarning,
         "unclosed-fence",
         "the code block opened here is never closed, so it would swallow whatever follows "
         "this file; closed at the end of the file (add the closing " +
             open->closing.substr(0, open->closing.size() - 1) + " line)",
         {display, open->line, 1}});
  }
  if (auto placeholder = CheckSymlinkPlaceholder(path, display, text, options)) {
    diagnostics->push_back(std::move(*placeholder));
  }
  return text;
}

}  // namespace strata::discover
