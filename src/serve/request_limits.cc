// request_limits.cc: bounds checked before the work they bound (request_limits.h).
#include "serve/request_limits.h"

#include <fmt/format.h>

namespace strata::serve {

ApiResult<bool> CheckPromptBytes(size_t prompt_bytes, size_t max_token_bytes, uint32_t n_ctx) {
  if (max_token_bytes == 0) return true;
  const size_t least_tokens = (prompt_bytes + max_token_bytes - 1) / max_token_bytes;
  if (least_tokens + 1 <= n_ctx) return true;
  return tl::unexpected(ApiError{
      413, "request_too_large",
      fmt::format(
          "the prompt holds at least {} bytes, so at least {} tokens (a token of this model "
          "stands for at most {} bytes); the context holds {}: shorten the conversation "
          "or start the server with a larger --ctx",
          prompt_bytes, least_tokens, max_token_bytes, n_ctx),
      "messages"});
}

namespace {

size_t TrimmedSize(const std::string& text) {
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return 0;
  return text.find_last_not_of(" \t\r\n") + 1 - first;
}

}  // namespace

size_t LeastPromptBytes(const ServeRequest& request) {
  size_t bytes = TrimmedSize(request.system);
  for (const Message& m : request.messages) bytes += TrimmedSize(m.text);
  return bytes;
}

}  // namespace strata::serve
