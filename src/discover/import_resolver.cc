// import_resolver.cc: resolving `@path` against the importing file and checking the boundary.
#include "discover/import_resolver.h"

#include <sys/stat.h>

#include <algorithm>

#include "discover/project_root.h"

namespace strata::discover {

namespace fs = std::filesystem;

namespace {

Location At(const ImportToken& token, const std::string& display) {
  return Location{display, token.line, token.column};
}

}  // namespace

bool SameFile(const FileIdentity& a, const FileIdentity& b) {
  if (a.inode != 0 && b.inode != 0) return a.device == b.device && a.inode == b.inode;
  return a.inode == b.inode && a.canonical == b.canonical;
}

void ReportImportTokens(const ImportScan& scan, const std::string& display,
                        std::vector<Diagnostic>* diagnostics, size_t max_notes) {
  size_t i = 0, r = 0;
  while (i < scan.imports.size() || r < scan.refused.size()) {
    if (i + r >= max_notes) {
      const size_t rest = scan.imports.size() + scan.refused.size() - i - r;
      diagnostics->push_back({Severity::kNote,
                              "import",
                              std::to_string(rest) + " more @ tokens in this file not listed",
                              {display}});
      return;
    }
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

  OpenedPath opened =
      OpenContained(site.boundary, target, OpenIntent::kRegularFile, AccessOf(options, via_home));
  if (opened.failure == OpenFailure::kMissing || opened.failure == OpenFailure::kLoop ||
      opened.failure == OpenFailure::kIo) {
    std::string message = "import target not found: " + display(target);
    if (opened.failure != OpenFailure::kMissing) {
      message = "import target cannot be opened (" + opened.detail + "): " + display(target);
    }
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
  if (opened.failure == OpenFailure::kNotRegular) {
    diagnostics->push_back({Severity::kWarning, "import-not-file",
                            "import target is not a regular file: " + display(target),
                            At(token, site.importer_display)});
    return std::nullopt;
  }
  if (opened.failure == OpenFailure::kOutsideRoot) {
    std::error_code ec;
    fs::path canonical = fs::weakly_canonical(target, ec);  // for the message only
    diagnostics->push_back(
        {Severity::kWarning, "import-outside-root",
         "import @" + spelled + " resolves to " + (ec ? target : canonical).string() +
             ", outside " + site.boundary.string() + "; refused (" + kOutsideRootAdvice +
             ", or in strata.toml: [imports] allow_outside_root = true or allowed_dirs = "
             "[\"DIR\"])",
         At(token, site.importer_display)});
    return std::nullopt;
  }
  FileIdentity id = IdentityOfOpened(opened, target);
  return ResolvedImport{target, std::move(id), std::move(opened)};
}

bool ImportGate::Admit(const Location& where, std::vector<Diagnostic>* diagnostics) {
  if (++admitted_ <= options_.max_imports) return true;
  if (!count_reported_) {
    count_reported_ = true;
    diagnostics->push_back({Severity::kWarning, "import-limit",
                            "more than " + std::to_string(options_.max_imports) +
                                " imports; this one and every later one not followed "
                                "(ImportOptions::max_imports)",
                            where});
  }
  return false;
}

bool ImportGate::Accept(const ResolvedImport& target, const std::string& target_display,
                        const std::vector<ChainLink>& chain, int depth, const Location& where,
                        std::vector<Diagnostic>* diagnostics) {
  for (const ChainLink& link : chain) {
    if (!SameFile(link.id, target.id)) continue;
    std::string names;
    for (const ChainLink& l : chain) names += l.display + " -> ";
    diagnostics->push_back({Severity::kWarning, "import-cycle",
                            "import cycle: " + names + target_display + "; not followed", where});
    return false;
  }
  const int limit = std::min(options_.max_depth, kMaxImportDepthCap);
  if (depth + 1 > limit) {
    std::string capped =
        options_.max_depth > kMaxImportDepthCap
            ? " (the hard cap; " + std::to_string(options_.max_depth) + " was asked for)"
            : "";
    diagnostics->push_back({Severity::kWarning, "import-depth",
                            "import depth limit " + std::to_string(limit) + capped +
                                " reached: " + target_display + " not loaded",
                            where});
    return false;
  }
  return true;
}

bool ImportGate::Charge(const ResolvedImport& target, const std::string& target_display,
                        const Location& where, std::vector<Diagnostic>* diagnostics) {
  const uint64_t size = static_cast<uint64_t>(target.file.st.st_size);
  if (bytes_ + size > options_.max_import_bytes) {
    diagnostics->push_back({Severity::kWarning, "import-limit",
                            target_display + " (" + std::to_string(size) +
                                " bytes) would pass the total import limit of " +
                                std::to_string(options_.max_import_bytes) +
                                " bytes (ImportOptions::max_import_bytes); not loaded",
                            where});
    return false;
  }
  bytes_ += size;
  return true;
}

OutsideRootAccess AccessOf(const ImportOptions& options, bool via_home) {
  OutsideRootAccess access{options.allow_outside_root, options.allowed_dirs};
  if (via_home && !options.home_dir.empty()) access.dirs.push_back(options.home_dir);
  return access;
}

FileIdentity IdentityOfOpened(const OpenedPath& file, const fs::path& path) {
  return MakeIdentity(static_cast<uint64_t>(file.st.st_dev), static_cast<uint64_t>(file.st.st_ino),
                      path);
}

}  // namespace strata::discover
