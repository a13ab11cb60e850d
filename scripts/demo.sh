#!/usr/bin/env bash
# demo.sh: sets up, builds strata and runs its main jobs on real input (the README's first command).
#   1. `strata compile --verify-stable` on this repository's own banded AGENTS.md.
#   2. The same on llama.cpp's AGENTS.md (from the pinned llama.cpp source setup fetched), and on
#      pydantic-ai's from the corpus (STRATA_CORPUS_DIR) when present, each in a scratch copy after
#      `strata adopt --force` has added the band markers.
#   3. Two `strata chat` sessions on a generated model with llama.cpp's AGENTS.md as project
#      instructions: the first prefills and checkpoints the prefix, the second restores it.
#   4. `strata serve` on the same kind of model, and two sessions sent with curl: the second
#      reports the shared system + tools prefix as cached tokens.
#   5. `strata usage` and `strata replay` on the corpus's real Claude Code and Codex logs: what each
#      session cost and its hit ratio, where it lost cache and why, and what it would have cost
#      without those losses (skipped when the corpus is absent).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
echo "== setting up and building (the first run builds llama.cpp's CPU library: several minutes)"
bash "$root/scripts/setup.sh"
prefix=$(bash "$root/scripts/setup-llama.sh")
build="${STRATA_BUILD_DIR:-$root/build}"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSTRATA_LLAMA_DIR="$prefix" >/dev/null
cmake --build "$build" -j"$(nproc)" --target strata_cli make_test_model >/dev/null
strata="$build/tools/strata/strata"

echo "== strata compile --verify-stable (this repository's AGENTS.md)"
(cd "$root" && "$strata" compile --verify-stable)

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
demo_compile() {  # NAME FILE
  local dir="$scratch/$1"
  mkdir -p "$dir"
  cp "$2" "$dir/AGENTS.md"
  printf 'targets = ["claude-code", "copilot", "cursor", "gemini-cli"]\n' > "$dir/strata.toml"
  echo
  echo "== $1's AGENTS.md in a scratch copy: strata adopt --force, then strata compile --verify-stable"
  (cd "$dir" && "$strata" adopt --force && "$strata" compile --verify-stable)
}
demo_compile llama.cpp "$prefix/../src/AGENTS.md"
corpus="${STRATA_CORPUS_DIR:-$root/../shared/corpus}/instructions/pydantic__pydantic-ai/AGENTS.md"
[ -f "$corpus" ] && demo_compile pydantic-ai "$corpus"

echo
echo "== strata chat: two new sessions sharing one deterministic prefix"
STRATA_BUILD_DIR="$build" bash "$root/scripts/demo-chat.sh"

echo
echo "== strata serve: two sessions sharing system + tools over /v1/chat/completions (curl)"
STRATA_BUILD_DIR="$build" bash "$root/scripts/demo-serve.sh"

echo
echo "== strata usage and replay: real Claude Code and Codex sessions, their cost and cache drops"
bash "$root/scripts/demo-replay.sh" "$build"

echo
echo "== demo finished: every step above ran on real input"
