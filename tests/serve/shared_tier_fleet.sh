#!/bin/sh
# shared_tier_fleet.sh: runs one scenario of tests/serve/shared_tier_fleet.mjs (separate strata
# serve processes sharing one redis-server) on the tiny generated model.
# Usage: shared_tier_fleet.sh SCENARIO STRATA_LOCAL MAKE_TEST_MODEL VOCAB_GGUF
# Exits 77 (ctest: skipped) when node, redis-server or the vocabulary file is missing.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
command -v node >/dev/null 2>&1 || { echo "skip: node not found"; exit 77; }
redis=$(command -v redis-server 2>/dev/null) || { echo "skip: redis-server not found"; exit 77; }
[ -f "$4" ] || { echo "skip: vocabulary file $4 not found"; exit 77; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
"$3" --vocab "$4" --out "$scratch/tiny.gguf" >/dev/null
node "$here/shared_tier_fleet.mjs" "$1" "$2" "$scratch/tiny.gguf" "$scratch" "$redis"
