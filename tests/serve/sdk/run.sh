#!/bin/sh
# run.sh: runs one SDK script against strata serve (tests/serve/sdk/*.mjs).
# Usage: run.sh STRATA_LOCAL MAKE_TEST_MODEL VOCAB_GGUF SCRIPT
# Writes the tiny test model into a scratch directory, finds the pinned npm packages
# (scripts/setup-clients.sh) and runs `node SCRIPT STRATA_LOCAL MODEL NODE_MODULES SCRATCH`.
# Exits 77 (ctest: skipped) when node, the npm cache or the vocabulary file is missing.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
command -v node >/dev/null 2>&1 || { echo "skip: node not found"; exit 77; }
[ -f "$3" ] || { echo "skip: vocabulary file $3 not found"; exit 77; }
modules=$(bash "$root/scripts/setup-clients.sh" 2>/dev/null | tail -n 1) || { echo "skip: scripts/setup-clients.sh failed"; exit 77; }
[ -d "$modules/openai" ] || { echo "skip: no npm cache at '$modules'"; exit 77; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
"$2" --vocab "$3" --out "$scratch/tiny.gguf" >/dev/null
node "$here/$4" "$1" "$scratch/tiny.gguf" "$modules" "$scratch"
