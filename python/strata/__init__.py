"""strata: cache-stable context delivery for LLM agents, from Python.

A thin ctypes binding over the C ABI of libstrata.so (include/strata.h): no compiled extension and
no dependency beyond the standard library. JSON goes in and out as Python dicts; request bodies as
bytes. Every failure raises StrataError with the library's message ("path:line:col: error: ...").

The library is found (strata._library.candidates) through $STRATA_LIBRARY (a path to
libstrata.so), then pkg-config's strata.pc (its libdir), then the install prefixes (this Python's
prefix, /usr/local, /usr), then an in-tree build beside this package's source (build/ of the
repository it came from), then the dynamic loader.
"""

from __future__ import annotations

import ctypes
import json
from typing import Any, Mapping, Optional, Sequence, Tuple, Union

from strata._library import load as _load_library

__all__ = [
    "StrataError", "version", "has_local", "compile", "discover", "Session", "Accountant",
    "replay", "explain", "LocalSession", "library_path",
]

Json = Any  # a value of the JSON documents include/strata.h describes
Bytes = Union[bytes, bytearray, memoryview]


class StrataError(Exception):
    """An error libstrata reported (the message names file, line and what to do)."""


_lib, _library_path = _load_library()


def library_path() -> str:
    """The libstrata.so this module loaded."""
    return _library_path
_P = ctypes.c_void_p       # char* the caller frees: kept as an address, read, then freed
_S = ctypes.c_char_p       # const char* in
_N = ctypes.c_size_t
_E = ctypes.POINTER(ctypes.c_void_p)  # char** errptr


def _sig(name, restype, *argtypes):
    fn = getattr(_lib, name)
    fn.restype = restype
    fn.argtypes = list(argtypes)
    return fn


_free = _sig("strata_free", None, ctypes.c_void_p)
_version = _sig("strata_version", ctypes.c_char_p)
_has_local = _sig("strata_has_local", ctypes.c_int)
_compile = _sig("strata_compile", _P, _S, _S, _E)
_discover = _sig("strata_discover", _P, _S, _S, _E)
_session_create = _sig("strata_session_create", _P, _S, _E)
_session_destroy = _sig("strata_session_destroy", None, _P)
_session_begin_turn = _sig("strata_session_begin_turn", ctypes.c_int, _P, _S, _E)
_session_append = _sig("strata_session_append", ctypes.c_int, _P, _S, _E)
_session_update = _sig("strata_session_update", ctypes.c_int, _P, _S, _E)
_session_compact = _sig("strata_session_compact", ctypes.c_int, _P, _S, _E)
_accountant_create = _sig("strata_accountant_create", _P, _S, _S, _E)
_accountant_destroy = _sig("strata_accountant_destroy", None, _P)
_accountant_account = _sig("strata_accountant_account", _P, _P, ctypes.c_char_p, _N, _S,
                           ctypes.c_double, _E)
_session_render = _sig("strata_session_render", _P, _P, _S, ctypes.POINTER(_N),
                       ctypes.POINTER(ctypes.c_void_p), _E)
_replay = _sig("strata_replay", _P, ctypes.c_char_p, _N, _S, _S, _S, _E)
_explain = _sig("strata_explain", _P, ctypes.c_char_p, _N, ctypes.c_char_p, _N, _S, _E)
_local_create = _sig("strata_local_session_create", _P, _S, _S, _E)
_local_destroy = _sig("strata_local_session_destroy", None, _P)
_local_submit = _sig("strata_local_session_submit", _P, _P, _S, _E)


def _text(value: Optional[object]) -> Optional[bytes]:
    return None if value is None else str(value).encode("utf-8")


def _options(options: Mapping[str, Any]) -> Optional[bytes]:
    return _text(json.dumps({k: v for k, v in options.items() if v is not None}))


def _take(ptr: Optional[int], length: Optional[int] = None) -> Optional[bytes]:
    """Copies a malloc'd result out and frees it."""
    if not ptr:
        return None
    try:
        return ctypes.string_at(ptr, length) if length is not None else ctypes.string_at(ptr)
    finally:
        _free(ptr)


def _call(fn: Any, *args: Any) -> Any:
    """Calls fn(*args, &err); raises StrataError when err is set."""
    err = ctypes.c_void_p()
    result = fn(*args, ctypes.byref(err))
    if err.value:
        message = _take(err.value).decode("utf-8", "replace")
        if isinstance(result, int) and fn.restype is _P and result:
            _free(result)
        raise StrataError(message)
    return result


def _json(fn: Any, *args: Any) -> Json:
    return json.loads(_take(_call(fn, *args)).decode("utf-8"))


def version() -> str:
    """The library version, "MAJOR.MINOR.PATCH"."""
    return _version().decode("ascii")


def has_local() -> bool:
    """True when the library holds the llama.cpp parts (local sessions, replay, explain)."""
    return bool(_has_local())


def compile(root: str, verify: bool = False, force: bool = False,
            targets: Optional[Sequence[str]] = None) -> Json:
    """Compiles (or with verify=True checks) the banded AGENTS.md of `root`; returns the report."""
    return _json(_compile, _text(root),
                 _options({"verify": verify, "force": force, "targets": targets}))


