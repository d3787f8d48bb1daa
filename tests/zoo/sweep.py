#!/usr/bin/python3
"""The library sweep: export and check every model of models.py with the real t2n binary.

Usage:
    /usr/bin/python3 tests/zoo/sweep.py --t2n BUILD/bin/t2n --out BUILD/zoo
        [--page docs/model-zoo.md] [--only GLOB ...] [--subset ci] [--expect-pass]
        [--keep-mb 150] [--timeout 1800] [--list] [--resume] [--made-with TEXT]

For each entry of models.ENTRIES and each of its forms (traced, scripted) it
  1. writes OUT/models/NAME.FORM.pt and NAME.inputs.npz (random weights, a fixed seed per
     entry), unless the cached files were made from the same builder source;
  2. runs `t2n export MODEL --input ... -o OUT/work/... --report ...`, one row at a time,
     floating inputs given as NAME:SHAPE:DTYPE (t2n's seeded random values), integer
     inputs as NAME=@NAME.inputs.npz#NAME (their values matter: lengths, token ids);
  3. records the row in OUT/results.json: verdict `passes` (exit 0, the check passed),
     `refused` (exit 4: unsupported operators, every node named) or `fails` (anything
     else: a check mismatch, another error, exit 10, a timeout), the largest absolute
     error of the check, the wall time of the t2n run and a note.
The page (--page) is written from every recorded row, so a run with --only updates those
rows and keeps the others.  Models above --keep-mb are deleted after their rows (they are
regenerated when needed) so that the cache stays a few GB.  --expect-pass exits 1 unless
every selected row passes, except the rows of models.KNOWN_FAILURES, which must fail (the
CTest subset).  Nothing is downloaded.
"""

import argparse
import fnmatch
import hashlib
import inspect
import json
import os
import re
import subprocess
import sys
import time
import warnings
import zlib

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import models  # noqa: E402  (after the path)

GENERATOR_VERSION = "2"  # 2: all-zero outputs re-drawn (ViT heads)
DTYPES = {torch.float32: "f32", torch.float16: "f16", torch.float64: "f64", torch.int64: "i64",
          torch.int32: "i32", torch.int16: "i16", torch.int8: "i8", torch.uint8: "u8",
          torch.bool: "bool"}


def seed_of(name):
    return zlib.crc32(name.encode("utf-8")) & 0x7FFFFFFF


def entry_key(e):
    h = hashlib.sha256()
    h.update((GENERATOR_VERSION + torch.__version__ + models.torchvision.__version__ +
              models.torchaudio.__version__ + models.source_key(e)).encode("utf-8"))
    return h.hexdigest()


