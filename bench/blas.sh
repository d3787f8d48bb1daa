#!/usr/bin/env bash
# The difference an optimised BLAS makes: `t2n doctor` (a timed 512^3 matrix
# product), then export + check of ViT-B/16 when its model was generated
# (token matrices: real matrix products, where the reference BLAS is ~20-50x
# slower), AlexNet (batch-1 fully connected layers: matrix-vector products,
# little difference) and ResNet-18 (convolutions go to oneDNN, not BLAS),
# with the BLAS the alternatives system names and then with Debian's netlib
# reference BLAS put first on the loader's path.
#   bench/blas.sh T2N_BINARY FIXTURES_DIR [WORK_DIR]
set -uo pipefail
t2n=$1 fixtures=$2 work=${3:-${TMPDIR:-/tmp}}
netlib=/usr/lib/x86_64-linux-gnu/blas

run() {
  local label=$1; shift
  echo "== $label"
  "$@" "$t2n" doctor | sed -n 's/^\(BLAS\|matmul\) */  \1: /p'
  for model in vit_b_16 alexnet resnet18; do
    local pt=$fixtures/tv_$model.pt
    [ "$model" = vit_b_16 ] && [ ! -f "$pt" ] && continue
    if [ ! -f "$pt" ]; then
      echo "  (no $pt: run the fixtures.generate test first)"
      continue
    fi
    "$@" "$t2n" bench "$pt" --input x:1x3x224x224:f32 --repeat 1 --dir "$work" 2>/dev/null |
      sed -n "s/^export (best of 1) */  $model 224x224 export: /p
              s/^ *TorchScript forward */  $model 224x224 forward: /p
              s/^check */  $model 224x224 check: /p"
  done
}

run "BLAS as installed" env
if [ -f "$netlib/libblas.so.3" ]; then
  run "netlib reference BLAS (LD_LIBRARY_PATH=$netlib)" env LD_LIBRARY_PATH=$netlib
else
  echo "== netlib reference BLAS: not installed (package libblas3), nothing to compare with"
fi
