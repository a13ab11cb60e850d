// recorded_api.cc: what `strata record` learns from a request's path and headers alone: the API a
// model request uses (record.h) and which headers carry credentials that must never be written.
#include <algorithm>
#include <cctype>

#include "base/enum_names.h"
#include "strata/record.h"

namespace strata {
namespace {

constexpr EnumName<RecordedApi> kApiNames[] = {
    {RecordedApi::kAnthropicMessages, "anthropic-messages"},
    {RecordedApi::kOpenAiChat, "openai-chat"},
    {RecordedApi::kOpenAiResponses, "openai-responses"},
};

bool EqualsNoCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace

const char* RecordedApiName(RecordedApi api) { return NameOf(kApiNames, api).data(); }

std::optional<RecordedApi> RecordedApiOfPath(std::string_view path) {
  path = path.substr(0, path.find('?'));
  while (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
  if (path.ends_with("/chat/completions")) return RecordedApi::kOpenAiChat;
  if (path.ends_with("/responses")) return RecordedApi::kOpenAiResponses;
  if (path.ends_with("/messages")) return RecordedApi::kAnthropicMessages;
  return std::nullopt;
}

bool IsCredentialHeader(std::string_view name) {
  for (std::string_view credential :
       {"authorization", "proxy-authorization", "x-api-key", "api-key", "cookie", "set-cookie"}) {
    if (EqualsNoCase(name, credential)) return true;
  }
  return false;
}

}  // namespace strata
