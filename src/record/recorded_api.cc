// recorded_api.cc: what `strata record` learns from a request's path alone: whether it is a model
// request, and of which API (record.h).
#include "strata/record.h"

namespace strata {

std::optional<RequestApi> RecordedApiOfPath(std::string_view path) {
  path = path.substr(0, path.find('?'));
  while (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
  if (path.ends_with("/chat/completions")) return RequestApi::kOpenAiChat;
  if (path.ends_with("/responses")) return RequestApi::kOpenAiResponses;
  if (path.ends_with("/messages")) return RequestApi::kAnthropicMessages;
  return std::nullopt;
}

}  // namespace strata
