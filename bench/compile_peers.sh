#!/usr/bin/env bash
# compile_peers.sh: whole-process time of `strata compile` beside the peers `ruler apply`
# (@intellectronica/ruler) and `rulesync generate` (rulesync), on the same instruction text and the
# same seven targets they share (Claude Code, Cursor, Copilot, Gemini CLI, Cline, Junie, Kiro),
# then the time to compile a 2,100-line source to all of strata's targets. Prints a table of
# medians (hyperfine) and the peer/strata ratios. Peers are installed from npm at pinned versions
# into a cache directory outside the clone.
#   bench/compile_peers.sh [RUNS]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-30}
. "$root/bench/peers_cache.sh"
build="${STRATA_BUILD_DIR:-$root/build}"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j"$(nproc)" --target strata_cli >/dev/null
strata="$build/tools/strata/strata"

corpus="${STRATA_CORPUS:-$root/../shared/corpus}"  # the test corpus, when checked out beside the clone
text="$corpus/instructions/pydantic__pydantic-ai/AGENTS.md"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ ! -f "$text" ]; then  # no corpus: strata's own AGENTS.md is the text
  text="$root/AGENTS.md"
fi

mkdir -p "$work/strata" "$work/ruler/.ruler" "$work/rulesync/.rulesync/rules"
for d in strata ruler rulesync; do git -C "$work/$d" init -q; done
cp "$text" "$work/strata/AGENTS.md"
printf 'targets = ["claude-code", "cursor", "copilot", "gemini-cli", "cline", "junie", "kiro"]\n' \
  > "$work/strata/strata.toml"
cp "$text" "$work/ruler/.ruler/AGENTS.md"
{ printf -- '---\nroot: true\ntargets: ["*"]\ndescription: "project instructions"\nglobs: ["**/*"]\n---\n'
  cat "$text"; } > "$work/rulesync/.rulesync/rules/overview.md"

big="$work/big"
mkdir -p "$big"
for i in $(seq 1 20); do cat "$text"; done > "$work/repeated.md"
{ echo "# Large project"; echo; echo "<!-- strata:head -->"
  sed -n '1,2003p' "$work/repeated.md"
  echo "<!-- strata:config -->"; echo "## Cursor"; echo "Cursor only."
  echo "<!-- strata:tail -->"; for i in $(seq 1 90); do echo "- check $i"; done
} > "$work/big.md"
sed -n '1,2100p' "$work/big.md" > "$big/AGENTS.md"
printf 'targets = ["claude-code", "cursor", "copilot", "gemini-cli", "codex", "cline", "zed", "junie", "kiro", "amazon-q", "aider"]\n' > "$big/strata.toml"
lines=$(wc -l < "$big/AGENTS.md")

hyperfine -N --warmup 3 --runs "$runs" --export-json "$work/result.json" \
  -n strata "$strata compile --root $work/strata --target claude-code,cursor,copilot,gemini-cli,cline,junie,kiro" \
  -n ruler "$cache/node_modules/.bin/ruler apply --project-root $work/ruler --agents claude,cursor,copilot,gemini-cli,cline,junie,kiro --no-mcp --no-gitignore --no-backup --no-skills" \
  -n rulesync "bash -c 'cd $work/rulesync && $cache/node_modules/.bin/rulesync generate -s -t claudecode,cursor,copilot,geminicli,cline,junie,kiro -f rules'" \
  -n "strata-2100-lines" "$strata compile --root $big" >/dev/null

node -e '
const r = require(process.argv[1]).results;
const med = n => r.find(x => x.command === n).median * 1000;
const s = med("strata");
console.log("| command | median ms | ratio to strata |");
console.log("|---|---:|---:|");
for (const n of ["strata", "ruler", "rulesync"]) console.log(`| ${n} | ${med(n).toFixed(2)} | ${(med(n) / s).toFixed(1)}x |`);
console.log(`| strata, ${process.argv[2]}-line source to 11 targets | ${med("strata-2100-lines").toFixed(2)} | |`);
' "$work/result.json" "$lines"
