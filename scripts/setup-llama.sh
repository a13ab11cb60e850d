#!/usr/bin/env bash
# setup-llama.sh: provides the llama.cpp library strata's local sessions link against.
#
# STRATA_LLAMA_BACKEND names the backend ggml is built with besides the CPU one:
#   cpu     (the default) the CPU backend only (on macOS llama.cpp also turns Metal on by default)
#   vulkan  GGML_VULKAN=ON: needs glslc, the Vulkan headers and loader, and SPIRV-Headers' CMake
#           package (Debian 12: glslc libvulkan-dev spirv-headers; a device: mesa-vulkan-drivers
#           gives the lavapipe software driver, a GPU vendor's driver a real one). The source is
#           patched first (scripts/llama-vulkan-debian12.patch, below).
#   cuda    GGML_CUDA=ON: needs nvcc (Debian: nvidia-cuda-toolkit); untested here. ggml compiles
#           for the GPUs it detects; without one, STRATA_LLAMA_CUDA_ARCHITECTURES (e.g. "86") names
#           the compute capabilities (CMake's CMAKE_CUDA_ARCHITECTURES)
#   metal   GGML_METAL=ON: macOS only; untested here
# A backend whose toolchain is missing fails before anything is fetched, naming the missing
# package. Each backend has its own cache directory (below), so builds for several coexist.
#
# A system llama.cpp (CMake package `llama`) is used when present (only its vocabulary files are
# fetched). Otherwise the source of a pinned
# llama.cpp release is taken from the npm package node-llama-cpp (its llama/gitRelease.bundle; the
# tag is in llama/llama.cpp.info.json), cloned, and the `llama` library and llama.cpp's `common`
# library (its Jinja chat-template engine and chat-format handling) are built and installed into
# a versioned cache directory outside the repository:
#   ${STRATA_LLAMA_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/strata}/llama-<npm version>-common-<cpu key>/
#   (cpu, the name caches built before backends existed keep) or
#   .../llama-<npm version>-common-<backend>-<cpu key>/ for any other backend
#     src/      the cloned llama.cpp tree (models/ggml-vocab-*.gguf are read by tests and bench)
#     build/    the CMake build tree
#     prefix/   the install prefix (lib/cmake/llama/llama-config.cmake); llama.cpp's install rules
#               leave out common's headers, so they are copied to prefix/include/llama-common/
#               and its static libraries (llama-common, llama-common-base, cpp-httplib) to
#               prefix/lib/
#     .done     written last; its presence makes this script return at once
# The build uses GGML_NATIVE=ON (the instruction set of this CPU: AVX2/AVX-512 make prefill several
# times faster, which the benchmark measures); the cache key includes a hash of the CPU flags so a
# cache shared with another machine kind is never used there with unsupported instructions.
#
# common is built without network features (no curl, no OpenSSL, no llguidance, no subprocess):
# it needs only a C++17 compiler and the sources it vendors (nlohmann json, cpp-httplib, its own
# Jinja engine). The "common" in the cache key keeps an older cache built without it from being
# reused.
#
# A system llama.cpp is considered for the cpu backend only: for a named GPU backend the script
# always builds, since a system package's backend cannot be told from its CMake package.
#
# Prints the install prefix on stdout (the last line). Idempotent; safe to run concurrently (flock).
set -euo pipefail
NLC_VERSION=3.22.1   # node-llama-cpp; bundles llama.cpp tag v0.5.0 (llama/llama.cpp.info.json)

if [ -n "${STRATA_LLAMA_DIR:-}" ]; then echo "$STRATA_LLAMA_DIR"; exit 0; fi

