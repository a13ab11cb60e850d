// source_loader.h: loads instruction files and, depth first, the files they import, delivering
// each file once (by identity) across one discovery or one tracker's life.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <memory>

#include "discover/file_identity.h"
#include "discover/gitignore.h"
#include "strata/discover.h"

namespace strata::discover {

class SourceLoader {
 public:
  // `working_dir` and `project_root` canonical. `options` must outlive the loader.
  SourceLoader(const DiscoverOptions& options, std::filesystem::path working_dir,
               std::filesystem::path project_root);

  // Relative to the working directory when inside the project root, else absolute.
  std::string Display(const std::filesystem::path& path) const;

  // The display path under which the file at `path` was delivered, or nullptr.
  const std::string* DeliveredAs(const std::filesystem::path& path) const;
  void MarkDelivered(const std::filesystem::path& path, const std::string& display);

  // Loads `file` as a source of `origin`, then its imports (depth first, in text order), appending
  // them to `out`. Imports must stay inside `boundary` (canonical). A file already delivered gets
  // a note (`duplicate-file`) and nothing else.
  void Load(const std::filesystem::path& file, SourceOrigin origin,
            const std::filesystem::path& boundary, std::vector<Source>* out,
            std::vector<Diagnostic>* diagnostics);

  // With options().imports.skip_gitignored, true (and an `import-gitignored` note at `where`) when
  // git ignores `target`.
  bool RefuseGitignored(const std::filesystem::path& target, const Location& where,
                        std::vector<Diagnostic>* diagnostics);

  const DiscoverOptions& options() const { return options_; }
  const std::filesystem::path& project_root() const { return project_root_; }
  const std::filesystem::path& working_dir() const { return working_dir_; }

 private:
  struct Frame {
    FileIdentity id;
    std::string display;
  };
  void LoadWithImports(const std::filesystem::path& file, const FileIdentity& id,
                       SourceOrigin origin, const std::string& imported_by, int depth,
                       const std::filesystem::path& boundary, std::vector<Frame>* stack,
                       std::vector<Source>* out, std::vector<Diagnostic>* diagnostics);

  const DiscoverOptions& options_;
  std::filesystem::path working_dir_;
  std::filesystem::path project_root_;
  IdentitySet delivered_;
  std::unique_ptr<GitIgnore> gitignore_;  // opened on first use
};

}  // namespace strata::discover
