// output.cc: diagnostic printing for the CLI.
#include "output.h"

#include <unistd.h>

#include <cstdlib>

namespace strata::cli {

bool UseColour(std::FILE* stream) {
  const char* no_colour = std::getenv("NO_COLOR");
  if (no_colour != nullptr && no_colour[0] != '\0') return false;
  return ::isatty(::fileno(stream)) != 0;
}

void PrintDiagnostic(const Diagnostic& diagnostic) {
  std::string line = FormatDiagnostic(diagnostic);
  if (UseColour(stderr)) {
    std::string name = std::string(SeverityName(diagnostic.severity)) + ":";
    const char* colour = diagnostic.severity == Severity::kError     ? "\033[1;31m"
                         : diagnostic.severity == Severity::kWarning ? "\033[1;35m"
                                                                     : "\033[1;36m";
    if (auto at = line.find(name); at != std::string::npos) {
      line.replace(at, name.size(), std::string(colour) + name + "\033[0m");
    }
  }
  std::fprintf(stderr, "%s\n", line.c_str());
}

void PrintDiagnostics(const std::vector<Diagnostic>& diagnostics) {
  for (const auto& d : diagnostics) PrintDiagnostic(d);
}

int PrintError(const Error& error) {
  PrintDiagnostic({Severity::kError, "error", error.message, error.where});
  return 2;
}

}  // namespace strata::cli
