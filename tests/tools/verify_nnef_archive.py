#!/usr/bin/python3
"""Independent checker for NNEF archives written by t2n.

Usage:
    verify_nnef_archive.py ARCHIVE --model MODEL.pt [--report REPORT.json] [--json]
    verify_nnef_archive.py --dat FILE.dat [--values]

ARCHIVE is a folder, a .tar or a .tgz/.tar.gz.  The script reads graph.nnef just far
enough to find the version line, the extension lines, the graph declaration and
every `variable` assignment, then checks each variable's <label>.dat against the
NNEF 1.0.5 tensor-file format and, bit for bit, against the TorchScript model's
parameters and buffers.  A variable that is not a parameter or buffer must be
explained by the export report ("variables": [{"label", "origin": "derived",
"from"}]).

It is written from the NNEF specification (container, .dat header) and shares no
code with t2n's C++ writer, on purpose: the two must not share mistakes.

Exit status: 0 when every check holds, 1 when there are problems (one line per
problem, or a JSON summary with --json), 2 for usage errors.
"""

import argparse
import json
import math
import os
import posixpath
import re
import struct
import sys
import tarfile
import zlib

import numpy as np

# ---------------------------------------------------------------------------
# .dat tensor files (NNEF 1.0.5 "Tensor Data Format")
# ---------------------------------------------------------------------------

DAT_HEADER = struct.Struct("<2sBBII8III76s")  # 128 bytes, little endian
assert DAT_HEADER.size == 128
DAT_MAGIC = b"\x4e\xef"
MAX_RANK = 8

CODE_FLOAT, CODE_UINT, CODE_QUINT, CODE_QINT, CODE_INT, CODE_BOOL = 0, 1, 2, 3, 4, 5
CODE_NAMES = {CODE_FLOAT: "float", CODE_UINT: "unsigned int", CODE_QUINT: "quantized unsigned int",
              CODE_QINT: "quantized signed int", CODE_INT: "signed int", CODE_BOOL: "bool"}

# (code, bits) -> short dtype name, numpy dtype (little endian)
DAT_DTYPES = {
    (CODE_FLOAT, 16): ("f16", "<f2"), (CODE_FLOAT, 32): ("f32", "<f4"), (CODE_FLOAT, 64): ("f64", "<f8"),
    (CODE_INT, 8): ("i8", "<i1"), (CODE_INT, 16): ("i16", "<i2"), (CODE_INT, 32): ("i32", "<i4"),
    (CODE_INT, 64): ("i64", "<i8"),
    (CODE_UINT, 8): ("u8", "<u1"), (CODE_UINT, 16): ("u16", "<u2"), (CODE_UINT, 32): ("u32", "<u4"),
    (CODE_UINT, 64): ("u64", "<u8"),
    (CODE_BOOL, 1): ("bool", None), (CODE_BOOL, 8): ("bool", "<u1"),
    # stored integers of quantized tensors; valid only with a graph.quant entry (checked in verify)
    (CODE_QINT, 8): ("i8", "<i1"), (CODE_QUINT, 8): ("u8", "<u1"), (CODE_QINT, 32): ("i32", "<i4"),
}

# NNEF graph type -> item-type codes it may be stored as
TYPE_CODES = {"scalar": {CODE_FLOAT}, "integer": {CODE_INT, CODE_UINT}, "logical": {CODE_BOOL}}


