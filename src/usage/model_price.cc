// model_price.cc: list prices by model id (replay.h ModelPrice; docs/usage.md, "Prices": Anthropic's
// and OpenAI's published per-million-token prices; cache reads 0.1x, Anthropic cache writes 1.25x
// for 5 min entries and 2x for 1 h entries, OpenAI has no write premium).
#include <algorithm>
#include <cctype>
#include <string>

#include "strata/replay.h"

namespace strata {
namespace {

struct PriceRow {
  const char* needle;  // a substring of the lower-case model id; the first row that matches wins
  double input, output, read;
  bool anthropic;
};

// More specific ids before the families they belong to.
constexpr PriceRow kPrices[] = {
    {"opus-4-5", 5, 25, 0.1, true},
    {"opus-4.5", 5, 25, 0.1, true},
    {"opus-4-6", 5, 25, 0.1, true},
    {"opus-4-7", 5, 25, 0.1, true},
    {"opus-5", 5, 25, 0.1, true},
    {"opus", 15, 75, 0.1, true},
    {"sonnet", 3, 15, 0.1, true},
    {"haiku-4-5", 1, 5, 0.1, true},
    {"haiku-4.5", 1, 5, 0.1, true},
    {"3-5-haiku", 0.8, 4, 0.1, true},
    {"haiku-3-5", 0.8, 4, 0.1, true},
    {"haiku", 0.25, 1.25, 0.1, true},
    {"gpt-5-nano", 0.05, 0.4, 0.1, false},
    {"gpt-5-mini", 0.25, 2, 0.1, false},
    {"gpt-5", 1.25, 10, 0.1, false},
    {"codex", 1.25, 10, 0.1, false},
    {"gpt-4.1-nano", 0.1, 0.4, 0.25, false},
    {"gpt-4.1-mini", 0.4, 1.6, 0.25, false},
    {"gpt-4.1", 2, 8, 0.25, false},
    {"gpt-4o-mini", 0.15, 0.6, 0.5, false},
    {"gpt-4o", 2.5, 10, 0.5, false},
    {"o4-mini", 1.1, 4.4, 0.25, false},
    {"o3", 2, 8, 0.25, false},
    {"deepseek", 0.28, 0.42, 0.1, false},
};

ModelPrice FromRow(const PriceRow& r, bool known) {
  ModelPrice p;
  p.input = r.input;
  p.output = r.output;
  p.read_multiplier = r.read;
  p.write_5m_multiplier = r.anthropic ? 1.25 : 1.0;
  p.write_1h_multiplier = r.anthropic ? 2.0 : 1.0;
  p.known = known;
  return p;
}

}  // namespace

ModelPrice PriceForModel(std::string_view model) {
  std::string m(model);
  std::transform(m.begin(), m.end(), m.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (const auto& row : kPrices) {
    if (m.find(row.needle) != std::string::npos) return FromRow(row, true);
  }
  // Unknown: an OpenAI-looking id at GPT-5's prices, anything else at Sonnet's.
  bool openai =
      m.starts_with("gpt") || m.starts_with("o1") || m.starts_with("o3") || m.starts_with("o4");
  return FromRow(openai ? kPrices[14] : kPrices[6], false);
}

}  // namespace strata
