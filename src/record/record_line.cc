// record_line.cc: one line of a `strata record` file (record.h): the request body as the harness
// sent it, kept byte for byte apart from whitespace between JSON tokens, beside the API, the usage,
// the status and the timings.
#include <fmt/format.h>

#include "base/json_reader.h"
#include "strata/record.h"

namespace strata {
namespace {

bool IsJsonWhitespace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string DumpJson(const nlohmann::json& value) {
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

Result<std::string> CompactJsonBody(std::string_view body, std::string_view label) {
  STRATA_TRY(ParseJson(body, label));
  std::string out;
  out.reserve(body.size());
  bool in_string = false;
  for (size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (in_string) {
      out += c;
      if (c == '\\' && i + 1 < body.size()) {
        out += body[++i];  // the escaped character, which may be a quote
      } else if (c == '"') {
        in_string = false;
      }
    } else if (!IsJsonWhitespace(c)) {
      out += c;
      in_string = c == '"';
    }
  }
  return out;
}

std::string FormatRecordLine(const RecordedExchange& exchange) {
  auto compact = CompactJsonBody(exchange.request_body, "<request>");
  std::string request = compact ? *compact : DumpJson(nlohmann::json(exchange.request_body));
  return fmt::format(
      "{{\"api\":\"{}\",\"request\":{},\"usage\":{},\"status\":{},\"started_ms\":{},"
      "\"ttft_ms\":{},\"total_ms\":{}}}\n",
      RequestApiName(exchange.api), request, DumpJson(exchange.usage), exchange.status,
      exchange.started_ms, exchange.ttft_ms, exchange.total_ms);
}

}  // namespace strata