class DatFile:
    """A parsed .dat file.  problems lists everything that violates the format."""

    def __init__(self, data, name):
        self.name = name
        self.problems = []
        self.warnings = []
        self.file_size = len(data)
        self.raw = data
        self.dtype_name = None
        self.np_dtype = None
        self.header_ok = False
        if len(data) < DAT_HEADER.size:
            self.problems.append("%s: file is %d bytes, shorter than the 128-byte header" % (name, len(data)))
            return
        (self.magic, self.version_major, self.version_minor, self.data_length, self.rank, *rest) = \
            DAT_HEADER.unpack_from(data, 0)
        self.extents_raw = list(rest[:8])
        self.bits_per_item, self.item_type, self.reserved = rest[8], rest[9], rest[10]
        self.code = self.item_type & 0xFFFF
        self.vendor = self.item_type >> 16
        self.header_ok = True
        self._check()

    @property
    def extents(self):
        return self.extents_raw[:min(self.rank, MAX_RANK)]

    @property
    def numel(self):
        return math.prod(self.extents)

    def _check(self):
        p, n = self.problems, self.name
        if self.magic != DAT_MAGIC:
            p.append("%s: bad magic %s (expected 4eef)" % (n, self.magic.hex()))
        if (self.version_major, self.version_minor) != (1, 0):
            p.append("%s: version %d.%d (expected 1.0)" % (n, self.version_major, self.version_minor))
        if self.rank > MAX_RANK:
            p.append("%s: rank %d exceeds %d" % (n, self.rank, MAX_RANK))
        elif any(self.extents_raw[self.rank:]):
            p.append("%s: unused extents %s are not zero (rank %d)"
                     % (n, self.extents_raw[self.rank:], self.rank))
        if any(self.reserved):
            first = next(i for i, b in enumerate(self.reserved) if b)
            p.append("%s: reserved header bytes are not zero (first non-zero at offset %d)" % (n, 52 + first))
        if self.vendor != 0:
            p.append("%s: item type 0x%08x has vendor 0x%04x; only Khronos types (vendor 0) are accepted"
                     % (n, self.item_type, self.vendor))
        elif self.code not in CODE_NAMES:
            p.append("%s: unknown item type code %d" % (n, self.code))
        elif (self.code, self.bits_per_item) not in DAT_DTYPES:
            allowed = {CODE_FLOAT: "16, 32 or 64", CODE_INT: "8, 16, 32 or 64", CODE_UINT: "8, 16, 32 or 64",
                       CODE_BOOL: "1 or 8", CODE_QINT: "8 or 32", CODE_QUINT: "8"}[self.code]
            p.append("%s: %d bits per item is not valid for item type %s (expected %s)"
                     % (n, self.bits_per_item, CODE_NAMES[self.code], allowed))
        else:
            self.dtype_name, self.np_dtype = DAT_DTYPES[(self.code, self.bits_per_item)]
        if self.rank <= MAX_RANK:
            expected = (self.numel * self.bits_per_item + 7) // 8
            if self.data_length != expected:
                p.append("%s: data length %d does not match %s x %d bits = %d bytes"
                         % (n, self.data_length, self.extents, self.bits_per_item, expected))
        if self.file_size != DAT_HEADER.size + self.data_length:
            p.append("%s: file size %d != 128 + data length %d"
                     % (n, self.file_size, self.data_length))

    @property
    def payload(self):
        return memoryview(self.raw)[DAT_HEADER.size:DAT_HEADER.size + self.data_length]

    def decodable(self):
        return self.header_ok and not self.problems and self.dtype_name is not None

    def decode(self):
        """Flat numpy array of the items (bool for code 5)."""
        data = self.payload
        if self.code == CODE_BOOL and self.bits_per_item == 1:
            bits = np.unpackbits(np.frombuffer(data, dtype=np.uint8), bitorder="big")
            tail = bits[self.numel:]
            if tail.any():
                self.warnings.append("%s: padding bits after the last bool item are not zero" % self.name)
            return bits[:self.numel].astype(bool)
        arr = np.frombuffer(data, dtype=np.dtype(self.np_dtype))
        if self.code == CODE_BOOL:
            if np.any(arr > 1):
                self.warnings.append("%s: 8-bit bool items other than 0/1 (non-zero is read as true)" % self.name)
            return arr != 0
        return arr

    def header_dict(self):
        d = {"file": self.name, "file_size": self.file_size}
        if self.header_ok:
            d.update({
                "magic": self.magic.hex(),
                "version": [self.version_major, self.version_minor],
                "data_length": self.data_length,
                "rank": self.rank,
                "extents": self.extents,
                "extents_raw": self.extents_raw,
                "bits_per_item": self.bits_per_item,
                "item_type": self.item_type,
                "item_type_code": self.code,
                "item_type_vendor": self.vendor,
                "item_type_name": CODE_NAMES.get(self.code) if self.vendor == 0 else None,
                "reserved_all_zero": not any(self.reserved),
                "dtype": self.dtype_name,
                "numel": self.numel if self.rank <= MAX_RANK else None,
            })
        d["problems"] = list(self.problems)
        return d


# ---------------------------------------------------------------------------
# graph.nnef (only as much as the checks need)
# ---------------------------------------------------------------------------

_TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<comment>\#[^\n]*)
  | (?P<str>'[^']*'|"[^"]*")
  | (?P<num>-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)
  | (?P<id>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<op>->|[-+*/^<>=!]=|&&|\|\||[()\[\]{},;:=<>+\-*/^!?.])
