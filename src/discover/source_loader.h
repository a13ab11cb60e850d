// source_loader.h: loads instruction files and, depth first, the files they import, delivering
// each file once (by identity) across one discovery or one tracker's life. Every file is opened
// through a descriptor of its boundary (io/contained_open.h) and read from that descriptor; the
// import tree is walked with an explicit stack (no recursion), within ImportGate's limits.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <memory>

#include "discover/file_identity.h"
#include "discover/gitignore.h"
#include "discover/import_resolver.h"
#include "io/contained_open.h"
#include "strata/discover.h"

namespace strata::discover {

class SourceLoader {
 public:
  // `working_dir` and `project_root` canonical. `options` must outlive the loader.
  SourceLoader(const DiscoverOptions& options, std::filesystem::path working_dir,
               std::filesystem::path project_root);

  // Relative to the working directory when inside the project root, else absolute.
  std::string Display(const std::filesystem::path& path) const;

  // The display path under which the file at `path` (or of identity `id`) was delivered, or
  // nullptr.
  const std::string* DeliveredAs(const std::filesystem::path& path) const;
  const std::string* DeliveredAs(const FileIdentity& id) const { return delivered_.Find(id); }
  void MarkDelivered(const std::filesystem::path& path, const std::string& display);

  // Opens `file` for loading as `origin`: contained to the project root (the allow options of
  // options.imports apply) except a global file, which the caller named itself.
  OpenedPath Open(const std::filesystem::path& file, SourceOrigin origin) const;

  // Loads `file` (opened by Open) as a source of `origin`, then its imports (depth first, in text
  // order), appending them to `out`. Imports must stay inside `boundary` (canonical). A file
  // already delivered gets a note (`duplicate-file`) and nothing else.
  void Load(const std::filesystem::path& file, OpenedPath opened, SourceOrigin origin,
            const std::filesystem::path& boundary, std::vector<Source>* out,
            std::vector<Diagnostic>* diagnostics);

  // With options().imports.skip_gitignored, true (and an `import-gitignored` note at `where`) when
  // git ignores `target`.
  bool RefuseGitignored(const std::filesystem::path& target, const Location& where,
                        std::vector<Diagnostic>* diagnostics);

  // Conditional rules met so far (rule_scope.h), in order.
  void RecordConditional(ConditionalRule rule) { conditional_.push_back(std::move(rule)); }
  const std::vector<ConditionalRule>& conditional_rules() const { return conditional_; }

  const DiscoverOptions& options() const { return options_; }
  const std::filesystem::path& project_root() const { return project_root_; }
  const std::filesystem::path& working_dir() const { return working_dir_; }

 private:
  struct Frame {
    std::filesystem::path file;
    std::string display;
    int depth = 0;
    ImportScan scan;
    size_t next = 0;  // the next import token of `scan` to follow
  };
  // Loads one file; pushes its frame when it has imports. False when it could not be loaded.
  bool LoadOne(const std::filesystem::path& file, const OpenedPath& opened, const FileIdentity& id,
               SourceOrigin origin, const std::string& imported_by, int depth,
               std::vector<Frame>* stack, std::vector<ChainLink>* chain, std::vector<Source>* out,
               std::vector<Diagnostic>* diagnostics);
  // The next import of the top frame when it may be followed, else nullopt (with a diagnostic).
  std::optional<ResolvedImport> NextImport(std::vector<Frame>* stack,
                                           const std::vector<ChainLink>& chain,
                                           const std::filesystem::path& boundary,
                                           std::vector<Diagnostic>* diagnostics);

  const DiscoverOptions& options_;
  std::filesystem::path working_dir_;
  std::filesystem::path project_root_;
  IdentitySet delivered_;
  ImportGate gate_;
  std::unique_ptr<GitIgnore> gitignore_;  // opened on first use
  std::vector<ConditionalRule> conditional_;
};

}  // namespace strata::discover
