// status.h: errors as values and diagnostics, shared by every strata module.
//
// Library functions never throw across the API: they return Result<T> (tl::expected) whose error
// carries a kind, a message a user can act on, and a location when there is one. Diagnostics are
// findings that do not stop the work (a warning, a refused import); both print in the compiler form
// `path:line:col: severity: message` so editors and CI logs can jump to them.
#pragma once

#include <string>
#include <tl/expected.hpp>
#include <vector>

// STRATA_EXPORT, the mark of strata's public API. libstrata.so is built with hidden
// visibility (-fvisibility=hidden), so it exports only what carries this mark: each public
// header's `namespace STRATA_EXPORT strata { ... }` (the C++ API of include/strata/) and the C ABI
// of include/strata.h. Internal code (src/) stays inside the library, as leveldb does with
// LEVELDB_EXPORT and llama.cpp with LLAMA_API.
#if defined(__GNUC__) || defined(__clang__)
#define STRATA_EXPORT [[gnu::visibility("default")]]
#else
#define STRATA_EXPORT
#endif

namespace STRATA_EXPORT strata {

enum class ErrorKind {
  kInvalidArgument,  // the caller's input is malformed (bad flag value, bad config key)
  kNotFound,         // a named file or entry does not exist
  kIo,               // the filesystem refused a read or write
  kParse,            // a file is not in the format it must be in
  kInvalidUtf8,      // bytes that are not UTF-8 where text is required
  kConflict,         // writing would destroy text strata did not generate
  kLimit,            // a documented size or count limit is exceeded
  kCorrupt,          // stored data failed its checks
};

// A place in a file. line and column are 1-based; 0 means "unknown" and is not printed.
struct Location {
  std::string path;
  int line = 0;
  int column = 0;
};

struct Error {
  ErrorKind kind = ErrorKind::kInvalidArgument;
  std::string message;
  Location where;
};

template <class T>
using Result = tl::expected<T, Error>;
using Status = tl::expected<void, Error>;

// Propagation without hand-written unwraps. STRATA_TRY(expr) returns the error of a Status or
// Result expression; STRATA_TRY_ASSIGN(lhs, expr) also moves the value of a Result into `lhs`
// (a declaration such as `auto x` or an existing variable).
#define STRATA_CONCAT_INNER(a, b) a##b
#define STRATA_CONCAT(a, b) STRATA_CONCAT_INNER(a, b)
#define STRATA_TRY(expr)                                                            \
  do {                                                                              \
    if (auto strata_try_result = (expr); !strata_try_result)                        \
      return tl::unexpected<::strata::Error>(std::move(strata_try_result).error()); \
  } while (0)
#define STRATA_TRY_ASSIGN(lhs, expr) \
  STRATA_TRY_ASSIGN_IMPL(STRATA_CONCAT(strata_try_, __LINE__), lhs, expr)
// `tmp` is a declared name and `lhs` may be a declaration: neither can take parentheses.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define STRATA_TRY_ASSIGN_IMPL(tmp, lhs, expr)                              \
  auto tmp = (expr);                                                        \
  if (!tmp) return tl::unexpected<::strata::Error>(std::move(tmp).error()); \
  lhs = std::move(*tmp)
// NOLINTEND(bugprone-macro-parentheses)

inline tl::unexpected<Error> MakeError(ErrorKind kind, std::string message, Location where = {}) {
  return tl::unexpected<Error>(Error{kind, std::move(message), std::move(where)});
}

enum class Severity { kNote, kWarning, kError };

struct Diagnostic {
  Severity severity = Severity::kWarning;
  std::string kind;     // stable machine-readable name, e.g. "unmarked-source", "import-missing"
  std::string message;  // one line a user can act on
  Location where;
};

// "error", "warning" or "note".
const char* SeverityName(Severity severity);

// `path:line:col: severity: message`; the parts of the location that are unknown are left out.
std::string FormatDiagnostic(const Diagnostic& diagnostic);
std::string FormatError(const Error& error);

// 1-based line and column of byte `offset` in `text` (column counts bytes).
Location LocationAt(std::string_view path, std::string_view text, size_t offset);

}  // namespace strata
