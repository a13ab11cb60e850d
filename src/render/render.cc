// render.cc: provider names, request flattening, and the helpers the
// provider renderers share (system parts with spans, cache_control members).
#include "strata/render.h"

#include "prompt/canonical_json.h"
#include "render/provider_names.h"
#include "render/render_internal.h"

namespace strata {

const char* ProviderName(Provider provider) {
  return NameOf(kProviderNames, provider).data();  // the names are literals: NUL-terminated
}

std::string ProviderNameList() { return NameList(kProviderNames); }

Result<Provider> ParseProvider(std::string_view name) {
  if (auto provider = ValueOf(kProviderNames, name)) return *provider;
  return MakeError(ErrorKind::kInvalidArgument, "unknown provider '" + std::string(name) +
                                                    "' (expected one of " +
                                                    NameList(kProviderNames) + ")");
}

std::string RenderedRequest::Flatten() const {
  std::string out;
  out.reserve(size);
  for (auto s : segments) out.append(s);
  return out;
}

namespace render_internal {

LayerSpan Span(std::string layer, Volatility volatility, std::string source, size_t begin,
               size_t end) {
  return LayerSpan{std::move(layer), volatility, std::move(source), begin, end};
}

bool AppendParts(const std::vector<TextPart>& parts, bool escape, RenderedPart* out) {
  bool any = false;
  for (const auto& part : parts) {
    if (part.text.empty()) continue;
    if (any) out->bytes += escape ? "\\n\\n" : "\n\n";
    size_t begin = out->bytes.size();
    if (escape) {
      AppendJsonEscaped(part.text, &out->bytes);
    } else {
      out->bytes += part.text;
    }
    out->spans.push_back(
        Span(LayerName(part.kind), part.volatility, part.source, begin, out->bytes.size()));
    any = true;
  }
  return any;
}

std::string JoinParts(const std::vector<TextPart>& parts) {
  std::string out;
  for (const auto& part : parts) {
    if (part.text.empty()) continue;
    if (!out.empty()) out += "\n\n";
    out += part.text;
  }
  return out;
}

void AppendCacheControl(size_t index, int long_ttl, const std::string& layer, RenderedPart* out) {
  bool long_lived = static_cast<int>(index) < long_ttl;
  out->breakpoints.push_back(
      Breakpoint{out->bytes.size(), long_lived ? CacheTtl::k1h : CacheTtl::k5m, layer});
  out->bytes += long_lived ? ",\"cache_control\":{\"type\":\"ephemeral\",\"ttl\":\"1h\"}"
                           : ",\"cache_control\":{\"type\":\"ephemeral\"}";
}

void AppendQuoted(std::string_view open, std::string_view text, std::string_view close,
                  std::string* out) {
  out->append(open);
  AppendJsonString(text, out);
  out->append(close);
}

std::string CanonicalArguments(const ToolCall& call) {
  std::string out;
  AppendCanonicalJsonText(call.arguments_json, &out);
  return out;
}

}  // namespace render_internal
}  // namespace strata
