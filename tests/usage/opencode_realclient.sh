#!/usr/bin/env bash
# opencode_realclient.sh: ctest `realclient.usage.opencode`: the pinned opencode
# (scripts/setup-clients.sh) runs an interactive session (two turns, each with a tool call) and two
# one-shot runs against the scripted upstream of tests/serve/realclient/ with a data directory of
# its own (XDG_DATA_HOME), then `strata usage --json` must report each session with the requests
# and tokens the upstream served, from opencode's SQLite store, and leave the database as it was
# (tests/serve/realclient/sessions.mjs --usage). Exits 77 (ctest SKIP) without node; sessions.mjs
# itself skips without tmux or the pinned clients.
#   opencode_realclient.sh STRATA
set -euo pipefail
strata=$1
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
command -v node >/dev/null || { echo "SKIP: node not found (scripts/setup.sh installs it)"; exit 77; }
exec node "$root/tests/serve/realclient/sessions.mjs" --harness opencode --usage --strata "$strata" \
  --setup-clients "$root/scripts/setup-clients.sh"
