#!/usr/bin/env python3
"""harness.py: a toy agent loop on strata's assembling session, printing the cache hit ratio of
every turn.

Each turn begins with a user message, the request is rendered for Anthropic, and a scripted
assistant answers (a tool call, its result, then a reply). The hit ratio of a request is the part
of it a prompt cache filled by the previous request serves, under Anthropic's rule: a cache entry
ends at a breakpoint of the previous request, so the hit is the longest such prefix that the new
request repeats byte for byte (counted in bytes here; `strata replay` counts tokens). With the
llama.cpp parts built (strata.has_local()) and a vocabulary directory, strata.explain also names
the first differing byte's layer.

Usage: PYTHONPATH=python STRATA_LIBRARY=build/libstrata.so python3 python/examples/harness.py
"""

import os
import sys

import strata

SESSION = {
    "model": "claude-sonnet-4-5",
    "persona": "You are a careful coding agent.",
    "rules": ["Read before you write.", "Run the tests before you commit."],
    "tools": [
        {"name": "read", "description": "Reads a file.",
         "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}}},
        {"name": "bash", "description": "Runs a shell command.",
         "input_schema": {"type": "object", "properties": {"command": {"type": "string"}}}},
    ],
    "instructions": [{"key": "AGENTS.md", "text": "# Project\n\nRun `make test` first.\n"}],
    "cwd": "/work/project",
}

TURNS = [
    ("What does README.md say?", "read", {"path": "README.md"}, "# Project\nA tool."),
    ("Run the tests.", "bash", {"command": "make test"}, "ok: 42 tests"),
    ("Summarise what you did.", None, None, None),
]


def common_prefix(a, b):
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i


def cached_bytes(previous, previous_map, request):
    """Bytes of `request` served from the entries `previous` wrote at its breakpoints."""
    if previous is None:
        return 0
    shared = common_prefix(previous, request)
    ends = [bp["offset"] for bp in previous_map.get("breakpoints", []) if bp["offset"] <= shared]
    return max(ends, default=0)


def run(out=sys.stdout):
    session = strata.Session(SESSION)
    previous, previous_map = None, {}
    vocab_dir = os.environ.get("STRATA_VOCAB_DIR", "")
    ratios = []
    for n, (user, tool, arguments, result) in enumerate(TURNS, start=1):
        session.begin_turn(user)
        request, layer_map = session.render("anthropic")
        cached = cached_bytes(previous, previous_map, request)
        ratio = cached / len(request)
        ratios.append(ratio)
        line = f"turn {n}: {len(request)} bytes, {cached} cached, hit ratio {ratio:.3f}"
        if previous is not None and strata.has_local() and vocab_dir:
            why = strata.explain(previous, request, tokenizer="gpt-2", vocab_dir=vocab_dir)
            line += f" (first difference at byte {why['first_byte']}, layer {why['layer']})"
        print(line, file=out)
        previous, previous_map = request, layer_map
        if tool is not None:
            call_id = f"call_{n}"
            session.append({"role": "assistant", "content": "",
                            "tool_calls": [{"id": call_id, "name": tool,
                                            "arguments": arguments}]})
            session.append({"role": "tool", "tool_call_id": call_id, "content": result})
        session.append({"role": "assistant", "content": f"Done with turn {n}."})
    session.close()
    return ratios


if __name__ == "__main__":
    run()
