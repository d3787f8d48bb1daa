#!/bin/bash
# Builds and runs the libFuzzer targets of t2n's NNEF reader:
#   fuzz_nnef_parser  bytes -> parseDocument (strict, tract) + checkStructure, parseQuant
#   fuzz_dat_reader   bytes -> readDat
#
# usage: tests/fuzz/run_fuzzers.sh SECONDS [OUTDIR]
#
# Each target runs SECONDS seconds (-max_total_time) under ASan and UBSan
# (UB aborts). Seeds: the golden .dat files (tests/golden/dat/*.hex, decoded)
# and small graph.nnef / graph.quant texts written below, plus every
# graph.nnef under $T2N_FUZZ_SEEDS when set. Corpora, crash inputs and logs
# go to OUTDIR (default /tmp/t2n-fuzz). Exit status 1 when a target found a
# crash, leak, timeout or out-of-memory input; 2 for usage or build errors.
set -euo pipefail

if [[ $# -lt 1 || ! "$1" =~ ^[0-9]+$ ]]; then
    echo "usage: $0 SECONDS [OUTDIR]" >&2
    exit 2
fi
SECONDS_PER_TARGET=$1
OUT=${2:-/tmp/t2n-fuzz}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
CXX=${CXX:-$(command -v clang++-14 || command -v clang++ || true)}
if [[ -z "$CXX" ]]; then
    echo "run_fuzzers: clang++ (14 or later, with libclang-rt) is required" >&2
    exit 2
fi
mkdir -p "$OUT"/{bin,obj,seeds/parser,seeds/dat,corpus/parser,corpus/dat,crashes}

# --- build: the torch-free reader sources and the util sources they need.
FLAGS=(-std=c++20 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -O1 -g
       -I"$ROOT/engine/include" -I"$ROOT/engine/src")
COMMON=(engine/src/util/dtype.cpp engine/src/util/tensor_data.cpp engine/src/util/error.cpp
        engine/src/util/strings.cpp)
PARSER=(engine/src/nnef/lexer.cpp engine/src/nnef/parser.cpp engine/src/nnef/parser_expr.cpp
        engine/src/nnef/op_catalog.cpp engine/src/nnef/tract_versions.cpp
        engine/src/check/structure_check.cpp engine/src/check/structure_body.cpp
        engine/src/check/structure_versions.cpp)
DAT=(engine/src/nnef/dat_reader.cpp)

objects() { # compile each source once (in parallel), print the object paths
    local pids=() objs=()
    for src in "$@"; do
        local obj="$OUT/obj/$(echo "$src" | tr / _).o"
        objs+=("$obj")
        if [[ ! -f "$obj" || "$ROOT/$src" -nt "$obj" ]]; then
            "$CXX" "${FLAGS[@]}" -c "$ROOT/$src" -o "$obj" >&2 &
            pids+=($!)
        fi
    done
    for p in "${pids[@]}"; do wait "$p" || return 1; done
    printf '%s\n' "${objs[@]}"
}

build() { # name, sources...
    local name=$1
    shift
    local objs
    objs=$(objects "$@") || { echo "run_fuzzers: build of $name failed" >&2; exit 2; }
    # shellcheck disable=SC2086
    "$CXX" "${FLAGS[@]}" $objs -lfmt -o "$OUT/bin/$name" ||
        { echo "run_fuzzers: link of $name failed" >&2; exit 2; }
}

echo "run_fuzzers: building with $CXX into $OUT/bin"
build fuzz_nnef_parser tests/fuzz/fuzz_nnef_parser.cpp "${PARSER[@]}" "${DAT[@]}" "${COMMON[@]}"
build fuzz_dat_reader tests/fuzz/fuzz_dat_reader.cpp "${DAT[@]}" "${COMMON[@]}"

# --- seeds
for hex in "$ROOT"/tests/golden/dat/*.hex; do
    sed -e 's/#.*//' "$hex" | xxd -r -p >"$OUT/seeds/dat/$(basename "$hex" .hex).dat"
done

S="$OUT/seeds/parser"
cat >"$S/properties.nnef" <<'NNEF'
version 1.0;

extension tract_registry tract_core;
extension tract_symbol B;
extension tract_assert B >= 1;

fragment tract_core_properties(
) -> (properties: (string, tensor<scalar>)[])
{
  properties = [
    ("tract_target_version", "0.23.5"),
    ("k", "v'q")
  ];
}

graph network(x) -> (output_0)
{
  x = external<scalar>(shape = [B, 3, 4]);
  w = variable<scalar>(shape = [12, 4], label = 'fc.weight');
  h = linear(reshape(x, shape = [0, 12]), w, 0.0);
  output_0 = tract_core_erf(h);
}
NNEF
cat >"$S/khronos.nnef" <<'NNEF'
version 1.0;
extension KHR_enable_fragment_definitions, KHR_enable_operator_expressions;

fragment f<? = scalar>( input: tensor<?>, size: integer[] = [1, 2], border: string = 'constant',
    alpha: scalar = -2.5e-3, pads: (integer, integer)[] = [(0, 0), (1, -1)] )
-> ( output: tensor<?> )
{
    n = length_of(size);
    s = [for i in range_of(size), j in size if i > 0 && j < 3 yield i * j];
    output = input * alpha ^ 2.0 + (1.0 if n == 2 else 2.0);
}

graph G( a, b ) -> ( y, z )
{
    a = external<scalar>(shape = [1, 3, 8, 8]);
    b = external(shape = [1]);
    (y, z) = split(f(a, size = [3, 3])[0:1], axis = 1, ratios = [1, 2]);   # comment
}
NNEF
cat >"$S/graph.quant" <<'QUANT'
"conv1": zero_point_linear_quantize(zero_point = 0, scale = 0.0039, bits = 8, signed = false, symmetric = false);
'x': linear_quantize(min = -1.0, max = 1.0, bits = 8);
"w": zero_point_linear_quantize(zero_point = [0, 1], scale = [[0.5], [0.25]], bits = 8, signed = true, symmetric = true);
QUANT
if [[ -n "${T2N_FUZZ_SEEDS:-}" ]]; then
    mapfile -t graphs < <(find "$T2N_FUZZ_SEEDS" -name graph.nnef -size -64k)
    for g in "${graphs[@]:0:200}"; do
        cp "$g" "$S/$(echo "$g" | md5sum | cut -c1-12).nnef"
    done
fi

# A dictionary of the grammar's words and operators helps the parser target.
DICT="$OUT/nnef.dict"
: >"$DICT"
for w in version extension graph fragment tensor integer scalar logical string true false for \
         in if else yield length_of shape_of range_of external variable tract_registry \
         tract_symbol KHR_enable_fragment_definitions KHR_enable_operator_expressions \
         tract_core_properties '->' '<=' '>=' '==' '!=' '&&' '||' '<?' '[]' '#' "i\\\"" ; do
    printf '"%s"\n' "$w" >>"$DICT"
done

# --- run
status=0
run() { # name, corpus, seeds, extra flags...
    local name=$1 corpus=$2 seeds=$3
    shift 3
    echo "run_fuzzers: $name for ${SECONDS_PER_TARGET}s"
    if ! (cd "$OUT/crashes" && "$OUT/bin/$name" "$corpus" "$seeds" \
            -max_total_time="$SECONDS_PER_TARGET" -rss_limit_mb=2048 -timeout=10 \
            -artifact_prefix="$OUT/crashes/$name-" -print_final_stats=1 "$@" \
            >"$OUT/$name.log" 2>&1); then
        echo "run_fuzzers: $name FOUND A PROBLEM; see $OUT/$name.log and $OUT/crashes/" >&2
        grep -E "ERROR|SUMMARY|Test unit written" "$OUT/$name.log" | head -5 >&2 || true
        status=1
    fi
    grep -E "^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)" \
        "$OUT/$name.log" || true
    grep -E "cov: [0-9]+" "$OUT/$name.log" | tail -1 || true
}
run fuzz_nnef_parser "$OUT/corpus/parser" "$OUT/seeds/parser" -dict="$DICT" -max_len=8192
run fuzz_dat_reader "$OUT/corpus/dat" "$OUT/seeds/dat" -max_len=2048
exit $status
