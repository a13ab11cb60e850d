// request_members.cc: the member check of every API's request (see request_members.h).
#include "wire/request_members.h"

#include <fmt/format.h>

namespace strata::serve {

bool IsFalse(const nlohmann::json& v) { return v.is_boolean() && !v.get<bool>(); }
bool IsTrue(const nlohmann::json& v) { return v.is_boolean() && v.get<bool>(); }
bool IsOne(const nlohmann::json& v) { return v.is_number_integer() && v.get<int64_t>() == 1; }

namespace {

constexpr MemberSpec kSampling[] = {
    {"temperature", MemberRule::kHonoured},
    {"top_p", MemberRule::kHonoured},
    {"seed", MemberRule::kHonoured},
    {"top_k", MemberRule::kHonoured},
    {"min_p", MemberRule::kHonoured},
    {"repeat_penalty", MemberRule::kHonoured},
    {"repeat_last_n", MemberRule::kHonoured},
    {"presence_penalty", MemberRule::kHonoured},
    {"frequency_penalty", MemberRule::kHonoured},
};

}  // namespace

std::span<const MemberSpec> SamplingMembers() { return kSampling; }

ApiResult<bool> CheckMembers(const nlohmann::json& body,
                             std::initializer_list<std::span<const MemberSpec>> tables,
                             std::string_view api_name, std::vector<std::string>* no_effect) {
  for (const auto& [key, value] : body.items()) {
    const MemberSpec* spec = nullptr;
    for (std::span<const MemberSpec> specs : tables) {
      for (const MemberSpec& s : specs) {
        if (key == s.name) spec = &s;
      }
    }
    if (spec == nullptr) {
      return BadRequest(key, fmt::format("is not a member of {} requests that strata serve knows: "
                                         "refused rather than ignored (docs/serve.md lists the "
                                         "members)",
                                         api_name));
    }
    if (value.is_null()) continue;
    if (spec->rule == MemberRule::kNoEffect && no_effect != nullptr) no_effect->push_back(key);
    if (spec->rule != MemberRule::kRefused) continue;
    if (spec->accepts != nullptr && spec->accepts(value)) continue;
    return BadRequest(key, fmt::format("is not supported by strata serve: {}", spec->why));
  }
  return true;
}

}  // namespace strata::serve
