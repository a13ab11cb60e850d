#!/usr/bin/env python3
"""discover_compare.py: times `strata discover --compare` beside plain `strata discover` and
`find` (the floor), with each process's peak RSS, over two trees:

  - the pydantic-ai instruction tree of the shared corpus (copied to a scratch directory with a
    `git init`, so every client finds the same project root; the corpus itself is never changed),
  - a generated monorepo of 100,000 files (1,000 instruction files: AGENTS.md, CLAUDE.md,
    GEMINI.md, .goosehints, .claude/rules, .cursor/rules, .github/instructions).

Usage: discover_compare.py [--strata PATH] [--corpus DIR] [--runs N] [--keep]
Prints one table per tree: median wall time over N runs (default 5), the ratio to find, and peak
RSS in KiB of the child process (GNU time's %M, one extra run). Exit 1 if two runs of --compare --json differ.
"""
import argparse
import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent


def run(args, cwd=None):
    """Runs args with stdout captured; returns (seconds, max RSS KiB, stdout bytes).

    posix_spawn (vfork-like in glibc) rather than fork: a forked child's ru_maxrss would start at
    the Python parent's resident size, hiding the child's own peak.
    """
    with tempfile.TemporaryFile() as out:
        actions = [(os.POSIX_SPAWN_DUP2, out.fileno(), 1),
                   (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0)]
        start = time.perf_counter()
        old = os.getcwd()
        if cwd:
            os.chdir(cwd)
        try:
            pid = os.posix_spawnp(args[0], args, os.environ, file_actions=actions)
        finally:
            os.chdir(old)
        _, _, usage = os.wait4(pid, 0)
        seconds = time.perf_counter() - start
        out.seek(0)
        return seconds, usage.ru_maxrss, out.read()