backend="${STRATA_LLAMA_BACKEND:-cpu}"
script_dir=$(cd "$(dirname "$0")" && pwd)
backend_flags=()
# need TOOL PACKAGE: fails with a message naming the Debian package (or the SDK) that provides TOOL.
need() {
  command -v "$1" >/dev/null ||
    { echo "setup-llama: STRATA_LLAMA_BACKEND=$backend needs $1 ($2)" >&2; exit 2; }
}
case "$backend" in
  cpu) ;;
  vulkan)
    need glslc "Debian: apt-get install glslc"
    [ -n "${VULKAN_SDK:-}" ] || [ -f /usr/include/vulkan/vulkan.h ] || [ -f /usr/local/include/vulkan/vulkan.h ] ||
      { echo "setup-llama: STRATA_LLAMA_BACKEND=vulkan needs the Vulkan headers and loader (Debian: apt-get install libvulkan-dev; or set VULKAN_SDK)" >&2; exit 2; }
    [ -n "${VULKAN_SDK:-}" ] || compgen -G '/usr/share/cmake*/SPIRV-Headers/SPIRV-HeadersConfig.cmake' >/dev/null ||
      compgen -G '/usr/local/share/cmake*/SPIRV-Headers/SPIRV-HeadersConfig.cmake' >/dev/null ||
      compgen -G '/usr/lib/*/cmake/SPIRV-Headers/SPIRV-HeadersConfig.cmake' >/dev/null ||
      { echo "setup-llama: STRATA_LLAMA_BACKEND=vulkan needs SPIRV-Headers' CMake package (Debian: apt-get install spirv-headers; or set VULKAN_SDK)" >&2; exit 2; }
    backend_flags=(-DGGML_VULKAN=ON) ;;
  cuda)
    need nvcc "Debian: apt-get install nvidia-cuda-toolkit, or NVIDIA's CUDA toolkit with its bin/ on PATH"
    backend_flags=(-DGGML_CUDA=ON)
    # ggml builds for the GPUs it detects ("native"); a machine without one names the architectures.
    if [ -n "${STRATA_LLAMA_CUDA_ARCHITECTURES:-}" ]; then
      backend_flags+=("-DCMAKE_CUDA_ARCHITECTURES=$STRATA_LLAMA_CUDA_ARCHITECTURES")
    fi ;;
  metal)
    [ "$(uname -s)" = Darwin ] ||
      { echo "setup-llama: STRATA_LLAMA_BACKEND=metal builds on macOS only (this is $(uname -s))" >&2; exit 2; }
    need xcrun "Xcode's command line tools: xcode-select --install"
    backend_flags=(-DGGML_METAL=ON) ;;
  *)
    echo "setup-llama: STRATA_LLAMA_BACKEND=$backend is not one of cpu, vulkan, cuda, metal" >&2; exit 2 ;;
esac

cpu_key=$( (grep -m1 '^flags' /proc/cpuinfo 2>/dev/null || uname -m) | sha256sum | cut -c1-8)
cache_root="${STRATA_LLAMA_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/strata}"
# The cpu build keeps the directory name it had before backends existed (warm caches stay valid).
if [ "$backend" = cpu ]; then
  dir="$cache_root/llama-$NLC_VERSION-common-$cpu_key"
else
  dir="$cache_root/llama-$NLC_VERSION-common-$backend-$cpu_key"
fi
if [ -f "$dir/.done" ]; then echo "$dir/prefix"; exit 0; fi

mkdir -p "$dir"
exec 9>"$dir/.lock"
flock 9
if [ -f "$dir/.done" ]; then echo "$dir/prefix"; exit 0; fi

for tool in npm git cmake; do
  command -v "$tool" >/dev/null || { echo "setup-llama: $tool is required" >&2; exit 2; }
done

# A system llama.cpp (CMake package) is used as is when it also provides common (its library and
# headers in include/llama-common/, the layout this script installs); the source is still fetched
# for its vocabulary files, and prefix/ becomes a link to the system prefix.
system_prefix=""
[ "$backend" = cpu ] && for cfg in /usr/local/lib/cmake/llama /usr/lib/cmake/llama /usr/lib/*/cmake/llama; do
  if [ -f "$cfg/llama-config.cmake" ] && [ -f "$cfg/../../../include/llama-common/chat.h" ]; then
    system_prefix=$(cd "$cfg/../../.." && pwd)
    case "$cfg" in /usr/lib/*/cmake/llama) system_prefix=/usr ;; esac
    break
  fi
done

work="$dir/npm"
rm -rf "$work" "$dir/src" "$dir/build" "$dir/prefix"
mkdir -p "$work"
echo "setup-llama: fetching node-llama-cpp@$NLC_VERSION (llama.cpp source bundle)" >&2
(cd "$work" && npm pack --silent "node-llama-cpp@$NLC_VERSION" >/dev/null)
tar -xzf "$work/node-llama-cpp-$NLC_VERSION.tgz" -C "$work" \
  package/llama/gitRelease.bundle package/llama/llama.cpp.info.json
