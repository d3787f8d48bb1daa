#!/usr/bin/env bash
# Builds KDE syntax-highlighting 5.116 against Qt 6 into PREFIX (default
# build/_deps/ksh6). Bookworm ships it for Qt 5 only; Debian's trixie source
# tarball builds against Qt 6.4 with two adjustments (see
# reference/build-on-bookworm.md §6). When the source cannot be had, this
# script says so and exits 0: the studio then uses its built-in highlighter.
set -euo pipefail

prefix=$(realpath -m "${1:-build/_deps/ksh6}")
version=5.116.0
stamp="$prefix/.t2n-ksh-$version"

if [ -f "$stamp" ]; then
  echo "ksyntaxhighlighting: Qt 6 build present in $prefix"
  exit 0
fi

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

src_list=/etc/apt/sources.list.d/t2n-trixie-src.sources
if [ ! -f "$src_list" ]; then
  uri=$(awk '/^URIs:/{print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
  uri=${uri:-http://deb.debian.org/debian}
  printf 'Types: deb-src\nURIs: %s\nSuites: trixie\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
    "$uri" | as_root tee "$src_list" >/dev/null
  as_root apt-get update -q || true
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if ! (cd "$work" && apt-get source --download-only --tar-only "ksyntax-highlighting=$version-1") >"$work/fetch.log" 2>&1; then
  echo "ksyntaxhighlighting: source package ksyntax-highlighting=$version-1 is not available from the mirror;"
  echo "ksyntaxhighlighting: the studio will build with its built-in highlighter instead."
  tail -n 3 "$work/fetch.log" | sed 's/^/  apt: /'
  exit 0
fi

echo "ksyntaxhighlighting: building $version for Qt 6 into $prefix (about a minute)"
(
  cd "$work"
  tar xf "ksyntax-highlighting_$version.orig.tar.xz"
  cd "syntax-highlighting-$version"
  # Bookworm has ECM 5.103; the 5.116 sources only need what 5.103 provides.
  sed -i 's/find_package(ECM 5.116.0 /find_package(ECM 5.103.0 /' CMakeLists.txt
  # Translations would need Qt 6 LinguistTools; the studio does not use them.
  rm -rf poqm
  cmake -S . -B b -G Ninja -DQT_MAJOR_VERSION=6 -DBUILD_TESTING=OFF -DBUILD_QCH=OFF \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" >"$work/configure.log" 2>&1 \
    || { tail -n 20 "$work/configure.log"; exit 1; }
  cmake --build b >"$work/build.log" 2>&1 || { tail -n 30 "$work/build.log"; exit 1; }
  cmake --install b >/dev/null
)
touch "$stamp"
echo "ksyntaxhighlighting: installed into $prefix"
