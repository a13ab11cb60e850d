// request_members.h: the top-level members each API's request may carry, and what strata serve
// does with each: honoured (it changes the reply as the API documents), accepted without effect
// (the API documents no effect on the reply, or this server has nothing it could change: e.g.
// `metadata`, `store`), or refused with 400 naming the member and why. A member outside the table
// is refused as unknown, as OpenAI's and Anthropic's own APIs refuse it; nothing is silently
// dropped. docs/serve.md carries the same tables.
#pragma once

#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>

#include "wire/serve_request.h"

namespace strata::serve {

enum class MemberRule { kHonoured, kNoEffect, kRefused };

struct MemberSpec {
  const char* name;
  MemberRule rule;
  // kNoEffect: why it changes nothing; kRefused: why it is refused (ends the 400 message).
  const char* why = "";
  // kRefused only: values that are accepted anyway because they ask for what the server does
  // (`n: 1`, `logprobs: false`); nullptr: every value is refused. A JSON null is always accepted
  // (as absent).
  bool (*accepts)(const nlohmann::json& value) = nullptr;
};

// The sampling members every API takes (honoured through common's sampler): temperature, top_p,
// seed, and llama-server's top_k, min_p, repeat_penalty, repeat_last_n, presence_penalty,
// frequency_penalty.
std::span<const MemberSpec> SamplingMembers();

// Checks every member of `body` against the union of `tables` (in body order). Errors: 400 naming
// the first refused or unknown member. `no_effect` (may be null) receives the kNoEffect members
// present.
ApiResult<bool> CheckMembers(const nlohmann::json& body,
                             std::initializer_list<std::span<const MemberSpec>> tables,
                             std::string_view api_name, std::vector<std::string>* no_effect);

// The `accepts` predicates the tables share.
bool IsFalse(const nlohmann::json& v);  // false
bool IsOne(const nlohmann::json& v);    // 1
bool IsTrue(const nlohmann::json& v);   // true

}  // namespace strata::serve
