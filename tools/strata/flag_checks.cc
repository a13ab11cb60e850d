// flag_checks.cc: number flag checks (flag_checks.h).
#include "flag_checks.h"

#include <cmath>
#include <cstdlib>
#include <string>

namespace strata::cli {

CLI::Validator NonNegative() {
  return CLI::Validator(
      [](std::string& value) {
        return !value.empty() && value[0] == '-' ? "must not be negative, got " + value
                                                 : std::string();
      },
      "N>=0");
}

CLI::Validator FiniteNonNegative() {
  return CLI::Validator(
      [](std::string& value) -> std::string {
        const char* begin = value.c_str();
        char* end = nullptr;
        const double v = std::strtod(begin, &end);
        if (value.empty() || end == begin || *end != '\0' || !std::isfinite(v)) {
          return "must be a finite number, got '" + value + "'";
        }
        if (value.find('-') != std::string::npos || v < 0) {
          return "must not be negative, got " + value;
        }
        return {};
      },
      "X>=0");
}

}  // namespace strata::cli
