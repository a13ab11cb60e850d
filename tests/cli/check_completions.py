"""check_completions.py: the completion scripts `strata completion bash|zsh|fish` generates from
the CLI definition name every subcommand `strata --help` lists and every long option each
command's own `--help` lists (the delegated commands' too, from strata-local and strata-record);
the build's generated copies (<build>/completions) match a fresh generation; and the man pages
exist for each command when help2man built them.

Usage: check_completions.py STRATA_BINARY SOURCE_DIR BUILD_DIR. Exit 1 with one line per gap.
"""
import pathlib
import re
import subprocess
import sys

SHELLS = {"bash": "strata.bash", "zsh": "_strata", "fish": "strata.fish"}


def help_text(binary, *args):
    return subprocess.run([binary, *args, "--help"], capture_output=True, text=True).stdout


def options_in_help(text):
    # Long options as CLI11 prints them in an "Options:" block: "  -x, --name TYPE  help".
    block = text.split("Options:", 1)[-1]
    opts = set()
    for line in block.splitlines():
        m = re.match(r"^\s+(?:-\w,\s*)?(--[a-z][a-z0-9-]*)", line)
        if m:
            opts.add(m.group(1))
    opts.discard("--help")
    return sorted(opts)


def mentions(shell, script, cmd, opt):
    if shell == "fish":
        return re.search(rf"__fish_seen_subcommand_from {cmd}' -l {opt[2:]}\b", script)
    if shell == "bash":
        line = re.search(rf"^\s+{cmd}\) opts=\"([^\"]*)\"", script, re.M)
        return line and opt in line.group(1).split()
    block = re.search(rf"^\s+{cmd}\)\n(.*?);;", script, re.M | re.S)
    return block and re.search(rf"'\*?{re.escape(opt)}[=\[]", block.group(1))


def main():
    binary, source, build = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
    section = help_text(binary).split("Subcommands:")[-1]
    commands = re.findall(r"^\s{2}([a-z]+)\s", section, re.M)
    gaps = []
    if not commands:
        gaps.append("no subcommands found in `strata --help`")
    scripts = {}
    for shell in SHELLS:
        run = subprocess.run([binary, "completion", shell], capture_output=True, text=True)
        if run.returncode != 0 or not run.stdout:
            gaps.append(f"`strata completion {shell}` failed: {run.stderr.strip()}")
        scripts[shell] = run.stdout
    checked = 0
    for cmd in commands:
        opts = options_in_help(help_text(binary, cmd))
        for shell, script in scripts.items():
            if not re.search(rf"\b{cmd}\b", script):
                gaps.append(f"{shell}: missing subcommand {cmd}")
            for opt in opts:
                checked += 1
                if not mentions(shell, script, cmd, opt):
                    gaps.append(f"{shell}: `strata {cmd}` option {opt} missing")
    if checked < 60:
        gaps.append(f"only {checked} command options checked: the help parsing found too few")
    generated = build / "completions"
    if generated.exists():
        for shell, name in SHELLS.items():
            built = generated / name
            if not built.exists() or built.read_text() != scripts[shell]:
                gaps.append(f"{built}: differs from `strata completion {shell}` (rebuild)")
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
