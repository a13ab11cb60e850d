# peers_cache.sh: sourced by the compile benchmarks. Installs the pinned peers (ruler, rulesync)
# from npm into a cache outside the clone, and hyperfine from Debian; sets ruler_version,
# rulesync_version and cache (the directory whose node_modules/.bin holds both).
ruler_version=0.3.44
rulesync_version=17.0.0
cache="${XDG_CACHE_HOME:-$HOME/.cache}/strata/bench-peers-ruler$ruler_version-rulesync$rulesync_version"
command -v hyperfine >/dev/null || apt-get install -y -qq hyperfine >/dev/null
if [ ! -x "$cache/node_modules/.bin/rulesync" ]; then
  mkdir -p "$cache"
  (cd "$cache" && npm init -y >/dev/null &&
   npm install --silent "@intellectronica/ruler@$ruler_version" "rulesync@$rulesync_version")
fi
