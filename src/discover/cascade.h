// cascade.h: loading the instruction files of one directory, shared by Discover and the tracker.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "discover/source_loader.h"
#include "strata/discover.h"

namespace strata::discover {

// Loads every file of `names` that exists in `dir` (see SameDirectoryRule in discover.h), each with
// its imports. `quiet_duplicates`: a file delivered before is skipped without a note (the tracker
// revisiting the cascade's directories).
void LoadDirectory(const std::filesystem::path& dir, const std::vector<std::string>& names,
                   SourceOrigin origin, SameDirectoryRule rule, bool quiet_duplicates,
                   SourceLoader* loader, std::vector<Source>* out,
                   std::vector<Diagnostic>* diagnostics);

// SameDirectoryRule::kFirstNameInTree over the directories of `chain` (root first).
void LoadFirstNameInTree(const std::vector<std::filesystem::path>& chain,
                         const std::vector<std::string>& names, SourceLoader* loader,
                         std::vector<Source>* out, std::vector<Diagnostic>* diagnostics);

// The project files of `chain` (root first): root_file_names at the root, then file_names in
// each directory, in options.project_order.
void LoadProjectFiles(const DiscoverOptions& options,
                      const std::vector<std::filesystem::path>& chain, SourceLoader* loader,
                      Discovery* result);

// `options` with strata.toml's [imports] applied (DiscoverOptions::project_config); a config that
// does not parse is a warning in `diagnostics` (when not null).
DiscoverOptions WithProjectImports(const DiscoverOptions& options,
                                   const std::filesystem::path& root,
                                   std::vector<Diagnostic>* diagnostics);

}  // namespace strata::discover
