#!/usr/bin/env bash
# realclient_usage.sh: ctest `realclient.usage.<harness>` (claude, claude-cch, codex, opencode): the pinned
# harness (scripts/setup-clients.sh: Claude Code 2.1.328 and 2.1.117, Codex CLI 0.171.0, opencode 1.18.33) runs
# an interactive session (two turns, each with a tool call) and two one-shot runs against the
# scripted upstream of tests/serve/realclient/ with a home of its own, then `strata usage --json`
# must report each session with the requests and tokens the upstream served, from the harness's
# own logs, and leave those files as they were (tests/serve/realclient/sessions.mjs --usage).
# Exits 77 (ctest SKIP) without node; sessions.mjs itself skips without tmux or the pinned clients.
#   realclient_usage.sh HARNESS STRATA
set -euo pipefail
harness=$1
strata=$2
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
command -v node >/dev/null || { echo "SKIP: node not found (scripts/setup.sh installs it)"; exit 77; }
exec node "$root/tests/serve/realclient/sessions.mjs" --harness "$harness" --usage --strata "$strata" \
  --setup-clients "$root/scripts/setup-clients.sh"
