"""tiny_serve.py: `strata-local serve` on the tiny test model, for the memory benchmarks.

make_tiny_model writes make_test_model's default model (llama-spm vocabulary) into a directory;
start_serve starts the server on it (any free port, --ctx 1024, one thread, a scratch store),
waits for its ready line and drains its request log so the pipe never fills.
"""
import os
import re
import subprocess
import sys
import threading


def make_tiny_model(build, work):
    """The path of a tiny GGUF made in `work` by `build`'s make_test_model."""
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    prefix = subprocess.run(["bash", os.path.join(root, "scripts/setup-llama.sh")],
                            capture_output=True, text=True,
                            check=True).stdout.strip().splitlines()[-1]
    vocab = os.path.join(os.path.dirname(prefix), "src/models/ggml-vocab-llama-spm.gguf")
    model = os.path.join(work, "tiny.gguf")
    subprocess.run([os.path.join(build, "src/local/make_test_model"), "--vocab", vocab, "--out",
                    model], check=True, capture_output=True)
    return model


def start_serve(build, model, work):
    """(process, port) of a ready `strata-local serve` on `model`; exits when it does not start."""
    server = subprocess.Popen([os.path.join(build, "tools/strata/strata-local"), "serve",
                               "--model", model, "--port", "0", "--ctx", "1024",
                               "--store", os.path.join(work, "kv"), "--threads", "1"],
                              stderr=subprocess.PIPE, text=True)
    for line in server.stderr:
        m = re.search(r"listening on http://[^:]+:(\d+)", line)
        if m:
            threading.Thread(target=lambda: [None for _ in server.stderr], daemon=True).start()
            return server, int(m.group(1))
    sys.exit("the server did not start")
