// import_resolver.cc: resolving `@path` against the importing file and checking the boundary.
#include "discover/import_resolver.h"

#include <sys/stat.h>

#include "discover/project_root.h"

namespace strata::discover {

namespace fs = std::filesystem;

namespace {

Location At(const ImportToken& token, const std::string& display) {
  return Location{display, token.line, token.column};
}

bool InsideAny(const fs::path& canonical, const std::vector<fs::path>& dirs) {
  for (const auto& dir : dirs) {
    std::error_code ec;
    fs::path c = fs::weakly_canonical(dir, ec);
    if (!ec && IsWithin(canonical, c)) return true;
  }
  return false;
}

}  // namespace

void ReportImportTokens(const ImportScan& scan, const std::string& display,
                        std::vector<Diagnostic>* diagnostics) {
  size_t i = 0, r = 0;
  while (i < scan.imports.size() || r < scan.refused.size()) {
    bool take_import = r >= scan.refused.size() ||
                       (i < scan.imports.size() && scan.imports[i].offset < scan.refused[r].offset);
    if (take_import) {
      const ImportToken& t = scan.imports[i++];
      diagnostics->push_back({Severity::kNote, "import", "import of " + t.path, At(t, display)});
    } else {
      const ImportToken& t = scan.refused[r++];
      diagnostics->push_back(
          {Severity::kNote, "import-refused",
           "'@" + t.path + "' is not an import: " + ImportRefusalReason(t.refusal),
           At(t, display)});
    }
  }
}

std::optional<ResolvedImport> ResolveImport(const ImportToken& token, const ImportSite& site,
                                            const ImportOptions& options, const DisplayFn& display,
                                            std::vector<Diagnostic>* diagnostics) {
  const std::string& spelled = token.path;
  fs::path target;
  bool via_home = false;
  if (spelled.starts_with("~/")) {
    if (options.home_dir.empty()) {
      diagnostics->push_back(
          {Severity::kWarning, "import-home-unset",
           "import @" + spelled + " not followed: no home directory is configured for ~/",
           At(token, site.importer_display)});
      return std::nullopt;
    }
    target = options.home_dir / spelled.substr(2);
    via_home = true;
  } else if (spelled.starts_with("/")) {
    target = spelled;
  } else {
    target = site.importer.parent_path() / spelled;
  }
  target = target.lexically_normal();

  struct stat st {};
  if (::stat(target.c_str(), &st) != 0) {
    std::string message = "import target not found: " + display(target);
    if (!via_home && !spelled.starts_with("/")) {
      fs::path at_root = (site.project_root / spelled).lexically_normal();
      struct stat root_st {};
      if (at_root != target && ::stat(at_root.c_str(), &root_st) == 0) {
        fs::path relative = at_root.lexically_relative(site.importer.parent_path());
        message += " (imports are relative to the importing file; " + display(at_root) +
                   " exists: write @" + relative.string() + ")";
      }
    }
    diagnostics->push_back(
        {Severity::kWarning, "import-missing", message, At(token, site.importer_display)});
    return std::nullopt;
  }
  if (!S_ISREG(st.st_mode)) {
    diagnostics->push_back({Severity::kWarning, "import-not-file",
                            "import target is not a regular file: " + display(target),
                            At(token, site.importer_display)});
    return std::nullopt;
  }
  std::error_code ec;
  fs::path canonical = fs::canonical(target, ec);
  if (ec) canonical = target;
  bool allowed = options.allow_outside_root || IsWithin(canonical, site.boundary) ||
                 InsideAny(canonical, options.allowed_dirs) ||
                 (via_home && InsideAny(canonical, {options.home_dir}));
  if (!allowed) {
    diagnostics->push_back(
        {Severity::kWarning, "import-outside-root",
         "import @" + spelled + " resolves to " + canonical.string() + ", outside " +
             site.boundary.string() +
             "; refused (allow it with --allow-outside-root or --allow-dir DIR, or in strata.toml: "
             "[imports] allow_outside_root = true or allowed_dirs = [\"DIR\"])",
         At(token, site.importer_display)});
    return std::nullopt;
  }
  return ResolvedImport{target, MakeIdentity(static_cast<uint64_t>(st.st_dev),
                                             static_cast<uint64_t>(st.st_ino), target)};
}

}  // namespace strata::discover
