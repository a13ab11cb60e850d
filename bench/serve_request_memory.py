#!/usr/bin/env python3
"""serve_request_memory.py: the memory one large request costs, as a multiple of its body.

Starts `strata-local serve` on the tiny test model (make_test_model's defaults, llama-spm
vocabulary, --ctx 1024) and sends chat completions whose one message is --megabytes of text (under
the 16 MiB body cap, far over what the context holds: refused with 413 before tokenizing), first
one alone, then --clients at once. For each it resets the server's peak resident set
(/proc/PID/clear_refs) and prints the peak's growth over the resident set before (VmHWM - VmRSS)
and that growth over the bytes sent. Then `strata chat` on one line of --chat-megabytes (the REPL
reads it from stdin): its peak RSS (GNU time) beside the same command on a 100 kB
line (refused the same way, before tokenizing, with the model loaded), and the difference over the
line's bytes.

    bench/serve_request_memory.py [--build build] [--megabytes 15] [--clients 4]
                                  [--chat-megabytes 50]
"""
import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading

from tiny_serve import make_tiny_model, start_serve


def status_kib(pid, field):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def post(port, body):
    """One POST over a fresh connection; returns the status line."""
    head = (f"POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
            f"Connection: close\r\n\r\n").encode()
    with socket.create_connection(("127.0.0.1", port), timeout=120) as s:
        s.sendall(head + body)
        answer = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            answer += chunk
    return answer.split(b"\r\n", 1)[0].decode()


def peak_growth(pid, port, bodies):
    """Sends `bodies` at once; the server's peak RSS growth, KiB, and the status lines."""
    before = status_kib(pid, "VmRSS")
    with open(f"/proc/{pid}/clear_refs", "w") as f:
        f.write("5")  # VmHWM := VmRSS
    statuses = [None] * len(bodies)

    def send(i):
        statuses[i] = post(port, bodies[i])

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(bodies))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return status_kib(pid, "VmHWM") - before, statuses


def chat_peak_kib(strata, model, store, line):
    """strata chat's peak RSS (KiB) on one stdin line. GNU time measures it: a child forked from
    this process would count this process's own peak (the bodies it holds) in its ru_maxrss."""
    with tempfile.NamedTemporaryFile() as peak:
        proc = subprocess.Popen(["/usr/bin/time", "-f", "%M", "-o", peak.name, strata, "chat",
                                 "--model", model, "--store", store, "--ctx", "1024", "-n", "1",
                                 "--json"],
                                stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE)
        proc.stdin.write(line)
        proc.stdin.close()
        err = proc.stderr.read()
        code = proc.wait()
        return int(open(peak.name).read().split()[-1]), code, err.decode(errors="replace")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(os.path.dirname(__file__), "..", "build"))
    ap.add_argument("--megabytes", type=float, default=15)
    ap.add_argument("--clients", type=int, default=4)
    ap.add_argument("--chat-megabytes", type=float, default=50)
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="strata-request-memory-")
    model = make_tiny_model(args.build, work)
    words = "plan the next step carefully "
    text = words * int(args.megabytes * 1e6 / len(words))
    body = json.dumps({"messages": [{"role": "user", "content": text}],
                       "max_tokens": 4}).encode()
    server, port = start_serve(args.build, model, work)
    try:
        for n in (1, args.clients, 1):
            growth, statuses = peak_growth(server.pid, port, [body] * n)
            print(f"serve: {n} x {len(body) / 1e6:.1f} MB at once: {statuses[0]}; "
                  f"peak +{growth / 1024:.1f} MiB = {growth * 1024 / (n * len(body)):.2f}x the "
                  f"bytes sent; RSS after {status_kib(server.pid, 'VmRSS') / 1024:.1f} MiB",
                  flush=True)
    finally:
        server.terminate()
        server.wait()

    line = (words * int(args.chat_megabytes * 1e6 / len(words))).encode() + b"\n"
    strata = os.path.join(args.build, "tools/strata/strata-local")
    small, _, _ = chat_peak_kib(strata, model, os.path.join(work, "kv-chat"),
                                (words * int(1e5 / len(words))).encode() + b"\n")
    large, code, err = chat_peak_kib(strata, model, os.path.join(work, "kv-chat"), line)
    print(f"chat: 100 kB line peak {small / 1024:.1f} MiB; {len(line) / 1e6:.1f} MB line: exit "
          f"{code}, peak {large / 1024:.1f} MiB, +{(large - small) / 1024:.1f} MiB = "
          f"{(large - small) * 1024 / len(line):.2f}x the line ({err.strip()[:120]})")


if __name__ == "__main__":
    main()
