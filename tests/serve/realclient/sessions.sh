#!/usr/bin/env bash
# sessions.sh: one session test (ctest `realclient.sessions.<harness>`): writes the tiny generated
# test model and runs sessions.mjs for HARNESS (see sessions.mjs). Exits 77 (ctest SKIP) when node
# or the vocabulary is missing; sessions.mjs itself skips without tmux or the pinned clients.
#   sessions.sh HARNESS STRATA STRATA_LOCAL MAKE_TEST_MODEL VOCAB_DIR [sessions.mjs options...]
# (--save FILE keeps the recorded sessions; HARNESS mixed with --from A,B replays two of them at once.)
set -euo pipefail
harness=$1 strata=$2 strata_local=$3 make_model=$4 vocab_dir=$5
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
command -v node >/dev/null || { echo "SKIP: node not found (scripts/setup.sh installs it)"; exit 77; }
vocab="$vocab_dir/ggml-vocab-llama-spm.gguf"
[ -f "$vocab" ] || { echo "SKIP: vocabulary $vocab not found (scripts/setup-llama.sh)"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/strata-sessions-model-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
"$make_model" --vocab "$vocab" --out "$tmp/tiny.gguf" --seed 1
node "$here/sessions.mjs" --harness "$harness" --strata "$strata" --strata-local "$strata_local" \
  --model "$tmp/tiny.gguf" --vocab-dir "$vocab_dir" --setup-clients "$root/scripts/setup-clients.sh" \
  "${@:6}" ${STRATA_SESSIONS_ARGS:-}
