#!/usr/bin/env python3
"""harness.py: a toy agent loop on strata's assembling session, printing the cache hit ratio of
every turn from strata's own cache accounting.

Each turn updates the clock and the session state (the volatile tail), begins with a user message,
renders the request for Anthropic and accounts it under Anthropic's cache model (strata.Accountant:
the request's canonical prompt, tokenized block by block, through the cache rules of `strata
replay`); a scripted assistant answers with a tool call, its result, then a reply. Before turn 3
the project's instructions change: strata announces the diff in a context-update message instead
of rewriting the cached system prompt, so the hit ratio holds.

This example's prefix is a few hundred tokens, below Anthropic's minimum cacheable prompt (1024
tokens for Sonnet), so the accountant is told minimum_tokens=1; a real harness's prefix is larger
and keeps the documented minimum.

Usage: python3 python/examples/harness.py [VOCAB_DIR]   (or $STRATA_VOCAB_DIR; llama.cpp's
vocabularies, e.g. ~/.cache/strata/llama-*/src/models: counts with qwen2's; without one, with the
"estimate" tokenizer, 4 bytes per token, which needs no vocabulary and no llama.cpp)
"""

from __future__ import annotations

import os
import sys
from typing import Any, Dict, List, TextIO

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


def run(vocab_dir: str, out: TextIO = sys.stdout) -> List[Dict[str, Any]]:
    """Runs the turns; returns each turn's accounting (strata.Accountant.account)."""
    usages = []
    with strata.Session(SESSION) as session, \
            strata.Accountant("anthropic", tokenizer="qwen2" if vocab_dir else "estimate",
                              vocab_dir=vocab_dir, minimum_tokens=1) as accountant:
        for n, (user, tool, arguments, result) in enumerate(TURNS, start=1):
            session.update(now=f"2026-11-29T10:0{n}:00Z",
                           session_state={"permission-mode": "default"})
            if n == 3:
                session.update(instructions=[{
                    "key": "AGENTS.md", "text": "# Project\n\nRun `make test` first.\nUse tabs.\n"}])
            session.begin_turn(user)
            request, layer_map = session.render("anthropic")
            usage = accountant.account(request, "anthropic", time_s=60.0 * n)
            usages.append(usage)
            print(f"turn {n}: {usage['input_tokens']} tokens, {usage['cache_read_tokens']} read, "
                  f"{usage['cache_write_tokens']} written, hit ratio {usage['hit_ratio']:.3f}, "
                  f"{len(layer_map['breakpoints'])} breakpoints", file=out)
            if tool is not None:
                call_id = f"call_{n}"
                session.append({"role": "assistant", "content": "",
                                "tool_calls": [{"id": call_id, "name": tool,
                                                "arguments": arguments}]})
                session.append({"role": "tool", "tool_call_id": call_id, "content": result})
            session.append({"role": "assistant", "content": f"Done with turn {n}."})
    return usages


if __name__ == "__main__":
    run(sys.argv[1] if len(sys.argv) > 1 else os.environ.get("STRATA_VOCAB_DIR", ""))
