// log_provider.cc: the provider and tokenizer a log implies (log_provider.h).
#include "replay/log_provider.h"

#include <algorithm>
#include <cctype>

namespace strata {
namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

bool IsOpenAiModel(const std::string& m) {
  return m.starts_with("gpt-") || m.starts_with("o1") || m.starts_with("o3") ||
         m.starts_with("o4") || m.find("codex") != std::string::npos;
}

}  // namespace

std::string FirstModel(const Transcript& t) {
  for (const auto& e : t.events) {
    if (e.kind == TranscriptEventKind::kContext && !e.context.model.empty()) return e.context.model;
  }
  return "";
}

CacheModelKind ProviderForTranscript(const Transcript& t) {
  const std::string p = Lower(t.provider);
  if (p == "openai" || p == "azure") return CacheModelKind::kOpenAi;
  if (p == "anthropic") return CacheModelKind::kAnthropic;
  if (p == "deepseek") return CacheModelKind::kDeepSeek;
  const std::string m = Lower(FirstModel(t));
  if (IsOpenAiModel(m)) return CacheModelKind::kOpenAi;
  if (m.starts_with("deepseek")) return CacheModelKind::kDeepSeek;
  return CacheModelKind::kAnthropic;
}

std::string TokenizerModel(std::string_view model, CacheModelKind provider) {
  if (provider == CacheModelKind::kOpenAi && !IsOpenAiModel(Lower(model))) return "gpt-5";
  return std::string(model);
}

}  // namespace strata
