#!/usr/bin/env bash
# serve_bench.sh: runs bench/serve_bench.mjs (strata serve vs llama-server, three workloads) with
# its inputs: llama-server built from the pinned source (bench/build-llama-server.sh), the strata
# CLI of a build tree, and the benchmark model (the one bench/local_checkpoint_bench uses: n_embd
# 512, 8 layers, 8 heads / 4 KV heads, n_ff 1536, F16, llama-spm vocabulary, seed 7, 57.9M
# parameters; written once by make_test_model into ~/.cache/strata/bench/).
#   bench/serve_bench.sh [BUILD_DIR] [serve_bench.mjs options: --prefix-tokens 16384 --sessions 5 ...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
[ $# -gt 0 ] && shift
command -v node >/dev/null || { echo "serve_bench: node is required" >&2; exit 2; }
llama_server=$(bash "$root/bench/build-llama-server.sh")
strata="$build/tools/strata/strata-local"
strata_args=(--strata "$strata")
if ! "$strata" serve --help >/dev/null 2>&1; then
  echo "serve_bench: $strata has no serve command; running the llama-server arms only" >&2
  strata_args=()
fi
prefix=$(bash "$root/scripts/setup-llama.sh")
vocab="$(dirname "$prefix")/src/models/ggml-vocab-llama-spm.gguf"
work="${XDG_CACHE_HOME:-$HOME/.cache}/strata/bench"
model="$work/bench-512x8-f16.gguf"
mkdir -p "$work"
[ -f "$model" ] || "$build/src/local/make_test_model" --vocab "$vocab" --out "$model" \
  --embd 512 --layers 8 --heads 8 --kv-heads 4 --ff 1536 --f16 --seed 7
exec node "$root/bench/serve_bench.mjs" "${strata_args[@]}" --llama-server "$llama_server" \
  --model "$model" "$@"
