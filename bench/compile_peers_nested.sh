#!/usr/bin/env bash
# compile_peers_nested.sh: whole-process time and peak memory of `strata compile` beside
# `ruler apply --nested` (@intellectronica/ruler) and `rulesync generate` (rulesync) on the same
# tree with nested instruction files (the pydantic-ai corpus tree: a root AGENTS.md and five nested
# ones) and the same three targets (Claude Code, Cursor, Copilot). Each tool gets the same text in
# its own source layout: strata the AGENTS.md files where they are, ruler a .ruler/AGENTS.md in each
# of those directories, rulesync one root rule plus one rule per nested file with `globs: DIR/**`.
# Prints the hyperfine medians, the ratios to strata, and the median peak RSS (GNU time, RUNS
# runs). Peers are pinned and cached outside the clone (as bench/compile_peers.sh).
#   bench/compile_peers_nested.sh [RUNS]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-20}
. "$root/bench/peers_cache.sh"
strata="${STRATA_BIN:-${STRATA_BUILD_DIR:-$root/build}/tools/strata/strata}"
corpus="${STRATA_CORPUS:-$root/../shared/corpus}"
tree="$corpus/instructions/pydantic__pydantic-ai"
[ -f "$tree/AGENTS.md" ] || { echo "no corpus tree at $tree (set STRATA_CORPUS)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

mapfile -t files < <(cd "$tree" && find . -name AGENTS.md -printf '%P\n' | sort)
for d in strata ruler rulesync; do mkdir -p "$work/$d"; git -C "$work/$d" init -q; done
printf 'targets = ["claude-code", "cursor", "copilot"]\n' > "$work/strata/strata.toml"
mkdir -p "$work/rulesync/.rulesync/rules"
for f in "${files[@]}"; do
  dir=$(dirname "$f")
  mkdir -p "$work/strata/$dir" "$work/ruler/$dir/.ruler"
  cp "$tree/$f" "$work/strata/$f"
  cp "$tree/$f" "$work/ruler/$dir/.ruler/AGENTS.md"
  if [ "$dir" = "." ]; then
    { printf -- '---\nroot: true\ntargets: ["*"]\ndescription: "project"\nglobs: ["**/*"]\n---\n'
      cat "$tree/$f"; } > "$work/rulesync/.rulesync/rules/overview.md"
  else
    name=$(echo "$dir" | tr / -)
    { printf -- '---\nroot: false\ntargets: ["*"]\ndescription: "%s"\nglobs: ["%s/**"]\n---\n' "$dir" "$dir"
      cat "$tree/$f"; } > "$work/rulesync/.rulesync/rules/$name.md"
  fi
done

# Named with --target: Cursor and Copilot read AGENTS.md themselves, so a plain compile writes no
# copy for them (docs/targets.md); the peers write all three, and so does strata when named.
cmd_strata="$strata compile --root $work/strata --target claude-code,cursor,copilot"
cmd_ruler="$cache/node_modules/.bin/ruler apply --project-root $work/ruler --nested --agents claude,cursor,copilot --no-mcp --no-gitignore --no-backup --no-skills"
cmd_rulesync="bash -c 'cd $work/rulesync && $cache/node_modules/.bin/rulesync generate -s -t claudecode,cursor,copilot -f rules'"
# One run each first: every tool must succeed on this tree.
eval "$cmd_strata" >/dev/null
eval "$cmd_ruler" >/dev/null
eval "$cmd_rulesync" >/dev/null
echo "outputs: strata $(cd "$work/strata" && git status --porcelain -uall | grep -Evc 'AGENTS\.md$|strata\.toml$') files," \
     "ruler $(cd "$work/ruler" && git status --porcelain -uall | grep -vc '\.ruler/') files," \
     "rulesync $(cd "$work/rulesync" && git status --porcelain -uall | grep -vc '\.rulesync/') files"

hyperfine -N --warmup 3 --runs "$runs" --export-json "$work/result.json" \
  -n strata "$cmd_strata" -n ruler "$cmd_ruler" -n rulesync "$cmd_rulesync" >/dev/null

peak() {  # median max RSS in KiB over RUNS runs
  for _ in $(seq 1 "$runs"); do
    eval "/usr/bin/time -f %M $1" 2>&1 >/dev/null | tail -1
  done | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}
rss_strata=$(peak "$cmd_strata")
rss_ruler=$(peak "$cmd_ruler")
rss_rulesync=$(peak "/usr/bin/env bash -c 'cd $work/rulesync && $cache/node_modules/.bin/rulesync generate -s -t claudecode,cursor,copilot -f rules'")

node -e '
const r = require(process.argv[1]).results;
const rss = {strata: +process.argv[2], ruler: +process.argv[3], rulesync: +process.argv[4]};
const med = n => r.find(x => x.command === n).median * 1000;
// CPU time (user + system, mean over the runs): what a loaded machine inflates least, since
// waiting for a core is not counted.
const cpu = n => { const x = r.find(y => y.command === n); return (x.user + x.system) * 1000; };
const s = med("strata"), c = cpu("strata");
console.log("| command | median ms | time ratio to strata | CPU ms (user+sys) | CPU ratio to strata | peak RSS MiB | memory ratio to strata |");
console.log("|---|---:|---:|---:|---:|---:|---:|");
for (const n of ["strata", "ruler", "rulesync"]) {
  console.log(`| ${n} | ${med(n).toFixed(2)} | ${(med(n) / s).toFixed(1)}x | ${cpu(n).toFixed(2)} | ${(cpu(n) / c).toFixed(1)}x | ${(rss[n] / 1024).toFixed(1)} | ${(rss[n] / rss.strata).toFixed(1)}x |`);
}
' "$work/result.json" "$rss_strata" "$rss_ruler" "$rss_rulesync"
