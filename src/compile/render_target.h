// render_target.h: the bytes of one compiled client file.
#pragma once

#include <string>
#include <string_view>

#include "bands/bands.h"
#include "stability/stability.h"
#include "targets/targets.h"

namespace strata {

// Renders one target: format frontmatter, the generated header (targets/generated_header.h), the
// head, config and tail bands for target.id joined by one blank line, and the digest footer.
// Pure: the result depends only on `target`, `banded` and `source_name` (e.g. "AGENTS.md"), never
// on `env`; a TargetRenderer for the stability gate.
std::string RenderTarget(const ClientTarget& target, const BandedSource& banded,
                         std::string_view source_name, const RenderEnv& env);

}  // namespace strata
