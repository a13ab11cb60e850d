#!/usr/bin/env bash
# demo.sh: sets up, builds strata and runs its main job on real input (the README's first command).
#   1. `strata compile --verify-stable` on this repository's own banded AGENTS.md.
#   2. The same on a real project's AGENTS.md from ../shared/corpus when that folder is present,
#      compiled in a scratch copy so nothing outside it is written.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/setup.sh"
build="${STRATA_BUILD_DIR:-$root/build}"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j"$(nproc)" --target strata_cli >/dev/null
strata="$build/tools/strata/strata"

echo "== strata compile --verify-stable (this repository's AGENTS.md)"
(cd "$root" && "$strata" compile --verify-stable)

corpus="$root/../shared/corpus/instructions/pydantic__pydantic-ai/AGENTS.md"
if [ -f "$corpus" ]; then
  scratch=$(mktemp -d)
  trap 'rm -rf "$scratch"' EXIT
  cp "$corpus" "$scratch/AGENTS.md"
  printf 'targets = ["claude-code", "copilot", "cursor", "gemini-cli"]\n' > "$scratch/strata.toml"
  echo
  echo "== pydantic-ai's AGENTS.md, in a scratch copy: adopt --force adds the band markers, then"
  echo "== strata compile --verify-stable"
  (cd "$scratch" && "$strata" adopt --force && "$strata" compile --verify-stable)
fi
