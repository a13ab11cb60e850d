// check_stability.cc: the stability gate (stability/stability.h) run on what a compile compiled.
#include "compile/compiled_source.h"
#include "compile/render_target.h"
#include "stability/stability.h"
#include "strata/compile.h"

namespace strata {

std::vector<Diagnostic> CheckStability(const CompileReport& report) {
  if (report.compiled == nullptr) return {};
  std::string source_name = report.source;
  if (auto slash = source_name.rfind('/'); slash != std::string::npos) {
    source_name = source_name.substr(slash + 1);
  }
  const CompiledSource& compiled = *report.compiled;
  std::vector<Diagnostic> out =
      VerifyRenderTwice(compiled.selected, compiled.banded, source_name, RenderTarget);
  for (auto& d : ScanHeadBand(compiled.banded, report.source)) out.push_back(std::move(d));
  return out;
}

}  // namespace strata