tag=$(sed -n 's/.*"tag"[[:space:]]*:[[:space:]]*"\([^"]*\)".*/\1/p' "$work/package/llama/llama.cpp.info.json")
echo "setup-llama: cloning llama.cpp $tag" >&2
git -c advice.detachedHead=false clone --quiet "$work/package/llama/gitRelease.bundle" "$dir/src"
if [ -n "$tag" ]; then git -C "$dir/src" -c advice.detachedHead=false checkout --quiet "$tag" 2>/dev/null || true; fi
echo "$tag" >"$dir/TAG"
rm -rf "$work"
# The pinned llama.cpp's Vulkan backend needs a newer glslc and newer Vulkan headers than Debian 12
# has (2023.2 and 1.3.239): two shaders (Intel Xe flash-attention decode) use
# GL_KHR_cooperative_matrix whether or not glslc supports it, and the instance setup uses
# VK_EXT_layer_settings (for the validation layer only). The patch puts the first under llama.cpp's
# own GGML_VULKAN_COOPMAT_GLSLC_SUPPORT switch (those Intel GPUs then take the generic path) and the
# second under #ifdef VK_EXT_layer_settings; with newer tools it changes nothing.
if [ "$backend" = vulkan ]; then
  git -C "$dir/src" apply "$script_dir/llama-vulkan-debian12.patch" ||
    { echo "setup-llama: scripts/llama-vulkan-debian12.patch does not apply to llama.cpp $tag: update it for the new pin" >&2; exit 1; }
fi

if [ -n "$system_prefix" ]; then
  echo "setup-llama: using the system llama.cpp in $system_prefix" >&2
  ln -s "$system_prefix" "$dir/prefix"
  touch "$dir/.done"
  echo "$dir/prefix"
  exit 0
fi

jobs=$(nproc 2>/dev/null || echo 2)
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
label=CPU
[ "$backend" = cpu ] || label="CPU and $backend"
echo "setup-llama: building the llama and common libraries ($label, $jobs jobs)" >&2
cmake -S "$dir/src" -B "$dir/build" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_INSTALL_PREFIX="$dir/prefix" -DBUILD_SHARED_LIBS=OFF -DCMAKE_POSITION_INDEPENDENT_CODE=ON \
  -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_SERVER=OFF \
  -DLLAMA_BUILD_TOOLS=OFF -DLLAMA_BUILD_APP=OFF -DLLAMA_BUILD_COMMON=ON \
  -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF -DLLAMA_LLGUIDANCE=OFF -DLLAMA_SUBPROCESS=OFF \
  -DLLAMA_BUILD_UI=OFF \
  -DGGML_NATIVE=ON -DGGML_OPENMP=OFF -DGGML_BACKEND_DL=OFF ${backend_flags[@]+"${backend_flags[@]}"} >"$dir/configure.log" 2>&1 ||
  { tail -30 "$dir/configure.log" >&2; exit 1; }
cmake --build "$dir/build" --target llama llama-common -j"$jobs" >"$dir/build.log" 2>&1 ||
  { tail -30 "$dir/build.log" >&2; exit 1; }
cmake --install "$dir/build" >"$dir/install.log" 2>&1 || { tail -30 "$dir/install.log" >&2; exit 1; }
# common's headers (with their jinja/ and parsers/ subdirectories) and static libraries.
mkdir -p "$dir/prefix/include/llama-common" "$dir/prefix/lib"
(cd "$dir/src/common" && find . -name '*.h' -o -name '*.hpp') | while read -r h; do
  install -D -m 644 "$dir/src/common/$h" "$dir/prefix/include/llama-common/$h"
done
for lib in libllama-common.a libllama-common-base.a libcpp-httplib.a; do
  found=$(find "$dir/build" -name "$lib" -print -quit)
  [ -n "$found" ] || { echo "setup-llama: $lib was not built" >&2; exit 1; }
  install -m 644 "$found" "$dir/prefix/lib/$lib"
done
touch "$dir/.done"
echo "$dir/prefix"
