// import_resolver.h: where an `@path` import points, and whether it may be followed: relative to the importing file, `~/` against the configured home directory, the
// target must exist, be a regular file, and (after following symlinks) lie inside the boundary
// (the project root; the directory of a global file for its imports) unless configuration allows.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "discover/file_identity.h"
#include "discover/import_scanner.h"
#include "strata/discover.h"

namespace strata::discover {

struct ImportSite {
  std::filesystem::path importer;      // the importing file, as found
  std::string importer_display;        // labels the diagnostics
  std::filesystem::path boundary;      // canonical directory targets must stay inside
  std::filesystem::path project_root;  // canonical; used for the "exists at the root" hint
};

struct ResolvedImport {
  std::filesystem::path path;  // lexically normal, symlinks not resolved
  FileIdentity id;
};

using DisplayFn = std::function<std::string(const std::filesystem::path&)>;

// The target of `token`, or nullopt with a diagnostic at the token's position (import-missing,
// import-outside-root, import-not-file, import-home-unset).
std::optional<ResolvedImport> ResolveImport(const ImportToken& token, const ImportSite& site,
                                            const ImportOptions& options, const DisplayFn& display,
                                            std::vector<Diagnostic>* diagnostics);

// Notes for every import and every refused `@` token of a scan, at their positions.
void ReportImportTokens(const ImportScan& scan, const std::string& display,
                        std::vector<Diagnostic>* diagnostics);

}  // namespace strata::discover
