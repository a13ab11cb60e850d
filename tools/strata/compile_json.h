// compile_json.h: the JSON form of a compile report, shared by `strata compile --json` and the
// compile and audit tools of `strata mcp`.
#pragma once

#include <string_view>

#include <nlohmann/json.hpp>

#include "strata/compile.h"

namespace strata::cli {

// {"mode", "source", "had_markers", "targets", "companions", "orphans", "blocks_updated",
// "diagnostics"}; each file entry {"id", "path", "status", "bytes", "detail"} plus "diff" when
// one was asked for (docs/compile.md, JSON).
nlohmann::json ReportJson(const CompileReport& report, std::string_view mode);

}  // namespace strata::cli
