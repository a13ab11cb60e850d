// render_target.h: the bytes of one compiled client file.
#pragma once

#include <string>
#include <string_view>

#include "bands/bands.h"
#include "stability/stability.h"
#include "targets/scoped_rules.h"
#include "targets/targets.h"

namespace strata {

// The frontmatter a file of `format` opens with ("" for plain markdown).
std::string TargetFrontmatter(TargetFormat format, std::string_view source_name);

// frontmatter, the generated header, `preface` (if any), then the head, config and tail bands
// for `client_id` joined by one blank line, then the digest footer.
std::string RenderFile(std::string_view frontmatter, std::string_view preface,
                       const BandedSource& banded, std::string_view client_id,
                       std::string_view source_name);

// Renders one target: format frontmatter, the generated header (targets/generated_header.h), the
// head, config and tail bands for target.id joined by one blank line, and the digest footer.
// Pure: the result depends only on `target`, `banded` and `source_name` (e.g. "AGENTS.md"), never
// on `env`; a TargetRenderer for the stability gate.
std::string RenderTarget(const ClientTarget& target, const BandedSource& banded,
                         std::string_view source_name, const RenderEnv& env);

// The path-scoped file of a nested source (`source_name`, e.g. "tests/AGENTS.md", in `subdir`)
// for `target` in its scoped form: glob frontmatter (kGlobRule), the target's own frontmatter and
// a first line naming the directory (kNoteRule), or the target's own form (kNestedFile). Pure.
std::string RenderScoped(const ClientTarget& target, const ScopedForm& form,
                         const BandedSource& banded, std::string_view subdir,
                         std::string_view source_name);

}  // namespace strata
