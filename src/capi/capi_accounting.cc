// capi_accounting.cc: the cache accounting of the C ABI (strata_accountant_*, include/strata.h)
// over RequestAccountant (strata/accounting.h): the requests a harness renders, one after
// another, under one provider's cache model, with the tokenizer the options name.
#include <cmath>
#include <memory>

#include "capi/capi_internal.h"
#include "strata.h"
#include "strata/accounting.h"

struct strata_accountant_t {
  std::unique_ptr<strata::Tokenizer> tokenizer;  // the accountant holds a reference to it
  std::unique_ptr<strata::RequestAccountant> accountant;
};

namespace strata::capi {
namespace {

Result<std::unique_ptr<strata_accountant_t>> CreateAccountant(const char* cache_model,
                                                              const char* options_json) {
  nlohmann::json o;
  STRATA_TRY(ParseOptions(options_json, "strata_accountant_create", &o));
  CacheModelOptions options;
  STRATA_TRY_ASSIGN(options.kind,
                    ParseCacheModelKind(cache_model != nullptr ? cache_model : "anthropic"));
  int minimum = 0;
  STRATA_TRY(OptionInt(o, "minimum_tokens", &minimum));
  if (minimum < 0) {
    return MakeError(ErrorKind::kInvalidArgument, "option 'minimum_tokens' must be 0 or more");
  }
  options.minimum_tokens = size_t(minimum);
  if (o.contains("retention_s")) {
    if (!o["retention_s"].is_number()) {
      return MakeError(ErrorKind::kInvalidArgument, "option 'retention_s' must be a number");
    }
    options.retention_s = o["retention_s"].get<double>();
  }
  auto out = std::make_unique<strata_accountant_t>();
  STRATA_TRY_ASSIGN(out->tokenizer, OptionTokenizer(o, "strata_accountant_create"));
  out->accountant = std::make_unique<RequestAccountant>(*out->tokenizer, options);
  return out;
}

Result<std::string> Account(strata_accountant_t* a, std::string_view request, const char* provider,
                            double time_s) {
  if (a == nullptr) return tl::unexpected(NullHandle("strata_accountant_account"));
  if (!std::isfinite(time_s)) {
    return MakeError(ErrorKind::kInvalidArgument,
                     "strata_accountant_account: time_s is not finite");
  }
  STRATA_TRY_ASSIGN(RequestApi api,
                    RequestApiOfProvider(provider != nullptr ? provider : "anthropic"));
  STRATA_TRY_ASSIGN(AccountedRequest r, a->accountant->Account(request, api, time_s));
  nlohmann::json breakpoints = nlohmann::json::array();
  for (const auto& bp : r.breakpoints) {
    breakpoints.push_back({{"block", bp.block}, {"tokens", bp.tokens}, {"ttl", bp.ttl}});
  }
  const CacheUsage& u = r.usage;
  nlohmann::json out = {{"input_tokens", u.input_tokens},
                        {"cache_read_tokens", u.cache_read_tokens},
                        {"cache_write_tokens", u.cache_write_tokens},
                        {"cache_write_1h_tokens", u.cache_write_1h_tokens},
                        {"uncached_tokens", u.uncached_tokens},
                        {"hit_ratio", u.HitRatio()},
                        {"shared_tokens", r.shared_tokens},
                        {"cost", u.cost},
                        {"tokenizer", a->tokenizer->name()},
                        {"breakpoints", breakpoints},
                        {"notes", u.notes}};
  return out.dump();
}

}  // namespace
}  // namespace strata::capi

extern "C" {

strata_accountant_t* strata_accountant_create(const char* cache_model, const char* options_json,
                                              char** errptr) {
  return strata::capi::DeliverHandle(
      errptr, [&] { return strata::capi::CreateAccountant(cache_model, options_json); });
}

void strata_accountant_destroy(strata_accountant_t* accountant) { delete accountant; }

char* strata_accountant_account(strata_accountant_t* accountant, const char* request,
                                size_t request_len, const char* provider, double time_s,
                                char** errptr) {
  return strata::capi::Deliver(errptr, [&] {
    return strata::capi::Account(
        accountant, std::string_view(request != nullptr ? request : "", request ? request_len : 0),
        provider, time_s);
  });
}

}  // extern "C"
