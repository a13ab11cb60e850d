// model_price.cc: list prices by model id (replay.h ModelPrice; docs/usage.md, "Prices").
//
// Sources (dollars per million tokens, checked 2026-12): Anthropic's pricing page
// (platform.claude.com/docs/en/about-claude/pricing: cache reads 0.1x, cache writes 1.25x for
// 5 min entries and 2x for 1 h entries) and OpenAI's (platform.openai.com/docs/pricing: cached
// input as listed, no write premium), cross-checked against the public price tables ccusage and
// opencode read (LiteLLM's model_prices_and_context_window.json, models.dev): gpt-5.2,
// gpt-5.2-codex and gpt-5.3-codex $1.75 / $14 (cached $0.175); gpt-5.1-codex-mini and
// gpt-5-codex-mini $0.25 / $2 (cached $0.025); gpt-5.4 $2.50 / $15, -mini $0.75 / $4.50, -nano
// $0.20 / $1.25; gpt-5.5 $5 / $30.
#include <algorithm>
#include <cctype>
#include <string>

#include "strata/replay.h"

namespace strata {
namespace {

struct PriceRow {
  // A model family: matches an id holding it as a whole part (after the start or a character
  // that is not a letter or digit, and before the end or one of "-@:_"), so "gpt-5" matches
  // "gpt-5-2025-08-07" and "openai/gpt-5" but not "gpt-5.2". The longest family that matches
  // wins, and only among the rows that carry every size variant ("mini", "nano", "pro") the id
  // carries: a "-mini" never falls to its parent's price.
  // `any_variant`: a vendor's row that prices all its ids (DeepSeek), whatever their variant.
  const char* family;
  double input, output, read;
  bool anthropic;
  bool any_variant = false;
};

constexpr PriceRow kPrices[] = {
    // Anthropic.
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
    // OpenAI: GPT-5 and its Codex models.
    {"gpt-5", 1.25, 10, 0.1, false},
    {"gpt-5-mini", 0.25, 2, 0.1, false},
    {"gpt-5-nano", 0.05, 0.4, 0.1, false},
    {"gpt-5-pro", 15, 120, 1, false},
    {"gpt-5-codex", 1.25, 10, 0.1, false},
    {"gpt-5-codex-mini", 0.25, 2, 0.1, false},
    {"gpt-5.1", 1.25, 10, 0.1, false},
    {"gpt-5.1-codex", 1.25, 10, 0.1, false},
    {"gpt-5.1-codex-max", 1.25, 10, 0.1, false},
    {"gpt-5.1-codex-mini", 0.25, 2, 0.1, false},
    {"gpt-5.2", 1.75, 14, 0.1, false},
    {"gpt-5.2-codex", 1.75, 14, 0.1, false},
    {"gpt-5.2-pro", 21, 168, 1, false},
    {"gpt-5.3-codex", 1.75, 14, 0.1, false},
    {"gpt-5.4", 2.5, 15, 0.1, false},
    {"gpt-5.4-mini", 0.75, 4.5, 0.1, false},
    {"gpt-5.4-nano", 0.2, 1.25, 0.1, false},
    {"gpt-5.5", 5, 30, 0.1, false},
    {"codex-mini-latest", 1.5, 6, 0.25, false},
    {"codex", 1.25, 10, 0.1, false},
    // OpenAI: earlier models.
    {"gpt-4.1", 2, 8, 0.25, false},
    {"gpt-4.1-mini", 0.4, 1.6, 0.25, false},
    {"gpt-4.1-nano", 0.1, 0.4, 0.25, false},
    {"gpt-4o", 2.5, 10, 0.5, false},
    {"gpt-4o-mini", 0.15, 0.6, 0.5, false},
    {"o1", 15, 60, 0.5, false},
    {"o1-mini", 1.1, 4.4, 0.5, false},
    {"o3", 2, 8, 0.25, false},
    {"o3-mini", 1.1, 4.4, 0.5, false},
    {"o4-mini", 1.1, 4.4, 0.25, false},
    {"o3-pro", 20, 80, 1, false},
    {"deepseek", 0.28, 0.42, 0.1, false, true},
};

// The defaults of an unknown id (known = false).
constexpr std::string_view kAnthropicDefault = "sonnet";
constexpr std::string_view kOpenAiDefault = "gpt-5";

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

const PriceRow& Row(std::string_view family) {
  for (const auto& row : kPrices) {
    if (row.family == family) return row;
  }
  return kPrices[0];  // not reached: the defaults are rows
}

bool IsAlnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

// Whether `part` ("mini") is a dash-separated part of `id`.
bool HasPart(std::string_view id, std::string_view part) {
  for (size_t at = id.find(part); at != std::string_view::npos; at = id.find(part, at + 1)) {
    const size_t end = at + part.size();
    if ((at == 0 || !IsAlnum(id[at - 1])) && (end == id.size() || !IsAlnum(id[end]))) return true;
  }
  return false;
}

// Whether `family` occurs in `id` as a whole part (PriceRow).
bool HoldsFamily(std::string_view id, std::string_view family) {
  for (size_t at = id.find(family); at != std::string_view::npos; at = id.find(family, at + 1)) {
    const size_t end = at + family.size();
    const bool starts = at == 0 || !IsAlnum(id[at - 1]);
    const bool ends =
        end == id.size() || std::string_view("-@:_").find(id[end]) != std::string_view::npos;
    if (starts && ends) return true;
  }
  return false;
}

constexpr std::string_view kVariants[] = {"mini", "nano", "pro"};

}  // namespace

ModelPrice PriceForModel(std::string_view model, std::string_view provider) {
  std::string m(model);
  std::transform(m.begin(), m.end(), m.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  const PriceRow* best = nullptr;
  size_t best_size = 0;
  for (const auto& row : kPrices) {
    const std::string_view family = row.family;
    if (family.size() <= best_size || !HoldsFamily(m, family)) continue;
    bool same_variants = true;
    for (std::string_view v : kVariants) {
      same_variants = same_variants && (row.any_variant || HasPart(m, v) == HasPart(family, v));
    }
    if (!same_variants) continue;
    best = &row;
    best_size = family.size();
  }
  if (best != nullptr) return FromRow(*best, true);
  // Unknown: the provider's default when it is named (Anthropic: Sonnet; any other, as Codex
  // speaks OpenAI's API: GPT-5, or its mini / nano for such an id); else by the id's look.
  const bool openai = provider.empty() ? m.starts_with("gpt") || m.starts_with("o1") ||
                                             m.starts_with("o3") || m.starts_with("o4")
                                       : provider != "anthropic";
  if (!openai) return FromRow(Row(kAnthropicDefault), false);
  if (HasPart(m, "mini")) return FromRow(Row("gpt-5-mini"), false);
  if (HasPart(m, "nano")) return FromRow(Row("gpt-5-nano"), false);
  return FromRow(Row(kOpenAiDefault), false);
}

}  // namespace strata
