// capi_internal.h: what the C ABI's source files share: the error and string conventions of
// include/strata.h (errptr, malloc'd results) and reading the options JSON.
#pragma once

#include <exception>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

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

// Runs `body` (returning Result<std::string>) and hands its text out (CopyOut), or sets *errptr
// and returns NULL; an exception (allocation failure) becomes an error too.
template <typename Body>
char* Deliver(char** errptr, Body body) {
  try {
    Result<std::string> text = body();
    if (!text) {
      SetError(errptr, text.error());
      return nullptr;
    }
    return CopyOut(*text);
  } catch (const std::exception& e) {
    SetError(errptr, ErrorKind::kIo, std::string("internal failure: ") + e.what());
    return nullptr;
  }
}

// The error for a NULL handle passed to `function`.
Error NullHandle(std::string_view function);

// The error returned by the functions that need the llama.cpp parts in a build without them.
Error NotAvailable(std::string_view function);

}  // namespace strata::capi
