// explain_input.h (private): where a byte of a rendered request falls when the request has no
// layer map: the JSON member (tools / system / messages / input) it lies in. Shared by the input
// reader (naming breakpoints) and Explain (naming the owner of the first difference).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace strata {

// "tools", "system", "messages", "input", or "request" when the byte is in none of them.
std::string MemberAt(std::string_view bytes, size_t offset);

}  // namespace strata
