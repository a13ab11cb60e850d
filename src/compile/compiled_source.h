// compiled_source.h: what one compile worked from, kept in its report so that the stability gate
// renders exactly the same source and targets again.
#pragma once

#include <string>
#include <vector>

#include "bands/bands.h"
#include "strata/compile.h"
#include "targets/targets.h"

namespace strata {

struct CompiledSource {
  std::string text;                           // clean source, blocks spliced, imports inlined
  BandedSource banded;                        // `text` split into bands
  std::vector<const ClientTarget*> selected;  // the compiled targets, in table order
};

}  // namespace strata
