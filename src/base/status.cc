// status.cc: formatting of errors and diagnostics in the compiler form path:line:col.
#include "strata/status.h"

namespace strata {

const char* SeverityName(Severity severity) {
  switch (severity) {
    case Severity::kNote:
      return "note";
    case Severity::kWarning:
      return "warning";
    case Severity::kError:
      return "error";
  }
  return "error";
}

static std::string FormatLocation(const Location& where) {
  std::string out = where.path;
  if (!out.empty() && where.line > 0) {
    out += ":" + std::to_string(where.line);
    if (where.column > 0) out += ":" + std::to_string(where.column);
  }
  if (!out.empty()) out += ": ";
  return out;
}

std::string FormatDiagnostic(const Diagnostic& diagnostic) {
  return FormatLocation(diagnostic.where) + SeverityName(diagnostic.severity) + ": " +
         diagnostic.message;
}

std::string FormatError(const Error& error) {
  return FormatLocation(error.where) + "error: " + error.message;
}

Location LocationAt(std::string_view path, std::string_view text, size_t offset) {
  Location where{std::string(path), 1, 1};
  if (offset > text.size()) offset = text.size();
  for (size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++where.line;
      where.column = 1;
    } else {
      ++where.column;
    }
  }
  return where;
}

}  // namespace strata
