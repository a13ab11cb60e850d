// recorded_requests.cc: the reader of `strata record` files (recorded_requests.h): the lines, the
// usage each API records, and the conversation the requests hold as a Transcript.
#include "transcripts/recorded_requests.h"

#include "base/json_reader.h"
#include "transcripts/json_lines.h"
#include "wire/codec.h"

namespace strata {
namespace {

using nlohmann::json;

constexpr JsonStrictness kLenient = JsonStrictness::kLenient;

// The count `key` of the object `parent.child` (0 when either is absent).
Result<size_t> NestedCount(JsonObjectReader& parent, std::string_view child, std::string_view key) {
  const json* v = parent.Raw(child);
  if (v == nullptr || v->is_null()) return size_t{0};
  JsonObjectReader r(*v, parent.PathOf(child), parent.where(), kLenient);
  STRATA_TRY(r.ExpectObject("an object of token counts"));
  return ReadTokenCount(r, key);
}

Result<RecordedRequest> ReadLine(const JsonLine& line) {
  JsonObjectReader r(line.value, "", line.where, kLenient);
  RecordedRequest out;
  out.where = line.where;
  std::string api;
  STRATA_TRY(r.RequiredString("api", &api));
  auto parsed = ParseRequestApi(api);
  if (!parsed) return r.Fail("api", parsed.error().message);
  out.api = *parsed;
  const json* body = r.Raw("request");
  if (body == nullptr || !body->is_object()) {
    return r.Fail("request", "must be the request body, a JSON object");
  }
  out.body = *body;
  int64_t status = 0, started = 0, total = 0, ttft = -1;
  STRATA_TRY(r.Int("status", &status, 0, 999));
  STRATA_TRY(r.Int("started_ms", &started, 0, INT64_MAX));
  STRATA_TRY(r.Int("total_ms", &total, 0, INT64_MAX));
  if (const json* t = r.Raw("ttft_ms"); t != nullptr && !t->is_null()) {
    STRATA_TRY(r.Int("ttft_ms", &ttft, 0, INT64_MAX));
    out.ttft_ms = ttft;
  }
  out.status = int(status);
  out.started_ms = started;
  out.total_ms = total;
  if (const json* u = r.Raw("usage"); u != nullptr && !u->is_null()) {
    STRATA_TRY_ASSIGN(out.usage, ReadProviderUsage(*u, out.api, line.where));
  }
  return out;
}

}  // namespace

Result<RecordedUsage> ReadProviderUsage(const json& usage, RequestApi api, const Location& where) {
  JsonObjectReader u(usage, "usage", where, kLenient);
  STRATA_TRY(u.ExpectObject("the provider's usage object"));
  RecordedUsage out;
  const wire::UsageCounts& counts = wire::CodecFor(api).usage_counts;
  STRATA_TRY_ASSIGN(out.input_tokens, ReadTokenCount(u, counts.input));
  if (*counts.cached_parent != '\0') {
    STRATA_TRY_ASSIGN(out.cache_read_tokens, NestedCount(u, counts.cached_parent, counts.cached));
  } else {
    STRATA_TRY_ASSIGN(out.cache_read_tokens, ReadTokenCount(u, counts.cached));
  }
  if (*counts.cache_write != '\0') {
    STRATA_TRY_ASSIGN(out.cache_write_tokens, ReadTokenCount(u, counts.cache_write));
  }
  if (counts.input_excludes_cache)  // each count <= 10^12: the sum is exact
    out.input_tokens += out.cache_read_tokens + out.cache_write_tokens;
  if (out.cache_read_tokens > out.input_tokens) {
    return MakeError(ErrorKind::kParse,
                     "usage: the cached tokens (" + std::to_string(out.cache_read_tokens) +
                         ") exceed the prompt tokens (" + std::to_string(out.input_tokens) + ")",
                     where);
  }
  return out;
}

Result<size_t> ReadRecordedRequests(std::string_view text, std::string_view path,
                                    const std::function<Status(RecordedRequest&&)>& on_request,
                                    std::vector<std::string>* warnings) {
  size_t n = 0;
  STRATA_TRY(ForEachJsonLine(
      text, path,
      [&](JsonLine&& line) -> Status {
        STRATA_TRY_ASSIGN(RecordedRequest request, ReadLine(line));
        ++n;
        return on_request(std::move(request));
      },
      warnings));
  return n;
}

}  // namespace strata
