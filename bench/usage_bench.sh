#!/usr/bin/env bash
# usage_bench.sh: `strata usage` beside `npx ccusage` (npm, pinned below) on one generated home of
# N Claude Code sessions (default 1,000; each 40 requests with 1-3 KB user, answer and tool-result
# lines, a TTL gap and a compaction in every tenth session). Wall time of each, best of 3.
#   bench/usage_bench.sh [build-dir] [sessions]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="${1:-$root/build}"
sessions="${2:-1000}"
ccusage_version="${CCUSAGE_VERSION:-18.0.11}"  # 20.x needs a native binary npx does not install
strata="$build/tools/strata/strata"
[ -x "$strata" ] || { echo "usage_bench: build strata first ($strata missing)" >&2; exit 2; }
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
python3 - "$home" "$sessions" <<'PY'
import datetime, json, os, random, sys
def stamp(x): return datetime.datetime.fromtimestamp(x, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z")
home, n = sys.argv[1], int(sys.argv[2])
rng = random.Random(7)
def text(k): return " ".join(rng.choice(["cache", "prefix", "token", "tool", "model", "request",
                                         "the", "a", "of", "read", "write"]) for _ in range(k))
for s in range(n):
    proj = os.path.join(home, ".claude", "projects", f"-home-dev-p{s % 37}")
    os.makedirs(proj, exist_ok=True)
    t = 1795939200 + s * 3600
    lines, parent, held = [], None, 0
    for i in range(40):
        t += 20 + (400 if s % 10 == 0 and i == 20 else 0)
        uid = f"u{s}-{i}"
        if s % 10 == 0 and i == 30:
            lines.append({"type": "system", "subtype": "compact_boundary", "uuid": f"c{s}", "parentUuid": None,
                          "timestamp": stamp(t), "content": "Conversation compacted"})
            lines.append({"type": "user", "uuid": uid, "parentUuid": f"c{s}", "isCompactSummary": True,
                          "timestamp": stamp(t), "cwd": f"/home/dev/p{s % 37}", "sessionId": f"s{s}",
                          "message": {"role": "user", "content": text(200)}})
            held = 0
        else:
            lines.append({"type": "user", "uuid": uid, "parentUuid": parent, "timestamp": stamp(t),
                          "cwd": f"/home/dev/p{s % 37}", "sessionId": f"s{s}",
                          "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": f"t{s}-{i}",
                                                                   "content": text(rng.randint(150, 450))}]}})
        write = rng.randint(300, 1500)
        read = held if not (s % 10 == 0 and i == 21) else 0
        aid = f"a{s}-{i}"
        lines.append({"type": "assistant", "uuid": aid, "parentUuid": uid, "timestamp": stamp(t + 3),
                      "requestId": f"req_{s}_{i}", "sessionId": f"s{s}",
                      "message": {"id": f"msg_{s}_{i}", "model": "claude-sonnet-4-5", "role": "assistant",
                                  "content": [{"type": "text", "text": text(rng.randint(100, 300))},
                                              {"type": "tool_use", "id": f"t{s}-{i+1}", "name": "Bash",
                                               "input": {"command": "ls"}}],
                                  "usage": {"input_tokens": 3, "cache_read_input_tokens": read,
                                            "cache_creation_input_tokens": write, "output_tokens": rng.randint(50, 400)}}})
        held = read + write
        parent = aid
    with open(os.path.join(proj, f"s{s}.jsonl"), "w") as f:
        for l in lines: f.write(json.dumps(l) + "\n")
PY
echo "home: $sessions sessions, $(du -sh "$home/.claude" | cut -f1), $(find "$home" -name '*.jsonl' | wc -l) files"
best() {  # best wall time of 3 runs of "$@", seconds; a failing run stops the bench
  local b=""
  for _ in 1 2 3; do
    local s e
    s=$(date +%s.%N)
    "$@" >/dev/null || { echo "usage_bench: '$*' failed" >&2; return 1; }
    e=$(date +%s.%N)
    b=$(python3 -c "print(min(float('$e')-float('$s'), float('${b:-1e9}')))")
  done
  printf '%.2f' "$b"
}
t=$(best "$strata" usage --home "$home") || exit 1
echo "strata usage:            $t s"
t=$(best "$strata" usage --home "$home" --json) || exit 1
echo "strata usage --json:     $t s"
if command -v npx >/dev/null; then
  npx --yes "ccusage@$ccusage_version" --version >/dev/null 2>&1 || true  # fetch once, untimed
  export CLAUDE_CONFIG_DIR="$home/.claude"
  t=$(best npx --yes "ccusage@$ccusage_version" session --offline) || exit 1
  echo "ccusage $ccusage_version session: $t s"
  t=$(best npx --yes "ccusage@$ccusage_version" daily --offline) || exit 1
  echo "ccusage $ccusage_version daily:   $t s"
else
  echo "npx missing: ccusage not run"
fi
