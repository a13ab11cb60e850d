#!/usr/bin/env python3
"""serve_memory.py: does `strata serve` hold its memory over many requests?

Starts `strata-local serve` on the tiny test model (make_test_model's defaults, llama-spm
vocabulary) with a scratch store, sends N requests (default 20,000) one after another over
keep-alive connections: chat completions of one generated token over 8 conversations taken in turn
(so the server's state, index and store, stops growing after the first round), with a /health and a
/metrics every 10th. Prints the server's resident set (VmRSS) once it is ready, then every N/20
requests, and the growth from the sample after N/10 requests (allocator pools and caches warm) to
the last.

    bench/serve_memory.py [--build build] [--requests 20000]
"""
import argparse
import http.client
import json
import os
import sys
import tempfile
import time

from tiny_serve import make_tiny_model, start_serve


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(os.path.dirname(__file__), "..", "build"))
    ap.add_argument("--requests", type=int, default=20000)
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="strata-serve-memory-")
    server, port = start_serve(args.build, make_tiny_model(args.build, work), work)
    conn = None
    samples = []
    print(f"{0:>7} requests  RSS {rss_kib(server.pid) / 1024:8.1f} MiB  (ready)", flush=True)
    start = time.time()
    try:
        for i in range(args.requests):
            if conn is None:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            body = {"messages": [{"role": "system", "content": "You are a careful coding agent."},
                                 {"role": "user", "content": f"conversation {i % 8}: what next?"}],
                    "max_tokens": 1, "temperature": 0}
            try:
                if i % 10 == 5:
                    conn.request("GET", "/health" if i % 20 == 5 else "/metrics")
                else:
                    conn.request("POST", "/v1/chat/completions", json.dumps(body),
                                 {"Content-Type": "application/json"})
                r = conn.getresponse()
                r.read()
                if r.status != 200:
                    sys.exit(f"serve_memory: request {i}: status {r.status}")
                if r.getheader("Connection", "").lower() == "close":
                    conn.close()
                    conn = None
            except (http.client.HTTPException, ConnectionError):
                conn.close()
                conn = None  # the server closed a keep-alive connection: open another
            if (i + 1) % (args.requests // 20) == 0:
                samples.append((i + 1, rss_kib(server.pid)))
                print(f"{i + 1:>7} requests  RSS {samples[-1][1] / 1024:8.1f} MiB  "
                      f"{time.time() - start:6.0f} s", flush=True)
    finally:
        server.terminate()
        server.wait()
    first, last = samples[1], samples[-1]
    print(f"growth from {first[0]} to {last[0]} requests: {(last[1] - first[1]) / 1024:.1f} MiB "
          f"({(last[1] - first[1]) * 1024 / (last[0] - first[0]):.0f} bytes per request)")


if __name__ == "__main__":
    main()
