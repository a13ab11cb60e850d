// reply_writer.cc: what the API writers share: SSE framing and tool-call arguments as objects
// (see reply_writer.h).
#include "wire/reply_writer.h"

namespace strata::serve {

std::string SseEvent(std::string_view event, const nlohmann::json& data) {
  std::string out;
  if (!event.empty()) out += "event: " + std::string(event) + "\n";
  out += "data: " + data.dump() + "\n\n";
  return out;
}

nlohmann::json ProgressJson(const PromptProgress& p) {
  return {
      {"total", p.total}, {"cache", p.cache}, {"processed", p.processed}, {"time_ms", p.time_ms}};
}

nlohmann::json ArgumentsObject(const std::string& arguments) {
  nlohmann::json j = nlohmann::json::parse(arguments, nullptr, false);
  return j.is_object() ? j : nlohmann::json::object();
}

}  // namespace strata::serve

namespace strata::serve {
namespace {

// The length of the longest prefix of `s` that is valid UTF-8 (llama-server's validate_utf8 cuts
// only an incomplete sequence at the end; a token's text may also hold stray bytes, cut too).
size_t ValidUtf8Length(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (n == 0 || i + n > s.size()) break;
    for (size_t k = 1; k < n; ++k) {
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return i;
    }
    i += n;
  }
  return i;
}

nlohmann::json ProbJson(const TokenProb& p) {
  nlohmann::json bytes = nlohmann::json::array();
  for (unsigned char b : p.token) bytes.push_back(b);
  return {{"id", p.id},
          {"token", p.token.substr(0, ValidUtf8Length(p.token))},
          {"bytes", std::move(bytes)},
          {"logprob", p.logprob}};
}

}  // namespace

nlohmann::json LogprobJson(const TokenLogprob& entry) {
  nlohmann::json out = ProbJson(entry.sampled);
  nlohmann::json top = nlohmann::json::array();
  for (const TokenProb& p : entry.top) top.push_back(ProbJson(p));
  out["top_logprobs"] = std::move(top);
  return out;
}

nlohmann::json LogprobsJson(const std::vector<TokenLogprob>& entries) {
  nlohmann::json out = nlohmann::json::array();
  for (const TokenLogprob& e : entries) out.push_back(LogprobJson(e));
  return out;
}

}  // namespace strata::serve
