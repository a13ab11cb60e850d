// serve_options.h: the checks of ServeOptions that Server::Create runs before any model work: a
// value this build cannot honour is refused with a message naming the option (llama-server's
// spelling, as the CLI documents it) and what to do, never passed over.
#pragma once

#include "strata/serve.h"
#include "strata/status.h"

namespace strata::serve {

// Errors: kInvalidArgument naming the option (e.g. "-ngl 99: this build of llama.cpp has no GPU
// backend ...").
Status CheckServeOptions(const ServeOptions& options);

}  // namespace strata::serve
