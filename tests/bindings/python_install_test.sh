#!/usr/bin/env bash
# python_install_test.sh BUILD_DIR SOURCE_DIR WORK_DIR CMAKE VOCAB_DIR: installs BUILD_DIR into
# WORK_DIR/prefix, creates a venv with Debian's python3 (its pytest and setuptools visible through
# --system-site-packages; PyPI is never asked: --no-index --no-build-isolation), pip-installs a copy
# of SOURCE_DIR/python into it, and from outside the source tree runs the example harness and the
# package's pytest tests: the library is found through pkg-config (PKG_CONFIG_PATH of the prefix),
# then through the STRATA_LIBRARY override.
set -euo pipefail
build=$1 src=$2 work=$3 cmake=$4 vocab=${5:-}
python=/usr/bin/python3
rm -rf "$work"
mkdir -p "$work"
# --strip: installed as a package ships it, without the build's debug information (most of its size).
"$cmake" --install "$build" --prefix "$work/prefix" --strip >"$work/install.log"
libdir=$(dirname "$(find "$work/prefix" -name 'libstrata.so' | head -1)")

"$python" -m venv --system-site-packages "$work/venv"
cp -r "$src/python" "$work/python"  # pip builds in the tree it is given: keep the source clean
"$work/venv/bin/pip" install --no-index --no-build-isolation --disable-pip-version-check -q \
  "$work/python" >"$work/pip.log" 2>&1 || { cat "$work/pip.log" >&2; exit 1; }
rm -rf "$work/python"
cd "$work"
unset STRATA_LIBRARY PYTHONPATH
export PKG_CONFIG_PATH="$libdir/pkgconfig"
site=$("$work/venv/bin/python" -c 'import strata, os; print(os.path.dirname(strata.__file__))')
case "$site" in "$work/venv/"*) ;; *) echo "strata imported from $site, not the venv" >&2; exit 1;; esac

# 1. pkg-config finds the installed library.
found=$("$work/venv/bin/python" -c 'import strata; print(strata.library_path())')
[ "$found" = "$libdir/libstrata.so.0" ] || { echo "loaded $found, expected $libdir/libstrata.so.0" >&2; exit 1; }
# With VOCAB_DIR "" the harness counts with the "estimate" tokenizer: it runs in every build.
out=$("$work/venv/bin/python" "$src/python/examples/harness.py" "$vocab")
echo "$out"
[ "$(grep -c '^turn [0-9]: .* hit ratio' <<<"$out")" = 3 ] || { echo "expected 3 turn lines" >&2; exit 1; }
[ "$(grep -cE '^turn [23]: .* hit ratio 0\.[0-9]*[1-9]' <<<"$out")" = 2 ] ||
  { echo "turns 2 and 3 should read from the cache" >&2; exit 1; }
unset PKG_CONFIG_PATH

# 2. The override, and a clear error when it points nowhere.
export STRATA_LIBRARY="$libdir/libstrata.so"
found=$("$work/venv/bin/python" -c 'import strata; print(strata.library_path())')
[ "$found" = "$STRATA_LIBRARY" ] || { echo "loaded $found with STRATA_LIBRARY=$STRATA_LIBRARY" >&2; exit 1; }
if STRATA_LIBRARY=/nonexistent/libstrata.so "$work/venv/bin/python" -c 'import strata' 2>"$work/err"; then
  echo "a missing STRATA_LIBRARY was not refused" >&2; exit 1
fi
grep -q "STRATA_LIBRARY=/nonexistent/libstrata.so: no such file" "$work/err"

# 3. The package's tests against the installed package (copied out so the source's package is
# not the one imported).
cp -r "$src/python/tests" "$src/python/examples" "$work/"
STRATA_SOURCE_DIR="$src" STRATA_VOCAB_DIR="$vocab" PYTHONDONTWRITEBYTECODE=1 \
  "$work/venv/bin/python" -m pytest -q -p no:cacheprovider "$work/tests"
rm -rf "$work/prefix"  # a passing run keeps its logs, not its copy of the install
echo "python_install_test: passed"
