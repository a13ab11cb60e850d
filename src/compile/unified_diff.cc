// unified_diff.cc: the line diff `strata compile --verify --diff` prints, through dtl's O(NP)
// sequence diff and its unified-format hunks.
#include <dtl/dtl.hpp>

#include <sstream>

#include "compile/housekeeping.h"
#include "text/text.h"

namespace strata {

std::string UnifiedDiff(std::string_view before, std::string_view after, std::string_view path) {
  std::vector<std::string> a, b;
  for (auto line : SplitLines(before)) a.emplace_back(line);
  for (auto line : SplitLines(after)) b.emplace_back(line);
  dtl::Diff<std::string> diff(a, b);
  diff.compose();
  diff.composeUnifiedHunks();
  std::ostringstream out;
  out << "--- a/" << path << "\n+++ b/" << path << "\n";
  diff.printUnifiedFormat(out);
  return out.str();
}

}  // namespace strata