""", re.VERBOSE)


class NnefSyntaxError(Exception):
    pass


def tokenize(text):
    toks, pos, line = [], 0, 1
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m:
            raise NnefSyntaxError("graph.nnef line %d: unexpected character %r" % (line, text[pos]))
        kind, val = m.lastgroup, m.group()
        if kind not in ("ws", "comment"):
            toks.append((kind, val[1:-1] if kind == "str" else val, line))
        line += val.count("\n")
        pos = m.end()
    return toks


def _split_top(toks, sep):
    """Split a token list at `sep` operators that are not nested in brackets."""
    parts, cur, depth = [], [], 0
    for t in toks:
        if t[0] == "op" and t[1] in "([{":
            depth += 1
        elif t[0] == "op" and t[1] in ")]}":
            depth -= 1
        if depth == 0 and t[0] == "op" and t[1] == sep:
            parts.append(cur)
            cur = []
        else:
            cur.append(t)
    parts.append(cur)
    return parts


class Variable:
    def __init__(self, ident, type_name, shape, label, line):
        self.ident, self.type_name, self.shape, self.label, self.line = ident, type_name, shape, label, line


class Graph:
    def __init__(self):
        self.version = None
        self.extensions = []
        self.name = None
        self.inputs, self.outputs = [], []
        self.variables = []
        self.assigned = {}


def parse_graph(text, problems):
    g = Graph()
    for seq in ("{{", "{%", "{#"):
        if seq in text:
            line = text.count("\n", 0, text.index(seq)) + 1
            problems.append("graph.nnef line %d: contains %r, which tract's template renderer would "
                            "interpret" % (line, seq))
    try:
        toks = tokenize(text)
    except NnefSyntaxError as e:
        problems.append(str(e))
        return g
    if len(toks) < 3 or toks[0][:2] != ("id", "version") or toks[1][0] != "num" or toks[2][1] != ";":
        problems.append("graph.nnef: the first statement is not 'version <number>;'")
        return g
    g.version = toks[1][1]
    if g.version != "1.0":
        problems.append("graph.nnef: version %s (expected 1.0)" % g.version)
    i = 3
    while i < len(toks) and toks[i][:2] == ("id", "extension"):
        j = i + 1
        while j < len(toks) and toks[j][1] != ";":
            j += 1
        g.extensions.append(" ".join(t[1] for t in toks[i + 1:j]).replace(" , ", ", "))
        i = j + 1
    # skip fragment definitions: find the 'graph' keyword outside any brackets
    depth = 0
    while i < len(toks):
        t = toks[i]
        if t[0] == "op" and t[1] in "([{":
            depth += 1
        elif t[0] == "op" and t[1] in ")]}":
            depth -= 1
        elif depth == 0 and t[:2] == ("id", "graph"):
            break
        i += 1
    if i >= len(toks):
        problems.append("graph.nnef: no 'graph NAME(...) -> (...)' declaration")
        return g
    try:
        i = _parse_graph_decl(toks, i, g)
    except (IndexError, NnefSyntaxError) as e:
        problems.append("graph.nnef: malformed graph declaration (%s)" % (str(e) or "unexpected end of file"))
        return g
    if i >= len(toks) or toks[i][1] != "{":
        problems.append("graph.nnef: the graph declaration is not followed by a '{' body")
        return g
    # body: up to the matching '}'
    depth, j = 0, i
    while j < len(toks):
        if toks[j][0] == "op" and toks[j][1] in "([{":
            depth += 1
        elif toks[j][0] == "op" and toks[j][1] in ")]}":
            depth -= 1
            if depth == 0:
                break
        j += 1
    if j >= len(toks):
        problems.append("graph.nnef: the graph body has no closing '}'")
        return g
    if j + 1 != len(toks):
        problems.append("graph.nnef line %d: text after the graph body" % toks[j + 1][2])
    statements = _split_top(toks[i + 1:j], ";")
    if statements and statements[-1]:
        problems.append("graph.nnef line %d: the last statement has no ';'" % statements[-1][0][2])
    for st in statements:
        if st:
            _parse_assignment(st, g, problems)
    for name in g.outputs:
        if name not in g.assigned:
            problems.append("graph.nnef: graph output '%s' is never assigned" % name)
    for name in g.inputs:
        if name not in g.assigned:
            problems.append("graph.nnef: graph input '%s' is never assigned" % name)
    return g


def _parse_graph_decl(toks, i, g):
    def expect(k, text):
        if toks[k][1] != text:
            raise NnefSyntaxError("expected %r at line %d, found %r" % (text, toks[k][2], toks[k][1]))
        return k + 1

    i += 1
    if toks[i][0] != "id":
        raise NnefSyntaxError("expected the graph name at line %d" % toks[i][2])
    g.name = toks[i][1]
    i = expect(i + 1, "(")
    while toks[i][1] != ")":
        if toks[i][0] == "id":
            g.inputs.append(toks[i][1])
        i += 1
    i = expect(expect(i + 1, "->"), "(")
    while toks[i][1] != ")":
        if toks[i][0] == "id":
            g.outputs.append(toks[i][1])
        i += 1
    return i + 1


def _parse_assignment(st, g, problems):
    line = st[0][2]
    lhs = _split_top(st, "=")[0]
    if len(lhs) == len(st):
        problems.append("graph.nnef line %d: statement is not an assignment" % line)
        return
    rhs = st[len(lhs) + 1:]
    for t in lhs:
        if t[0] == "id":
            if t[1] in g.assigned:
                problems.append("graph.nnef line %d: '%s' is assigned twice (first at line %d)"
                                % (line, t[1], g.assigned[t[1]]))
            else:
                g.assigned[t[1]] = line
    if not rhs or rhs[0][:2] != ("id", "variable"):
        return
    k, type_name = 1, None
    if k < len(rhs) and rhs[k][1] == "<":
        close = next((m for m in range(k + 1, len(rhs)) if rhs[m][1] == ">"), None)
        if close is None:
            problems.append("graph.nnef line %d: unterminated type argument of variable" % line)
            return
        type_name = " ".join(t[1] for t in rhs[k + 1:close]) or None
        k = close + 1
    if k >= len(rhs) or rhs[k][1] != "(" or rhs[-1][1] != ")":
        problems.append("graph.nnef line %d: malformed variable invocation" % line)
        return
    if len(lhs) != 1 or lhs[0][0] != "id":
        problems.append("graph.nnef line %d: a variable must be assigned to a single identifier" % line)
        return
    args = _split_top(rhs[k + 1:-1], ",")
    named, positional = {}, []
    ident = lhs[0][1]
    for a in args:
        if len(a) >= 2 and a[0][0] == "id" and a[1][:2] == ("op", "="):
            if a[0][1] in named:
                problems.append("graph.nnef line %d: variable '%s' has argument '%s' twice" % (line, ident, a[0][1]))
            named[a[0][1]] = a[2:]
        elif a:
            positional.append(a)
    for pname, value in zip(("shape", "label"), positional):
        if pname in named:
            problems.append("graph.nnef line %d: variable '%s' has argument '%s' twice" % (line, ident, pname))
        named.setdefault(pname, value)
    if len(positional) > 2:
        problems.append("graph.nnef line %d: variable '%s' has %d positional arguments (at most shape, label)"
                        % (line, ident, len(positional)))
    shape_toks, label_toks = named.get("shape"), named.get("label")
    shape = None
    if shape_toks is None:
        problems.append("graph.nnef line %d: variable '%s' has no shape" % (line, ident))
    else:
        inner = shape_toks[1:-1] if shape_toks and shape_toks[0][1] == "[" and shape_toks[-1][1] == "]" else None
        items = [x for x in _split_top(inner, ",") if x] if inner is not None else None
        if items is None or not all(len(x) == 1 and x[0][0] == "num" and re.fullmatch(r"\d+", x[0][1])
                                    for x in items):
            problems.append("graph.nnef line %d: variable '%s' shape is not a list of non-negative integers: %s"
                            % (line, ident, " ".join(t[1] for t in shape_toks)))
        else:
            shape = [int(x[0][1]) for x in items]
    label = None
    if label_toks is None or len(label_toks) != 1 or label_toks[0][0] != "str":
        problems.append("graph.nnef line %d: variable '%s' has no string label" % (line, ident))
    else:
        label = label_toks[0][1]
    if shape is not None and label is not None:
        g.variables.append(Variable(ident, type_name, shape, label, line))


# ---------------------------------------------------------------------------
# archive container
# ---------------------------------------------------------------------------

def _read_file(path):
    with open(path, "rb") as f:
        return f.read()


class Archive:
    """Maps member paths (posix, relative) to a function returning the bytes."""

    def __init__(self, path, problems, warnings):
        self.path = path
        self.members = {}
        self.ignored = []
        if os.path.isdir(path):
            self._read_dir(path)
        elif os.path.isfile(path):
            self._read_tar(path, problems, warnings)
        else:
            problems.append("%s: no such file or folder" % path)

    def _add(self, name, reader):
        if any(part.startswith(".") for part in name.split("/")):
            self.ignored.append(name)  # tract ignores these
        else:
            self.members[name] = reader

    def _read_dir(self, root):
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames.sort()
            for f in sorted(filenames):
                full = os.path.join(dirpath, f)
                rel = os.path.relpath(full, root).replace(os.sep, "/")
                self._add(rel, lambda full=full: _read_file(full))

    def _read_tar(self, path, problems, warnings):
        with open(path, "rb") as f:
            gz = f.read(2) == b"\x1f\x8b"
        lower = path.lower()
        if lower.endswith((".tgz", ".tar.gz")) and not gz:
            warnings.append("%s: named like a gzip file but is not gzip-compressed" % path)
        if lower.endswith(".tar") and gz:
            warnings.append("%s: named .tar but is gzip-compressed" % path)
        try:
            # one sequential pass: random access into a gzip stream rewinds and re-inflates
            with tarfile.open(path, "r:*") as tf:
                for info in tf:
                    self._add_tar_member(path, tf, info, problems)
        except (tarfile.TarError, OSError, EOFError, zlib.error) as e:
            problems.append("%s: neither a folder nor a readable tar/tar.gz archive (%s)"
                            % (path, " ".join(str(e).split())))

    def _add_tar_member(self, path, tf, info, problems):
        name = info.name
        while name.startswith("./"):
            name = name[2:]
        if info.isdir() or name in ("", "."):
            return
        if name.startswith("/") or os.path.isabs(name):
            problems.append("%s: member '%s' has an absolute path" % (path, info.name))
            return
        if ".." in name.split("/"):
            problems.append("%s: member '%s' contains '..'" % (path, info.name))
            return
        if not info.isfile():
            problems.append("%s: member '%s' is not a regular file" % (path, info.name))
            return
        norm = posixpath.normpath(name)
        if norm in self.members or norm in self.ignored:
            problems.append("%s: member '%s' appears more than once" % (path, norm))
            return
        data = tf.extractfile(info).read()
        self._add(norm, lambda data=data: data)

    def read(self, name):
        return self.members[name]()


# ---------------------------------------------------------------------------
# model tensors
# ---------------------------------------------------------------------------

TORCH_DTYPE_NAMES = {
    "torch.float16": "f16", "torch.float32": "f32", "torch.float64": "f64",
    "torch.int8": "i8", "torch.int16": "i16", "torch.int32": "i32", "torch.int64": "i64",
    "torch.uint8": "u8", "torch.bool": "bool", "torch.bfloat16": "bf16",
}


def load_model_tensors(path, problems):
    try:
        import torch
    except ImportError:
        problems.append("cannot import torch (run with Debian's /usr/bin/python3)")
        return None
    try:
        m = torch.jit.load(path, map_location="cpu")
    except Exception as e:  # noqa: BLE001 - any load failure is a problem to report
        problems.append("%s: cannot load the TorchScript model: %s" % (path, str(e).splitlines()[0]))
        return None
    tensors = dict(m.named_parameters())
    tensors.update(dict(m.named_buffers()))
    return {k: v.detach().cpu().contiguous() for k, v in tensors.items()}


def tensor_dtype_name(t):
    return TORCH_DTYPE_NAMES.get(str(t.dtype), str(t.dtype))


def tensor_as_numpy(t, dtype_name):
    """The model tensor, cast (by torch) to the .dat's dtype, as a flat numpy array."""
    import torch
    target = {"f16": torch.float16, "f32": torch.float32, "f64": torch.float64, "i8": torch.int8,
              "i16": torch.int16, "i32": torch.int32, "i64": torch.int64, "u8": torch.uint8,
              "bool": torch.bool}.get(dtype_name)
    if target is None:
        return None
    return t.to(target).reshape(-1).numpy()


