// request_accountant.cc: RequestAccountant (accounting.h): a harness's requests, one at a time,
// through the path `strata replay --layout recorded` takes for recorded requests: the canonical
// prompt (wire/canonical_prompt.h), block-wise tokens (tokenize/request_tokens.h) and a
// cache model (cache_model/cache_model.h). Each request is cut and tokenized whole (pieces are
// memoized by content, so unchanged blocks cost a lookup); earlier breakpoints inside the prefix
// a request shares with the previous one stay cuts, as they do in replay, because the provider
// cached whole blocks there.
#include <algorithm>
#include <nlohmann/json.hpp>

#include "base/common_prefix.h"
#include "cache_model/cache_model.h"
#include "strata/accounting.h"
#include "tokenize/request_tokens.h"
#include "wire/canonical_prompt.h"
#include "wire/codec.h"

namespace strata {

struct RequestAccountant::State {
  State(const Tokenizer& tokenizer, const CacheModelOptions& options)
      : model(MakeCacheModel(options)), pieces(tokenizer) {}
  std::unique_ptr<CacheModel> model;
  PieceTokenizer pieces;
  std::string prev_bytes;                // the previous request's canonical prompt
  std::vector<TokenId> prev_tokens;      // its tokens
  std::vector<size_t> prev_breakpoints;  // breakpoints of earlier requests (canonical offsets)
  double time_s = 0;
};

RequestAccountant::RequestAccountant(const Tokenizer& tokenizer, const CacheModelOptions& options)
    : state_(std::make_unique<State>(tokenizer, options)) {}
RequestAccountant::RequestAccountant(RequestAccountant&&) noexcept = default;
RequestAccountant& RequestAccountant::operator=(RequestAccountant&&) noexcept = default;
RequestAccountant::~RequestAccountant() = default;

std::string RequestAccountant::Describe() const { return state_->model->Describe(); }

Result<AccountedRequest> RequestAccountant::Account(std::string_view request, RequestApi api,
                                                    double time_s) {
  State& s = *state_;
  nlohmann::json body = nlohmann::json::parse(request, nullptr, /*allow_exceptions=*/false);
  if (body.is_discarded() || !body.is_object()) {
    return MakeError(ErrorKind::kParse,
                     "request: not a JSON object (pass the request body a render produced)");
  }
  STRATA_TRY_ASSIGN(CanonicalPrompt c, CanonicalizeRequest(body, api, Location{"request", 0, 0}));
  const std::vector<Breakpoint> breakpoints = c.Breakpoints();
  const size_t shared =
      CommonPrefixLength(std::string_view(s.prev_bytes), std::string_view(c.bytes));
  std::erase_if(s.prev_breakpoints, [&](size_t off) { return off > shared; });
  std::vector<size_t> cuts = StructuralCuts(c.bytes, c.Spans(), breakpoints, s.prev_breakpoints);
  STRATA_TRY_ASSIGN(TokenizedRequest tokens, s.pieces.Tokenize(c.bytes, cuts));

  s.time_s = std::max(s.time_s, time_s);
  CacheRequest req;
  req.tokens = tokens.ids;
  req.time_s = s.time_s;
  req.model = c.model;
  req.block_ends = tokens.cut_tokens;
  AccountedRequest out;
  for (const auto& bp : breakpoints) {
    size_t at = tokens.TokensAt(bp.offset);
    if (wire::CodecFor(api).explicit_breakpoints) req.breakpoints.push_back({at, bp.ttl});
    out.breakpoints.push_back({bp.layer, at, bp.ttl == CacheTtl::k1h ? "1h" : "5m"});
  }
  out.usage = s.model->Process(req);
  out.shared_tokens = CommonPrefixLength(std::span<const TokenId>(s.prev_tokens),
                                         std::span<const TokenId>(tokens.ids));
  for (const auto& bp : breakpoints) {  // kept sorted and unique
    auto at = std::lower_bound(s.prev_breakpoints.begin(), s.prev_breakpoints.end(), bp.offset);
    if (at == s.prev_breakpoints.end() || *at != bp.offset)
      s.prev_breakpoints.insert(at, bp.offset);
  }
  s.prev_bytes = std::move(c.bytes);
  s.prev_tokens = std::move(tokens.ids);
  return out;
}

Result<RequestApi> RequestApiOfProvider(std::string_view provider) {
  for (const wire::WireCodec* codec : wire::AllCodecs()) {
    if (provider == codec->provider_name) return codec->api;
  }
  if (auto api = ParseRequestApi(provider)) return *api;
  return MakeError(ErrorKind::kInvalidArgument,
                   "unknown request provider '" + std::string(provider) +
                       "' (expected anthropic, openai-chat or openai-responses: the provider the "
                       "request was rendered for)");
}

}  // namespace strata