def peak_rss_kib(args, cwd=None):
    """The child's own peak RSS, from GNU time (which forks it from a small process); -1 without
    /usr/bin/time."""
    if not os.path.exists("/usr/bin/time"):
        return -1
    with tempfile.NamedTemporaryFile(mode="r") as report:
        subprocess.run(["/usr/bin/time", "-f", "%M", "-o", report.name, *args], cwd=cwd,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        text = report.read().strip().splitlines()
        return int(text[-1]) if text else -1


def measure(args, runs, cwd=None):
    times, out = [], b""
    run(args, cwd)  # warm the page cache
    for _ in range(runs):
        t, _, out = run(args, cwd)
        times.append(t * 1000)
    return statistics.median(times), peak_rss_kib(args, cwd), out


def generate_monorepo(root: pathlib.Path):
    """100,000 files: 100 packages x 10 modules; an instruction file every 100 files."""
    (root / ".git").mkdir(parents=True)
    (root / ".git/HEAD").write_text("ref: refs/heads/main\n")
    (root / "AGENTS.md").write_text("# Mono\n\n" + "Root rule.\n" * 400)
    (root / "CLAUDE.md").symlink_to("AGENTS.md")
    (root / ".goosehints").write_text("@AGENTS.md\n")
    (root / ".claude/rules").mkdir(parents=True)
    (root / ".claude/rules/style.md").write_text("style\n")
    (root / ".claude/rules/ts.md").write_text("---\npaths:\n  - \"**/*.ts\"\n---\nts\n")
    (root / ".cursor/rules").mkdir(parents=True)
    (root / ".cursor/rules/always.mdc").write_text("---\nalwaysApply: true\n---\nalways\n")
    (root / ".github/instructions").mkdir(parents=True)
    (root / ".github/copilot-instructions.md").write_text("copilot\n")
    files, instructions = 9, 9
    names = ["AGENTS.md", "CLAUDE.md", "GEMINI.md", ".goosehints"]
    for p in range(100):
        for m in range(10):
            d = root / f"packages/pkg{p:03d}/mod{m:02d}"
            d.mkdir(parents=True)
            name = names[(p + m) % len(names)]
            (d / name).write_text(f"# pkg{p} mod{m}\n" + "Module rule.\n" * 40)
            files += 1
            instructions += 1
            for f in range(99):
                (d / f"file{f:02d}.py").write_text("x = 1\n")
                files += 1
    return files, instructions


def table(title, rows):
    print(f"\n{title}")
    print(f"{'command':44s} {'median ms':>10s} {'vs find':>8s} {'peak RSS KiB':>13s}")
    floor = rows[0][1]
    for name, ms, rss in rows:
        print(f"{name:44s} {ms:10.1f} {ms / floor:7.2f}x {rss:13d}")


def bench_tree(strata, root, deep, runs, find_names):
    find_args = ["find", str(root), "("]
    for i, n in enumerate(find_names):
        find_args += (["-o"] if i else []) + ["-name", n]
    find_args.append(")")
    rows = []
    ms, rss, _ = measure(find_args, runs)
    rows.append(("find (floor)", ms, rss))
    for label, args in [
        ("strata discover (root)", [strata, "discover", "--no-global", str(root)]),
        ("strata discover (deep dir)", [strata, "discover", "--no-global", str(deep)]),
        ("strata discover --all --json (root)",
         [strata, "discover", "--no-global", "--all", "--json", str(root)]),
        ("strata discover --compare (root)", [strata, "discover", "--no-global", "--compare", str(root)]),
        ("strata discover --compare (deep dir)",
         [strata, "discover", "--no-global", "--compare", str(deep)]),
        ("strata discover --compare --json (deep dir)",
         [strata, "discover", "--no-global", "--compare", "--json", str(deep)]),
    ]:
        ms, rss, _ = measure(args, runs)
        rows.append((label, ms, rss))
    a = run([strata, "discover", "--no-global", "--compare", "--json", str(deep)])[2]
    b = run([strata, "discover", "--no-global", "--compare", "--json", str(deep)])[2]
    return rows, a == b and len(a) > 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--strata", default=str(HERE.parent / "build/tools/strata/strata"))
    ap.add_argument("--corpus", default=str(HERE.parent.parent.parent / "shared/corpus"))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--keep", action="store_true")
    args = ap.parse_args()
    strata = str(pathlib.Path(args.strata).resolve())
    scratch = pathlib.Path(tempfile.mkdtemp(prefix="strata-compare-bench-"))
    names = ["AGENTS.md", "CLAUDE.md", "GEMINI.md", ".goosehints", "*.mdc", "*.instructions.md",
             "AGENTS.override.md", "CLAUDE.local.md"]
    stable = True
    try:
        corpus = pathlib.Path(args.corpus) / "instructions/pydantic__pydantic-ai"
        if corpus.is_dir():
            tree = scratch / "pydantic-ai"
            shutil.copytree(corpus, tree, symlinks=True)
            for path in [tree, *tree.rglob("*")]:
                if not path.is_symlink():
                    path.chmod(0o755 if path.is_dir() else 0o644)
            subprocess.run(["git", "init", "-q", str(tree)], check=True)
            deep = tree / "pydantic_ai_slim/pydantic_ai/models"
            rows, same = bench_tree(strata, tree, deep, args.runs, names)
            stable = stable and same
            table("pydantic-ai corpus tree (%d files)" % sum(1 for _ in tree.rglob("*")), rows)
            print(run([strata, "discover", "--no-global", "--compare", str(deep)])[2].decode())
        else:
            print(f"corpus not found at {corpus}: skipped")
        mono = scratch / "mono"
        t0 = time.perf_counter()
        files, instructions = generate_monorepo(mono)
        print(f"\nmonorepo: {files} files, {instructions} instruction files "
              f"(generated in {time.perf_counter() - t0:.1f} s)")
        rows, same = bench_tree(strata, mono, mono / "packages/pkg042/mod07", args.runs, names)
        stable = stable and same
        table("generated monorepo", rows)
        print(f"\nruns per row: {args.runs} (median); --compare --json byte-identical across runs: "
              f"{'yes' if stable else 'NO'}")
    finally:
        if args.keep:
            print(f"trees kept in {scratch}")
        else:
            shutil.rmtree(scratch, ignore_errors=True)
    return 0 if stable else 1


if __name__ == "__main__":
    sys.exit(main())