def _same_bytes(a, b, chunk=1 << 22):
    va, vb = a.view(np.uint8).reshape(-1), b.view(np.uint8).reshape(-1)
    if va.size != vb.size:
        return False
    return all(np.array_equal(va[i:i + chunk], vb[i:i + chunk]) for i in range(0, va.size, chunk))


def compare_values(label, dat, values, tensor, source, dtype_note):
    """Bit-exact comparison of decoded .dat items with a model tensor; returns a problem or None."""
    n = tensor.numel()
    if n != dat.numel:
        return ("variable '%s': %s.dat holds %d items but %s has %d (shape %s vs %s)"
                % (label, label, dat.numel, source, n, dat.extents, list(tensor.shape)))
    ref = tensor_as_numpy(tensor, dat.dtype_name)
    if ref is None:
        return "variable '%s': cannot compare with %s of dtype %s" % (label, source, tensor.dtype)
    if dat.dtype_name == "bool":
        diff = np.nonzero(values != ref.astype(bool))[0]
    else:
        want = np.ascontiguousarray(ref.astype(np.dtype(dat.np_dtype), copy=False))
        got = np.ascontiguousarray(values)
        if _same_bytes(want, got):  # bit-exact, NaN payloads and -0.0 included
            return None
        item = got.dtype.itemsize
        diff = np.nonzero((want.view(np.uint8).reshape(n, item) != got.view(np.uint8).reshape(n, item)).any(axis=1))[0]
    if len(diff):
        k = int(diff[0])
        return ("variable '%s': %s.dat differs from %s%s at %d of %d items (first at flat index %d: "
                "%r in the archive, %r in the model)"
                % (label, label, source, dtype_note, len(diff), n, k, values[k].item(), ref[k].item()))
    return None


