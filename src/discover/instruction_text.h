// instruction_text.h: reads one instruction file and makes it safe to use (text hygiene): size
// limit, CleanText (BOM, CRLF, UTF-8, binary, tag characters, NFC), stray
// byte order marks at line starts, and the "symlink checked out as a plain file" check.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "io/contained_open.h"
#include "strata/discover.h"
#include "strata/status.h"
#include "text/text.h"

namespace strata::discover {

// The CleanText options discovery's public HygieneOptions stand for.
CleanOptions ToCleanOptions(const HygieneOptions& hygiene);

// Reads and cleans `file`, opened (contained) from `path`; `display` labels the diagnostics.
// nullopt when the file cannot be used (too large, unreadable, binary, invalid UTF-8): the reason
// is an error diagnostic.
std::optional<std::string> LoadInstructionText(const OpenedPath& file,
                                               const std::filesystem::path& path,
                                               const std::string& display,
                                               const DiscoverOptions& options,
                                               std::vector<Diagnostic>* diagnostics);

// Removes U+FEFF at the start of any line after the first (files concatenated with their BOMs);
// returns how many were removed and the location of the first.
size_t StripLineStartBoms(std::string* text, const std::string& display, Location* first);

// When `text` (of the file at `path`) is nothing but a file name that exists beside it or that is
// one of the configured instruction names, a note that it is probably a symlink checked out as a
// plain file. nullopt otherwise.
std::optional<Diagnostic> CheckSymlinkPlaceholder(const std::filesystem::path& path,
                                                  const std::string& display, std::string_view text,
                                                  const DiscoverOptions& options);

}  // namespace strata::discover
