// capi_internal.h: what the C ABI's source files share: the error and string conventions of
// include/strata.h (errptr, malloc'd results) and reading the options JSON.
#pragma once

#include <exception>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "strata/accounting.h"
#include "strata/status.h"

namespace strata::capi {

// A malloc'd NUL-terminated copy of `bytes` (the caller frees it with strata_free); NULL only
// when memory runs out.
char* CopyOut(std::string_view bytes);

// Sets *errptr to a malloc'd "path:line:col: error: message" when errptr is not NULL.
void SetError(char** errptr, const Error& error);
void SetError(char** errptr, ErrorKind kind, const std::string& message);

// Parses `options_json` (NULL or empty: an empty object) into *out. Errors: kParse with the
// line and column, or kInvalidArgument when it is not an object.
Status ParseOptions(const char* options_json, std::string_view what, nlohmann::json* out);

// String / bool / int member `key` of `options` into *out when present. Errors: kInvalidArgument
// naming the member and the expected type.
Status OptionString(const nlohmann::json& options, const char* key, std::string* out);
Status OptionBool(const nlohmann::json& options, const char* key, bool* out);
Status OptionInt(const nlohmann::json& options, const char* key, int* out);

// [{"severity","kind","message","path","line","column"}, ...]
nlohmann::json DiagnosticsJson(const std::vector<Diagnostic>& diagnostics);

// Runs `body` (returning a Result) and returns take(its value), or sets *errptr and returns NULL;
// an exception (allocation failure) becomes an error too, so none crosses into C.
template <typename Body, typename Take>
auto HandOut(char** errptr, Body body, Take take) -> decltype(take(*body())) {
  try {
    auto result = body();
    if (!result) {
      SetError(errptr, result.error());
      return nullptr;
    }
    return take(*result);
  } catch (const std::exception& e) {
    SetError(errptr, ErrorKind::kIo, std::string("internal failure: ") + e.what());
    return nullptr;
  }
}

// `body` returns Result<std::string>: its text, malloc'd (CopyOut).
template <typename Body>
char* Deliver(char** errptr, Body body) {
  return HandOut(errptr, body, [](const std::string& text) { return CopyOut(text); });
}

// `body` returns Result<std::unique_ptr<Handle>>: the handle, now owned by the caller.
template <typename Body>
auto DeliverHandle(char** errptr, Body body) {
  return HandOut(errptr, body, [](auto&& handle) { return handle.release(); });
}

// The error for a NULL handle passed to `function`.
Error NullHandle(std::string_view function);

// The tokenizer named by options "tokenizer" and "vocab_dir" (include/strata.h): "estimate"
// (MakeEstimateTokenizer, strata/accounting.h); "auto", the default: the qwen2 vocabulary when this
// build has llama.cpp and the file is found in vocab_dir (given) or the default directory (not
// given), else the estimate; any other name a vocabulary name or .gguf path. Errors: a vocabulary
// named without llama.cpp (naming `function` and "estimate"), a missing or unreadable vocabulary.
Result<std::unique_ptr<Tokenizer>> OptionTokenizer(const nlohmann::json& options,
                                                   std::string_view function);

// The error returned by the functions that need the llama.cpp parts in a build without them.
Error NotAvailable(std::string_view function);

}  // namespace strata::capi