# ---------------------------------------------------------------------------
# graph.quant (NNEF 1.0.5 "Quantization Format"; tract reads scalar values only)
# ---------------------------------------------------------------------------

QUANT_LINE = re.compile(r'^"([^"]+)"\s*:\s*zero_point_linear_quantize\s*\((.*)\)\s*;\s*$')


def parse_quant(text, problems):
    """{identifier: {"zero_point", "scale", "bits", "signed", "symmetric"}}."""
    entries = {}
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        m = QUANT_LINE.match(line.strip())
        if not m:
            problems.append("graph.quant line %d: not a scalar zero_point_linear_quantize entry: %r" % (n, line))
            continue
        args = {}
        for part in m.group(2).split(","):
            k, _, v = part.partition("=")
            args[k.strip()] = v.strip()
        try:
            e = {"zero_point": int(args["zero_point"]), "scale": float(args["scale"]),
                 "bits": int(args["bits"]), "signed": args["signed"] == "true",
                 "symmetric": args["symmetric"] == "true"}
        except (KeyError, ValueError) as err:
            problems.append("graph.quant line %d: bad or missing attribute (%s)" % (n, err))
            continue
        if e["bits"] not in (8, 32) or e["scale"] <= 0:
            problems.append("graph.quant line %d: bits %d / scale %r (tract reads 8 or 32 bits, scale > 0)"
                            % (n, e["bits"], e["scale"]))
        if m.group(1) in entries:
            problems.append("graph.quant line %d: '%s' has two entries" % (n, m.group(1)))
        entries[m.group(1)] = e
    return entries


