#!/usr/bin/env python3
"""check_structure.py: the house rules a newcomer relies on, checked on every test run.

  - layering: a file in src/<module>/ includes only modules at or below its own in LAYERS
    (public headers count as the module that implements them, PUBLIC_HEADERS);
  - function length: no function defined in src/ runs over MAX_FUNCTION_LINES lines;
  - repeats: no run of REPEAT_LINES or more non-trivial lines appears twice in src/;
  - API users: the CLI (tools/strata/) and the C ABI (src/capi/) include public headers
    (strata.h, strata/*.h) and their own files only, never a private header of another module;
  - public includes: a public header (include/strata.h, include/strata/*.h) includes standard
    headers, other public headers and PUBLIC_THIRD_PARTY only (what a consumer must have: the
    package config finds it), so no JSON library or llama.cpp type reaches the API.

Usage: check_structure.py REPO_ROOT. Prints one `path:line: message` per finding; exit 1 if any.
"""
import pathlib
import re
import sys

# Low to high: a module may include itself and anything before it.
LAYERS = ["base", "text", "io", "markdown", "targets", "bands", "config", "clients", "discover", "stability",
          "compile", "adopt", "prompt", "render", "assemble", "tokenize", "cache_model",
          "wire", "transcripts", "accounting", "replay", "record", "explain", "usage", "checkpoint", "shared_store", "local", "serve", "capi", "mcp"]
PUBLIC_HEADERS = {"status": "base", "file_io": "io", "discover": "clients", "compile": "compile",
                  "adopt": "adopt", "prompt": "prompt", "render": "render",
                  "assemble": "assemble", "replay": "replay", "record": "record",
                  # accounting.h holds the tokenizer interface (tokenize) under the cache models.
                  "accounting": "tokenize", "checkpoint": "checkpoint",
                  "local_session": "local", "serve": "serve", "mcp": "mcp",
                  # Headers that were public once; a file still including one is layered by it.
                  "text": "text", "markdown": "markdown", "targets": "targets", "bands": "bands",
                  "splice": "compile", "config": "config", "budget": "discover",
                  "imports": "discover", "stability": "stability", "messages": "prompt",
                  "tools": "prompt", "layers": "prompt", "canonical_json": "prompt",
                  "epochs": "assemble", "session_file": "assemble", "cache_model": "cache_model",
                  "transcript": "transcripts", "vocab_tokenizer": "tokenize", "usage": "usage",
                  "explain": "explain"}
# Directories that use the library as a client would: what they may include besides public headers.
API_USERS = {"tools/strata": "", "src/capi": "capi/"}
# A private include an API user still has, with the reason; each entry is work in progress.
API_USER_EXCEPTIONS: dict = {}
# The third-party headers a public header may include: tl-expected (strata/status.h: Result<T>).
PUBLIC_THIRD_PARTY = {"tl/expected.hpp"}
ANGLE_INCLUDE = re.compile(r'^\s*#\s*include\s+<([^>]+)>')
MAX_FUNCTION_LINES = 80
REPEAT_LINES = 6
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def module_of_include(name):
    parts = name.split("/")
    if parts[0] == "strata" and len(parts) == 2:
        return PUBLIC_HEADERS.get(parts[1].rsplit(".", 1)[0])
    if parts[0] in LAYERS:
        return parts[0]
    return None


def check_layers(root, files):
    findings = []
    for path in files:
        if path.is_relative_to(root / "include"):
            own = PUBLIC_HEADERS.get(path.stem)
            if own is None:
                findings.append(f"{path}:1: public header '{path.name}' has no module in "
                                f"PUBLIC_HEADERS of {__file__}")
                continue
        else:
            own = path.relative_to(root / "src").parts[0]
        if own not in LAYERS:
            findings.append(f"{path}:1: module '{own}' is not in the layer list of {__file__}")
            continue
        for n, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            dep = module_of_include(m.group(1))
            if dep and LAYERS.index(dep) > LAYERS.index(own):
                findings.append(f"{path}:{n}: {own} includes {m.group(1)} from the higher "
                                f"module {dep}")
    return findings


