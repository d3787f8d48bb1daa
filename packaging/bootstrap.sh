#!/usr/bin/env bash
# The two commands of the README, for a fresh Debian bookworm machine (root,
# apt reachable) or a developer machine:
#
#   packaging/bootstrap.sh demo   install what is missing, build t2n and
#                                 t2n-studio, export the bundled sample model,
#                                 then open the studio on it (with a display)
#                                 or write the studio's views as PNGs (without)
#   packaging/bootstrap.sh test   install what is missing, build everything,
#                                 run every test (CTest's summary closes the run),
#                                 the suites that read outside bytes under
#                                 ASan+UBSan (T2N_SANITIZERS=0: uninstrumented)
#
# BUILD_DIR (default: build) selects the build tree.
set -euo pipefail

mode=${1:-}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${BUILD_DIR:-$root/build}
jobs=$(nproc 2>/dev/null || echo 2)

case "$mode" in
  demo|test) ;;
  *) echo "usage: $0 demo|test" >&2; exit 2 ;;
esac

"$root/packaging/install-deps.sh" "$build"

# The engine, the studio's library, the CLI and the UI suites compile in unity
# batches (T2N_UNITY_BUILD, engine/CMakeLists.txt): each batch parses LibTorch's
# or Qt's headers once for 8 sources.
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DT2N_UNITY_BUILD=ON >/dev/null
echo "bootstrap: building in $build with $jobs jobs"

if [ "$mode" = demo ]; then
  cmake --build "$build" --target t2n_cli t2n_studio -j "$jobs"
  out="$root/out"
  mkdir -p "$out"
  # The export's recipe (model, output, every option) is what the studio opens.
  "$build/bin/t2n" export "$root/resources/sample/sample_cnn.pt" \
    --input image:1x3x32x32:f32 --output-name probabilities \
    -o "$out/sample_cnn.nnef.tgz" --report "$out/sample_cnn.report.json" \
    --save-recipe "$out/sample_cnn.recipe.json"
  echo
  echo "The sample model's NNEF archive is $out/sample_cnn.nnef.tgz"
  echo "and its export report is $out/sample_cnn.report.json."
  echo "Look inside with: tar xzf $out/sample_cnn.nnef.tgz -O graph.nnef"
  if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
    echo "Opening the studio on the sample: $build/bin/t2n-studio $out/sample_cnn.recipe.json"
    exec "$build/bin/t2n-studio" "$out/sample_cnn.recipe.json"
  fi
  # No display: the studio draws offscreen and writes its main views.
  shots="$out/studio-screenshots"
  QT_QPA_PLATFORM=offscreen "$build/bin/t2n-studio" --screenshot "$shots" \
    "$out/sample_cnn.recipe.json" >/dev/null 2>"$out/studio-screenshots.log" ||
    { cat "$out/studio-screenshots.log" >&2; exit 1; }
  echo "No display here, so the studio wrote its views of the sample as PNGs in $shots/:"
  for png in "$shots"/*.png; do echo "  $(basename "$png")"; done
  echo "On a desktop, open it with: $build/bin/t2n-studio $out/sample_cnn.recipe.json"
  exit 0
fi

# The suites that read outside bytes run under ASan and UBSan (asan.SUITE): the
# engine's LibTorch-free sources compiled again, instrumented, and linked with
# the rest of this tree's objects (T2N_SANITIZER_BUILD).
if [ "${T2N_SANITIZERS:-1}" != 0 ]; then sanitizers=ON; else sanitizers=OFF; fi
cmake -S "$root" -B "$build" -DT2N_SANITIZER_BUILD=$sanitizers >/dev/null
cmake --build "$build" -j "$jobs"
cd "$build"
QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j "$jobs"