def load_packed_weights(path):
    """Quantized conv/linear weights of the model, by module path: (int8 numpy, scale, zero point),
    read with torch's own unpack operators (qnnpack, as the fixtures were made)."""
    import torch
    if "qnnpack" in torch.backends.quantized.supported_engines:
        torch.backends.quantized.engine = "qnnpack"
    out = {}
    try:
        m = torch.jit.load(path, map_location="cpu")
    except Exception:  # noqa: BLE001 - reported by load_model_tensors
        return out
    for name, mod in m.named_modules():
        if not hasattr(mod, "_packed_params"):
            continue
        packed = mod._packed_params
        if hasattr(packed, "_packed_params"):
            packed = packed._packed_params
        for unpack in (torch.ops.quantized.conv2d_unpack, torch.ops.quantized.linear_unpack):
            try:
                w = unpack(packed)[0]
            except Exception:  # noqa: BLE001 - not this kind of packed params
                continue
            if w.qscheme() == torch.per_tensor_affine:
                out[name] = (w.int_repr().reshape(-1).numpy(), w.q_scale(), w.q_zero_point())
            break
    return out


# ---------------------------------------------------------------------------
# report
# ---------------------------------------------------------------------------

def load_report(path, problems):
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        problems.append("%s: cannot read the report: %s" % (path, e))
        return {}
    entries = doc.get("variables", []) if isinstance(doc, dict) else None
    if not isinstance(entries, list):
        problems.append("%s: 'variables' is not a list" % path)
        return {}
    by_label = {}
    for n, e in enumerate(entries):
        if not isinstance(e, dict) or not isinstance(e.get("label"), str):
            problems.append("%s: variables[%d] has no string 'label'" % (path, n))
            continue
        if e.get("origin") not in ("parameter", "derived"):
            problems.append("%s: variables[%d] ('%s') has origin %r (expected 'parameter' or 'derived')"
                            % (path, n, e["label"], e.get("origin")))
            continue
        if e["label"] in by_label:
            problems.append("%s: variable '%s' is listed twice" % (path, e["label"]))
            continue
        by_label[e["label"]] = e
    return by_label


# ---------------------------------------------------------------------------
# main checks
# ---------------------------------------------------------------------------

