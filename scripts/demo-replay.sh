#!/usr/bin/env bash
# demo-replay.sh: replays the corpus transcripts with strata's layout beside the naive one
# (date/time and cwd on top of the system prompt). Skips cleanly when the corpus is absent.
#   scripts/demo-replay.sh [build-dir]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="${1:-${STRATA_BUILD_DIR:-$root/build}}"
corpus="${STRATA_CORPUS_DIR:-$root/../shared/corpus}/transcripts"
if [ ! -d "$corpus" ]; then echo "demo-replay: no corpus at $corpus; skipped"; exit 0; fi
strata="$build/tools/strata/strata"
[ -x "$strata" ] || { echo "demo-replay: build first ($strata missing)" >&2; exit 2; }
if [ -f "$corpus/claude-code-subagent.jsonl" ]; then
  "$strata" replay --transcript "$corpus/claude-code-subagent.jsonl" --format claude-code \
    --provider anthropic --long-ttl 2 --compare
fi
if [ -f "$corpus/codex-rollout.jsonl" ]; then
  "$strata" replay --transcript "$corpus/codex-rollout.jsonl" --format codex --provider openai --compare
fi
