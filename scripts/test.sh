#!/usr/bin/env bash
# test.sh: sets up, builds and runs the whole test suite (the README's second command; .ci/run).
#   scripts/test.sh            all tests, then the sanitizer stage
#   scripts/test.sh quick      the quick subset (ctest -LE slow)
#   scripts/test.sh sanitize   the sanitizer stage alone
# The sanitizer stage keeps the ASan+UBSan and libFuzzer builds working: clang builds the core
# without llama.cpp (its parts and their tests run in the main build; leaving them out halves the
# build, which keeps CI inside its time), runs the quick tests under AddressSanitizer and
# UndefinedBehaviorSanitizer (any report fails), then every fuzz/*_fuzz target for
# STRATA_FUZZ_SECONDS (default 20) each.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mode="${1:-all}"
bash "$root/scripts/setup.sh"
# The compiler cache, when installed, makes a rebuild in another clone of the same tree cheap
# (paths are hashed relative to the clone, so clones in other folders share the cache).
launcher=()
if command -v ccache >/dev/null; then
  export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi

main_suite() {
  local llama_prefix
  llama_prefix=$(bash "$root/scripts/setup-llama.sh")
  # The pinned npm clients (real-client tests, and the tiktoken data of the OpenAI vocabularies the
  # build converts); without npm those tests skip.
  bash "$root/scripts/setup-clients.sh" >/dev/null || echo "test.sh: no npm clients: real-client tests skip" >&2
  bash "$root/scripts/setup-clients.sh" pi >/dev/null || echo "test.sh: no Pi: realclient.sessions.pi skips" >&2
  local build="${STRATA_BUILD_DIR:-$root/build}"
  # -g1 (line tables: backtraces and sanitizer reports keep file:line) instead of -g: full debug
  # information is 95% of every object and binary; with it the build and the test installs took
  # over 5 GB, and a CI machine with less free disk failed mid-suite.
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSTRATA_LLAMA_DIR="$llama_prefix" \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" \
    "${launcher[@]}" >/dev/null
  cmake --build "$build" -j"$(nproc)"
  # --timeout: the bound of a test that sets none; stdin empty, so that no test can wait on
  # whatever the caller left open there.
  local args=(--output-on-failure -j"$(nproc)" --timeout 900)
  [ "$mode" = quick ] && args+=(-LE slow)
  (cd "$build" && ctest "${args[@]}" </dev/null)
}

sanitize_stage() {
  local san="${STRATA_SANITIZE_BUILD_DIR:-$root/build-sanitize}" start=$SECONDS
  # -O1: the usual sanitizer level (fast enough to run, quicker to build than -O2); asserts on;
  # -g1 as in the main build (reports keep file:line).
  cmake -S "$root" -B "$san" -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
    -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG="-O1 -g1" -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" \
    -DSTRATA_WITH_LLAMA=OFF -DSTRATA_BUILD_BENCH=OFF -DSTRATA_SANITIZE=ON -DSTRATA_FUZZ=ON \
    "${launcher[@]}" >/dev/null
  cmake --build "$san" -j"$(nproc)"
  echo "test.sh: sanitizer build: $((SECONDS - start)) s" >&2
  start=$SECONDS
  # python.strata loads the instrumented libstrata.so into an uninstrumented python, and
  # docs.examples links the docs' C example with plain cc against it (no sanitizer runtime): both
  # left out here; the main suite runs them.
  (cd "$san" && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
      UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
      ctest --output-on-failure -j"$(nproc)" --timeout 900 -L quick -E '^(python\.|docs\.examples$)' </dev/null)
  echo "test.sh: sanitizer tests: $((SECONDS - start)) s" >&2
  start=$SECONDS
  local seconds="${STRATA_FUZZ_SECONDS:-20}" corpus target
  for target in "$san"/fuzz/*_fuzz; do
    corpus=$(mktemp -d)
    echo "test.sh: fuzzing $(basename "$target") for ${seconds} s" >&2
    if ! (cd "$corpus" && "$target" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=30 \
            -print_final_stats=1 "$corpus" >"$corpus.log" 2>&1); then
      tail -n 60 "$corpus.log" >&2
      echo "test.sh: $(basename "$target") failed (the crashing input is in $corpus)" >&2
      return 1
    fi
    grep -E '^stat::number_of_executed_units' "$corpus.log" >&2 || true
    rm -rf "$corpus" "$corpus.log"
  done
  echo "test.sh: fuzzing: $((SECONDS - start)) s" >&2
}

case "$mode" in
  quick) main_suite ;;
  sanitize) sanitize_stage ;;
  *) main_suite; sanitize_stage ;;
esac
