// nested_sources.h: nested instruction sources (a tests/AGENTS.md beside the root AGENTS.md) and
// the path-scoped file each selected client gets for one (targets/scoped_rules.h).
#pragma once

#include <string>
#include <vector>

#include "compile/check_target.h"
#include "compile/compiled_source.h"

namespace strata {

// Every file named like the root source (check.source, e.g. "AGENTS.md", at the root) in a
// subdirectory of check.root, sorted by path, read and cleaned like the root source (imports
// inlined). Hidden directories, node_modules, build, dist, target, vendor and third_party are
// not entered, nor symlinked directories; depth at most 8. None when the source is not at the
// root. Errors: a nested source that cannot be read or is not clean UTF-8 text.
Result<std::vector<NestedSource>> LoadNestedSources(const TargetCheck& check,
                                                    std::vector<Diagnostic>* diagnostics);

// Renders and checks the scoped file of every nested source for every selected target with a
// scoped form, appending to report->targets and *outputs (same order). A target without one gets
// a note naming the nested sources it does not receive.
Status RenderNested(const TargetCheck& check, const CompiledSource& compiled, CompileReport* report,
                    std::vector<std::string>* outputs);

}  // namespace strata
