// check_stability.cc: the stability gate (stability/stability.h) run on what a compile compiled.
#include "compile/compiled_source.h"
#include "compile/render_target.h"
#include "compile/rule_sources.h"
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
  // Every path-scoped file of a nested source passes the same gate.
  std::vector<const ClientTarget*> scoped;
  for (const ClientTarget* t : compiled.selected) {
    if (FindScopedForm(t->id) != nullptr) scoped.push_back(t);
  }
  for (const auto& nested : compiled.nested) {
    const std::string dir = nested.dir;
    auto render = [&dir](const ClientTarget& t, const BandedSource& banded, std::string_view name,
                         const RenderEnv&) {
      return RenderScoped(t, *FindScopedForm(t.id), banded, dir, name);
    };
    for (auto& d : VerifyRenderTwice(scoped, nested.banded, nested.path, render)) {
      out.push_back(std::move(d));
    }
    for (auto& d : ScanHeadBand(nested.banded, nested.path)) out.push_back(std::move(d));
  }
  for (const auto& rule : compiled.rules) {  // and every rule source's
    auto render = [&rule](const ClientTarget& t, const BandedSource& banded, std::string_view,
                          const RenderEnv&) {
      RuleSource copy{rule.path, rule.name, rule.globs, rule.clients, rule.description, "", banded};
      std::string path;
      return RenderRule(t, copy, &path);
    };
    for (auto& d : VerifyRenderTwice(compiled.selected, rule.banded, rule.path, render)) {
      out.push_back(std::move(d));
    }
    for (auto& d : ScanHeadBand(rule.banded, rule.path)) out.push_back(std::move(d));
  }
  return out;
}

}  // namespace strata