def verify(archive_path, model_path, report_path):
    problems, warnings = [], []
    summary = {"archive": archive_path, "model": model_path, "report": report_path,
               "graph": None, "extensions": [], "variables": 0, "checked_against_parameters": 0,
               "derived": 0, "problems": problems, "warnings": warnings}
    archive = Archive(archive_path, problems, warnings)
    if problems and not archive.members:
        return summary
    if "graph.nnef" not in archive.members:
        problems.append("%s: no graph.nnef at the archive root" % archive_path)
        return summary
    raw = archive.read("graph.nnef")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        problems.append("graph.nnef: not valid UTF-8 (%s)" % e)
        return summary
    graph = parse_graph(text, problems)
    summary["graph"] = graph.name
    summary["extensions"] = graph.extensions
    summary["variables"] = len(graph.variables)

    report = load_report(report_path, problems) if report_path else {}
    tensors = load_model_tensors(model_path, problems)
    quant = parse_quant(archive.read("graph.quant").decode("utf-8", "replace"), problems) \
        if "graph.quant" in archive.members else {}
    packed = load_packed_weights(model_path) if quant and tensors is not None else {}
    summary["quantized"] = 0

    labels_seen = {}
    for var in graph.variables:
        label = var.label
        where = "variable '%s' (graph.nnef line %d)" % (label, var.line)
        if label in labels_seen:
            other = labels_seen[label]
            if other.shape != var.shape:
                problems.append("%s: label also used at line %d with a different shape" % (where, other.line))
            continue
        labels_seen[label] = var
        if label.startswith("/") or ".." in label.split("/"):
            problems.append("%s: label must be a relative path without '..'" % where)
            continue
        if any(part.startswith(".") for part in label.split("/")):
            problems.append("%s: a path component starts with '.', which tract ignores" % where)
            continue
        dat_name = label + ".dat"
        if dat_name not in archive.members:
            problems.append("%s: %s is missing from the archive" % (where, dat_name))
            continue
        dat = DatFile(archive.read(dat_name), dat_name)
        problems.extend(dat.problems)
        if not dat.header_ok:
            continue
        if dat.rank <= MAX_RANK and dat.extents != var.shape:
            problems.append("%s: %s extents %s differ from the declared shape %s"
                            % (where, dat_name, dat.extents, var.shape))
        if dat.vendor == 0 and dat.code in (CODE_QINT, CODE_QUINT):
            q = quant.get(var.ident)
            if q is None:
                problems.append("%s: %s holds quantized items but graph.quant has no entry for '%s'"
                                % (where, dat_name, var.ident))
            elif q["bits"] != dat.bits_per_item or q["signed"] != (dat.code == CODE_QINT):
                problems.append("%s: graph.quant says %d-bit %s, %s holds %s"
                                % (where, q["bits"], "signed" if q["signed"] else "unsigned", dat_name,
                                   CODE_NAMES[dat.code]))
            if var.type_name not in (None, "scalar"):
                problems.append("%s: a quantized variable is declared <%s>, not <scalar>" % (where, var.type_name))
            module = label[:-len(".weight")] if label.endswith(".weight") else None
            if q is not None and module in packed and dat.decodable():
                ints, scale, zp = packed[module]
                summary["quantized"] += 1
                summary["checked_against_parameters"] += 1
                if q["scale"] != scale or q["zero_point"] != zp:
                    problems.append("%s: graph.quant scale %r / zero point %d differ from the model's %r / %d"
                                    % (where, q["scale"], q["zero_point"], scale, zp))
                if not np.array_equal(dat.decode().astype(np.int64), ints.astype(np.int64)):
                    problems.append("%s: %s differs from the model's quantized weight of '%s'"
                                    % (where, dat_name, module))
                continue
        elif var.type_name is None:
            if dat.dtype_name and dat.code != CODE_FLOAT:
                warnings.append("%s: no type argument (NNEF default is scalar) but %s holds %s items"
                                % (where, dat_name, dat.dtype_name))
        elif var.type_name != "?":
            codes = TYPE_CODES.get(var.type_name)
            if codes is None:
                problems.append("%s: unknown variable type '%s'" % (where, var.type_name))
            elif dat.vendor == 0 and dat.code not in codes:
                problems.append("%s: declared variable<%s> but %s holds %s items"
                                % (where, var.type_name, dat_name, CODE_NAMES.get(dat.code, dat.code)))
        if not dat.decodable():
            continue
        values = dat.decode()
        warnings.extend(dat.warnings)

        entry = report.get(label)
        source_key = None
        if tensors is not None and label in tensors:
            source_key = label
        elif tensors is not None and entry and entry["origin"] == "parameter" and entry.get("from") in tensors:
            source_key = entry["from"]
        if source_key is not None:
            tensor = tensors[source_key]
            src = "model tensor '%s'" % source_key
            t_dtype = tensor_dtype_name(tensor)
            note = ""
            if t_dtype != dat.dtype_name:
                cast = (entry or {}).get("cast")
                documented = (isinstance(cast, dict) and cast.get("from") == t_dtype
                              and cast.get("to") == dat.dtype_name)
                if not documented:
                    problems.append("%s: %s holds %s but %s is %s, and the report does not document this "
                                    "cast (expected \"cast\": {\"from\": \"%s\", \"to\": \"%s\"})"
                                    % (where, dat_name, dat.dtype_name, src, t_dtype, t_dtype, dat.dtype_name))
                    summary["checked_against_parameters"] += 1
                    continue
                note = " (after the documented %s->%s cast)" % (t_dtype, dat.dtype_name)
            summary["checked_against_parameters"] += 1
            msg = compare_values(label, dat, values, tensor, src, note)
            if msg:
                problems.append(msg)
        elif entry is not None and entry["origin"] == "derived":
            summary["derived"] += 1
        elif entry is not None and entry["origin"] == "parameter":
            if tensors is not None:
                problems.append("%s: the report calls it a parameter, but neither the label nor its 'from' "
                                "(%r) is a parameter or buffer of the model" % (where, entry.get("from")))
        elif tensors is not None:
            problems.append("variable '%s' is not a model parameter and the report does not say where it "
                            "comes from" % label)

    for label, e in report.items():
        if label not in labels_seen:
            if e["origin"] == "parameter":
                problems.append("report: parameter variable '%s' is not in the archive" % label)
            else:
                warnings.append("report: derived variable '%s' is not in the archive" % label)

    referenced = {v.label + ".dat" for v in graph.variables}
    for name in sorted(archive.members):
        if name.endswith(".dat") and name not in referenced:
            warnings.append("%s is in the archive but no variable uses it" % name)
    for name in archive.ignored:
        warnings.append("%s: ignored (a path component starts with '.')" % name)
    return summary


