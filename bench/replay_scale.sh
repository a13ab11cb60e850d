#!/usr/bin/env bash
# replay_scale.sh: `strata replay` time and peak memory on two generated Claude Code logs, under
# every cache model (anthropic, openai, deepseek, block-hash, radix):
#   - N requests (default 10,000), each a tool call and a 1-3 KB tool result;
#   - one request whose user message is M MB (default 50) of words on one JSON line.
# The whole CLI path is measured (reading the file, each line's JSON, the transcript, the layout,
# tokenization, the cache model). Wall and CPU seconds and peak RSS from /usr/bin/time -v.
#   bench/replay_scale.sh [build-dir] [requests] [megabytes]
# LOGS="many huge" and PROVIDERS="anthropic ..." choose a subset; KEEP=DIR keeps the logs there.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="${1:-$root/build}"
requests="${2:-10000}"
megabytes="${3:-50}"
strata="$build/tools/strata/strata"
[ -x "$strata" ] || { echo "replay_scale: build strata first ($strata missing)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "replay_scale: /usr/bin/time missing (apt-get install time)" >&2; exit 2; }
if [ -n "${KEEP:-}" ]; then
  dir="$KEEP"
  mkdir -p "$dir"
else
  dir=$(mktemp -d)
  trap 'rm -rf "$dir"' EXIT
fi
[ -f "$dir/many.jsonl" ] && [ -f "$dir/huge.jsonl" ] && [ -n "${KEEP:-}" ] ||
python3 - "$dir" "$requests" "$megabytes" <<'PY'
import datetime, json, random, sys
out, n, mb = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(11)
words = ["cache", "prefix", "token", "tool", "model", "request", "the", "a", "of", "read", "write",
         "breakpoint", "layer", "session", "compaction", "provider", "byte", "line", "file", "42"]
def text(k): return " ".join(rng.choice(words) for _ in range(k))
def stamp(x): return datetime.datetime.fromtimestamp(x, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z")
def user(uid, parent, t, content, **extra):
    return {"type": "user", "uuid": uid, "parentUuid": parent, "timestamp": stamp(t), "cwd": "/home/dev/p",
            "sessionId": "s", "message": {"role": "user", "content": content}, **extra}
def answer(aid, parent, t, i, content, read, write):
    return {"type": "assistant", "uuid": aid, "parentUuid": parent, "timestamp": stamp(t), "requestId": f"req_{i}",
            "sessionId": "s", "message": {"id": f"msg_{i}", "model": "claude-sonnet-4-5", "role": "assistant",
            "content": content, "usage": {"input_tokens": 3, "cache_read_input_tokens": read,
                                          "cache_creation_input_tokens": write, "output_tokens": 40}}}
t = 1795939200
with open(f"{out}/many.jsonl", "w") as f:
    f.write(json.dumps(user("u0", None, t, text(300))) + "\n")
    parent, held = "u0", 0
    for i in range(n):
        t += 5
        write = rng.randint(300, 900)
        f.write(json.dumps(answer(f"a{i}", parent, t, i, [{"type": "text", "text": text(20)},
            {"type": "tool_use", "id": f"t{i}", "name": "Bash", "input": {"command": f"step {i}"}}], held, write)) + "\n")
        held += write
        f.write(json.dumps(user(f"u{i+1}", f"a{i}", t + 2, [{"type": "tool_result", "tool_use_id": f"t{i}",
            "content": text(rng.randint(150, 450))}])) + "\n")
        parent = f"u{i+1}"
    f.write(json.dumps(answer("last", parent, t + 4, n, [{"type": "text", "text": "Done."}], held, 10)) + "\n")
big = []
size = 0
while size < mb << 20:
    chunk = text(2000)
    big.append(chunk)
    size += len(chunk) + 1
with open(f"{out}/huge.jsonl", "w") as f:
    f.write(json.dumps(user("u0", None, t, " ".join(big)[: mb << 20])) + "\n")
    f.write(json.dumps(answer("a0", "u0", t + 60, 0, [{"type": "text", "text": "Done."}], 0, 10)) + "\n")
PY
echo "logs: many.jsonl $requests requests ($(du -h "$dir/many.jsonl" | cut -f1)), huge.jsonl one ${megabytes} MB message ($(du -h "$dir/huge.jsonl" | cut -f1))"
printf '%-10s %-11s %8s %8s %10s\n' log provider wall_s cpu_s peak_MB
for log in ${LOGS:-many huge}; do
  for provider in ${PROVIDERS:-anthropic openai deepseek block-hash radix}; do
    /usr/bin/time -v "$strata" replay --transcript "$dir/$log.jsonl" --format claude-code \
      --provider "$provider" >/dev/null 2>"$dir/time.txt" ||
      { echo "replay_scale: strata replay failed on $log/$provider:" >&2; cat "$dir/time.txt" >&2; exit 1; }
    awk -v lg="$log" -v p="$provider" -F': ' '
      /Elapsed \(wall clock\)/ { n = split($2, a, ":"); wall = (n == 3 ? a[1] * 3600 + a[2] * 60 + a[3] : a[1] * 60 + a[2]) }
      /User time/ { cpu += $2 } /System time/ { cpu += $2 }
      /Maximum resident set size/ { rss = $2 / 1024 }
      END { printf "%-10s %-11s %8.1f %8.1f %10.0f\n", lg, p, wall, cpu, rss }' "$dir/time.txt"
  done
done
