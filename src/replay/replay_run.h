// replay_run.h (private): how ReplayFile (strata/replay.h) settles the choices a run leaves open,
// shared with `strata explain --log` so both read a log the same way.
#pragma once

#include <string_view>

#include "strata/replay.h"

namespace strata {

// The run's options with the cache model, layout and pricing settled: the run's provider, else a
// recorded file's API, else `implied` (the provider the log implies: ProviderForTranscript), else
// anthropic; the run's layout, else recorded for a recorded file and strata for other logs.
// Errors: kInvalidArgument for an unknown provider or layout name.
Result<ReplayOptions> SettleReplayOptions(const ReplayFileOptions& run, std::string_view log,
                                          std::string_view implied = {});

}  // namespace strata
