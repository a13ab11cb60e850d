#!/usr/bin/env bash
# build-llama-server.sh: builds llama.cpp's own llama-server from the same pinned source strata's
# local sessions link against, for bench/serve_bench.sh to run side by side with `strata serve`.
#
# The source is the clone scripts/setup-llama.sh keeps in its cache (<cache>/src); this script never
# touches that cache's build/ or prefix/ (nor its key). It configures a separate build tree with the
# same CPU options (Release, GGML_NATIVE=ON, no OpenMP, static, no curl/OpenSSL, no web UI) beside
# it:
#   <cache>-server/build/bin/llama-server
#   <cache>-server/.done      written last; its presence makes this script return at once
# Prints the llama-server binary path on stdout (the last line). Idempotent; concurrent runs
# serialise on a lock. Takes several minutes on 2 cores the first time.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
prefix=$(bash "$here/scripts/setup-llama.sh")
cache=$(dirname "$prefix")
src="$cache/src"
[ -f "$src/tools/server/server.cpp" ] || { echo "build-llama-server: no llama.cpp server source in $src" >&2; exit 2; }
dir="$cache-server"
bin="$dir/build/bin/llama-server"
if [ -f "$dir/.done" ] && [ -x "$bin" ]; then echo "$bin"; exit 0; fi
mkdir -p "$dir"
exec 9>"$dir/.lock"
flock 9
if [ -f "$dir/.done" ] && [ -x "$bin" ]; then echo "$bin"; exit 0; fi
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
jobs=${STRATA_BUILD_JOBS:-$(nproc 2>/dev/null || echo 2)}
echo "build-llama-server: building llama-server from $src ($(cat "$cache/TAG" 2>/dev/null), $jobs jobs)" >&2
cmake -S "$src" -B "$dir/build" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF \
  -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_TOOLS=ON -DLLAMA_BUILD_SERVER=ON \
  -DLLAMA_BUILD_COMMON=ON -DLLAMA_BUILD_UI=OFF \
  -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF -DLLAMA_LLGUIDANCE=OFF -DLLAMA_SUBPROCESS=OFF \
  -DGGML_NATIVE=ON -DGGML_OPENMP=OFF -DGGML_BACKEND_DL=OFF >"$dir/configure.log" 2>&1 ||
  { tail -30 "$dir/configure.log" >&2; exit 1; }
cmake --build "$dir/build" --target llama-server -j"$jobs" >"$dir/build.log" 2>&1 ||
  { tail -30 "$dir/build.log" >&2; exit 1; }
[ -x "$bin" ] || { echo "build-llama-server: $bin was not produced" >&2; exit 1; }
touch "$dir/.done"
echo "$bin"
