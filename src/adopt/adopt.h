// adopt.h: the pieces of `strata adopt` (Adopt itself is public, compile.h): the AGENTS.md
// skeleton and the insertion of the three band markers into a file that has none.
#pragma once

#include <string>
#include <string_view>

namespace strata {

// The skeleton `strata adopt` writes for a project called `project_name`.
std::string AdoptSkeleton(std::string_view project_name);

// Inserts the three markers into `text` (clean UTF-8, LF) that has none: the head marker after the
// first H1 (at the top when there is none), config and tail at the end. Returns `text` unchanged
// when it already has a marker outside code blocks.
std::string AddBandMarkers(std::string_view text);

}  // namespace strata