def input_names(module, count):
    params = [p for p in inspect.signature(module.forward).parameters.values()
              if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    names = [p.name for p in params[:count]]
    return names if len(names) == count else ["input_%d" % i for i in range(count)]


def flat_tensors(out):
    """Every tensor of a forward's result (tensors, tuples, lists, dicts, named tuples)."""
    if isinstance(out, torch.Tensor):
        return [out]
    if isinstance(out, dict):
        out = list(out.values())
    if isinstance(out, (tuple, list)):
        return [t for o in out for t in flat_tensors(o)]
    return []


def output_is_zero(module, inputs):
    """True when every floating output is all zeros: a check would compare nothing."""
    with torch.no_grad():
        outs = [t for t in flat_tensors(module(*inputs)) if t.is_floating_point()]
    return bool(outs) and not any(t.any() for t in outs)


def redraw_zero_parameters(module, seed):
    """Draws every all-zero floating parameter from N(0, 0.02), seeded; returns their names.
    torchvision zero-initialises ViT heads, so a randomly initialised ViT outputs zeros."""
    gen, names = torch.Generator().manual_seed(seed), []
    with torch.no_grad():
        for name, p in module.named_parameters():
            if p.is_floating_point() and not p.any():
                p.copy_(torch.randn(p.shape, generator=gen) * 0.02)
                names.append(name)
    return names


def atomic_save(path, write):
    tmp = path + ".tmp"
    write(tmp)
    os.replace(tmp, path)


def generate(e, mdir):
    """Writes the entry's forms, inputs and metadata; returns the metadata."""
    torch.manual_seed(seed_of(e.name))
    started = time.time()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            module, inputs = e.build()
        except Exception as ex:  # the library cannot build it (not t2n's business)
            why = "%s: %s" % (type(ex).__name__, (str(ex).strip().splitlines() or [""])[0])
            meta = {"name": e.name, "key": entry_key(e), "inputs": [], "params_mb": 0,
                    "forms": {f: {"ok": False, "why": "building: " + why} for f in e.forms}}
            atomic_save(os.path.join(mdir, e.name + ".json"),
                        lambda p: open(p, "w").write(json.dumps(meta, indent=1)))
            return meta
        module.eval()
        names = input_names(module, len(inputs))
        meta = {"name": e.name, "key": entry_key(e), "forms": {},
                "inputs": [{"name": n, "shape": list(x.shape), "dtype": DTYPES[x.dtype]}
                           for n, x in zip(names, inputs)]}
        if output_is_zero(module, inputs):
            meta["redrawn"] = redraw_zero_parameters(module, seed_of(e.name))
            meta["zero_output"] = output_is_zero(module, inputs)
        atomic_save(os.path.join(mdir, e.name + ".inputs.npz"),
                    lambda p: np.savez(open(p, "wb"), **{n: x.numpy() for n, x in
                                                        zip(names, inputs)}))
        for form in e.forms:
            path = os.path.join(mdir, "%s.%s.pt" % (e.name, form))
            try:
                with torch.no_grad():
                    if form == "traced":
                        jit = torch.jit.trace(module, tuple(inputs), strict=False,
                                              check_trace=False)
                    else:
                        jit = torch.jit.script(module)
                atomic_save(path, lambda p: torch.jit.save(jit, p))
                meta["forms"][form] = {"ok": True}
            except Exception as ex:  # the library cannot make this form
                first = (str(ex).strip().splitlines() or [""])[0]
                meta["forms"][form] = {"ok": False, "why": "%s: %s" % (type(ex).__name__, first)}
    meta["params_mb"] = sum(p.numel() * p.element_size() for p in module.parameters()) / 2**20
    meta["generate_s"] = time.time() - started
    atomic_save(os.path.join(mdir, e.name + ".json"),
                lambda p: open(p, "w").write(json.dumps(meta, indent=1)))
    return meta


def cached_meta(e, mdir):
    path = os.path.join(mdir, e.name + ".json")
    try:
        meta = json.load(open(path))
    except (OSError, ValueError):
        return None
    if meta.get("key") != entry_key(e):
        return None
    for form, f in meta["forms"].items():
        if f["ok"] and not os.path.exists(os.path.join(mdir, "%s.%s.pt" % (e.name, form))):
            return None
    return meta


def cli_inputs(meta, mdir):
    npz = os.path.join(mdir, meta["name"] + ".inputs.npz")
    out = []
    for i in meta["inputs"]:
        if i["dtype"] in ("f32", "f16", "f64"):
            shape = "x".join(map(str, i["shape"])) or "scalar"
            out.append("%s:%s:%s" % (i["name"], shape, i["dtype"]))
        else:
            out.append("%s=@%s#%s" % (i["name"], npz, i["name"]))
    return out


def error_text(log):
    """The error t2n printed (from 't2n: error:' or 't2n: internal error:' on), one line."""
    m = re.search(r"t2n: (?:internal )?error: (.*)", log, re.S)
    text = m.group(1) if m else log.strip().splitlines()[-1] if log.strip() else "no output"
    return " ".join(text.split())


def short(text, limit=300):
    text = text.replace("|", "\\|")
    return text if len(text) <= limit else text[:limit - 1] + "…"


def proposed_inputs(args, model):
    """The inputs `t2n inspect --inputs --json` proposes for the model, or None with
    t2n's error when it proposes none."""
    try:
        proc = subprocess.run([args.t2n, "inspect", model, "--inputs", "--json"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              timeout=args.timeout)
    except subprocess.TimeoutExpired:
        return None, "timeout proposing inputs"
    if proc.returncode != 0:
        return None, error_text(proc.stderr.decode("utf-8", "replace"))
    return json.loads(proc.stdout.decode("utf-8"))["inputs"], None


def run_inferred(args, e, form, meta, mdir, row):
    """The verdict of the same export with no --input at all. When t2n proposes exactly
    the row's own floating inputs (same names, shapes and dtypes, t2n's seeded values),
    the export is the row's own, byte for byte, and its verdict is reused."""
    model = os.path.join(mdir, "%s.%s.pt" % (e.name, form))
    proposed, why = proposed_inputs(args, model)
    if proposed is None:
        return {"verdict": "fails", "why": "no inputs proposed: " + why}
    flags = " ".join(i["spec"] for i in proposed)
    if [i["spec"] for i in proposed] == cli_inputs(meta, mdir):
        return {"verdict": row["verdict"], "inputs": flags, "same": True}
    r = run_row(args, e, form, meta, mdir, inferred=True)
    out = {"verdict": r["verdict"], "inputs": flags, "same": False}
    if r.get("why"):
        out["why"] = r["why"]
    return out


def quantized_figures(report):
    """The quantized criterion's summary (check.quantized) and the outputs' end-to-end error in
    quantization steps, or None for a graph without quantized activations."""
    check = (report or {}).get("check") or {}
    q = check.get("quantized")
    if not q:
        return None
    outs = [o["quantized"] for o in check.get("outputs", []) if o.get("quantized")]
    elements = sum(o["elements"] for o in check.get("outputs", []) if o.get("quantized"))
    return {"values": q["values"], "exact": q["exact"], "off_by_one": q["off_by_one"],
            "beyond": q["beyond"], "worst_steps": q["worst_steps"], "worst_kind": q["worst_kind"],
            "output_max_steps": max((o["max_error_steps"] for o in outs), default=None),
            "output_off_by_one_share": (sum(o["off_by_one"] for o in outs) / elements
                                        if elements else None)}


def quantized_note(q):
    text = "quantized criterion: %d of %d quantized values exact, %d one step off" % (
        q["exact"], q["values"], q["off_by_one"])
    if q["beyond"]:
        text += ", %d beyond (worst %.3g steps, %s)" % (q["beyond"], q["worst_steps"],
                                                        q["worst_kind"])
    if q.get("output_max_steps") is not None:
        text += "; outputs: max %.3g steps, %.2f %% one step off" % (
            q["output_max_steps"], 100.0 * (q["output_off_by_one_share"] or 0))
    return text


def run_row(args, e, form, meta, mdir, inferred=False):
    wdir = os.path.join(args.out, "work")
    os.makedirs(os.path.join(args.out, "logs"), exist_ok=True)
    os.makedirs(wdir, exist_ok=True)
    stem = "%s.%s" % (e.name, form)
    model = os.path.join(mdir, stem + ".pt")
    if inferred:
        stem += ".inferred"
    archive = os.path.join(wdir, stem + ".nnef.tgz")
    report_path = os.path.join(wdir, stem + ".report.json")
    for p in (archive, report_path):
        if os.path.exists(p):
            os.remove(p)
    cmd = [args.t2n, "export", model]
    if not inferred:
        for spec in cli_inputs(meta, mdir):
            cmd += ["--input", spec]
    cmd += list(e.flags)
    cmd += ["-o", archive, "--report", report_path]
    started = time.time()
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              timeout=args.timeout)
        rc, log = proc.returncode, proc.stdout.decode("utf-8", "replace")
    except subprocess.TimeoutExpired as ex:
        rc, log = None, (ex.output or b"").decode("utf-8", "replace")
    seconds = time.time() - started
    with open(os.path.join(args.out, "logs", stem + ".log"), "w") as f:
        f.write(" ".join(cmd) + "\n\n" + log)
    report = None
    if os.path.exists(report_path):
        try:
            report = json.load(open(report_path))
        except ValueError:
            report = None
    max_abs = None
    if report and report.get("check"):
        errs = [o["max_abs_error"] for o in report["check"]["outputs"]
                if o.get("max_abs_error") is not None]
        max_abs = max(errs) if errs else None
    note = e.note
    if meta.get("redrawn"):  # say it: these weights are not the library's initialisation
        note = "; ".join(x for x in (note, "%d all-zero parameters re-drawn (seeded) so the "
                                     "output is not all zeros" % len(meta["redrawn"])) if x)
    row = {"model": e.name, "form": form, "family": e.family, "exit": rc, "seconds": seconds,
           "max_abs_error": max_abs, "note": note}
    quantized = quantized_figures(report)
    if quantized:  # docs/quantized.md: the criterion's counts and the outputs in steps
        row["quantized"] = quantized
    if rc == 0 and meta.get("zero_output"):
        row["verdict"] = "fails"
        row["why"] = "the model's output is all zeros: the check compared nothing"
    elif rc == 0:
        row["verdict"] = "passes"
    elif rc == 4 and re.search(r"\b\w+::\w+", error_text(log)):
        row["verdict"] = "refused"
        row["why"] = error_text(log)
    elif rc == 4:  # a refusal must name the nodes (kind, module, line) and why
        row["verdict"] = "fails"
        row["why"] = "exit 4 naming no node: " + error_text(log)
    elif rc is None:
        row["verdict"] = "fails"
        row["why"] = "timeout after %d s" % args.timeout
    elif rc == 1 and report and report.get("check"):
        bad = [o for o in report["check"]["outputs"] if not o["ok"]]
        row["verdict"] = "fails"
        row["why"] = "check: " + "; ".join(
            "%s max abs error %.3g, %d of %d elements off%s" % (
                o["name"], o["max_abs_error"], o["mismatches"], o["elements"],
                (" (" + o["note"] + ")") if o.get("note") else "") for o in bad)
        div = report["check"].get("divergence")
        if div:
            row["why"] += "; first divergence at %s (%s)" % (div["operation"], div["torch_node"])
    else:
        row["verdict"] = "fails"
        row["why"] = "exit %d%s: %s" % (rc, " (internal error, a bug)" if rc == 10 else "",
                                         error_text(log))
    # the archive, the report, and the recipe a failed export leaves for the studio
    for p in (archive, report_path, archive + ".recipe.json"):
        if os.path.exists(p):
            os.remove(p)
    return row


def selected(e, form, args):
    if args.subset == "ci" and form not in e.ci:
        return False
    if args.only and not any(fnmatch.fnmatch(e.name, g) or fnmatch.fnmatch("%s.%s" % (e.name, form), g)
                             for g in args.only):
        return False
    return True


def inferred_cell(inf):
    """`passes` (the row's own inputs), `passes: ids:1x16:i64=0..999`, or `fails: why`."""
    if not inf:
        return "—"
    if inf.get("same"):
        return "%s (same inputs)" % inf["verdict"]
    detail = inf.get("inputs") or ""
    if inf["verdict"] != "passes" and inf.get("why"):
        detail = (detail + "; " if detail else "") + inf["why"]
    return short("%s: %s" % (inf["verdict"], detail), 160) if detail else inf["verdict"]


def write_page(path, results, unmade, made_with=None):
    rows = [r for r in (results.get("%s/%s" % (e.name, f)) for e in models.ENTRIES
                        for f in e.forms) if r]
    counts = {v: sum(1 for r in rows if r["verdict"] == v) for v in ("passes", "refused", "fails")}
    inferred = [r["inferred"] for r in rows if r.get("inferred")]
    inferred_passes = sum(1 for i in inferred if i["verdict"] == "passes")
    # The rows' own times: a resumed or partial run's wall time would say nothing of the whole.
    export_s = sum(r.get("seconds", 0.0) for r in rows)
    lines = [
        "# Model zoo: torchvision 0.14 and torchaudio 0.13 through t2n",
        "",
        "Generated by `cmake --build build --target zoo` (`tests/zoo/sweep.py`); do not edit by hand.",
        "Every model builder of torchvision 0.14 (classification, segmentation, video, optical flow,",
        "quantized with qnnpack, the detection builders' backbones) and every model of",
        "torchaudio 0.13's `torchaudio.models`, with random weights from a fixed seed per model",
        "(BatchNorm statistics calibrated on seeded noise; a model whose output would be all zeros,",
        "as torchvision's zero-initialised ViT heads make it, has its all-zero parameters re-drawn,",
        "seeded, and its note says so), traced (`torch.jit.trace`, strict=False)",
        "and scripted (`torch.jit.script`) where the library supports it, exported with `t2n export`",
        "(default target: the newest tract) and checked by t2n against the TorchScript model.",
        "",
        "`verdict`: `passes` (exit 0: the archive computes what the model computes within tract's",
        "`approximate` tolerance), `refused` (exit 4: operators t2n does not translate, every node",
        "named; the note says which) or `fails` (anything else). `max abs error`: the largest absolute",
        "difference over the outputs in the check. `export s`: wall time of the `t2n export` run,",
        "check included, on a shared 2-core machine. `inferred inputs`: the",
        "verdict of the same export with no `--input` at all (t2n proposes the inputs from the",
        "model; `same inputs` when it proposed exactly the row's own, otherwise the flags it chose).",
        "",
    ] + ([made_with, ""] if made_with else []) + [
        "**%d rows: %d passes (%.1f %%), %d refused, %d fails.**%s" % (
            len(rows), counts["passes"], 100.0 * counts["passes"] / max(1, len(rows)),
            counts["refused"], counts["fails"],
            " `t2n export` time over all rows: %.0f min." % (export_s / 60) if export_s else ""),
        "",
        "**With no `--input` at all: %d of %d rows pass (%.1f %%).**" % (
            inferred_passes, len(inferred), 100.0 * inferred_passes / max(1, len(inferred))),
        "",
        "| model | form (traced/scripted) | verdict | inferred inputs | max abs error | export s "
        "| note |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        note = "; ".join(x for x in (r.get("note"), r.get("why"),
                                     quantized_note(r["quantized"]) if r.get("quantized") else None)
                         if x)
        err = "%.2g" % r["max_abs_error"] if r.get("max_abs_error") is not None else "—"
        lines.append("| %s | %s | %s | %s | %s | %.1f | %s |" % (
            r["model"], r["form"], r["verdict"], inferred_cell(r.get("inferred")), err,
            r["seconds"], short(note)))
    if unmade:
        lines += ["", "## Forms the library itself cannot produce", "",
                  "Not rows of the table: PyTorch fails before t2n is involved.", "",
                  "| model | form | why |", "|---|---|---|"]
        for (name, form), why in sorted(unmade.items()):
            lines.append("| %s | %s | %s |" % (name, form, short(why, 200)))
    lines += ["", "## Architectures of 2019-2025", "",
              "Not library models: 21 recent architectures written from their papers "
              "(tests/fixtures/modern_models.py: decoders with grouped-query attention and a KV "
              "cache, relative positions, shifted windows, codecs, detectors with top-k, FNO, "
              "PointPillars ...), traced and scripted, exported with their dynamic axes and "
              "checked at two sizes by the `modern_architectures` suite. Their table, with the "
              "reason of every row that does not pass: [modern-architectures.md]"
              "(modern-architectures.md)."]
    with open(path + ".tmp", "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(path + ".tmp", path)
    return counts, len(rows)


def save_results(path, saved, results, unmade):
    saved["rows"] = results
    saved["unmade"] = {"/".join(k): v for k, v in unmade.items()}
    with open(path + ".tmp", "w") as f:
        json.dump(saved, f, indent=1)
    os.replace(path + ".tmp", path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--t2n", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--page")
    ap.add_argument("--only", nargs="*", default=[])
    ap.add_argument("--subset", choices=["all", "ci"], default="all")
    ap.add_argument("--expect-pass", action="store_true")
    ap.add_argument("--keep-mb", type=float, default=150)
    ap.add_argument("--timeout", type=int, default=1800)
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--no-inferred", dest="inferred", action="store_false",
                    help="skip the 'inferred inputs' column (the export with no --input)")
    ap.add_argument("--made-with", metavar="TEXT",
                    help="a sentence for the page: which t2n made the rows, and how they ran")
    ap.add_argument("--resume", action="store_true",
                    help="skip the rows results.json already has (an interrupted sweep)")
    args = ap.parse_args()

    todo = [(e, [f for f in e.forms if selected(e, f, args)]) for e in models.ENTRIES]
    todo = [(e, forms) for e, forms in todo if forms]
    if args.list:
        for e, forms in todo:
            print(e.name, " ".join(forms), e.note)
        return 0
    mdir = os.path.join(args.out, "models")
    os.makedirs(mdir, exist_ok=True)
    results_path = os.path.join(args.out, "results.json")
    try:
        saved = json.load(open(results_path))
    except (OSError, ValueError):
        saved = {}
    results, unmade = saved.get("rows", {}), {tuple(k.split("/")): v for k, v in
                                              saved.get("unmade", {}).items()}
    sweep_started = time.time()
    bad = []
    if args.resume:
        todo = [(e, [f for f in forms if "%s/%s" % (e.name, f) not in results]) for e, forms in todo]
        todo = [(e, forms) for e, forms in todo if forms]
    for e, forms in todo:
        meta = cached_meta(e, mdir)
        if meta is None:
            print("[zoo] generating %s" % e.name, flush=True)
            meta = generate(e, mdir)
        for form in forms:
            key = "%s/%s" % (e.name, form)
            if not meta["forms"][form]["ok"]:
                unmade[(e.name, form)] = meta["forms"][form]["why"]
                results.pop(key, None)
                print("[zoo] %-40s %-8s not producible: %s" % (e.name, form,
                                                               meta["forms"][form]["why"]))
                continue
            unmade.pop((e.name, form), None)
            row = run_row(args, e, form, meta, mdir)
            if args.inferred:
                row["inferred"] = run_inferred(args, e, form, meta, mdir, row)
            results[key] = row
            print("[zoo] %-40s %-8s %-7s %6.1f s  %s" % (
                e.name, form, row["verdict"], row["seconds"], short(row.get("why", ""), 200)),
                flush=True)
            known = models.KNOWN_FAILURES.get("%s/%s" % (e.name, form))
            if row["verdict"] != "passes" and not known:
                bad.append(key)
            elif row["verdict"] == "passes" and known:
                bad.append(key + " (now passes: remove it from models.KNOWN_FAILURES)")
        if meta["params_mb"] > args.keep_mb:
            for form in e.forms:
                path = os.path.join(mdir, "%s.%s.pt" % (e.name, form))
                if os.path.exists(path):
                    os.remove(path)
        save_results(results_path, saved, results, unmade)
    total = time.time() - sweep_started
    if args.page:
        counts, n = write_page(args.page, results, unmade, args.made_with)
        print("[zoo] %d rows: %d passes, %d refused, %d fails; page %s" % (
            n, counts["passes"], counts["refused"], counts["fails"], args.page))
    print("[zoo] this run: %.0f s" % total)
    if args.expect_pass and bad:
        print("[zoo] not as expected: %s" % ", ".join(bad))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
