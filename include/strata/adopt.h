// adopt.h: `strata adopt`, the AGENTS.md skeleton with the three cache band markers.
//
// A new file gets the skeleton. An existing file is left exactly as it is unless `force`; with
// `force`, only the harness region changes: the three markers are added (head after the first H1,
// config and tail at the end) when the file has none, and nothing else in the file is touched, so
// no hand-written text is lost. A file that already has markers is left as it is.
#pragma once

#include <filesystem>
#include <string>

#include "strata/status.h"

namespace strata {

enum class AdoptOutcome { kCreated, kLeftAlone, kMarkersAdded, kAlreadyBanded };

struct AdoptReport {
  AdoptOutcome outcome = AdoptOutcome::kLeftAlone;
  std::string path;
};

// The skeleton `strata adopt` writes for a project called `project_name`.
std::string AdoptSkeleton(std::string_view project_name);

// Inserts the three markers into `text` (clean UTF-8, LF) that has none; returns it unchanged when
// it already has markers.
std::string AddBandMarkers(std::string_view text);

// Writes root/AGENTS.md (atomically). Errors: kIo, or the file's text is not UTF-8 (with --force).
Result<AdoptReport> Adopt(const std::filesystem::path& root, bool force);

}  // namespace strata
