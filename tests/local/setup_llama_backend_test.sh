#!/usr/bin/env bash
# setup_llama_backend_test.sh: scripts/setup-llama.sh refuses a backend it cannot build before any
# download or cache directory, naming what is missing (exit 2): an unknown STRATA_LLAMA_BACKEND,
# Metal off macOS, Vulkan without glslc and CUDA without nvcc (a PATH holding only the tools the
# script needs first).
set -u
script="$1"
cache=$(mktemp -d)
bin=$(mktemp -d)
trap 'rm -rf "$cache" "$bin"' EXIT
for tool in dirname uname; do ln -s "$(command -v "$tool")" "$bin/$tool"; done
fail=0
expect() {  # expect BACKEND MESSAGE
  local out rc
  out=$(env -u STRATA_LLAMA_DIR PATH="$bin" STRATA_LLAMA_CACHE="$cache" STRATA_LLAMA_BACKEND="$1" \
    /bin/bash "$script" 2>&1)
  rc=$?
  if [ "$rc" != 2 ] || [[ "$out" != *"$2"* ]]; then
    echo "STRATA_LLAMA_BACKEND=$1: expected exit 2 and '$2', got $rc: $out"
    fail=1
  fi
}
expect tpu "STRATA_LLAMA_BACKEND=tpu is not one of cpu, vulkan, cuda, metal"
expect metal "STRATA_LLAMA_BACKEND=metal builds on macOS only (this is Linux)"
expect vulkan "STRATA_LLAMA_BACKEND=vulkan needs glslc (Debian: apt-get install glslc)"
expect cuda "STRATA_LLAMA_BACKEND=cuda needs nvcc (Debian: apt-get install nvidia-cuda-toolkit"
if [ -n "$(ls -A "$cache")" ]; then
  echo "a refused backend left files in the cache: $(ls "$cache")"
  fail=1
fi
exit "$fail"
