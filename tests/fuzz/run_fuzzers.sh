#!/bin/bash
# Builds and runs the libFuzzer targets of every reader of untrusted bytes:
#   fuzz_nnef_parser     bytes -> parseDocument (strict, tract) + checkStructure
#   fuzz_quant_parser    bytes -> parseQuant (graph.quant)
#   fuzz_dat_reader      bytes -> readDat
#   fuzz_npy_reader      bytes -> readNpy, readNpzMember (.npy, .npz zip)
#   fuzz_recipe          bytes -> recipeFromJson, and the round trip of what it accepts
#   fuzz_archive_reader  bytes -> readArchive, readModel (tar, gzipped tar)
#   fuzz_safetensors_reader bytes -> viewSafetensors (t2n tensors)
#   fuzz_torch_save_reader  bytes -> unpickleTorchSave (t2n tensors: torch.save's data.pkl)
#   fuzz_storage_records bytes -> checkStorageRecords (a TorchScript zip's storages, before loading)
# Inputs that once crashed a target are kept in tests/fuzz/regressions/TARGET/.
#
# usage: tests/fuzz/run_fuzzers.sh SECONDS [OUTDIR [TARGET...]]
#
# Each target runs SECONDS seconds (-max_total_time) under ASan and UBSan
# (UB aborts). Seeds: the golden .dat files (tests/golden/dat/*.hex, decoded),
# small graph.nnef / graph.quant / recipe texts written below, tar, tgz, npy
# and npz files made here, plus every graph.nnef under $T2N_FUZZ_SEEDS when
# set. Corpora, crash inputs and logs go to OUTDIR (default /tmp/t2n-fuzz);
# a corpus grows from run to run. Exit status 1 when a target found a crash,
# leak, timeout or out-of-memory input; 2 for usage or build errors.
set -euo pipefail

