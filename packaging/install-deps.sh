#!/usr/bin/env bash
# Installs every Debian package t2n needs (see DESIGN.md, "Dependencies") and
# builds KSyntaxHighlighting for Qt 6 into a prefix inside the build tree.
#
#   packaging/install-deps.sh [BUILD_DIR]     (default BUILD_DIR: build)
#
# Idempotent: when everything is present it runs no apt command at all and
# returns in well under a second. `apt-get update` runs only when something
# must be installed. Needs root (or sudo) only in that case.
set -euo pipefail

build_dir=${1:-build}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

packages=(
  # toolchain
  build-essential cmake ninja-build pkg-config ccache git xz-utils dpkg-dev
  # libFuzzer for the reader's fuzz test
  clang libclang-rt-14-dev
  # engine; Debian's LibTorch calls whatever libblas.so.3 the alternatives
  # system names: without OpenBLAS that is the netlib reference BLAS, and every
  # forward (trace, check, studio, fixtures) runs ~48x slower
  libtorch-dev libopenblas0-pthread libarchive-dev nlohmann-json3-dev libcli11-dev libdtl-dev
  libfmt-dev libspdlog-dev zlib1g-dev
  # studio
  qt6-base-dev qt6-svg-dev qt6-tools-dev libgraphviz-dev extra-cmake-modules
  xvfb xauth
  # the Python module t2n (app/python/; built when pybind11 is found)
  python3-dev pybind11-dev python3-pybind11
  # fixtures and independent test readers (never needed by the product)
  python3-torch python3-torchvision python3-torchaudio python3-numpy
)

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${#missing[@]} missing package(s): ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  as_root apt-get update -q
  as_root apt-get install -y -q --no-install-recommends "${missing[@]}"
else
  echo "install-deps: all ${#packages[@]} Debian packages present"
fi

# OpenBLAS takes over libblas.so.3 in the alternatives' auto mode; an
# administrator's manual choice is kept, but said, since it costs every forward.
blas_alt=libblas.so.3-$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)
blas=$(update-alternatives --query "$blas_alt" 2>/dev/null | sed -n 's/^Value: //p')
case "$blas" in
  *openblas*|*blis*|*mkl*) echo "install-deps: BLAS for LibTorch: $blas" ;;
  *)
    echo "install-deps: WARNING: libblas.so.3 is ${blas:-unknown}, not an optimised BLAS;" \
         "every model forward will be many times slower." >&2
    echo "install-deps: fix with: update-alternatives --set $blas_alt" \
         "/usr/lib/${blas_alt#libblas.so.3-}/openblas-pthread/libblas.so.3" >&2 ;;
esac

"$here/build-ksyntaxhighlighting.sh" "$build_dir/_deps/ksh6"
