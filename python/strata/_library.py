"""Finds and loads libstrata.so (the C ABI of include/strata.h).

Candidates, in order (the first that loads wins):
  1. $STRATA_LIBRARY: a path to libstrata.so (or a directory holding it);
  2. pkg-config's strata.pc (`pkg-config --variable=libdir strata`; PKG_CONFIG_PATH applies);
  3. the install prefixes: this Python's prefix, /usr/local, /usr (lib, lib64, lib/<multiarch>);
  4. an in-tree build: build*/libstrata.so of the repository this package's source lives in
     (python/strata/ of a strata clone used through PYTHONPATH or an editable install);
  5. the dynamic loader's own search (libstrata.so.0, LD_LIBRARY_PATH, ld.so.cache).
"""

from __future__ import annotations

import ctypes
import glob
import os
import shutil
import subprocess
import sys
import sysconfig
from typing import List, Tuple

_NAMES = ("libstrata.so.0", "libstrata.so")


def _in_dir(directory: str) -> List[str]:
    return [os.path.join(directory, name) for name in _NAMES]


def _pkg_config_libdir() -> List[str]:
    tool = shutil.which("pkg-config")
    if tool is None:
        return []
    try:
        out = subprocess.run([tool, "--variable=libdir", "strata"], capture_output=True,
                             text=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return []
    libdir = out.stdout.strip()
    return _in_dir(os.path.normpath(libdir)) if out.returncode == 0 and libdir else []


def _prefixes() -> List[str]:
    multiarch = sysconfig.get_config_var("MULTIARCH") or ""
    out: List[str] = []
    for prefix in (sys.prefix, "/usr/local", "/usr"):
        for sub in ("lib", "lib64", os.path.join("lib", multiarch) if multiarch else None):
            if sub:
                out += _in_dir(os.path.join(prefix, sub))
    return out


def _in_tree() -> List[str]:
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if not os.path.exists(os.path.join(repo, "include", "strata.h")):
        return []
    return sorted(glob.glob(os.path.join(repo, "build*", "libstrata.so")))


def candidates() -> List[str]:
    """Every place looked at, in order."""
    out: List[str] = []
    env = os.environ.get("STRATA_LIBRARY", "")
    if env:
        out += _in_dir(env) if os.path.isdir(env) else [env]
    out += _pkg_config_libdir() + _prefixes() + _in_tree()
    return out


def load() -> Tuple[ctypes.CDLL, str]:
    """The loaded library and its path. ImportError naming every place tried otherwise."""
    errors: List[str] = []
    env = os.environ.get("STRATA_LIBRARY", "")
    for path in candidates():
        if not os.path.exists(path):
            if path == env:  # an explicit override that points nowhere is an error, not a skip
                raise ImportError(f"STRATA_LIBRARY={env}: no such file")
            continue
        try:
            return ctypes.CDLL(path), path
        except OSError as e:
            errors.append(str(e))
    for name in _NAMES:
        try:
            return ctypes.CDLL(name), name
        except OSError as e:
            errors.append(str(e))
    raise ImportError("libstrata.so not found: set STRATA_LIBRARY to its path, or install strata "
                      "(cmake --install) where pkg-config or the loader finds it. Tried: " +
                      "; ".join(errors + [p for p in candidates() if not os.path.exists(p)]))
