#!/usr/bin/env bash
# CTest packaging.deb: builds the Debian package from the build tree exactly as
# `cmake --build BUILD --target package` does (CPack's DEB generator), then
# checks it from the outside: its control fields (dependencies found by
# dpkg-shlibdeps), its file list (both programs, desktop entry, metainfo, icon,
# both man pages, the private KSyntaxHighlighting), that the unpacked programs
# run and find their libraries in the package rather than in the build tree,
# that the Python module imports from the package and exports (when built),
# that each man page documents every flag its program's --help lists, and,
# when the tools are installed, appstreamcli, desktop-file-validate and lintian.
#
#   check-deb.sh BUILD_DIR with-ksh|without-ksh
set -euo pipefail

build=$(realpath "$1")
work="$build/package-check"
rm -rf "$work"
mkdir -p "$work"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
step() { echo "--- $*"; }

seconds_since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN {printf "%.1f", b - a}'; }
t0=$(date +%s.%N)
cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work" >"$work/cpack.log" 2>&1 ||
  { cat "$work/cpack.log"; exit 1; }
deb=$(ls "$work"/*.deb)
echo "built $(basename "$deb") ($(stat -c %s "$deb") bytes) in $(seconds_since "$t0") s"

step "control fields"
info=$(dpkg-deb -I "$deb")
echo "$info" | grep -E '^ (Package|Version|Architecture|Depends|Recommends):'
depends=$(echo "$info" | sed -n 's/^ Depends: //p')
# Each comes from a NEEDED entry of one of the programs, not from a hand list.
for dep in libc6 libstdc++6 libtorch1.13 libarchive13 libfmt9 libqt6widgets6 libqt6svg6 libgvc6; do
  tr ',' '\n' <<<"$depends" | awk '{print $1}' | grep -qxF "$dep" || fail "Depends lacks $dep"
done

step "file list"
contents=$(dpkg-deb -c "$deb" | awk '{print $6}')
has_ksh=0
[ "${2:-}" = with-ksh ] && has_ksh=1
expected=(
  ./usr/bin/t2n ./usr/bin/t2n-studio
  ./usr/share/applications/org.t2n.studio.desktop
  ./usr/share/metainfo/org.t2n.studio.metainfo.xml
  ./usr/share/icons/hicolor/scalable/apps/org.t2n.studio.svg
  ./usr/share/man/man1/t2n.1.gz ./usr/share/man/man1/t2n-studio.1.gz
  ./usr/share/doc/t2n/copyright
)
for f in "${expected[@]}"; do
  grep -qxF "$f" <<<"$contents" || fail "package lacks $f"
done
# KSyntaxHighlighting for Qt 6, in the package's private library folder.
ksh=$(grep -E '^\./usr/lib/([a-z0-9_-]+/)?t2n/libKF5SyntaxHighlighting\.so\.5$' <<<"$contents" || true)
[ "$has_ksh" -eq 0 ] || [ -n "$ksh" ] || fail "package lacks the private libKF5SyntaxHighlighting.so.5"
echo "$(grep -vc '/$' <<<"$contents") files"

step "unpacked programs"
root="$work/root"
dpkg-deb -x "$deb" "$root"
"$root/usr/bin/t2n" --version || fail "t2n --version"
if [ "$has_ksh" -gt 0 ]; then
  lib=$(ldd "$root/usr/bin/t2n-studio" | awk '/libKF5SyntaxHighlighting/ {print $3}')
  [ "$(realpath "$lib")" = "$(realpath "$root/$ksh")" ] ||
    fail "t2n-studio loads KSyntaxHighlighting from '$lib', not from the package"
fi
QT_QPA_PLATFORM=offscreen "$root/usr/bin/t2n-studio" --help >/dev/null || fail "t2n-studio --help"
! ldd "$root/usr/bin/t2n-studio" "$root/usr/bin/t2n" | grep "not found" || fail "unresolved libraries"

# The Python module, when this tree builds it: imported by Debian's Python
# from the unpacked package alone (not from the build tree: a clean
# environment, another working directory), its extension resolving every
# library outside the build tree, and one small export.
if [ -d "$build/python/t2n" ]; then
  step "python module"
  site=$root/usr/lib/python3/dist-packages
  engine=$(ls "$site"/t2n/_engine.cpython-*.so 2>/dev/null || true)
  [ -n "$engine" ] || fail "package lacks the extension t2n/_engine.cpython-*.so"
  for f in __init__.py _errors.py _model.py export.py inference_target.py inputs.py; do
    grep -qxF "./usr/lib/python3/dist-packages/t2n/$f" <<<"$contents" || fail "package lacks t2n/$f"
  done
  if [ -n "$engine" ]; then
    ! ldd "$engine" | grep -E "not found|$build" || fail "the extension resolves libraries in the build tree or not at all"
    ! readelf -d "$engine" | grep -E "R(UN)?PATH" || fail "the extension has a RUNPATH"
  fi
  (cd "$work" && env -i HOME="$work" PYTHONPATH="$site" /usr/bin/python3 -c '
import os, sys, torch, t2n
assert t2n.__file__.startswith(sys.argv[1]), t2n.__file__
out = t2n.export_model_to_nnef(torch.nn.Linear(4, 2), torch.randn(1, 4), "lin.nnef.tgz",
                               t2n.TractNNEF.latest())
assert out.is_file(), out
os.remove(out)
print("import t2n from the package:", t2n.__file__, "version", t2n.__version__)
' "$site") || fail "the packaged t2n does not import or export"
fi

step "man pages hold every flag of --help"
# help FLAGS: each --long-flag that `$@ --help` prints.
flags() { "$@" --help | grep -oE -- '--[a-z][a-z0-9-]+' | sort -u; }
check_page() {
  local page=$1; shift
  local text
  text=$(zcat "$page" | sed 's/\\-/-/g')
  for f in $(flags "$@"); do
    grep -qF -- "$f" <<<"$text" || fail "$(basename "$page") lacks $f"
  done
}
check_page "$root/usr/share/man/man1/t2n.1.gz" "$root/usr/bin/t2n"
for sub in $("$root/usr/bin/t2n" --help | awk '/^Subcommands:$/ {on=1; next} /^$/ {on=0} on {print $1}'); do
  grep -qF ".SS \"t2n $sub\"" <(zcat "$root/usr/share/man/man1/t2n.1.gz") || fail "t2n.1 lacks the $sub command"
  check_page "$root/usr/share/man/man1/t2n.1.gz" "$root/usr/bin/t2n" "$sub"
done
QT_QPA_PLATFORM=offscreen check_page "$root/usr/share/man/man1/t2n-studio.1.gz" "$root/usr/bin/t2n-studio"

step "desktop metadata"
if command -v appstreamcli >/dev/null; then
  appstreamcli validate --no-net "$root/usr/share/metainfo/org.t2n.studio.metainfo.xml" ||
    fail "appstreamcli validate"
else
  echo "appstreamcli not installed: skipped"
fi
if command -v desktop-file-validate >/dev/null; then
  desktop-file-validate "$root/usr/share/applications/org.t2n.studio.desktop" ||
    fail "desktop-file-validate"
else
  echo "desktop-file-validate not installed: skipped"
fi

step "lintian"
if command -v lintian >/dev/null; then
  t0=$(date +%s.%N)
  # The maintainer address is the distributor's to set (T2N_PACKAGE_MAINTAINER).
  lintian --fail-on error --suppress-tags bogus-mail-host,bogus-mail-host-in-debian-changelog "$deb" || fail "lintian reports errors"
  echo "lintian took $(seconds_since "$t0") s"
else
  echo "lintian not installed: skipped"
fi

if [ "$failures" -gt 0 ]; then
  echo "$failures check(s) failed"
  exit 1
fi
rm -rf "$root"
echo "package checks passed: $deb"