def discover(directory: str, project_root: Optional[str] = None, content: bool = False) -> Json:
    """The instruction files an agent in `directory` sees: {"sources": [...], ...}."""
    return _json(_discover, _text(directory),
                 _options({"project_root": project_root, "content": content}))


class Session:
    """An assembling session (ContextSession): a session document (dict, the session-file format
    of `strata assemble`) creates it; turns and messages are added; render() gives each request."""

    _handle = None

    def __init__(self, document: Union[str, Mapping[str, Any]]) -> None:
        text = document if isinstance(document, str) else json.dumps(document)
        self._handle = _call(_session_create, _text(text))

    def close(self) -> None:
        if self._handle:
            _session_destroy(self._handle)
            self._handle = None

    def __enter__(self):  # noqa: ANN204 (returns the session itself)
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        self.close()

    def begin_turn(self, user_text: str) -> None:
        """Starts a user turn (changed context sources are announced first)."""
        _call(_session_begin_turn, self._handle, _text(user_text))

    def append(self, message: Mapping[str, Any]) -> None:
        """Appends an assistant message or a tool result (a history entry as a dict)."""
        _call(_session_append, self._handle, _text(json.dumps(message)))

    def update(self, changes: Optional[Mapping[str, Any]] = None, **members: Any) -> None:
        """Between turns: replaces context sources and the volatile data of the next requests.
        Members (of the session document): model, model_family, persona, rules, tools, cwd,
        instructions, skills, notes, plan (context); now, session_state, source_state, signals
        (the volatile tail). A changed source is announced at the next safe boundary as one
        context-update message; the cached system blocks are never rewritten."""
        document = dict(changes or {})
        document.update(members)
        _call(_session_update, self._handle, _text(json.dumps(document)))

    def compact(self, history: Sequence[Mapping[str, Any]]) -> None:
        """Replaces the history (e.g. with a summary); the next render rebuilds the prefix and
        reports a "compaction" event."""
        _call(_session_compact, self._handle, _text(json.dumps(list(history))))

    def render(self, provider: str = "anthropic") -> Tuple[bytes, Json]:
        """Returns (request bytes, {"layers", "breakpoints", "diagnostics", "events"})."""
        length = _N(0)
        layers = ctypes.c_void_p()
        ptr = _call(_session_render, self._handle, _text(provider), ctypes.byref(length),
                    ctypes.byref(layers))
        body = _take(ptr, length.value)
        return body, json.loads(_take(layers.value).decode("utf-8"))


class Accountant:
    """The cache accounting of a conversation's requests under one provider's cache model
    (strata's own rules, docs/replay.md): account() each rendered request in order; it returns
    {"input_tokens", "cache_read_tokens", "cache_write_tokens", "uncached_tokens", "hit_ratio",
    "shared_tokens", "cost", "breakpoints", "notes", "tokenizer"}.
    options: tokenizer ("auto", the default: the qwen2 vocabulary when llama.cpp and the file are
    there, else "estimate"; "estimate": 4 bytes per token, no vocabulary; a llama.cpp vocabulary
    name or .gguf path), vocab_dir, minimum_tokens, retention_s."""

    _handle = None

    def __init__(self, cache_model: str = "anthropic", **options: Any) -> None:
        self._handle = _call(_accountant_create, _text(cache_model), _options(options))

    def close(self) -> None:
        if self._handle:
            _accountant_destroy(self._handle)
            self._handle = None

    def __enter__(self):  # noqa: ANN204 (returns the accountant itself)
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        self.close()

    def account(self, request: Bytes, provider: str = "anthropic", time_s: float = 0.0) -> Json:
        """Accounts `request` (a body rendered for `provider`) sent at `time_s` seconds."""
        data = bytes(request)
        return _json(_accountant_account, self._handle, data, len(data), _text(provider),
                     float(time_s))


def replay(transcript: Union[str, bytes], format: str = "strata", provider: str = "anthropic",
           **options: Any) -> Json:
    """Replays transcript bytes under a provider's cache model; the `strata replay --json` report.
    options: layout, tokenizer, vocab_dir, model, long_ttl."""
    data = transcript if isinstance(transcript, bytes) else transcript.encode("utf-8")
    return _json(_replay, data, len(data), _text(format), _text(provider), _options(options))


def explain(a: bytes, b: bytes, **options: Any) -> Json:
    """Why request b misses the cache request a filled (`strata explain --json`).
    options: tokenizer, vocab_dir."""
    return _json(_explain, a, len(a), b, len(b), _options(options))


class LocalSession:
    """A local llama.cpp session whose deterministic prefix is restored from a KV checkpoint.
    options: project, checkpoint_dir, system, ctx, max_tokens."""

    _handle = None

    def __init__(self, model_path: str, **options: Any) -> None:
        self._handle = _call(_local_create, _text(model_path), _options(options))

    def close(self) -> None:
        if self._handle:
            _local_destroy(self._handle)
            self._handle = None

    def __del__(self) -> None:
        self.close()

    def submit(self, message: str) -> Json:
        """Runs the model on a user message; returns the turn report."""
        return _json(_local_submit, self._handle, _text(message))