if [[ $# -lt 1 || ! "$1" =~ ^[0-9]+$ ]]; then
    echo "usage: $0 SECONDS [OUTDIR [TARGET...]]" >&2
    exit 2
fi
SECONDS_PER_TARGET=$1
OUT=${2:-/tmp/t2n-fuzz}
shift $(($# >= 2 ? 2 : 1))
ALL=(fuzz_nnef_parser fuzz_quant_parser fuzz_dat_reader fuzz_npy_reader fuzz_recipe
     fuzz_archive_reader fuzz_safetensors_reader fuzz_torch_save_reader fuzz_storage_records)
TARGETS=("${@:-${ALL[@]}}")
for t in "${TARGETS[@]}"; do
    [[ " ${ALL[*]} " == *" $t "* ]] || { echo "run_fuzzers: unknown target $t" >&2; exit 2; }
done
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
CXX=${CXX:-$(command -v clang++-14 || command -v clang++ || true)}
if [[ -z "$CXX" ]]; then
    echo "run_fuzzers: clang++ (14 or later, with libclang-rt) is required" >&2
    exit 2
fi
# The compile cache, when there is one, serves a fresh clone's rebuild (over
# two minutes of clang on 2 cores otherwise); paths are made relative to the
# checkout so that another clone of the same sources hits too.
LAUNCH=()
if command -v ccache >/dev/null; then LAUNCH=(env CCACHE_BASEDIR="$ROOT" ccache); fi
mkdir -p "$OUT"/{bin,obj,crashes}
for t in "${ALL[@]}"; do mkdir -p "$OUT/seeds/$t" "$OUT/corpus/$t"; done

# --- build: the torch-free reader sources and the util sources they need.
FLAGS=(-std=c++20 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -O1 -g
       -I"$ROOT/engine/include" -I"$ROOT/engine/src")
COMMON=(engine/src/util/dtype.cpp engine/src/util/tensor_data.cpp engine/src/util/half.cpp engine/src/util/error.cpp
        engine/src/util/strings.cpp engine/src/util/memory_limits.cpp)
PARSER=(engine/src/reader/lexer.cpp engine/src/reader/parser.cpp engine/src/reader/parser_expr.cpp
        engine/src/target/op_catalog.cpp engine/src/target/tract_versions.cpp)
STRUCTURE=(engine/src/check/structure_check.cpp engine/src/check/structure_body.cpp
           engine/src/check/structure_versions.cpp)
DAT=(engine/src/reader/dat_reader.cpp)
ARCHIVE=(engine/src/reader/archive_reader.cpp engine/src/reader/model_reader.cpp)
NPY=(engine/src/load/npy_reader.cpp)
SAFETENSORS=(engine/src/reader/safetensors_reader.cpp)
TORCHSAVE=(engine/src/reader/torch_save_reader.cpp)
RECORDS=(engine/src/reader/storage_records.cpp engine/src/reader/torch_save_reader.cpp)
RECIPE=(engine/src/util/recipe.cpp engine/src/util/options.cpp engine/src/util/input_spec.cpp
        engine/src/util/name_limits.cpp
        engine/src/util/option_table.cpp engine/src/util/option_codecs.cpp engine/src/util/json_fields.cpp
        engine/src/archive/pending_outputs.cpp engine/src/archive/sibling_path.cpp)

# Every source is compiled once per run, whatever the age of its object: an
# object kept because its source is older would miss a change to a header it
# includes (a stale ExportOptions layout once made fuzz_recipe report a
# stack-buffer-overflow of its own making). The compile cache makes it cheap
# when there is one; a fresh clone (CI) has none.
#
# The readers are compiled as one unity source (every library source of the
# selected targets #included once, as the engine's unity build does with the
# same files): 59 s of clang instead of 167 s compiled one by one, which was
# most of this test's time on CI. Each target links its own entry point with
# that one object; code a target never calls costs it nothing but link time.
object_of() { echo "$OUT/obj/$(echo "$1" | tr / _).o"; }

compile_all() { # sources... (two at a time; "unity" is $OUT/obj/readers.cpp)
    local running=0 src in
    for src in "$@"; do
        in="$ROOT/$src"
        [[ $src == unity ]] && in="$OUT/obj/readers.cpp"
        "${LAUNCH[@]}" "$CXX" "${FLAGS[@]}" -I"$ROOT" -c "$in" -o "$(object_of "$src")" >&2 &
        running=$((running + 1))
        if ((running >= 2)); then # two cores at most; the entry points go on beside the unity source
            wait -n || return 1
            running=$((running - 1))
        fi
    done
    while ((running > 0)); do
        wait -n || return 1
        running=$((running - 1))
    done
}

link() { # name, entry point source
    "$CXX" "${FLAGS[@]}" "$(object_of "$2")" "$(object_of unity)" -lfmt -larchive -lz -o "$OUT/bin/$1" ||
        { echo "run_fuzzers: link of $1 failed" >&2; exit 2; }
}

sources() { # the library sources of one target (its entry point is tests/fuzz/TARGET.cpp)
    case $1 in
    fuzz_nnef_parser) echo "${PARSER[@]}" "${STRUCTURE[@]}" "${DAT[@]}" "${COMMON[@]}" ;;
    fuzz_quant_parser) echo "${PARSER[@]}" "${COMMON[@]}" ;;
    fuzz_dat_reader) echo "${DAT[@]}" "${COMMON[@]}" ;;
    fuzz_npy_reader) echo "${NPY[@]}" "${COMMON[@]}" ;;
    fuzz_recipe) echo "${RECIPE[@]}" "${COMMON[@]}" ;;
    fuzz_archive_reader) echo "${ARCHIVE[@]}" "${PARSER[@]}" "${DAT[@]}" "${COMMON[@]}" ;;
    fuzz_safetensors_reader) echo "${SAFETENSORS[@]}" "${COMMON[@]}" ;;
    fuzz_torch_save_reader) echo "${TORCHSAVE[@]}" "${COMMON[@]}" ;;
    fuzz_storage_records) echo "${RECORDS[@]}" "${COMMON[@]}" ;;
    *) echo "run_fuzzers: unknown target $1" >&2; exit 2 ;;
    esac
}

echo "run_fuzzers: building with $CXX into $OUT/bin"
declare -A wanted=()
for t in "${TARGETS[@]}"; do
    for src in $(sources "$t"); do wanted[$src]=1; done
