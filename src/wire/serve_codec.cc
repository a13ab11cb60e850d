// serve_codec.cc: the table of the codecs' strata serve halves (serve_codec.h), the one place
// strata serve dispatches on the API, and the dispatching helpers reply_writer.h and
// serve_request.h declare.
#include "wire/serve_codec.h"

namespace strata::serve {
namespace {

// In RequestApi order: ServeCodecFor indexes it.
const ServeCodec* const kServeCodecs[] = {&kMessagesServeCodec, &kChatCompletionsServeCodec,
                                          &kResponsesServeCodec};
const ServeCodec* const kRawPromptCodecs[] = {&kCompletionServeCodec, &kOaiCompletionsServeCodec};

}  // namespace

const ServeCodec& ServeCodecFor(Api api) { return *kServeCodecs[static_cast<size_t>(api)]; }

std::span<const ServeCodec* const> AllServeCodecs() { return kServeCodecs; }
std::span<const ServeCodec* const> RawPromptServeCodecs() { return kRawPromptCodecs; }

Api ApiOfPath(std::string_view path) {
  for (const ServeCodec* codec : kServeCodecs) {
    if (!codec->routes.empty() && path.starts_with(codec->routes.front())) return codec->api;
  }
  return Api::kOpenAiChat;
}

const char* ApiName(Api api) { return ServeCodecFor(api).name; }

std::unique_ptr<ReplyWriter> MakeReplyWriter(Api api, const ResponseMeta& meta) {
  return ServeCodecFor(api).make_writer(meta);
}

nlohmann::json ErrorBody(Api api, const ApiError& error) {
  return ServeCodecFor(api).error_body(error);
}

}  // namespace strata::serve
