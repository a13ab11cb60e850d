#!/usr/bin/env bash
# demo-serve.sh: `strata serve` on a generated model, and two new sessions sent with curl to its
# OpenAI-compatible /v1/chat/completions. Both sessions carry the same system prompt (llama.cpp's
# own AGENTS.md, from the cached llama.cpp source) and tool, and different first messages: the
# first session prefills the system + tools part and checkpoints it, the second restores it, which
# its usage reports as prompt_tokens_details.cached_tokens. Replies are noise (random weights).
#   scripts/demo-serve.sh            (uses $STRATA_BUILD_DIR or ./build; builds what is missing)
set -euo pipefail
source "$(dirname "$0")/demo-build.sh"
work=$(mktemp -d)
server=""
cleanup() { [ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
"$build/src/local/make_test_model" --vocab "$src/models/ggml-vocab-llama-spm.gguf" --out "$work/model.gguf" \
  --embd 256 --layers 4 --heads 4 --kv-heads 2 --ff 768 --f16
"$build/tools/strata/strata" serve --model "$work/model.gguf" --port 0 --store "$work/kv" --ctx 8192 \
  2>"$work/serve.log" &
server=$!
url=""
for _ in $(seq 1 300); do
  url=$(sed -n 's/.*listening on \(http:[^ ]*\).*/\1/p' "$work/serve.log")
  [ -n "$url" ] && break
  kill -0 "$server" 2>/dev/null || { cat "$work/serve.log" >&2; exit 1; }
  sleep 0.2
done
[ -n "$url" ] || { echo "strata serve did not start" >&2; exit 1; }
echo "# strata serve on $url; system prompt: llama.cpp AGENTS.md ($(wc -c <"$src/AGENTS.md") bytes)"
request() {  # FIRST_MESSAGE -> request JSON on stdout
  python3 - "$src/AGENTS.md" "$1" <<'PY'
import json, sys
system = open(sys.argv[1], encoding="utf-8").read()
tool = {"type": "function", "function": {"name": "read_file", "description": "Reads a file.",
        "parameters": {"type": "object", "properties": {"path": {"type": "string"}}}}}
print(json.dumps({"model": "demo", "max_tokens": 8, "temperature": 0, "tools": [tool],
                  "messages": [{"role": "system", "content": system},
                               {"role": "user", "content": sys.argv[2]}]}))
PY
}
n=0
for message in "Which command builds the project?" "Where do the server tests live?"; do
  n=$((n + 1))
  request "$message" >"$work/request.json"
  curl -sS "$url/v1/chat/completions" -H 'Content-Type: application/json' -d @"$work/request.json" \
    >"$work/reply.json"
  python3 - "$work/reply.json" "$n" <<'PY'
import json, sys
usage = json.load(open(sys.argv[1]))["usage"]
print(f"# session {sys.argv[2]}: prompt_tokens={usage['prompt_tokens']} "
      f"cached_tokens={usage['prompt_tokens_details']['cached_tokens']} "
      f"completion_tokens={usage['completion_tokens']}")
PY
done
echo "# server log:"
grep '^serve: api=' "$work/serve.log"