done
# Sorted, so that the unity source (and the compile cache's key) does not
# depend on the order of a hash table.
mapfile -t library < <(printf '%s\n' "${!wanted[@]}" | sort)
printf '#include "%s"\n' "${library[@]}" >"$OUT/obj/readers.cpp.new"
# Rewritten only when it changed, so that an unchanged list keeps its timestamp.
if cmp -s "$OUT/obj/readers.cpp.new" "$OUT/obj/readers.cpp"; then
    rm "$OUT/obj/readers.cpp.new"
else
    mv "$OUT/obj/readers.cpp.new" "$OUT/obj/readers.cpp"
fi
entries=()
for t in "${TARGETS[@]}"; do entries+=("tests/fuzz/$t.cpp"); done
compile_all unity "${entries[@]}" || { echo "run_fuzzers: build failed" >&2; exit 2; }
for t in "${TARGETS[@]}"; do link "$t" "tests/fuzz/$t.cpp"; done

# --- seeds
# Inputs that once crashed a target (tests/fuzz/regressions/TARGET/) start its
# corpus, so a regression fails the first run.
for t in "${ALL[@]}"; do
    if [[ -d "$ROOT/tests/fuzz/regressions/$t" ]]; then
        cp "$ROOT/tests/fuzz/regressions/$t"/* "$OUT/seeds/$t/"
    fi
done
for hex in "$ROOT"/tests/golden/dat/*.hex; do
    sed -e 's/#.*//' "$hex" | xxd -r -p >"$OUT/seeds/fuzz_dat_reader/$(basename "$hex" .hex).dat"
done

S="$OUT/seeds/fuzz_nnef_parser"
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
# Issue 26: a graph padded with whitespace (it cost about 4x its size in
# memory), and a name far longer than any real one.
{ head -c 3000 /dev/zero | tr '\0' ' '; sed 's/;/;\n\n\n\t   /' "$S/properties.nnef";
  head -c 2000 /dev/zero | tr '\0' '\n'; } >"$S/padded.nnef"
sed "s/output_0/o$(head -c 2000 /dev/zero | tr '\0' n)/g" "$S/properties.nnef" >"$S/long-name.nnef"
if [[ -n "${T2N_FUZZ_SEEDS:-}" ]]; then
    mapfile -t graphs < <(find "$T2N_FUZZ_SEEDS" -name graph.nnef -size -64k)
    for g in "${graphs[@]:0:200}"; do
        cp "$g" "$S/$(echo "$g" | md5sum | cut -c1-12).nnef"
    done
fi

cat >"$OUT/seeds/fuzz_quant_parser/graph.quant" <<'QUANT'
"conv1": zero_point_linear_quantize(zero_point = 0, scale = 0.0039, bits = 8, signed = false, symmetric = false);
'x': linear_quantize(min = -1.0, max = 1.0, bits = 8);
"w": zero_point_linear_quantize(zero_point = [0, 1], scale = [[0.5], [0.25]], bits = 8, signed = true, symmetric = true);
QUANT

