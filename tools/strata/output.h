// output.h: how the CLI prints diagnostics and errors (colour only on a terminal, never with
// NO_COLOR), shared by every subcommand.
#pragma once

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "strata/status.h"

namespace strata::cli {

// True when `stream` is a terminal and NO_COLOR is unset or empty (https://no-color.org).
bool UseColour(std::FILE* stream);

// Prints `path:line:col: severity: message` to stderr, the severity coloured on a terminal.
void PrintDiagnostic(const Diagnostic& diagnostic);
void PrintDiagnostics(const std::vector<Diagnostic>& diagnostics);
// Prints the error to stderr and returns 2 (usage or input error), for `return PrintError(e);`.
int PrintError(const Error& error);

// A library display path (relative to `base`, an absolute directory, or already absolute) as the
// CLI prints it, so an editor can jump to it: relative to the process's current directory when
// the file lies inside it, else absolute. Empty stays empty.
std::string PathFromCwd(const std::filesystem::path& base, const std::string& display);
// The diagnostic with its path mapped by PathFromCwd.
Diagnostic WithPathFromCwd(Diagnostic diagnostic, const std::filesystem::path& base);

}  // namespace strata::cli

#include <nlohmann/json.hpp>

namespace strata::cli {

// {"severity","kind","message","path","line","column"} for --json output.
nlohmann::json DiagnosticJson(const Diagnostic& diagnostic);
nlohmann::json DiagnosticsJson(const std::vector<Diagnostic>& diagnostics);

// Prints `value` to stdout, two-space indented, one final newline.
void PrintJson(const nlohmann::json& value);

}  // namespace strata::cli
