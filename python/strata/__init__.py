"""strata: cache-stable context delivery for LLM agents, from Python.

A thin ctypes binding over the C ABI of libstrata.so (include/strata.h): no compiled extension and
no dependency beyond the standard library. JSON goes in and out as Python dicts; request bodies as
bytes. Every failure raises StrataError with the library's message ("path:line:col: error: ...").

The library is found through $STRATA_LIBRARY (a path to libstrata.so), then the dynamic loader
(libstrata.so.0, e.g. after `cmake --install` to a prefix on the loader path).
"""

import ctypes
import ctypes.util
import json
import os

__all__ = [
    "StrataError", "version", "has_local", "compile", "discover", "Session", "replay",
    "explain", "LocalSession",
]


class StrataError(Exception):
    """An error libstrata reported (the message names file, line and what to do)."""


def _load():
    candidates = []
    if os.environ.get("STRATA_LIBRARY"):
        candidates.append(os.environ["STRATA_LIBRARY"])
    candidates.append("libstrata.so.0")
    found = ctypes.util.find_library("strata")
    if found:
        candidates.append(found)
    errors = []
    for name in candidates:
        try:
            return ctypes.CDLL(name)
        except OSError as e:
            errors.append(str(e))
    raise ImportError("libstrata.so not found (set STRATA_LIBRARY to its path): " +
                      "; ".join(errors))


_lib = _load()
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
_session_render = _sig("strata_session_render", _P, _P, _S, ctypes.POINTER(_N),
                       ctypes.POINTER(ctypes.c_void_p), _E)
_replay = _sig("strata_replay", _P, ctypes.c_char_p, _N, _S, _S, _S, _E)
_explain = _sig("strata_explain", _P, ctypes.c_char_p, _N, ctypes.c_char_p, _N, _S, _E)
_local_create = _sig("strata_local_session_create", _P, _S, _S, _E)
_local_destroy = _sig("strata_local_session_destroy", None, _P)
_local_submit = _sig("strata_local_session_submit", _P, _P, _S, _E)


def _text(value):
    return None if value is None else str(value).encode("utf-8")


def _options(options):
    return _text(json.dumps({k: v for k, v in options.items() if v is not None}))


def _take(ptr, length=None):
    """Copies a malloc'd result out and frees it."""
    if not ptr:
        return None
    try:
        return ctypes.string_at(ptr, length) if length is not None else ctypes.string_at(ptr)
    finally:
        _free(ptr)


def _call(fn, *args):
    """Calls fn(*args, &err); raises StrataError when err is set."""
    err = ctypes.c_void_p()
    result = fn(*args, ctypes.byref(err))
    if err.value:
        message = _take(err.value).decode("utf-8", "replace")
        if isinstance(result, int) and fn.restype is _P and result:
            _free(result)
        raise StrataError(message)
    return result


def _json(fn, *args):
    return json.loads(_take(_call(fn, *args)).decode("utf-8"))


def version():
    """The library version, "MAJOR.MINOR.PATCH"."""
    return _version().decode("ascii")


def has_local():
    """True when the library holds the llama.cpp parts (local sessions, replay, explain)."""
    return bool(_has_local())


def compile(root, verify=False, force=False, targets=None):
    """Compiles (or with verify=True checks) the banded AGENTS.md of `root`; returns the report."""
    return _json(_compile, _text(root),
                 _options({"verify": verify, "force": force, "targets": targets}))


def discover(directory, project_root=None, content=False):
    """The instruction files an agent in `directory` sees: {"sources": [...], ...}."""
    return _json(_discover, _text(directory),
                 _options({"project_root": project_root, "content": content}))


class Session:
    """An assembling session (ContextSession): a session document (dict, the session-file format
    of `strata assemble`) creates it; turns and messages are added; render() gives each request."""

    _handle = None

    def __init__(self, document):
        text = document if isinstance(document, str) else json.dumps(document)
        self._handle = _call(_session_create, _text(text))

    def close(self):
        if self._handle:
            _session_destroy(self._handle)
            self._handle = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()

    def begin_turn(self, user_text):
        """Starts a user turn (changed context sources are announced first)."""
        _call(_session_begin_turn, self._handle, _text(user_text))

    def append(self, message):
        """Appends an assistant message or a tool result (a history entry as a dict)."""
        _call(_session_append, self._handle, _text(json.dumps(message)))

    def render(self, provider="anthropic"):
        """Returns (request bytes, {"layers", "breakpoints", "diagnostics"})."""
        length = _N(0)
        layers = ctypes.c_void_p()
        ptr = _call(_session_render, self._handle, _text(provider), ctypes.byref(length),
                    ctypes.byref(layers))
        body = _take(ptr, length.value)
        return body, json.loads(_take(layers.value).decode("utf-8"))


def replay(transcript, format="strata", provider="anthropic", **options):
    """Replays transcript bytes under a provider's cache model; the `strata replay --json` report.
    options: layout, tokenizer, vocab_dir, model, long_ttl."""
    data = transcript if isinstance(transcript, bytes) else transcript.encode("utf-8")
    return _json(_replay, data, len(data), _text(format), _text(provider), _options(options))


def explain(a, b, **options):
    """Why request b misses the cache request a filled (`strata explain --json`).
    options: tokenizer, vocab_dir."""
    return _json(_explain, a, len(a), b, len(b), _options(options))


class LocalSession:
    """A local llama.cpp session whose deterministic prefix is restored from a KV checkpoint.
    options: project, checkpoint_dir, system, ctx, max_tokens."""

    _handle = None

    def __init__(self, model_path, **options):
        self._handle = _call(_local_create, _text(model_path), _options(options))

    def close(self):
        if self._handle:
            _local_destroy(self._handle)
            self._handle = None

    def __del__(self):
        self.close()

    def submit(self, message):
        """Runs the model on a user message; returns the turn report."""
        return _json(_local_submit, self._handle, _text(message))