# .npy files as NumPy writes them (version 1, header padded to 64 bytes), and
# a .npz holding two of them, stored and deflated (Python's zipfile).
npy() { # file descr shape data-bytes
    local header="{'descr': '$2', 'fortran_order': False, 'shape': $3, }"
    while (((${#header} + 11) % 64)); do header+=" "; done
    { printf '\x93NUMPY\x01\x00'; printf "\\x$(printf %02x $(((${#header} + 1) % 256)))"
      printf "\\x$(printf %02x $(((${#header} + 1) / 256)))"; printf '%s\n' "$header"
      head -c "$4" /dev/urandom; } >"$1"
}
N="$OUT/seeds/fuzz_npy_reader"
npy "$N/f32.npy" '<f4' '(2, 3)' 24
npy "$N/i64.npy" '<i8' '(3,)' 24
npy "$N/bool.npy" '|b1' '()' 1
python3 - "$N" <<'PY'
import sys, zipfile
d = sys.argv[1]
with zipfile.ZipFile(d + "/two.npz", "w", zipfile.ZIP_DEFLATED) as z:
    z.write(d + "/f32.npy", "x.npy")
    z.write(d + "/i64.npy", "image.npy", compress_type=zipfile.ZIP_STORED)
PY

# The data.pkl of a torch.save'd state_dict (one f32 tensor on storage "0")
# and of a checkpoint dict, as Debian's PyTorch writes them.
/usr/bin/python3 - "$OUT/seeds/fuzz_torch_save_reader" <<'PY' || true
import io, sys, zipfile
try:
    import torch
except ImportError:
    sys.exit(0)
from collections import OrderedDict
for name, obj in {"state_dict": OrderedDict(w=torch.ones(4, 2).t(), b=torch.zeros(3).half()),
                  "checkpoint": {"model": OrderedDict(w=torch.ones(2)), "epoch": 3}}.items():
    buf = io.BytesIO()
    torch.save(obj, buf)
    with zipfile.ZipFile(io.BytesIO(buf.getvalue())) as z:
        pkl = [n for n in z.namelist() if n.endswith("data.pkl")][0]
        open(sys.argv[1] + "/" + name + ".pkl", "wb").write(z.read(pkl))
PY

# TorchScript archives as torch.jit.save writes them (a weight shared by two
# modules, a tensor constant), stored and with deflated pickles, and the
# issue-42 records: one cut short, one written twice.
/usr/bin/python3 - "$OUT/seeds/fuzz_storage_records" <<'PY' || true
import io, sys, warnings, zipfile
try:
    import torch
except ImportError:
    sys.exit(0)
class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Linear(2, 2)
        self.b = torch.nn.Linear(2, 2)
        self.b.weight = self.a.weight
    def forward(self, x):
        return self.a(x) + self.b(x) + torch.tensor([1.0, 2.0])
buf = io.BytesIO()
torch.jit.save(torch.jit.trace(M().eval(), torch.zeros(1, 2)), buf)
src = zipfile.ZipFile(io.BytesIO(buf.getvalue()))
def rewrite(name, edit, method=zipfile.ZIP_STORED):
    out = io.BytesIO()
    with warnings.catch_warnings(), zipfile.ZipFile(out, "w", method) as dst:
        warnings.simplefilter("ignore")
        for item in src.infolist():
            body = src.read(item.filename)
            if item.filename.startswith("archive/code/"):
                continue  # not read by the check: room for the fuzzer
            for n, b in edit(item.filename, body):
                dst.writestr(n, b)
    open(sys.argv[1] + "/" + name + ".pt", "wb").write(out.getvalue())
rewrite("whole", lambda n, b: [(n, b)])
rewrite("deflated", lambda n, b: [(n, b)], zipfile.ZIP_DEFLATED)
rewrite("short", lambda n, b: [(n, b[:4] if n == "archive/data/0" else b)])
rewrite("twice", lambda n, b: [(n, b)] + ([(n, b[:4])] if n == "archive/data/0" else []))
PY

# A safetensors file as the format's specification lays it out: two tensors
# and the metadata entry.
python3 - "$OUT/seeds/fuzz_safetensors_reader" <<'PY'
import json, struct, sys
header = {"w": {"dtype": "F32", "shape": [2, 2], "data_offsets": [0, 16]},
          "b": {"dtype": "BF16", "shape": [3], "data_offsets": [16, 22]},
          "__metadata__": {"format": "pt"}}
text = json.dumps(header).encode()
text += b" " * (-len(text) % 8)
with open(sys.argv[1] + "/two.safetensors", "wb") as f:
    f.write(struct.pack("<Q", len(text)) + text + bytes(range(22)))
PY

cat >"$OUT/seeds/fuzz_recipe/recipe.json" <<'JSON'
{
  "t2n_recipe": 1,
  "model": "m.pt",
  "output": "m.nnef.tgz",
  "inputs": [{"name": "image", "shape": [1, 3, 8, 8], "dtype": "f32"},
             {"name": "ids", "shape": [], "dtype": "i64", "values_file": "v.npz", "values_member": "ids"}],
  "input_names": ["x"],
  "output_names": ["y"],
  "target": "tract@0.21.13",
  "dynamic_axes": [{"tensor": "image", "axis": 0, "symbol": "B"}],
  "properties": [{"key": "k", "value": "v"}],
  "identity_properties": false,
  "stamp_export_date": false,
  "naming": "numeric",
  "check_io_names_quantity_match": true,
  "allow_same_io_names": false,
  "custom_extensions": ["tract_assert B >= 1"],
  "reify_sdpa": true,
  "upsample_with_debox": false,
  "compute": "f16",
  "f32_attention": true,
  "f32_linear_accumulation": false,
  "f32_norm": true,
  "compression_level": null,
  "log_level": "warn",
  "harden": {"freeze": true, "skip": ["fold_constant_ifs"], "rewrite_limit": 3, "snapshots": true, "max_rounds": 8},
  "check": true,
  "check_tolerance": "custom:1e-3,1e-3,0.001",
  "check_every_value": false,
  "tract_binary": "",
  "debug_bundle": "bundle.tgz",
  "seed": 7
}
JSON

# Issue 26: names over t2n's limit of 1024 bytes, and a key given twice.
sed "s/\"image\"/\"$(head -c 1100 /dev/zero | tr '\0' i)\"/; s/\"y\"/\"$(head -c 1100 /dev/zero | tr '\0' y)\"/" \
    "$OUT/seeds/fuzz_recipe/recipe.json" >"$OUT/seeds/fuzz_recipe/long-names.json"
sed 's/"seed": 7/"seed": 7, "seed": 8/' "$OUT/seeds/fuzz_recipe/recipe.json" \
    >"$OUT/seeds/fuzz_recipe/key-twice.json"

# Artifacts: a graph and a tensor as tar and as gzipped tar.
A="$OUT/seeds/fuzz_archive_reader"
W="$OUT/seeds/artifact"
mkdir -p "$W"
cp "$OUT/seeds/fuzz_nnef_parser/properties.nnef" "$W/graph.nnef"
first_dat=$(ls "$OUT/seeds/fuzz_dat_reader"/*.dat | head -1)
mkdir -p "$W/fc" && cp "$first_dat" "$W/fc/weight.dat"
tar -C "$W" -cf "$A/model.nnef.tar" --owner=0 --group=0 graph.nnef fc/weight.dat
tar -C "$W" -czf "$A/model.nnef.tgz" --owner=0 --group=0 graph.nnef fc/weight.dat
# Issue 26: 4 MiB of whitespace in graph.nnef, a few KiB once gzipped.
cp "$OUT/seeds/fuzz_nnef_parser/padded.nnef" "$W/graph.nnef"
head -c 4194304 /dev/zero | tr '\0' ' ' >>"$W/graph.nnef"
tar -C "$W" -czf "$A/padded.nnef.tgz" --owner=0 --group=0 graph.nnef fc/weight.dat

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
run() { # name, extra flags...
    local name=$1
    shift
    echo "run_fuzzers: $name for ${SECONDS_PER_TARGET}s"
    if ! (cd "$OUT/crashes" && "$OUT/bin/$name" "$OUT/corpus/$name" "$OUT/seeds/$name" \
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
for t in "${TARGETS[@]}"; do
    case $t in
    fuzz_nnef_parser) run "$t" -dict="$DICT" -max_len=8192 ;;
    fuzz_quant_parser) run "$t" -dict="$DICT" -max_len=4096 ;;
    fuzz_dat_reader) run "$t" -max_len=2048 ;;
    fuzz_npy_reader) run "$t" -max_len=4096 ;;
    fuzz_recipe) run "$t" -max_len=4096 ;;
    fuzz_archive_reader) run "$t" -max_len=16384 ;;
    fuzz_safetensors_reader) run "$t" -max_len=4096 ;;
    fuzz_torch_save_reader) run "$t" -max_len=8192 ;;
    fuzz_storage_records) run "$t" -max_len=8192 ;;
    *) echo "run_fuzzers: no run line for $t" >&2; exit 2 ;;
    esac
done
exit $status
