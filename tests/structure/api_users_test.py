#!/usr/bin/env python3
"""api_users_test.py: check_structure's API-user rule refuses a private header of another module
in the CLI or the C ABI, and accepts public headers and their own files. Usage: api_users_test.py."""
import pathlib
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import check_structure  # noqa: E402


def tree(files):
    root = pathlib.Path(tempfile.mkdtemp())
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def main():
    ok = tree({
        "tools/strata/commands.h": "#pragma once\n",
        "tools/strata/cmd_x.cc": '#include "commands.h"\n#include "strata/replay.h"\n'
                                 '#include "strata.h"\n',
        "src/capi/capi_internal.h": "#pragma once\n",
        "src/capi/c.cc": '#include "capi/capi_internal.h"\n#include "strata/status.h"\n',
    })
    bad = tree({
        "tools/strata/cmd_x.cc": '#include "io/file_io.h"\n#include "missing_own.h"\n',
        "src/capi/c.cc": '#include "assemble/session_file.h"\n',
    })
    found_ok = check_structure.check_api_users(ok)
    found_bad = check_structure.check_api_users(bad)
    failures = []
    # Public headers: standard, public and tl-expected includes pass; a JSON library or a
    # llama.cpp header does not.
    public_ok = tree({
        "include/strata.h": "#include <stddef.h>\n",
        "include/strata/prompt.h": '#include <string>\n#include <tl/expected.hpp>\n'
                                   '#include "strata/status.h"\n',
    })
    public_bad = tree({
        "include/strata/prompt.h": "#include <nlohmann/json.hpp>\n",
        "include/strata/local_session.h": '#include "llama.h"\n#include "local/engine.h"\n',
    })
    if check_structure.check_public_includes(public_ok):
        failures.append(f"public includes refused: {check_structure.check_public_includes(public_ok)}")
    found_public_bad = check_structure.check_public_includes(public_bad)
    for name in ("nlohmann/json.hpp", "llama.h", "local/engine.h"):
        if not any(name in f for f in found_public_bad):
            failures.append(f"public include {name} not refused: {found_public_bad}")
    if found_ok:
        failures.append(f"public and own includes refused: {found_ok}")
    for name in ("io/file_io.h", "missing_own.h", "assemble/session_file.h"):
        if not any(name in f for f in found_bad):
            failures.append(f"private include {name} not refused: {found_bad}")
    for f in failures:
        print(f)
    print(f"api_users_test: {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
