#!/usr/bin/python3
"""Cross-check of t2n's Khronos archives with Khronos NNEF-Tools' own PyTorch interpreter.

Usage:
    /usr/bin/python3 tests/zoo/khronos_crosscheck.py --nnef-tools DIR --t2n BUILD/bin/t2n
        [--out /tmp/khronos-xcheck] [--only GLOB ...] [--page docs/khronos-crosscheck.md]

DIR is a checkout of https://github.com/KhronosGroup/NNEF-Tools whose parser extension is built
in place (cd DIR/nnef-pyproject && python3 setup.py build_ext --inplace).  Nothing is downloaded;
without --nnef-tools, or when its modules do not import, the script says so and exits 0.  It is
not part of CI: an independent judge run by hand (docs/khronos-crosscheck.md has its results).

For each torchvision classifier of the sweep (tests/zoo/models.py; random weights, a fixed seed
per model, generated into OUT/models by sweep.generate) it
  1. exports the traced model with `t2n export --target khronos`, as a folder, fed the entry's
     own example inputs (saved as .npy, so that all three runs see the same values);
  2. runs the .pt with torch (TorchScript's outputs, the reference);
  3. runs the folder with NNEF-Tools' nnef_tools.interpreter.pytorch.Interpreter (their parser
     reads and validates graph.nnef against the standard's fragments, their PyTorch operators
     compute it) and compares its outputs with TorchScript's at t2n's `approximate` level
     (|got - ref| <= 1e-4 + 5e-4 |ref|, elementwise); NNEF-Tools' nnef.infer_shapes (the
     standard's shape rules) must give TorchScript's output shapes;
  4. when they agree, runs both again in float64, where rounding no longer hides a difference.
t2n's own check (its reference interpreter in Khronos mode) is read from the export's report.
A model whose output is identically zero (torchvision zero-initialises ViT heads) has its
all-zero parameters re-drawn, seeded, by sweep.generate, which made the models compared.  Results go to OUT/results.json (one row per
model, kept across runs) and, with --page, to the page, whose hand-written Findings are kept.
"""

import argparse
import collections
import fnmatch
import functools
import json
import os
import platform
import re
import subprocess
import sys
import time
import traceback

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import models  # noqa: E402  (after the path)
import sweep  # noqa: E402

ATOL, RTOL = 1e-4, 5e-4  # t2n's `approximate` level for f32 (engine/src/check/compare.cpp)
FAMILY = "torchvision classification"
FINDINGS = "## Findings"


def import_nnef_tools(root):
    """NNEF-Tools' Interpreter class from a checkout, or (None, why)."""
    if not root:
        return None, "no --nnef-tools DIR given"
    # the 2025 layout (nnef-pyproject, nnef_tools-pyproject), then the older one (parser/python)
    for sub in ("nnef-pyproject", "nnef_tools-pyproject", os.path.join("parser", "python"), ""):
        path = os.path.join(root, sub)
        if os.path.isdir(path):
            sys.path.insert(0, path)
    try:
        import nnef  # noqa: F401  (the C++ parser extension, _nnef)
        from nnef_tools.interpreter.pytorch import Interpreter
    except ImportError as ex:
        return None, "NNEF-Tools does not import from %s (%s); build its parser in place first" % (
            root, ex)
    return Interpreter, None