def check_api_users(root):
    """Each quoted include of an API user is a public header, one of its own files (same folder,
    or `own` prefixed), or listed in API_USER_EXCEPTIONS."""
    findings = []
    for folder, own in API_USERS.items():
        for path in sorted((root / folder).glob("*")):
            if path.suffix not in (".cc", ".h"):
                continue
            rel = path.relative_to(root).as_posix()
            for n, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                name = m.group(1)
                public = name == "strata.h" or (name.startswith("strata/") and name.count("/") == 1)
                mine = (own and name.startswith(own)) or (not own and "/" not in name and
                                                          (path.parent / name).exists())
                if public or mine or (rel, name) in API_USER_EXCEPTIONS:
                    continue
                findings.append(f"{path}:{n}: {folder} includes the private header {name}; use "
                                f"a public header (include/strata/) or move the logic behind one")
    return findings


def check_public_includes(root):
    """Each include of a public header is a standard header (no '/' and no '.', or a C header
    ending in .h without a folder), another public header, or in PUBLIC_THIRD_PARTY."""
    findings = []
    headers = sorted((root / "include" / "strata").glob("*.h")) + [root / "include" / "strata.h"]
    for path in (h for h in headers if h.exists()):
        for n, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            quoted, angle = INCLUDE.match(line), ANGLE_INCLUDE.match(line)
            if quoted:
                name = quoted.group(1)
                if name == "strata.h" or (name.startswith("strata/") and name.count("/") == 1):
                    continue
            elif angle:
                name = angle.group(1)
                if name in PUBLIC_THIRD_PARTY or "/" not in name:
                    continue
            else:
                continue
            findings.append(f"{path}:{n}: public header includes {name}; the API carries only "
                            f"standard types, strata's own and {sorted(PUBLIC_THIRD_PARTY)} (JSON "
                            f"crosses it as text)")
    return findings


def check_function_lengths(root, files):
    """A definition opens at column 0 (clang-format keeps namespace bodies unindented) with a
    line ending in '{' that is not a namespace, class, struct, enum or initializer list, and
    closes at the next '}' in column 0."""
    findings = []
    opener = re.compile(r"^(?!namespace|class |struct |enum |union |extern |template <[^>]*>$)"
                        r"[A-Za-z_].*[)\w>&*\]]\s*(const)?\s*(noexcept)?\s*(override)?\s*\{$")
    for path in (f for f in files if f.suffix == ".cc"):
        lines = path.read_text(errors="replace").splitlines()
        start = None
        for n, line in enumerate(lines, 1):
            if start is None:
                if opener.match(line) and "=" not in line.split("(")[0]:
                    start = n
            elif line.startswith("}"):
                length = n - start + 1
                if length > MAX_FUNCTION_LINES:
                    findings.append(f"{path}:{start}: function of {length} lines (limit "
                                    f"{MAX_FUNCTION_LINES}): {lines[start - 1].strip()[:70]}")
                start = None
    return findings


def significant(line):
    s = line.strip()
    if len(s) < 8 or s.startswith(("//", "#include", "namespace", "}")):
        return None
    return re.sub(r"\s+", " ", s)


def check_repeats(root, files):
    seen = {}
    findings = []
    for path in files:
        lines = path.read_text(errors="replace").splitlines()
        kept = [(n, significant(l)) for n, l in enumerate(lines, 1)]
        kept = [(n, s) for n, s in kept if s]
        reported_until = -1
        for i in range(len(kept) - REPEAT_LINES + 1):
            window = tuple(s for _, s in kept[i:i + REPEAT_LINES])
            where = (path, kept[i][0])
            first = seen.setdefault(window, where)
            if first != where and i > reported_until:
                findings.append(f"{path}:{kept[i][0]}: {REPEAT_LINES} lines repeat "
                                f"{first[0]}:{first[1]}")
                reported_until = i + REPEAT_LINES
    return findings


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    files = sorted(p for p in (root / "src").rglob("*") if p.suffix in (".cc", ".h"))
    headers = sorted((root / "include" / "strata").glob("*.h"))
    findings = (check_layers(root, files + headers) + check_function_lengths(root, files) +
                check_repeats(root, files) + check_api_users(root) + check_public_includes(root))
    for f in findings:
        print(f)
    print(f"check_structure: {len(files)} files, {len(findings)} findings")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
