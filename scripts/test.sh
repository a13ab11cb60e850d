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
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSTRATA_LLAMA_DIR="$llama_prefix" >/dev/null
cmake --build "$build" -j"$(nproc)"
args=(--output-on-failure -j"$(nproc)")
[ "${1:-}" = quick ] && args+=(-LE slow)
cd "$build" && ctest "${args[@]}"
