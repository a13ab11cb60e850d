# demo-build.sh: sourced by the local-model demos (demo-chat.sh, demo-serve.sh). Sets `root`,
# `build` ($STRATA_BUILD_DIR or ./build), `prefix` (the llama.cpp install) and `src` (its source
# tree, whose AGENTS.md and vocabularies the demos use), and builds the CLI and the test-model
# writer when either is missing.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build="${STRATA_BUILD_DIR:-$root/build}"
prefix=$(bash "$root/scripts/setup-llama.sh")
src="$prefix/../src"
if [ ! -x "$build/tools/strata/strata" ] || [ ! -x "$build/tools/strata/strata-local" ] ||
   [ ! -x "$build/src/local/make_test_model" ]; then
  cmake -S "$root" -B "$build" -DSTRATA_LLAMA_DIR="$prefix" >/dev/null
  cmake --build "$build" -j"$(nproc)" --target strata_cli make_test_model >/dev/null
fi
