// stability.cc: the render-twice check of the stability gate.
#include "stability/stability.h"

#include <algorithm>

namespace strata {

std::vector<Diagnostic> VerifyRenderTwice(const std::vector<const ClientTarget*>& targets,
                                          const BandedSource& banded, std::string_view source_name,
                                          const TargetRenderer& renderer) {
  // Two environments with nothing in common: clocks years apart, visit orders reversed and rotated.
  RenderEnv first;
  first.now_unix_ms = [] { return int64_t{1'700'000'000'000}; };
  RenderEnv second;
  second.now_unix_ms = [] { return int64_t{1'900'000'123'456}; };
  for (size_t i = 0; i < targets.size(); ++i) first.visit_order.push_back(i);
  second.visit_order.assign(first.visit_order.rbegin(), first.visit_order.rend());
  if (second.visit_order.size() > 2) {
    std::rotate(second.visit_order.begin(), second.visit_order.begin() + 1,
                second.visit_order.end());
  }
  auto render_all = [&](const RenderEnv& env) {
    std::vector<std::string> bytes(targets.size());
    for (size_t index : env.visit_order)
      bytes[index] = renderer(*targets[index], banded, source_name, env);
    return bytes;
  };
  std::vector<std::string> a = render_all(first);
  std::vector<std::string> b = render_all(second);
  std::vector<Diagnostic> out;
  for (size_t i = 0; i < targets.size(); ++i) {
    if (a[i] == b[i]) continue;
    size_t offset = 0;
    while (offset < a[i].size() && offset < b[i].size() && a[i][offset] == b[i][offset]) ++offset;
    out.push_back({Severity::kError,
                   "unstable-render",
                   "unstable-render: two renders of target " + std::string(targets[i]->id) +
                       " differ at byte " + std::to_string(offset) +
                       ": the renderer depends on the clock or on the order targets are visited",
                   {std::string(targets[i]->path)}});
  }
  return out;
}

}  // namespace strata
