#!/usr/bin/env bash
# docs_examples_test.sh SOURCE_DIR WORK_DIR LIBSTRATA GENERATED_INCLUDE: runs the examples of
# docs/use-from-c.md and docs/use-from-python.md as written (each page's first ```c / ```python
# block) against this build's libstrata.so, so a page cannot drift from the API. The C block is a
# function body: it is compiled inside main(). docs/use-from-typescript.md's block runs in
# node_install_test.sh, where the package is installed.
set -euo pipefail
src=$1 work=$2 lib=$3 generated=$4
rm -rf "$work"
mkdir -p "$work"
block() {  # block FILE LANG: the first fenced block of LANG in FILE
  awk -v lang="$2" '$0 == "```" lang {on = 1; next} on && $0 == "```" {exit} on {print}' "$1"
}

# C: the block inside main(), compiled as C11 against strata.h, linked with libstrata alone.
{
  printf '#include <stdio.h>\n#include "strata.h"\nint main(void) {\n'
  block "$src/docs/use-from-c.md" c
  printf 'return 0;\n}\n'
} >"$work/use_from_c.c"
[ "$(wc -l <"$work/use_from_c.c")" -gt 6 ] || { echo "no c block in docs/use-from-c.md" >&2; exit 1; }
cc -std=c11 -Wall -Wextra -Werror -I"$src/include" -I"$generated" "$work/use_from_c.c" \
  -o "$work/use_from_c" "$lib" -Wl,-rpath,"$(dirname "$lib")"
out=$("$work/use_from_c")
echo "$out"
grep -q '^rendered [1-9][0-9]* bytes' <<<"$out" || { echo "the C example printed no render" >&2; exit 1; }

# Python: the block as a script, the package from the source tree, the library from this build.
block "$src/docs/use-from-python.md" python >"$work/use_from_python.py"
[ -s "$work/use_from_python.py" ] || { echo "no python block in docs/use-from-python.md" >&2; exit 1; }
out=$(cd "$work" && PYTHONPATH="$src/python" STRATA_LIBRARY="$lib" PYTHONDONTWRITEBYTECODE=1 \
  /usr/bin/python3 use_from_python.py)
echo "$out"
# Two turns; the second reads what the first wrote.
[ "$(grep -c '^[12] ' <<<"$out")" = 2 ] || { echo "expected two turn lines" >&2; exit 1; }
grep -qE '^2 0\.[0-9]*[1-9]' <<<"$out" || { echo "turn 2 should read from the cache" >&2; exit 1; }
echo "docs_examples_test: passed"
