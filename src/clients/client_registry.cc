// client_registry.cc: the client names and the registry of what each harness sends that varies
// per session or per request (client.h has the rules and their sources).
#include <array>

#include "base/enum_names.h"
#include "strata/discover.h"

namespace strata {
namespace {

constexpr EnumName<Client> kClientNames[] = {
    {Client::kClaudeCode, "claude-code"},
    {Client::kCodex, "codex"},
    {Client::kGeminiCli, "gemini-cli"},
    {Client::kOpencode, "opencode"},
    {Client::kGoose, "goose"},
    {Client::kCopilot, "copilot"},
    {Client::kCursor, "cursor"},
};

constexpr std::array kRegistry = {
    VaryingText{Client::kClaudeCode, "billing-header", "anthropic-messages system[0]", "2.1.36", "",
                Variation::kPerSession, VaryingTextRule::kLeftOut,
                "strata captures of 2.1.328 (docs/serve-clients.md); anthropics/claude-code#68900"},
    VaryingText{Client::kClaudeCode, "billing-header-cch", "anthropic-messages system[0]", "2.1.36",
                "2.1.177", Variation::kPerRequest, VaryingTextRule::kLeftOut,
                "musistudio/claude-code-router#1220, #1372; anthropics/claude-code#68900; "
                "waybarrios/vllm-mlx#277; ggml-org/llama.cpp#21793"},
    VaryingText{Client::kCodex, "item-ids",
                "openai-responses input[].id, prompt_cache_key, client_metadata", "0.171.0", "",
                Variation::kPerSession, VaryingTextRule::kNotRendered,
                "strata captures of 0.171.0 (docs/serve-clients.md)"},
};

constexpr std::string_view kBillingName = "x-anthropic-billing-header:";

bool IsHex(std::string_view s) {
  for (char c : s) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) return false;
  }
  return !s.empty();
}

}  // namespace

const char* ClientName(Client client) {
  std::string_view name = NameOf(kClientNames, client);  // literals: NUL-terminated
  return name.empty() ? "unknown" : name.data();
}

std::optional<Client> ClientFromName(std::string_view name) { return ValueOf(kClientNames, name); }

std::vector<Client> AllClients() {
  std::vector<Client> out;
  for (const auto& entry : kClientNames) out.push_back(entry.value);
  return out;
}

std::string ClientNameList() { return NameList(kClientNames); }

std::span<const VaryingText> VaryingTextRegistry() { return kRegistry; }

std::optional<BillingHeader> ParseBillingHeader(std::string_view text) {
  if (!text.starts_with(kBillingName)) return std::nullopt;
  const size_t eol = text.find('\n');
  std::string_view line = text.substr(0, eol);
  if (line.ends_with('\r')) line.remove_suffix(1);
  std::string_view rest = line.substr(kBillingName.size());
  BillingHeader out;
  bool any = false;
  // ` key=value;` repeated, nothing else on the line (a trailing space tolerated).
  while (!rest.empty()) {
    while (rest.starts_with(' ')) rest.remove_prefix(1);
    if (rest.empty()) break;
    const size_t semi = rest.find(';');
    if (semi == std::string_view::npos) return std::nullopt;
    std::string_view field = rest.substr(0, semi);
    rest.remove_prefix(semi + 1);
    const size_t eq = field.find('=');
    if (eq == std::string_view::npos || eq == 0 || field.find(' ') != std::string_view::npos)
      return std::nullopt;
    std::string_view key = field.substr(0, eq), value = field.substr(eq + 1);
    if (key == "cc_version") {
      // x.y.z.<hex>: the suffix is what varies per session.
      const size_t dot = value.rfind('.');
      if (dot != std::string_view::npos && IsHex(value.substr(dot + 1)) &&
          value.substr(dot + 1).size() == 3) {
        out.version = std::string(value.substr(0, dot));
        out.suffix = std::string(value.substr(dot + 1));
      } else {
        out.version = std::string(value);
      }
    } else if (key == "cc_entrypoint") {
      out.entrypoint = std::string(value);
    } else if (key == "cch") {
      out.cch = std::string(value);
    }
    any = true;
  }
  if (!any) return std::nullopt;
  out.length = eol == std::string_view::npos ? text.size() : eol + 1;
  out.entry = &kRegistry[out.cch ? 1 : 0];
  return out;
}

ClientTextResult LeaveOutVaryingText(std::string_view system_text,
                                     const ClientTextOptions& options) {
  ClientTextResult out{system_text, nullptr};
  if (options.keep) return out;
  auto header = ParseBillingHeader(system_text);
  if (!header) return out;
  out.text = system_text.substr(header->length);
  out.left_out = header->entry;
  return out;
}

}  // namespace strata
