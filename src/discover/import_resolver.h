// import_resolver.h: where an `@path` import points, and whether it may be followed: relative to
// the importing file, `~/` against the configured home directory, the target must exist, be a
// regular file, and (after following symlinks) lie inside the boundary (the project root; the
// directory of a global file for its imports) unless configuration allows. The target is opened
// through a descriptor of the boundary (io/contained_open.h), so the file read is the file checked.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "discover/file_identity.h"
#include "discover/import_scanner.h"
#include "io/contained_open.h"
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
  FileIdentity id;             // of the opened file (fstat)
  OpenedPath file;             // open for reading; read it, never `path` again
};

// What the allow options of `options` permit outside the boundary (plus the home directory for a
// `~/` import).
OutsideRootAccess AccessOf(const ImportOptions& options, bool via_home = false);

// The identity of an opened file (fstat), the canonical path only when the inode is 0.
FileIdentity IdentityOfOpened(const OpenedPath& file, const std::filesystem::path& path);

using DisplayFn = std::function<std::string(const std::filesystem::path&)>;

// The target of `token`, or nullopt with a diagnostic at the token's position (import-missing,
// import-outside-root, import-not-file, import-home-unset).
std::optional<ResolvedImport> ResolveImport(const ImportToken& token, const ImportSite& site,
                                            const ImportOptions& options, const DisplayFn& display,
                                            std::vector<Diagnostic>* diagnostics);

// Notes for every import and every refused `@` token of a scan, at their positions; at most
// `max_notes`, then one note saying how many more were not listed.
void ReportImportTokens(const ImportScan& scan, const std::string& display,
                        std::vector<Diagnostic>* diagnostics, size_t max_notes = 1000);

// Same device and inode (canonical path when the filesystem reports inode 0).
bool SameFile(const FileIdentity& a, const FileIdentity& b);

// One file on the current import chain (for the cycle check and its message).
struct ChainLink {
  FileIdentity id;
  std::string display;
};

// The limits of one import walk (discovery or one expansion): the token count, the total bytes
// imported, the depth (capped at kMaxImportDepthCap) and cycles. Each refusal is a warning.
class ImportGate {
 public:
  explicit ImportGate(const ImportOptions& options) : options_(options) {}
  // Before resolving a token: false once max_imports tokens were admitted (one warning, once).
  bool Admit(const Location& where, std::vector<Diagnostic>* diagnostics);
  // After resolving: false for a cycle on `chain` or an import deeper than the limit (`depth` is
  // the importer's).
  bool Accept(const ResolvedImport& target, const std::string& target_display,
              const std::vector<ChainLink>& chain, int depth, const Location& where,
              std::vector<Diagnostic>* diagnostics);
  // Before loading: false when the target would pass max_import_bytes; true counts its bytes.
  bool Charge(const ResolvedImport& target, const std::string& target_display,
              const Location& where, std::vector<Diagnostic>* diagnostics);

 private:
  const ImportOptions& options_;
  size_t admitted_ = 0;
  uint64_t bytes_ = 0;
  bool count_reported_ = false;
};

}  // namespace strata::discover
