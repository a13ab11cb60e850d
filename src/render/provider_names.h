// provider_names.h: the stable names of the providers a request renders for, one table for
// parsing (--provider flags, ParseProvider) and printing (ProviderName, help texts).
#pragma once

#include "base/enum_names.h"
#include "strata/render.h"

namespace strata {

inline constexpr EnumName<Provider> kProviderNames[] = {
    {Provider::kAnthropic, "anthropic"},
    {Provider::kOpenAiChat, "openai-chat"},
    {Provider::kOpenAiResponses, "openai-responses"},
    {Provider::kChatTemplate, "chat-template"},
};

}  // namespace strata
