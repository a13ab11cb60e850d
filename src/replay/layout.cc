// layout.cc: the names of the replay layouts and the choice of one by name (layout.h, replay.h).
#include "replay/layout.h"

#include "base/enum_names.h"

namespace strata {
namespace {

constexpr EnumName<ReplayLayout> kLayoutNames[] = {{ReplayLayout::kStrata, "strata"},
                                                   {ReplayLayout::kNaive, "naive"},
                                                   {ReplayLayout::kRecorded, "recorded"}};

}  // namespace

const char* ReplayLayoutName(ReplayLayout layout) {
  return NameOf(kLayoutNames, layout).data();  // the table's literals end in NUL
}

Result<ReplayLayout> ParseReplayLayout(std::string_view name) {
  return ParseName(kLayoutNames, name, "layout");
}

Result<std::unique_ptr<Layout>> MakeLayout(ReplayLayout kind, const LayoutOptions& options) {
  if (kind == ReplayLayout::kNaive) return MakeNaiveLayout(options);
  return MakeStrataLayout(options);
}

}  // namespace strata
