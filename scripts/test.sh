#!/usr/bin/env bash
# test.sh: sets up, builds and runs the whole test suite (the README's second command; .ci/run).
#   scripts/test.sh            all tests
#   scripts/test.sh quick      the quick subset (ctest -LE slow)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/setup.sh"
llama_prefix=$(bash "$root/scripts/setup-llama.sh")
# The pinned npm clients (real-client tests, and the tiktoken data of the OpenAI vocabularies the
# build converts); without npm those tests skip.
bash "$root/scripts/setup-clients.sh" >/dev/null || echo "test.sh: no npm clients: real-client tests skip" >&2
build="${STRATA_BUILD_DIR:-$root/build}"
# The compiler cache, when installed, makes a rebuild in another clone of the same tree cheap
# (paths are hashed relative to the clone, so clones in other folders share the cache).
launcher=()
if command -v ccache >/dev/null; then
  export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSTRATA_LLAMA_DIR="$llama_prefix" \
  "${launcher[@]}" >/dev/null
cmake --build "$build" -j"$(nproc)"
args=(--output-on-failure -j"$(nproc)")
[ "${1:-}" = quick ] && args+=(-LE slow)
cd "$build" && ctest "${args[@]}"
