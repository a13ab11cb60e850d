// project_instructions.cc: a project's instruction sources through discovery, keyed by their
// display path, for the assembler's instructions layer.
#include "strata/assemble.h"

#include "strata/discover.h"

namespace strata {

Result<std::vector<InstructionSource>> LoadProjectInstructions(
    const std::filesystem::path& project, std::vector<Diagnostic>* diagnostics) {
  DiscoverOptions options;
  options.working_dir = project;
  options.project_root = project;  // --project names the root; no marker search above it
  STRATA_TRY_ASSIGN(Discovery discovery, Discover(options));
  if (diagnostics != nullptr) {
    diagnostics->insert(diagnostics->end(), discovery.diagnostics.begin(),
                        discovery.diagnostics.end());
  }
  std::vector<InstructionSource> sources;
  for (auto& source : discovery.sources) {
    sources.push_back({source.display_path, std::move(source.content)});
  }
  return sources;
}

}  // namespace strata
