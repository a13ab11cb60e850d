#!/usr/bin/env bash
# consumer_test.sh BUILD_DIR CONSUMER_SRC WORK_DIR CMAKE: installs BUILD_DIR into WORK_DIR/prefix
# and builds three consumers of it (find_package, pkg-config, C), each run and its output checked.
set -euo pipefail
build=$1 src=$2 work=$3 cmake=$4
rm -rf "$work"
mkdir -p "$work/project"
prefix="$work/prefix"
# --strip: installed as a package ships it, without the build's debug information (most of its size).
"$cmake" --install "$build" --prefix "$prefix" --strip >"$work/install.log"
printf '# Consumer\n\nHello from a consumer.\n' >"$work/project/AGENTS.md"
libdir=$(dirname "$(find "$prefix" -name 'libstrata.so' | head -1)")
export PKG_CONFIG_PATH="$libdir/pkgconfig"

expect() {  # expect NAME PATTERN OUTPUT
  if ! grep -q -- "$2" <<<"$3"; then
    echo "consumer_test: $1 printed '$3', expected '$2'" >&2
    exit 1
  fi
}

# A clean shared library: it exports the C ABI of strata.h (every function it declares, no other C
# symbol) and the C++ API, never a symbol of the libraries linked into it; every installed
# executable that needs libstrata finds it through its RUNPATH ($ORIGIN/../lib), without
# LD_LIBRARY_PATH.
exported=$(nm -D --defined-only "$libdir/libstrata.so" | awk '{print $3}')
declared=$(grep -oE '\bstrata_[a-z_]+\(' "$prefix/include/strata.h" | tr -d '(' | sort -u)
c_exported=$(grep -E '^strata_' <<<"$exported" | sort -u)
[ "$c_exported" = "$declared" ] ||
  { echo "consumer_test: exported C functions differ from strata.h's:" >&2; diff <(echo "$declared") <(echo "$c_exported") >&2; exit 1; }
leaked=$(c++filt <<<"$exported" | grep -E 'llama|ggml|gguf|nlohmann|toml|re2::|cmark|utf8proc|XXH|fmt::|CLI::|httplib' || true)
[ -z "$leaked" ] || { echo "consumer_test: libstrata.so exports internals of its dependencies:" >&2; head -20 <<<"$leaked" >&2; exit 1; }
for exe in "$prefix"/bin/*; do
  missing=$(env -u LD_LIBRARY_PATH ldd "$exe" | grep 'not found' || true)
  [ -z "$missing" ] || { echo "consumer_test: $exe does not find $missing without LD_LIBRARY_PATH" >&2; exit 1; }
  if readelf -d "$exe" | grep -q 'NEEDED.*libstrata'; then
    readelf -d "$exe" | grep -qE 'RUNPATH.*\$ORIGIN/\.\./lib' ||
      { echo "consumer_test: $exe needs libstrata but has no RUNPATH \$ORIGIN/../lib" >&2; exit 1; }
  fi
done

# The public headers must not need nlohmann/json: a poisoned copy ahead of the system one fails any
# consumer compile that reaches it, and find_package(nlohmann_json) is made to fail, so the package
# config may not look for it either (it finds tl-expected itself: find_dependency).
poison="$work/poison"
mkdir -p "$poison/nlohmann"
echo '#error "a public strata header included nlohmann/json.hpp"' >"$poison/nlohmann/json.hpp"
for header in "$prefix"/include/strata/*.h "$prefix"/include/strata.h; do
  g++ -std=c++20 -fsyntax-only -I"$poison" -I"$prefix/include" -x c++ "$header" ||
    { echo "consumer_test: $header does not compile on its own without nlohmann/json" >&2; exit 1; }
done

# 1. find_package(strata) -> strata::strata
"$cmake" -S "$src" -B "$work/cmake-build" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_DISABLE_FIND_PACKAGE_nlohmann_json=TRUE -DCMAKE_CXX_FLAGS="-I$poison" \
  >"$work/cmake-configure.log"
"$cmake" --build "$work/cmake-build" >"$work/cmake-build.log"
out=$("$work/cmake-build/discover_consumer" "$work/project")
expect find_package "sources: 1 AGENTS.md" "$out"

# 2. pkg-config --cflags --libs strata
flags=$(pkg-config --cflags --libs strata)
g++ -std=c++20 -I"$poison" "$src/render_consumer.cc" -o "$work/render_consumer" $flags -Wl,-rpath,"$libdir"
out=$("$work/render_consumer")
expect pkg-config "breakpoints: [1-4]" "$out"
expect pkg-config "canonical schema: yes" "$out"

# 3. C against strata.h
gcc -std=c11 -Wall -Wextra -Werror "$src/c_consumer.c" -o "$work/c_consumer" $flags -Wl,-rpath,"$libdir"
out=$("$work/c_consumer" "$work/project")
expect c "\"path\":\"AGENTS.md\"" "$out"
expect c "error: " "$out"

rm -rf "$prefix"  # a passing run keeps its logs, not its copy of the install
echo "consumer_test: all three consumers passed"