def git_commit(root):
    try:
        return subprocess.run(["git", "-C", root, "rev-parse", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def op_counts(folder):
    """How many times each operation appears in graph.nnef."""
    text = open(os.path.join(folder, "graph.nnef")).read()
    return collections.Counter(re.findall(r"=\s*([a-z_][a-z0-9_]*)\s*(?:<[^>]*>)?\s*\(", text))


def compare(got, ref):
    got, ref = np.asarray(got, dtype=np.float64), np.asarray(ref, dtype=np.float64)
    if got.shape != ref.shape:
        return {"shape": [list(got.shape), list(ref.shape)], "ok": False}
    diff = np.abs(got - ref)
    beyond = int(np.sum(~(diff <= ATOL + RTOL * np.abs(ref))))
    return {"max_abs": float(diff.max()) if diff.size else 0.0, "beyond": beyond,
            "elements": int(diff.size), "ok": beyond == 0}


def t2n_export(args, meta, pt, wdir, inputs):
    name = meta["name"]
    folder = os.path.join(wdir, name + ".nnef")
    report_path = os.path.join(wdir, name + ".report.json")
    cmd = [args.t2n, "export", pt, "--target", "khronos",
           "--compression", "none", "-o", folder, "--report", report_path, "--input"]
    for i in meta["inputs"]:
        npy = os.path.join(wdir, "%s.%s.npy" % (name, i["name"]))
        np.save(npy, inputs[i["name"]])
        cmd.append("%s=@%s" % (i["name"], npy))
    if os.path.exists(folder):
        subprocess.run(["rm", "-rf", folder], check=True)
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True)
    except OSError as ex:  # e.g. the binary being relinked
        proc = subprocess.CompletedProcess(cmd, 127, "", "t2n: error: %s" % ex)
    report = json.load(open(report_path)) if os.path.exists(report_path) else {}
    errs = [o["max_abs_error"] for o in (report.get("check") or {}).get("outputs", [])
            if o.get("max_abs_error") is not None]
    return folder, proc, (max(errs) if errs else None)


def run_row(args, Interpreter, e, mdir, wdir):
    import nnef  # importable once import_nnef_tools has put the checkout on the path
    row = {"model": e.name, "exports": False}
    meta = sweep.cached_meta(e, mdir) or sweep.generate(e, mdir)
    if not meta["forms"].get("traced", {}).get("ok"):
        row["why"] = "not generated: " + meta["forms"].get("traced", {}).get("why", "?")
        return row
    npz = np.load(os.path.join(mdir, e.name + ".inputs.npz"))
    inputs = {i["name"]: npz[i["name"]] for i in meta["inputs"]}
    args_ = [inputs[i["name"]] for i in meta["inputs"]]
    pt = os.path.join(mdir, e.name + ".traced.pt")
    ref = torch_outputs(torch.jit.load(pt).eval(), args_)
    # sweep.generate re-draws the all-zero parameters of a model whose output is all zeros
    # (torchvision zero-initialises ViT heads): there would be nothing to compare.
    row["redrawn"] = meta.get("redrawn", [])

    started = time.time()
    folder, proc, row["t2n_max_abs"] = t2n_export(args, meta, pt, wdir, inputs)
    row["t2n_seconds"] = time.time() - started
    row["exports"] = proc.returncode == 0
    if not row["exports"]:
        row["why"] = "t2n exit %d: %s" % (proc.returncode, sweep.error_text(proc.stderr + proc.stdout))
        return row
    row["ops"] = op_counts(folder)


    started = time.time()
    try:
        interp = Interpreter(folder, device="cpu")
        out = interp([inputs[t.name] for t in interp.input_details()])
        row["nnef_tools_seconds"] = time.time() - started
        names = [t.name for t in interp.output_details()]
        # the standard's shape rules, as NNEF-Tools' parser applies them (its interpreter
        # does not: it runs on the declared shapes of the externals only)
        graph = nnef.load_graph(folder)
        nnef.infer_shapes(graph)
        inferred = [graph.tensors[n].shape for n in names]
    except Exception as ex:  # the finding: something NNEF-Tools cannot read or run
        row["why"] = "NNEF-Tools: %s: %s" % (type(ex).__name__, str(ex).strip().splitlines()[0]
                                             if str(ex).strip() else "")
        row["traceback"] = traceback.format_exc()
        return row
    row["shapes_agree"] = inferred == [list(r.shape) for r in ref]
    cmp = [compare(out[n], r) for n, r in zip(names, ref)]
    row["nnef_tools_max_abs"] = max(c.get("max_abs", float("inf")) for c in cmp)
    row["nnef_tools_beyond"] = sum(c.get("beyond", 0) for c in cmp)
    row["agrees"] = len(names) == len(ref) and all(c["ok"] for c in cmp) and row["shapes_agree"]
    if not row["agrees"]:
        row["why"] = "NNEF-Tools vs TorchScript: %s, infer_shapes %s" % (
            json.dumps(cmp), "agrees" if row["shapes_agree"] else "disagrees")
    if row["agrees"]:
        row["f64_max_abs"], row["f64_why"] = compare_in_f64(interp, pt, inputs, meta, names)
    subprocess.run(["rm", "-rf", folder], check=True)  # a few hundred MB for the large ones
    return row


def torch_outputs(module, args):
    with torch.no_grad():
        out = module(*[torch.from_numpy(a) for a in args])
    return [t.numpy() for t in (out if isinstance(out, (tuple, list)) else (out,))]


def decimal_attributes(operator, *args, **attribs):
    """NNEF-Tools' parser holds float attributes as C++ floats: `epsilon = 1.0e-03` arrives as
    0.0010000000475, which moves a channel of near-zero variance by 5e-8 (relative) and sets the
    f64 comparison's floor.  The shortest decimal of that float is the text t2n wrote (when it
    wrote at most 8 digits), so the f64 run gets the attribute the archive states."""
    return operator(*args, **{k: float(repr(np.float32(v))) if isinstance(v, float) else v
                              for k, v in attribs.items()})


def compare_in_f64(interp, pt, inputs, meta, names):
    """Both sides in float64: f32 rounding (a few ulps per layer, amplified by depth) no longer
    hides a semantic difference, which would stay far above 1e-9.  (max abs error, why not)."""
    def f64(a):
        return a.astype(np.float64) if a.dtype.kind == "f" else a
    try:
        ref = torch_outputs(torch.jit.load(pt).eval().double(),
                            [f64(inputs[i["name"]]) for i in meta["inputs"]])
        interp._nnef_module.double()
        ops = interp._nnef_module._operators
        for kind, f in list(ops.items()):
            ops[kind] = functools.partial(decimal_attributes, f)
        out = interp([f64(inputs[t.name]) for t in interp.input_details()])
        return max(float(np.abs(out[n] - r).max()) for n, r in zip(names, ref)), None
    except Exception as ex:  # a model that builds f32 tensors in forward() cannot run in f64
        return None, "%s: %s" % (type(ex).__name__, (str(ex).strip().splitlines() or [""])[0])


def drop_if_large(mdir, name, keep_mb):
    """As the sweep does: the large models are regenerated when needed, the cache stays small."""
    pts = [os.path.join(mdir, "%s.%s.pt" % (name, form)) for form in ("traced", "scripted")]
    if sum(os.path.getsize(p) for p in pts if os.path.exists(p)) > keep_mb * 2**20:
        for p in pts:
            if os.path.exists(p):
                os.remove(p)


def fmt(v):
    return "—" if v is None else "0" if v == 0 else "%.2g" % v


def write_page(path, results, env):
    rows = [results[e.name] for e in models.ENTRIES if e.name in results]
    ok = sum(1 for r in rows if r.get("agrees"))
    lines = [
        "# Khronos cross-check: t2n's Khronos archives run by Khronos NNEF-Tools' interpreter",
        "",
        "Generated by `tests/zoo/khronos_crosscheck.py` (by hand, not CI). Each torchvision "
        "classifier of the [sweep](model-zoo.md) (random weights, fixed seed, traced) is exported "
        "with `t2n export --target khronos` and the archive is run by Khronos NNEF-Tools' own "
        "PyTorch interpreter (`nnef_tools.interpreter.pytorch`, its C++ parser reading "
        "`graph.nnef` with the standard's fragments), fed the same input as TorchScript. "
        "Agreement is t2n's `approximate` level: |NNEF-Tools − TorchScript| <= 1e-4 + 5e-4 "
        "|TorchScript| elementwise, and NNEF-Tools' `nnef.infer_shapes` giving TorchScript's "
        "output shapes. `t2n check`: the export's own check (t2n's reference interpreter in "
        "Khronos mode). `both in f64`: the model and NNEF-Tools' module run again in float64 "
        "(float attributes restored to their decimals, see Findings), where f32 rounding no "
        "longer hides a semantic difference. Regenerate with `--page`; the Findings below are "
        "kept.",
        "",
        "- machine: %s" % env["machine"],
        "- date: %s" % env["date"],
        "- NNEF-Tools: %s" % env["nnef_tools"],
        "- t2n: %s" % env["t2n"],
        "- torch %s, torchvision %s, numpy %s" % (torch.__version__, models.torchvision.__version__,
                                                  np.__version__),
        "",
        "%d of %d models agree." % (ok, len(rows)),
        "",
        "| model | exports | t2n check max abs error | NNEF-Tools vs TorchScript max abs error "
        "| elements beyond | same, both in f64 | NNEF operations | verdict |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        verdict = "agrees" if r.get("agrees") else sweep.short(r.get("why", "?"), 200)
        if r.get("redrawn"):  # the model's own output is all zeros
            verdict += " (%d zero-initialised parameters re-drawn: %s)" % (
                len(r["redrawn"]), ", ".join("`%s`" % n for n in r["redrawn"][-2:]) +
                (", ..." if len(r["redrawn"]) > 2 else ""))
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["model"], "yes" if r["exports"] else "no", fmt(r.get("t2n_max_abs")),
            fmt(r.get("nnef_tools_max_abs")), r.get("nnef_tools_beyond", "—"),
            fmt(r.get("f64_max_abs")) if not r.get("f64_why") else "— (%s)" % r["f64_why"],
            sum(r.get("ops", {}).values()) or "—", verdict))
    kinds = collections.Counter()
    for r in rows:
        kinds.update(r.get("ops", {}))
    lines += ["", "Operations exercised (count over all archives): " +
              ", ".join("`%s` %d" % kv for kv in sorted(kinds.items())) + ".", ""]
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nnef-tools", help="NNEF-Tools checkout with the parser built in place")
    ap.add_argument("--t2n", required=True)
    ap.add_argument("--out", default="/tmp/khronos-xcheck")
    ap.add_argument("--only", nargs="*", default=[])
    ap.add_argument("--keep-mb", type=float, default=150,
                    help="delete a model's .pt files after its row when above this size")
    ap.add_argument("--page", help="write the results page (all rows of OUT/results.json)")
    ap.add_argument("--nnef-tools-commit", help="the checkout's commit, when DIR is no git tree")
    args = ap.parse_args()

    Interpreter, why = import_nnef_tools(args.nnef_tools)
    if Interpreter is None:
        print("khronos_crosscheck: skipped: %s" % why)
        return 0
    mdir, wdir = os.path.join(args.out, "models"), os.path.join(args.out, "work")
    os.makedirs(mdir, exist_ok=True)
    os.makedirs(wdir, exist_ok=True)
    results_path = os.path.join(args.out, "results.json")
    results = json.load(open(results_path)) if os.path.exists(results_path) else {}

    for e in models.ENTRIES:
        if e.family != FAMILY or (args.only and not any(fnmatch.fnmatch(e.name, g)
                                                        for g in args.only)):
            continue
        row = run_row(args, Interpreter, e, mdir, wdir)
        results[e.name] = row
        drop_if_large(mdir, e.name, args.keep_mb)
        print("%-22s exports=%s t2n=%s nnef-tools=%s f64=%s %s" % (
            e.name, row["exports"], fmt(row.get("t2n_max_abs")),
            fmt(row.get("nnef_tools_max_abs")), fmt(row.get("f64_max_abs")),
            "agrees" if row.get("agrees") else
            row.get("why", "")), flush=True)
        with open(results_path, "w") as f:
            json.dump(results, f, indent=1)

    if args.page:
        env = {"machine": "%s, %s, %d cores" % (platform.platform(), platform.processor() or
                                                platform.machine(), os.cpu_count()),
               "date": time.strftime("%Y-%m-%d", time.gmtime()),
               "t2n": "%s, built from commit %s" % (
                   subprocess.run([args.t2n, "--version"], capture_output=True,
                                  text=True).stdout.strip().splitlines()[0],
                   git_commit(os.path.dirname(os.path.abspath(args.t2n))) or "?"),
               "nnef_tools": args.nnef_tools_commit or git_commit(args.nnef_tools) or "?"}
        lines = write_page(args.page, results, env)
        # the hand-written part (from FINDINGS on) survives a regeneration
        if os.path.exists(args.page):
            text = open(args.page).read()
            if FINDINGS in text:
                lines += text[text.index(FINDINGS):].splitlines()
        with open(args.page, "w") as f:
            f.write("\n".join(lines).rstrip() + "\n")
    return 0 if all(r.get("agrees") for r in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
