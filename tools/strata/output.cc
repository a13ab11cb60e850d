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
  std::fflush(stdout);  // keep stdout and stderr lines in the order they were produced
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

std::string PathFromCwd(const std::filesystem::path& base, const std::string& display) {
  namespace fs = std::filesystem;
  if (display.empty()) return display;
  fs::path path(display);
  if (path.is_relative()) path = base / path;
  path = path.lexically_normal();
  std::error_code ec;
  fs::path cwd = fs::current_path(ec);
  if (ec) return path.string();
  fs::path relative = path.lexically_relative(cwd);
  if (relative.empty() || *relative.begin() == "..") return path.string();
  return relative.string();
}

Diagnostic WithPathFromCwd(Diagnostic diagnostic, const std::filesystem::path& base) {
  diagnostic.where.path = PathFromCwd(base, diagnostic.where.path);
  return diagnostic;
}

}  // namespace strata::cli

namespace strata::cli {

nlohmann::json DiagnosticJson(const Diagnostic& diagnostic) {
  return {{"severity", SeverityName(diagnostic.severity)},
          {"kind", diagnostic.kind},
          {"message", diagnostic.message},
          {"path", diagnostic.where.path},
          {"line", diagnostic.where.line},
          {"column", diagnostic.where.column}};
}

nlohmann::json DiagnosticsJson(const std::vector<Diagnostic>& diagnostics) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& d : diagnostics) out.push_back(DiagnosticJson(d));
  return out;
}

void PrintJson(const nlohmann::json& value) { std::printf("%s\n", value.dump(2).c_str()); }

}  // namespace strata::cli
