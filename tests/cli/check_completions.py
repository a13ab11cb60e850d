"""check_completions.py: the bash, zsh and fish completions name every subcommand `strata --help`
lists and every long option of `strata compile --help` and `strata adopt --help`, and the man
pages exist for each command when help2man built them.

Usage: check_completions.py STRATA_BINARY SOURCE_DIR BUILD_DIR. Exit 1 with one line per gap.
"""
import pathlib
import re
import subprocess
import sys


def help_text(binary, *args):
    return subprocess.run([binary, *args, "--help"], capture_output=True, text=True).stdout


def main():
    binary, source, build = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
    top = help_text(binary)
    section = top.split("Subcommands:")[-1]
    commands = re.findall(r"^\s{2}([a-z]+)\s", section, re.M)
    gaps = []
    if not commands:
        gaps.append("no subcommands found in `strata --help`")
    files = {name: (source / "tools/strata/completions" / name).read_text()
             for name in ("strata.bash", "_strata", "strata.fish")}
    for cmd in commands:
        for name, text in files.items():
            if not re.search(rf"\b{cmd}\b", text):
                gaps.append(f"{name}: missing subcommand {cmd}")
    for cmd in ("compile", "adopt"):
        for opt in sorted(set(re.findall(r"(--[a-z][a-z-]+)", help_text(binary, cmd)))):
            if opt in ("--help", "--watch-limit", "--watch-timeout-ms"):
                continue
            if opt not in files["strata.bash"]:
                gaps.append(f"strata.bash: `strata {cmd}` option {opt} missing")
            if opt not in files["_strata"]:
                gaps.append(f"_strata: `strata {cmd}` option {opt} missing")
            if f"-l {opt[2:]}" not in files["strata.fish"]:
                gaps.append(f"strata.fish: `strata {cmd}` option {opt} missing")
    man = build / "man"
    if man.exists():
        for cmd in ("compile", "adopt", "audit", "discover", "assemble", "mcp", "usage", "replay", "explain"):
            page = man / f"strata-{cmd}.1"
            if not page.exists() or ".TH" not in page.read_text():
                gaps.append(f"{page}: no man page")
    for g in gaps:
        print(g)
    return 1 if gaps else 0


if __name__ == "__main__":
    sys.exit(main())
