// member_location.h (private): where in the JSON text a member named by its path starts, so an
// error JsonObjectReader raised at a line (it reads parsed values, which keep no positions) can
// name the member's line and column too.
#pragma once

#include <cstddef>
#include <string_view>

#include "strata/status.h"

namespace strata {

// The byte offset in `text` (one JSON value) of the value at `member_path` ("history[2].id";
// "" is the whole value), or npos when the path does not lead to a value. A repeated key resolves
// to its first occurrence.
size_t MemberOffset(std::string_view text, std::string_view member_path);

// When `error` is a kParse error without a column that names a member (JsonObjectReader's
// "'<path>' ...", or a recorded line's "request member <path>: ..." from canonical_prompt.h, whose
// path is below the line's "request"), sets its line and column to that member's value in `text`,
// whose first byte is on line `first_line` of the file. Other errors pass unchanged.
Error WithMemberColumn(Error error, std::string_view text, int first_line);

}  // namespace strata
