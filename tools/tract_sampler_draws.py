#!/usr/bin/python3
"""Runs real tract on the gamma / Poisson samplers' arithmetic with draws fed from outside.

Usage:
    /usr/bin/python3 tools/tract_sampler_draws.py --tract TRACT --t2n BUILD/bin/t2n
        [--deepar ../shared/realworld/djl_gluonts_deepar.pt] [--runs 30] [--work DIR]

A tract built without its onnx feature has no tract_onnx registry, so it cannot read an
archive that draws (tract_onnx_random). This script exports the samplers (issue 39,
engine/src/translate/lower_samplers.cpp), turns each tract_onnx_random statement into a
tract_core_external input of the same shape and dtype, feeds numpy's uniform / normal draws
of the law the statement names, and lets tract (-O) run every other operation. Its outputs are
then compared with PyTorch's own samplers (a grid of parameters, 100,000 draws each) and,
with --deepar, with the DeepAR forecaster's own outputs per forecast step (--runs runs of its
100 paths, for a history of N(0,1) values and one of Poisson(50) counts): mean within 5
standard errors and the two-sample Kolmogorov-Smirnov distance within its 1e-6 level.
Nothing here is a tract build or fetch: give the path of a tract binary you have.
"""

import argparse
import math
import os
import re
import shutil
import subprocess
import sys

import numpy as np
import torch

DRAW = re.compile(r"^(\s*)(\w+) = tract_onnx_random\(datum_type = '(\w+)', shape = \[([^\]]*)\], "
                  r"dist = '(\w+)', parameters = \[([^\]]*)\]\);", re.M)
DEEPAR_INPUTS = ["cat_feature_slice:1x1:i64=0", "feat_static_real:1x1:f32", "past_time_feat:1x200x3:f32",
                 "past_target:1x200:f32", "past_observed_values:1x200:f32=1", "future_time_feat:1x4x3:f32"]
rng = np.random.default_rng(2026)


def export(args, model, out, inputs):
    if os.path.exists(out):
        shutil.rmtree(out)
    cmd = [args.t2n, "export", model, "-o", out, "--compression", "none"]
    for i in inputs:
        cmd += ["--input", i]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("t2n export failed: " + p.stderr[-2000:])


def externalize(src, dst):
    """Copies the folder archive `src` to `dst` with every draw made an input."""
    if os.path.exists(dst):
        shutil.rmtree(dst)
    shutil.copytree(src, dst)
    graph = open(os.path.join(dst, "graph.nnef")).read()
    draws = []

    def external(m):
        indent, name, dtype, shape, dist, params = m.groups()
        draws.append((name, dtype, [int(s) for s in shape.split(",")], dist,
                      [float(p) for p in params.split(",")]))
        return f"{indent}{name} = tract_core_external(shape = [{shape}], datum_type = '{dtype}');"

    graph = DRAW.sub(external, graph).replace("extension tract_registry tract_onnx;\n", "")
    m = re.search(r"graph (\w+)\(([^)]*)\)", graph)
    graph = graph[:m.start()] + f"graph {m.group(1)}({', '.join([m.group(2)] + [d[0] for d in draws])})" \
        + graph[m.end():]
    open(os.path.join(dst, "graph.nnef"), "w").write(graph)
    return draws


def drawn(draws):
    out = {}
    for name, dtype, shape, dist, (a, b) in draws:
        v = rng.uniform(a, b, shape) if dist == "uniform" else rng.normal(a, b, shape)
        out[name] = v.astype(np.float64 if dtype == "f64" else np.float32)
    return out


