#!/usr/bin/env bash
# demo-chat.sh: two new `strata chat` sessions on real text, the second restoring the first's KV
# checkpoint. The project instructions are llama.cpp's own AGENTS.md (from the cached llama.cpp
# source); the model is generated (random weights, real vocabulary), so replies are noise: the
# point is the `checkpoint`, `prefix_tokens`, `restore_ms` and `prefill_ms` fields.
#   scripts/demo-chat.sh            (uses $STRATA_BUILD_DIR or ./build; builds what is missing)
set -euo pipefail
source "$(dirname "$0")/demo-build.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/project"
cp "$src/AGENTS.md" "$work/project/AGENTS.md"
"$build/src/local/make_test_model" --vocab "$src/models/ggml-vocab-llama-spm.gguf" --out "$work/model.gguf" \
  --embd 256 --layers 4 --heads 4 --kv-heads 2 --ff 768 --f16
echo "# project instructions: llama.cpp AGENTS.md ($(wc -c <"$work/project/AGENTS.md") bytes); model: 256x4 random weights"
for session in 1 2; do
  echo "# session $session"
  "$build/tools/strata/strata" chat --model "$work/model.gguf" --project "$work/project" --store "$work/kv" \
    --ctx 8192 -n 8 --json -p "Which command builds the project?"
done
