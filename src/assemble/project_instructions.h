// project_instructions.h: the instruction sources of a project directory, found by discovery,
// as the assembler's InstructionSource list (`strata assemble --project`).
#pragma once

#include <filesystem>
#include <vector>

#include "strata/assemble.h"
#include "strata/status.h"

namespace strata {

// The instruction sources of project directory `project`, found by Discover (discover.h) with
// `project` as both the project root and the working directory: its AGENTS.md, CLAUDE.md and
// GEMINI.md (a symlinked pair once), local files and their `@path` imports, in precedence order;
// key = the source's display path ("AGENTS.md"). None when there are none. Errors: kNotFound when
// `project` does not exist, kInvalidArgument when it is not a directory.
// Discovery's diagnostics (paths relative to `project`) are appended to `diagnostics` when it is
// not null: an error-severity one means a file was refused (binary, invalid UTF-8, over the 4 MiB
// read limit, unreadable) and its text is missing from the result; a warning means a file was
// skipped or loaded with a caveat (e.g. a directory named AGENTS.md, a missing import); notes are
// informational (e.g. a generated copy of AGENTS.md skipped). Callers should show them: the
// sources alone cannot tell a missing AGENTS.md from a refused one.
Result<std::vector<InstructionSource>> LoadProjectInstructions(
    const std::filesystem::path& project, std::vector<Diagnostic>* diagnostics = nullptr);

}  // namespace strata
