"""Tests of the Python package over libstrata.so's C ABI (run by ctest through pytest).
$STRATA_SOURCE_DIR is the strata source tree; $STRATA_VOCAB_DIR llama.cpp's vocabularies (or "")."""

import io
import json
import os
import sys

import pytest

import strata

SOURCE_DIR = os.environ.get("STRATA_SOURCE_DIR", "")
VOCAB_DIR = os.environ.get("STRATA_VOCAB_DIR", "")
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "examples"))
import harness  # noqa: E402


def test_version_is_semver():
    assert strata.version().count(".") == 2


def test_compile_verify_names_the_source_and_targets():
    report = strata.compile(SOURCE_DIR, verify=True)
    assert report["source"] == "AGENTS.md"
    assert "claude-code" in [t["id"] for t in report["targets"]]


def test_compile_refuses_an_unknown_target():
    with pytest.raises(strata.StrataError, match="no-such-client"):
        strata.compile(SOURCE_DIR, targets=["no-such-client"])


def test_discover_lists_agents_md():
    found = strata.discover(SOURCE_DIR, content=True)
    paths = [s["path"] for s in found["sources"]]
    assert "AGENTS.md" in paths
    assert all("content" in s for s in found["sources"])


def test_discover_refuses_a_missing_directory():
    with pytest.raises(strata.StrataError):
        strata.discover("/nonexistent/strata-python-test")


def test_session_turn_one_up_to_its_last_breakpoint_is_a_prefix_of_turn_two():
    session = strata.Session(harness.SESSION)
    session.begin_turn("hello")
    one, map_one = session.render("anthropic")
    session.append({"role": "assistant", "content": "hi"})
    session.begin_turn("again")
    two, _ = session.render("anthropic")
    last = max(bp["offset"] for bp in map_one["breakpoints"])
    assert two[:last] == one[:last]
    assert json.loads(two)["model"] == "claude-sonnet-4-5"


def test_session_refuses_a_user_message_through_append():
    session = strata.Session(harness.SESSION)
    with pytest.raises(strata.StrataError):
        session.append({"role": "user", "content": "use begin_turn"})


def test_session_refuses_a_bad_document():
    with pytest.raises(strata.StrataError, match="robot"):
        strata.Session({"history": [{"role": "robot"}]})


NEEDS_LOCAL = pytest.mark.skipif(not strata.has_local() or not VOCAB_DIR,
                                 reason="needs llama.cpp parts and $STRATA_VOCAB_DIR")


# Runs in every build: without $STRATA_VOCAB_DIR the harness counts with the "estimate" tokenizer.
def test_harness_prints_one_line_per_turn_and_turns_after_the_first_hit_the_cache():
    out = io.StringIO()
    usages = harness.run(VOCAB_DIR, out)
    lines = out.getvalue().splitlines()
    assert [line.split(":")[0] for line in lines] == ["turn 1", "turn 2", "turn 3"]
    assert usages[0]["hit_ratio"] == 0
    # Each turn reads what the previous one wrote up to its last breakpoint (Anthropic's rule),
    # turn 3 too: its instruction change is announced after that prefix, not written into it.
    for before, after in zip(usages, usages[1:]):
        assert after["cache_read_tokens"] == before["breakpoints"][-1]["tokens"] > 0
        assert after["hit_ratio"] == after["cache_read_tokens"] / after["input_tokens"]


def test_update_puts_now_and_state_in_the_tail_after_the_user_message():
    session = strata.Session(harness.SESSION)
    session.update(now="2026-11-29T10:00:00Z", session_state={"permission-mode": "plan"},
                   signals=[{"id": "s1", "text": "mode changed to plan"}])
    session.begin_turn("hello")
    one, _ = session.render("anthropic")
    assert one.index(b"hello") < one.index(b"date-time: 2026-11-29T10:00:00Z")
    assert b"signal: mode changed to plan" in one
    session.append({"role": "assistant", "content": "hi"})
    session.begin_turn("again")
    two, _ = session.render("anthropic")
    assert b"mode changed to plan" not in two  # a signal is shown once
    assert b"permission-mode=plan" in two


