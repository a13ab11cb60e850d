// recorded_api.cc: what `strata record` learns from a request's path alone: whether it is a model
// request, and of which API (record.h).
#include "strata/record.h"
#include "wire/codec.h"

namespace strata {

std::optional<RequestApi> RecordedApiOfPath(std::string_view path) {
  path = path.substr(0, path.find('?'));
  while (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
  for (const wire::WireCodec* codec : wire::AllCodecs()) {
    if (path.ends_with(codec->path_suffix)) return codec->api;
  }
  return std::nullopt;
}

}  // namespace strata
