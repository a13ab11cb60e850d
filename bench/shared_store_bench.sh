#!/usr/bin/env bash
# shared_store_bench.sh: starts redis-server on a free loopback port (no persistence), runs
# build/bench/shared_store_bench against it (restore from Redis vs local disk vs prefill), then
# redis-benchmark's GET of the same value size as the checkpoint chunks (the floor of the shared
# tier's read rate), and stops Redis.
#
#   bench/shared_store_bench.sh [BUILD_DIR] [--sizes 4096,16384] [--reps 3] [--threads 2]
set -euo pipefail
build=${1:-build}
[ $# -gt 0 ] && shift
chunk=$((4 << 20))
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
dir=$(mktemp -d)
redis-server --bind 127.0.0.1 --port "$port" --save '' --appendonly no --dir "$dir" \
  --daemonize no >"$dir/redis.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$dir"' EXIT
for _ in $(seq 100); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.05; done
"$build/bench/shared_store_bench" --redis "redis://127.0.0.1:$port" --chunk-bytes "$chunk" "$@"
echo
echo "redis-benchmark GET of a ${chunk}-byte value (1 client, no pipelining; the value is SET first):"
redis-benchmark -p "$port" -t set -n 1 -c 1 -d "$chunk" -q >/dev/null 2>&1
redis-benchmark -p "$port" -t get -n 200 -c 1 -d "$chunk" -q 2>/dev/null | tr '\r' '\n' | grep '^GET' | tail -1 |
  awk -v d="$chunk" '{for (i=1;i<=NF;i++) if ($i ~ /^requests/) rps=$(i-1); printf "%s -> %.0f MB/s\n", $0, rps*d/1048576}'