def test_update_of_instructions_is_announced_not_rewritten():
    session = strata.Session(harness.SESSION)
    session.begin_turn("hello")
    one, map_one = session.render("anthropic")
    session.append({"role": "assistant", "content": "hi"})
    session.update({"instructions": [{"key": "AGENTS.md", "text": "# Project\n\nNew.\n"}]})
    session.begin_turn("again")
    two, map_two = session.render("anthropic")
    system_end = map_one["breakpoints"][1]["offset"]  # end of system block 2
    assert two[:system_end] == one[:system_end]
    assert b"## instructions:AGENTS.md (modified)" in two
    assert map_two["events"] == []


def test_update_refuses_history_and_unknown_members():
    session = strata.Session(harness.SESSION)
    with pytest.raises(strata.StrataError, match="begin_turn"):
        session.update(user="x")
    with pytest.raises(strata.StrataError, match="did you mean 'notes'"):
        session.update(nots="x")


def test_compact_reports_a_compaction_event():
    session = strata.Session(harness.SESSION)
    session.begin_turn("hello")
    session.render("anthropic")
    session.append({"role": "assistant", "content": "hi"})
    session.compact([{"role": "user", "content": "Summary: greeted."}])
    body, layer_map = session.render("anthropic")
    assert b"Summary: greeted." in body and b"hello" not in body
    assert [e["reason"] for e in layer_map["events"]] == ["compaction"]


@NEEDS_LOCAL
def test_accountant_second_request_reads_what_the_first_wrote():
    session = strata.Session(harness.SESSION)
    accountant = strata.Accountant("anthropic", tokenizer="gpt-2", vocab_dir=VOCAB_DIR,
                                   minimum_tokens=1)
    session.begin_turn("hello")
    one = accountant.account(session.render("anthropic")[0])
    session.append({"role": "assistant", "content": "hi"})
    session.begin_turn("again")
    two = accountant.account(session.render("anthropic")[0], time_s=10)
    assert one["cache_read_tokens"] == 0 and one["hit_ratio"] == 0
    assert two["cache_read_tokens"] == one["cache_write_tokens"] > 0
    assert two["hit_ratio"] == two["cache_read_tokens"] / two["input_tokens"]
    assert [b["block"] for b in one["breakpoints"]][:2] == ["system[0]", "system[1]"]


def test_accountant_estimate_tokenizer_needs_no_vocabulary():
    session = strata.Session(harness.SESSION)
    accountant = strata.Accountant("anthropic", tokenizer="estimate", minimum_tokens=1)
    session.begin_turn("hello")
    one = accountant.account(session.render("anthropic")[0])
    session.append({"role": "assistant", "content": "hi"})
    session.begin_turn("again")
    two = accountant.account(session.render("anthropic")[0], time_s=10)
    assert one["tokenizer"] == "estimate (4 bytes per token, no vocabulary)"
    assert two["cache_read_tokens"] == one["cache_write_tokens"] > 0
    # The default ("auto") always gives an accountant and names what it counted with.
    auto = strata.Accountant("openai").account(session.render("openai-chat")[0], "openai-chat")
    assert auto["tokenizer"] == "llama.cpp vocab qwen2" or auto["tokenizer"].startswith("estimate ")


def test_accountant_refuses_an_unknown_cache_model():
    with pytest.raises(strata.StrataError):
        strata.Accountant("no-such-cache", vocab_dir=VOCAB_DIR)


@NEEDS_LOCAL
def test_explain_finds_the_first_difference():
    a = b'{"model":"m","messages":[{"role":"user","content":"hello"}]}'
    b = b'{"model":"m","messages":[{"role":"user","content":"help"}]}'
    e = strata.explain(a, b, tokenizer="gpt-2", vocab_dir=VOCAB_DIR)
    # Provider requests are compared in their canonical prompt form (docs/replay.md): one
    # "[path role type]" header line per block, then its text.
    assert e["first_byte"] == len(b"[messages[0].content[0] user text]\n") + 3
    assert e["position"] == "messages[0].content[0], character 3"


def test_local_session_reports_a_missing_model():
    with pytest.raises(strata.StrataError):
        strata.LocalSession("/nonexistent/model.gguf")
