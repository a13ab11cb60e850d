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


def test_harness_prints_one_line_per_turn_and_turns_after_the_first_hit_the_cache():
    out = io.StringIO()
    ratios = harness.run(out)
    lines = out.getvalue().splitlines()
    assert [line.split(":")[0] for line in lines] == ["turn 1", "turn 2", "turn 3"]
    assert ratios[0] == 0
    assert all(r > 0.5 for r in ratios[1:])


@pytest.mark.skipif(not strata.has_local() or not VOCAB_DIR, reason="needs llama.cpp parts")
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
