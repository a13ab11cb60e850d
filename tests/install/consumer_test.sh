#!/usr/bin/env bash
# consumer_test.sh BUILD_DIR CONSUMER_SRC WORK_DIR CMAKE: installs BUILD_DIR into WORK_DIR/prefix
# and builds three consumers of it (find_package, pkg-config, C), each run and its output checked.
set -euo pipefail
build=$1 src=$2 work=$3 cmake=$4
rm -rf "$work"
mkdir -p "$work/project"
prefix="$work/prefix"
"$cmake" --install "$build" --prefix "$prefix" >"$work/install.log"
printf '# Consumer\n\nHello from a consumer.\n' >"$work/project/AGENTS.md"
libdir=$(dirname "$(find "$prefix" -name 'libstrata.so' | head -1)")
export PKG_CONFIG_PATH="$libdir/pkgconfig"

expect() {  # expect NAME PATTERN OUTPUT
  if ! grep -q -- "$2" <<<"$3"; then
    echo "consumer_test: $1 printed '$3', expected '$2'" >&2
    exit 1
  fi
}

# 1. find_package(strata) -> strata::strata
"$cmake" -S "$src" -B "$work/cmake-build" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release \
  >"$work/cmake-configure.log"
"$cmake" --build "$work/cmake-build" >"$work/cmake-build.log"
out=$("$work/cmake-build/discover_consumer" "$work/project")
expect find_package "sources: 1 AGENTS.md" "$out"

# 2. pkg-config --cflags --libs strata
flags=$(pkg-config --cflags --libs strata)
g++ -std=c++20 "$src/render_consumer.cc" -o "$work/render_consumer" $flags -Wl,-rpath,"$libdir"
out=$("$work/render_consumer")
expect pkg-config "breakpoints: [1-4]" "$out"

# 3. C against strata.h
gcc -std=c11 -Wall -Wextra -Werror "$src/c_consumer.c" -o "$work/c_consumer" $flags -Wl,-rpath,"$libdir"
out=$("$work/c_consumer" "$work/project")
expect c "\"path\":\"AGENTS.md\"" "$out"
expect c "error: " "$out"

echo "consumer_test: all three consumers passed"
