#!/usr/bin/env bash
# serve_concurrency.sh: runs bench/serve_concurrency.mjs (1, 2, 4, 8 concurrent clients against
# strata serve --parallel N and llama-server -np N) with its inputs: llama-server built from the
# pinned source (bench/build-llama-server.sh), the strata CLI of a build tree, the pinned source's
# Qwen2.5 chat template for both servers, and a generated model (llama architecture, n_embd 256,
# 6 layers, 4 heads, n_ff 768, F16, llama-spm vocabulary, seed 7; written once by make_test_model
# into ~/.cache/strata/bench/).
#   bench/serve_concurrency.sh [BUILD_DIR] [serve_concurrency.mjs options: --clients 1,2,4,8 ...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
[ $# -gt 0 ] && shift
command -v node >/dev/null || { echo "serve_concurrency: node is required" >&2; exit 2; }
llama_server=$(bash "$root/bench/build-llama-server.sh")
prefix=$(bash "$root/scripts/setup-llama.sh")
src="$(dirname "$prefix")/src"
work="${XDG_CACHE_HOME:-$HOME/.cache}/strata/bench"
model="$work/bench-256x6-f16.gguf"
mkdir -p "$work"
[ -f "$model" ] || "$build/src/local/make_test_model" --vocab "$src/models/ggml-vocab-llama-spm.gguf" \
  --out "$model" --embd 256 --layers 6 --heads 4 --kv-heads 4 --ff 768 --f16 --seed 7
exec node "$root/bench/serve_concurrency.mjs" --strata "$build/tools/strata/strata-local" \
  --llama-server "$llama_server" --model "$model" --llama-src "$src" \
  --template "$src/models/templates/Qwen-Qwen2.5-7B-Instruct.jinja" "$@"