def dat_mode(path, with_values):
    try:
        data = open(path, "rb").read()
    except OSError as e:
        print(json.dumps({"file": path, "problems": [str(e)]}, indent=2))
        return 1
    dat = DatFile(data, path)
    d = dat.header_dict()
    if dat.decodable():
        values = dat.decode()
        if with_values:
            d["values"] = [v.item() if not (isinstance(v.item(), float) and not math.isfinite(v.item()))
                           else repr(v.item()) for v in values]
    d["warnings"] = dat.warnings
    print(json.dumps(d, indent=2))
    return 1 if dat.problems else 0


def main(argv=None):
    ap = argparse.ArgumentParser(description="Check an NNEF archive against its TorchScript model.")
    ap.add_argument("archive", nargs="?", help="folder, .tar, .tgz or .tar.gz")
    ap.add_argument("--model", help="the TorchScript .pt the archive was exported from")
    ap.add_argument("--report", help="t2n export report (JSON) explaining derived variables")
    ap.add_argument("--json", action="store_true", help="print a JSON summary instead of text")
    ap.add_argument("--dat", metavar="FILE", help="print the decoded header of one .dat file as JSON")
    ap.add_argument("--values", action="store_true", help="with --dat: also print the decoded items")
    ap.add_argument("--batch", metavar="FILE",
                    help="verify many archives in one process: FILE is a JSON list of "
                         "{\"archive\", \"model\", \"report\"}; prints a JSON list of summaries")
    args = ap.parse_args(argv)

    if args.batch:
        jobs = json.load(open(args.batch))
        summaries = [verify(j["archive"], j["model"], j.get("report")) for j in jobs]
        print(json.dumps(summaries, indent=2))
        return 1 if any(s["problems"] for s in summaries) else 0

    if args.dat:
        if args.archive:
            ap.error("--dat takes no ARCHIVE")
        return dat_mode(args.dat, args.values)
    if not args.archive or not args.model:
        ap.error("ARCHIVE and --model are required (or use --dat FILE)")

    summary = verify(args.archive, args.model, args.report)
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        for p in summary["problems"]:
            print("error: %s" % " ".join(p.split()))
        for w in summary["warnings"]:
            print("warning: %s" % " ".join(w.split()), file=sys.stderr)
        if not summary["problems"]:
            print("OK: %d variables (%d checked against model tensors, %d derived)"
                  % (summary["variables"], summary["checked_against_parameters"], summary["derived"]))
    return 1 if summary["problems"] else 0


if __name__ == "__main__":
    sys.exit(main())
