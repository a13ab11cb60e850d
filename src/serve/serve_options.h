// serve_options.h: the checks of ServeOptions that Server::Create runs before any model work: a
// value this build cannot honour is refused with a message naming the option (llama-server's
// spelling, as the CLI documents it) and what to do, never passed over. The one exception is -ngl
// on a build without a usable GPU: llama-server runs on the CPU then, so a command line kept from
// it still starts; strata serve logs a warning naming the flag (GpuLayersWarning).
#pragma once

#include <string>

#include "strata/serve.h"
#include "strata/status.h"

namespace strata::serve {

// Errors: kInvalidArgument naming the option (e.g. "-n 0: must be a positive token count ...").
Status CheckServeOptions(const ServeOptions& options);

// The warning logged at start when -ngl asks for offloaded layers (a count above 0, or all) and
// llama.cpp has no GPU backend with a usable device: llama-server runs on the CPU then, and so does
// strata serve, saying so. "" otherwise.
std::string GpuLayersWarning(const ServeOptions& options);

}  // namespace strata::serve
