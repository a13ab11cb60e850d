// usage_scanner.h: the usage a provider reported, read out of a response body as it streams past
// (the "usage" of a record line, strata/record.h says which events carry it).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "strata/record.h"

namespace strata {

// Reads the provider-reported usage out of a response body, incrementally: Feed each piece as it
// arrives, then usage(). Event lines end in LF or CRLF; an event ends at a blank line.
// `event_stream` says whether the body is server-sent events (Content-Type text/event-stream) or
// one JSON document. Memory: the event being read (SSE) or the whole body (JSON). Bodies that are
// not JSON, events that do not parse and events without usage are skipped: a response without usage
// gives null, never an error.
class UsageScanner {
 public:
  UsageScanner(RequestApi api, bool event_stream) : api_(api), event_stream_(event_stream) {}
  void Feed(std::string_view bytes);
  // The usage object seen so far (for a JSON body: once the whole body has been fed); null when
  // none was seen.
  nlohmann::json usage() const;

 private:
  void TakeLine(std::string_view line);
  void TakeData(std::string_view data);
  RequestApi api_;
  bool event_stream_;
  std::string pending_;  // SSE: the incomplete line; JSON: the body so far
  std::string data_;     // SSE: the data lines of the event being read, joined by LF
  bool has_data_ = false;
  nlohmann::json usage_;
};

}  // namespace strata
