// record_line.cc: one line of a `strata record` file (record.h): the request body as the harness
// sent it, kept byte for byte apart from whitespace between JSON tokens, beside the API, the usage,
// the status and the timings.
#include <fmt/format.h>

#include <vector>

#include "base/json_reader.h"
#include "strata/record.h"
#include "wire/codec.h"

namespace strata {
namespace {

bool IsJsonWhitespace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string DumpJson(const nlohmann::json& value) {
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

bool IsCount(const nlohmann::json& v) { return v.is_number_unsigned() || v.is_number_integer(); }

// The documented counts of `usage` (keys sorted); anything else an upstream puts there (text, an
// echoed header) is left out. Null when no documented count is present.
nlohmann::json KeptUsage(RequestApi api, const nlohmann::json& usage) {
  if (!usage.is_object()) return nullptr;
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [key, value] : usage.items()) {
    for (const wire::UsageField& field : wire::CodecFor(api).documented_usage) {
      if (key != field.name) continue;
      if (field.nested.empty()) {
        if (IsCount(value)) out[key] = value;
      } else if (value.is_object()) {
        nlohmann::json inner = nlohmann::json::object();
        for (const char* name : field.nested) {
          auto it = value.find(name);
          if (it != value.end() && IsCount(*it)) inner[name] = *it;
        }
        if (!inner.empty()) out[key] = std::move(inner);
      }
    }
  }
  return out.empty() ? nlohmann::json() : out;
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

// RecordedExchange::usage_json as a value: null when empty or not JSON.
nlohmann::json ParsedUsage(const std::string& usage_json) {
  return nlohmann::json::parse(usage_json, nullptr, false);  // discarded: KeptUsage gives null
}

std::string FormatRecordLine(const RecordedExchange& exchange) {
  auto compact = CompactJsonBody(exchange.request_body, "<request>");
  std::string request = compact ? *compact : DumpJson(nlohmann::json(exchange.request_body));
  return fmt::format(
      "{{\"api\":\"{}\",\"request\":{},\"usage\":{},\"status\":{},\"started_ms\":{},"
      "\"ttft_ms\":{},\"total_ms\":{}}}\n",
      RequestApiName(exchange.api), request,
      DumpJson(KeptUsage(exchange.api, ParsedUsage(exchange.usage_json))), exchange.status,
      exchange.started_ms, exchange.ttft_ms, exchange.total_ms);
}

}  // namespace strata