def run_tract(args, archive, inputs):
    io, out = os.path.join(args.work, "io.npz"), os.path.join(args.work, "out.npz")
    np.savez(io, **inputs)
    p = subprocess.run([args.tract, archive, "--nnef-tract-core", "--nnef-tract-pulse", "--nnef-tract-extra",
                        "--nnef-tract-transformers", "-O", "run", "--input-from-bundle", io,
                        "--allow-missing-outputs", "--save-outputs", out], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("tract failed: " + p.stderr[-2000:])
    z = np.load(out)
    return z[z.files[0]]


def agrees(what, ours, theirs):
    ours, theirs = np.sort(ours.ravel().astype(np.float64)), np.sort(theirs.ravel().astype(np.float64))
    n, m = ours.size, theirs.size
    se = math.sqrt(ours.var() / n + theirs.var() / m + 1e-300)
    points = np.concatenate([ours, theirs])
    ks = np.abs(np.searchsorted(ours, points, "right") / n - np.searchsorted(theirs, points, "right") / m).max()
    bound = 2.63 * math.sqrt((n + m) / (n * m))
    ok = abs(ours.mean() - theirs.mean()) <= 5 * se and ks <= bound
    print(f"{what}: tract mean {ours.mean():.6g} var {ours.var():.6g} | PyTorch mean {theirs.mean():.6g} "
          f"var {theirs.var():.6g} | {abs(ours.mean() - theirs.mean()) / se:.2f} se | KS {ks:.4f} "
          f"(bound {bound:.4f}) {'ok' if ok else 'DIFFERS'}", flush=True)
    return ok


class Gamma(torch.nn.Module):
    def forward(self, x):
        return torch._standard_gamma(x)


class Poisson(torch.nn.Module):
    def forward(self, x):
        return torch.poisson(x)


def grid(args):
    n, ok = 100000, True
    for name, module, fill, params, ref in [
            ("gamma", Gamma(), 1.5, [0.05, 0.3, 0.9, 1.0, 1.7, 4.0, 25.0, 400.0], torch._standard_gamma),
            ("poisson", Poisson(), 4.0, [0.0, 0.2, 1.0, 4.5, 9.99, 10.0, 17.3, 150.0, 4000.0, 1e6], torch.poisson)]:
        model = os.path.join(args.work, name + ".pt")
        torch.jit.script(module).save(model)
        archive = os.path.join(args.work, name + ".nnef")
        export(args, model, archive, [f"x:{n}:f32={fill}"])
        draws = externalize(archive, archive + ".external")
        for p in params:
            inputs = {"x": np.full(n, p, np.float32)}
            inputs.update(drawn(draws))
            ours = run_tract(args, archive + ".external", inputs)
            ok &= agrees(f"{name}({p})", ours, ref(torch.full((n,), float(p))).numpy())
    return ok


def deepar(args):
    archive = os.path.join(args.work, "deepar.nnef")
    export(args, args.deepar, archive, DEEPAR_INPUTS)
    draws = externalize(archive, archive + ".external")
    model = torch.jit.load(args.deepar)
    g = torch.Generator().manual_seed(7)
    ok = True
    for history in ("N(0,1)", "Poisson(50)"):
        ins = {"cat_feature_slice": torch.zeros(1, 1, dtype=torch.long), "feat_static_real": torch.randn(1, 1, generator=g),
               "past_time_feat": torch.randn(1, 200, 3, generator=g),
               "past_target": torch.randn(1, 200, generator=g) if history == "N(0,1)"
               else torch.poisson(torch.full((1, 200), 50.0), generator=g),
               "past_observed_values": torch.ones(1, 200), "future_time_feat": torch.randn(1, 4, 3, generator=g)}
        order = [s.split(":")[0] for s in DEEPAR_INPUTS]
        ours, theirs = [], []
        for _ in range(args.runs):
            feed = {k: v.numpy() for k, v in ins.items()}
            feed.update(drawn(draws))
            ours.append(run_tract(args, archive + ".external", feed))
            with torch.no_grad():
                theirs.append(model(*[ins[k] for k in order]).numpy())
        ours, theirs = np.concatenate(ours, 0), np.concatenate(theirs, 0)
        for step in range(ours.shape[-1]):
            ok &= agrees(f"deepar history {history} step {step + 1}", ours[..., step], theirs[..., step])
    return ok


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tract", required=True)
    p.add_argument("--t2n", required=True)
    p.add_argument("--deepar", help="djl_gluonts_deepar.pt (MANIFEST.tsv of ../shared/realworld)")
    p.add_argument("--runs", type=int, default=30)
    p.add_argument("--work", default="/tmp/tract-sampler-draws")
    args = p.parse_args()
    os.makedirs(args.work, exist_ok=True)
    ok = grid(args)
    if args.deepar:
        ok &= deepar(args)
    print("every law agrees" if ok else "some laws differ")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
