// flag_checks.h: checks of number flags shared by the commands, run on the flag's text before
// CLI11 converts it, so that a value that would wrap (a negative count into size_t) or mean
// nothing (nan, inf) is refused with the flag and the value named (exit 2), never taken silently.
#pragma once

#include <CLI/CLI.hpp>

namespace strata::cli {

// A count or size: no minus sign (CLI11 then checks it is a whole number).
CLI::Validator NonNegative();

// A price, multiplier or duration: a finite decimal number, 0 or more. A minus sign ("-0"
// included), nan, inf and trailing text are refused.
CLI::Validator FiniteNonNegative();

}  // namespace strata::cli
