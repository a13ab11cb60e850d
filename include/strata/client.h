// client.h: the client registry: which agent harness is which (the names discover's client
// profiles and `--client` use), and, per harness and version range, what it sends that is not
// prompt text and varies per session or per request, with the rule strata applies to it.
//
// Why: a prefix cache (strata serve's KV checkpoints, a provider's prompt cache) reuses a prompt
// only up to its first differing token. A value that changes per session or per request placed
// before the conversation costs every following token. Anthropic's own API does not count
// Claude Code's billing block as prompt text (its recorded cache reads stay high across requests
// whose blocks differ); a local server that renders it prefills the whole prompt again.
//
// The rules (docs/serve-clients.md has the captures behind them):
//   claude-code  billing-header      system[0] text `x-anthropic-billing-header: cc_version=
//                                    <x.y.z>.<3 hex>; cc_entrypoint=<cli|sdk-cli|...>;`, the 3 hex
//                                    digits derived from the session's first prompt: varies per
//                                    session. All 2.1.x versions seen (2.1.36 .. 2.1.328).
//                                    Rule: left out of the local prompt and of the Anthropic
//                                    canonical form.
//   claude-code  billing-header-cch  the same block with `cch=<5 hex>;`, a value recomputed for
//                                    every request (from the body): varies per request. 2.1.36
//                                    through the 2.1.17x versions; 2.1.328 sends no cch.
//                                    Rule: as above.
//   codex        item-ids            every Responses input item's `id` (`msg_<uuid>`),
//                                    `prompt_cache_key`, `client_metadata` (its ids per session,
//                                    its turn id per turn, its member order per request): not
//                                    prompt text (never rendered), no rule needed.
//   opencode     (none)              two one-shot runs send byte-identical requests.
// Sources: Claude Code's block and its cch: anthropics/claude-code#68900 (2.1.177 sends cch;
// two consecutive requests of one session differ there), musistudio/claude-code-router#1220
// (versions >= 2.1.36 send cch per request; `CLAUDE_CODE_ATTRIBUTION_HEADER=0` turns the block
// off) and #1372; servers that leave it out of the prompt: waybarrios/vllm-mlx#277 (the line
// removed before the template; 0.07% -> 99.9% prefix match), ggml-org/llama.cpp#21793 (cch
// replaced by a constant), sgl-project/sglang#21064; ollama/ollama#14918 (its launcher sets
// the variable above). The per-session suffix without cch: strata's captures of 2.1.328.
//
// A block is recognised by its form, whatever version it names, so a later version that brings
// cch back is handled too; the version ranges say which versions send which form.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace strata {

enum class Client { kClaudeCode, kCodex, kGeminiCli, kOpencode, kGoose, kCopilot, kCursor };

// "claude-code", "codex", "gemini-cli", "opencode", "goose", "copilot", "cursor".
const char* ClientName(Client client);
// The client named `name` (as ClientName spells it); nullopt for any other name.
std::optional<Client> ClientFromName(std::string_view name);
// Every client, in the order above (the column order of discover --compare).
std::vector<Client> AllClients();
// "claude-code, codex, ..." for messages.
std::string ClientNameList();

// How often a value changes.
enum class Variation { kPerSession, kPerRequest };

// What strata does with it.
enum class VaryingTextRule {
  kLeftOut,      // left out of the local prompt and the canonical form (the text is dropped)
  kNotRendered,  // not prompt text in the first place (an id, a metadata member): nothing to do
};

// One entry of the registry.
struct VaryingText {
  Client client = Client::kClaudeCode;
  std::string_view id;     // "billing-header", "billing-header-cch", "item-ids"
  std::string_view where;  // the request member, e.g. "anthropic-messages system[0]"
  std::string_view first_version, last_version;  // inclusive; "" = open end
  Variation varies = Variation::kPerSession;
  VaryingTextRule rule = VaryingTextRule::kLeftOut;
  std::string_view source;  // where the behaviour is documented or was observed
};

// Every entry, in the order of the table above.
std::span<const VaryingText> VaryingTextRegistry();

// Claude Code's billing block, parsed: `x-anthropic-billing-header: ` then `key=value;` fields
// separated by single spaces, on one line (a trailing newline is part of the block).
struct BillingHeader {
  std::string version;             // cc_version without its suffix, e.g. "2.1.328"
  std::string suffix;              // the 3 hex digits after the version ("" when absent)
  std::string entrypoint;          // cc_entrypoint ("cli", "sdk-cli", ...; "" when absent)
  std::optional<std::string> cch;  // the per-request value, when sent
  size_t length = 0;  // bytes of `text` the block takes (its line and the newline after)
  const VaryingText* entry = nullptr;  // billing-header or billing-header-cch
};

// The billing block at the start of `text` (a system block's or the system string's text), or
// nullopt when `text` does not start with one of that form (a line that starts with the name
// but has a field without '=' or a missing ';' is not the block: it stays prompt text).
std::optional<BillingHeader> ParseBillingHeader(std::string_view text);

// Options of the rules: `keep` disables kLeftOut (strata serve --keep-client-text).
struct ClientTextOptions {
  bool keep = false;
};

// `text` without the varying client text it starts with (the billing block's line), and the
// entry that matched (nullptr when nothing was left out; then the result equals `text`).
struct ClientTextResult {
  std::string_view text;
  const VaryingText* left_out = nullptr;
};
ClientTextResult LeaveOutVaryingText(std::string_view system_text,
                                     const ClientTextOptions& options = {});

}  // namespace strata
