// instruction_source.cc: the text a source compiles from: hygiene (CleanText), then imports
// inlined for clients that do not follow `@path`.
#include "compile/check_target.h"
#include "discover/import_scanner.h"
#include "strata/discover.h"
#include "text/text.h"

namespace strata {

namespace fs = std::filesystem;

Result<std::string> InstructionText(const fs::path& root, const fs::path& source_path,
                                    std::string_view label, const std::string& spliced,
                                    std::vector<Diagnostic>* diagnostics) {
  STRATA_TRY_ASSIGN(CleanedText clean, CleanText(spliced, label));
  for (auto& d : clean.diagnostics) diagnostics->push_back(std::move(d));
  if (ScanImports(clean.text).imports.empty()) return std::move(clean.text);
  DiscoverOptions discover;
  discover.working_dir = root;
  discover.project_root = root;
  STRATA_TRY_ASSIGN(ExpandedText expanded, ExpandImportsInText(source_path, spliced, discover));
  for (auto& d : expanded.diagnostics) {
    if (d.severity != Severity::kNote) diagnostics->push_back(std::move(d));
  }
  return std::move(expanded.text);
}

}  // namespace strata
