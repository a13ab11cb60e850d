#!/usr/bin/env bash
# run.sh: one real-client test (ctest `realclient.<harness>`): writes the tiny generated test model
# and runs realclient.mjs for HARNESS against `strata serve` (see realclient.mjs). Exits 77 (ctest
# SKIP) when node is missing; realclient.mjs itself skips when the pinned clients are unavailable.
#   run.sh HARNESS STRATA MAKE_TEST_MODEL VOCAB_DIR
set -euo pipefail
harness=$1 strata=$2 make_model=$3 vocab_dir=$4
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
command -v node >/dev/null || { echo "SKIP: node not found (scripts/setup.sh installs it)"; exit 77; }
vocab="$vocab_dir/ggml-vocab-llama-spm.gguf"
[ -f "$vocab" ] || { echo "SKIP: vocabulary $vocab not found (scripts/setup-llama.sh)"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/strata-realclient-model-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
"$make_model" --vocab "$vocab" --out "$tmp/tiny.gguf" --seed 1
node "$here/realclient.mjs" --harness "$harness" --strata "$strata" --model "$tmp/tiny.gguf" \
  --setup-clients "$root/scripts/setup-clients.sh" ${STRATA_REALCLIENT_ARGS:-}
