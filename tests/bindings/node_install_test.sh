#!/usr/bin/env bash
# node_install_test.sh BUILD_DIR SOURCE_DIR WORK_DIR CMAKE VOCAB_DIR: installs BUILD_DIR into
# WORK_DIR/prefix, packs SOURCE_DIR/node with `npm pack`, installs the tarball into a fresh
# folder (its addon built from source there against the installed libstrata, found through
# pkg-config), runs the package's tests with `node --test` against the installed package, then
# type-checks the TypeScript example harness with tsc against the Anthropic and OpenAI SDKs
# (versions pinned in scripts/setup-clients.sh) and runs it. npm packages come from npm's cache or
# registry; nothing else is downloaded (node's headers are the local ones).
set -euo pipefail
build=$1 src=$2 work=$3 cmake=$4 vocab=${5:-}
rm -rf "$work"
mkdir -p "$work/pack" "$work/app"
# --strip: installed as a package ships it, without the build's debug information (most of its size).
"$cmake" --install "$build" --prefix "$work/prefix" --strip >"$work/install.log"
libdir=$(dirname "$(find "$work/prefix" -name 'libstrata.so' | head -1)")
export PKG_CONFIG_PATH="$libdir/pkgconfig"
unset STRATA_PREFIX STRATA_INCLUDE_DIR STRATA_LIB_DIR

pin() { grep -o "\"\?$1@[0-9][^ \"]*" "$src/scripts/setup-clients.sh" | head -1 | tr -d '"'; }
anthropic_sdk=$(pin @anthropic-ai/sdk)
openai_sdk=$(pin openai)

(cd "$src/node" && npm pack --silent --pack-destination "$work/pack" >"$work/pack.log")
tarball=$(ls "$work/pack"/strata-*.tgz)
cd "$work/app"
echo '{"name": "strata-example", "private": true}' >package.json
npm install --no-audit --no-fund --loglevel=error "$tarball" typescript@5.9.3 @types/node@20.19.43 \
  "$anthropic_sdk" "$openai_sdk" >"$work/npm-install.log" 2>&1 || { cat "$work/npm-install.log" >&2; exit 1; }
addon="$work/app/node_modules/strata/build/Release/strata.node"
[ -f "$addon" ] || { echo "the addon was not built at install: $addon" >&2; exit 1; }
# The addon finds libstrata through its RUNPATH, without LD_LIBRARY_PATH.
readelf -d "$addon" | grep -q "R.*PATH.*$libdir" || { echo "no RUNPATH to $libdir in $addon" >&2; exit 1; }

# 1. The package's tests against the installed package.
cp -r "$src/node/test" "$work/app/test"
STRATA_NODE_PACKAGE="$work/app/node_modules/strata" STRATA_SOURCE_DIR="$src" STRATA_VOCAB_DIR="$vocab" \
  node --test "$work/app/test/"

# 2. The example harness: type-checked, compiled, run.
cp node_modules/strata/examples/harness.ts .
cp "$src/node/examples/tsconfig.json" .
npx --no-install tsc -p tsconfig.json
# With VOCAB_DIR "" the harness counts with the "estimate" tokenizer: it runs in every build.
out=$(node harness.js "$src" "$vocab" 3)
echo "$out"
[ "$(grep -c '^turn [0-9]: anthropic .* hit ratio .* openai .* hit ratio' <<<"$out")" = 3 ] ||
  { echo "expected 3 turn lines" >&2; exit 1; }
# Turn 1 fills the caches; turns 2 and 3 read from both (turn 3 after an instruction change).
grep -q '^turn 1: anthropic .* hit ratio 0\.000 .* openai .* hit ratio 0\.000' <<<"$out"
[ "$(grep -cE '^turn [23]: anthropic .* hit ratio 0\.[0-9]*[1-9][0-9]* .* openai .* hit ratio 0\.[0-9]*[1-9]' <<<"$out")" = 2 ] ||
  { echo "turns 2 and 3 should read from both caches" >&2; exit 1; }
# 3. The example of docs/use-from-typescript.md, as written: type-checked against the SDKs, run.
awk '$0 == "```ts" {on = 1; next} on && $0 == "```" {exit} on {print}' \
  "$src/docs/use-from-typescript.md" >docs_example.ts
[ -s docs_example.ts ] || { echo "no ts block in docs/use-from-typescript.md" >&2; exit 1; }
sed 's/"harness.ts"/"docs_example.ts"/' "$src/node/examples/tsconfig.json" >tsconfig.docs.json
npx --no-install tsc -p tsconfig.docs.json
out=$(node docs_example.js)
echo "$out"
[ "$(grep -cE '^[123] ' <<<"$out")" = 3 ] || { echo "the docs example should print 3 turns" >&2; exit 1; }
grep -qE '^2 0\.[0-9]*[1-9]' <<<"$out" || { echo "docs example: turn 2 should read from the cache" >&2; exit 1; }
rm -rf "$work/prefix"  # a passing run keeps its logs, not its copy of the install
echo "node_install_test: passed"
