#!/usr/bin/env bash
# demo-replay.sh: what a user wants to know about a real session: what it cost by the provider's
# recorded figures and its hit ratio, where it lost cache and why, and what it would have cost
# without those losses. `strata usage` over a scratch home holding the corpus's Claude Code and
# Codex logs, then each log's drops from `strata replay`. Skips cleanly when the corpus is absent.
#   scripts/demo-replay.sh [build-dir]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="${1:-${STRATA_BUILD_DIR:-$root/build}}"
corpus="${STRATA_CORPUS_DIR:-$root/../shared/corpus}/transcripts"
if [ ! -d "$corpus" ]; then echo "demo-replay: no corpus at $corpus; skipped"; exit 0; fi
strata="$build/tools/strata/strata"
[ -x "$strata" ] || { echo "demo-replay: build first ($strata missing)" >&2; exit 2; }
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
claude="$corpus/claude-code-subagent.jsonl"
codex="$corpus/codex-rollout.jsonl"
if [ -f "$claude" ]; then
  mkdir -p "$home/.claude/projects/corpus"
  ln -s "$claude" "$home/.claude/projects/corpus/claude-code-subagent.jsonl"
fi
if [ -f "$codex" ]; then
  mkdir -p "$home/.codex/sessions/corpus"
  ln -s "$codex" "$home/.codex/sessions/corpus/codex-rollout.jsonl"
fi
echo "-- strata usage: recorded cost, hit ratio, drops by cause, cost without the drops"
"$strata" usage --home "$home"
# Per log: the cache model beside the recorded figures, and each drop with its evidence.
for log in "$claude" "$codex"; do
  [ -f "$log" ] || continue
  echo
  echo "-- strata replay $(basename "$log"): where the cache broke and why"
  "$strata" replay --transcript "$log" |
    grep -E '^replay:|^rules:|^prices:|drop:|^cache read:|^recorded prompt cost|^drops:|^hit ratio' || true
done
