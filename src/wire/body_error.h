// body_error.h (private): why a request body is not JSON, said in a 400 that names the member
// (the JSON path being read when the parser stopped) and holds only valid UTF-8 (the parser's own
// message quotes the bytes it stopped at, which for a body that is not UTF-8 are not text: such a
// message once made the error body unprintable and the answer a 500).
#pragma once

#include <string_view>

#include "strata/status.h"
#include "wire/serve_request.h"

namespace strata::serve {

// A 400 for `body`, which ParseJson refused with `error`: the message names the member
// ('messages[0].content', or 'messages[0] (a member name)') and the place, says "not valid UTF-8"
// for bytes that are not UTF-8 and what to do; `param` is the member path ("" at the top level).
ApiError DescribeBodyError(std::string_view body, const Error& error);

}  // namespace strata::serve
