#!/usr/bin/env bash
# setup-clients.sh: installs the pinned npm clients strata's protocol and real-client tests drive.
#
# The harnesses people run against a local endpoint (Claude Code, Codex CLI, opencode) and the
# official SDKs used as protocol clients (openai, @anthropic-ai/sdk, @modelcontextprotocol/sdk),
# plus the tokenizer packages whose counts the OpenAI vocabularies are checked against (tiktoken,
# js-tiktoken), at fixed versions, into a cache directory outside the repository:
#   ${STRATA_CLIENTS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/strata}/npm-clients-<key>/node_modules
# where <key> is a hash of the pinned list, so a changed pin installs beside the old one.
# All of them run offline against a loopback endpoint; nothing here contacts a provider.
#
# Prints the node_modules directory on stdout (the last line); exits 1 with a message when npm is
# missing or the install fails (tests labelled `realclient` then skip, naming this script).
# Idempotent (a .done file written last) and safe to run concurrently (flock).
#
# `setup-clients.sh claude-code-cch` installs, beside them, an older Claude Code (2.1.117) whose
# billing block carries the per-request `cch` value (docs/serve-clients.md); a separate directory
# because both versions install the same `claude` command. `setup-clients.sh pi` installs Pi
# (@mariozechner/pi-coding-agent, the minimal harness) in a directory of its own the same way.
set -euo pipefail
case "${1:-main}" in
main)
pins=(
  @anthropic-ai/claude-code@2.1.328
  @openai/codex@0.171.0
  opencode-ai@1.18.33
  openai@7.59.0
  @anthropic-ai/sdk@1.15.0
  @modelcontextprotocol/sdk@1.32.2
  tiktoken@1.0.22
  js-tiktoken@1.0.21
)
;;
claude-code-cch) pins=(@anthropic-ai/claude-code@2.1.117) ;;
pi) pins=(@mariozechner/pi-coding-agent@0.73.1) ;;
*) echo "usage: setup-clients.sh [main|claude-code-cch|pi]" >&2; exit 2 ;;
esac
key=$(printf '%s\n' "${pins[@]}" | sha256sum | cut -c1-10)
cache_root="${STRATA_CLIENTS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/strata}"
dir="$cache_root/npm-clients-$key"
if [ -f "$dir/.done" ]; then echo "$dir/node_modules"; exit 0; fi
command -v npm >/dev/null || { echo "setup-clients: npm not found (scripts/setup.sh installs it)" >&2; exit 1; }

mkdir -p "$dir"
exec 9>"$dir/.lock"
flock 9
if [ ! -f "$dir/.done" ]; then
  echo '{"private": true}' >"$dir/package.json"
  echo "setup-clients: installing ${pins[*]} into $dir" >&2
  (cd "$dir" && npm install --no-audit --no-fund --loglevel=error "${pins[@]}" >&2)
  touch "$dir/.done"
fi
echo "$dir/node_modules"
