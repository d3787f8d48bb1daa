#!/usr/bin/python3
"""Failures of the Python module t2n: each raises the class of its exit
category (the `t2n` CLI's exit code for the same failure), with the engine's
message, and writes nothing; Ctrl+C cancels; the GIL is released during an
export; `import torch` and t2n share one LibTorch.

Run by CTest (python.errors) like test_export.py.
"""

import os
import pathlib
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
import unittest

import torch
from torch import nn

import t2n
from support import CLI, FolderTest
from t2n import TractNNEF, export_model_to_nnef



class Unsupported(nn.Module):
    """aten::linalg_pinv, which no target of t2n expresses."""

    def __init__(self):
        super().__init__()
        self.block = nn.Sequential(nn.Linear(6, 6))

    def forward(self, x):
        return torch.linalg.pinv(self.block(x))


class ErrorsTest(FolderTest):
    def assertNothingWritten(self):
        self.assertEqual(sorted(p.name for p in self.dir.iterdir()), [])

    # The refused model raises UnsupportedOperatorError (the CLI exits 4 on
    # the same model), naming the operator, its module path and this file's
    # line; torch_to_nnef's class name catches it too.
    def test_unsupported_operator(self):
        model = Unsupported().eval()
        x = torch.randn(2, 6)
        with self.assertRaises(t2n.UnsupportedOperatorError) as caught:
            export_model_to_nnef(model, (x,), self.dir / "m.nnef.tgz", TractNNEF.latest())
        e = caught.exception
        self.assertIsInstance(e, t2n.T2NErrorNotImplemented)
        self.assertIsInstance(e, t2n.T2NError)
        self.assertEqual(e.exit_code, 4)
        self.assertEqual(e.stage, "translate")
        self.assertIn("aten::linalg_pinv", e.message)
        kinds = {n.get("kind"): n for n in e.nodes}
        self.assertIn("aten::linalg_pinv", kinds)
        self.assertEqual(kinds["aten::linalg_pinv"]["source_file"], __file__)
        self.assertTrue(e.hint)
        self.assertIn("aten::linalg_pinv", str(e))
        self.assertNothingWritten()
        # The CLI says the same with its exit code.
        path = pathlib.Path(tempfile.mkdtemp(prefix="t2n-python-cli-")) / "u.pt"
        with torch.no_grad():
            torch.jit.save(torch.jit.trace(model, (x,)), str(path))
        cli = subprocess.run(
            [CLI, "export", str(path), "--input", "x:2x6:f32", "-o", str(path) + ".nnef.tgz"],
            capture_output=True,
        )
        self.assertEqual(cli.returncode, e.exit_code)

    def test_model_file(self):
        garbage = pathlib.Path(tempfile.mkdtemp(prefix="t2n-python-in-")) / "garbage.pt"
        garbage.write_bytes(b"not a zip at all")
        with self.assertRaises(t2n.ModelFileError) as caught:
            export_model_to_nnef(garbage, torch.zeros(1), self.dir / "m.nnef.tgz",
                                 TractNNEF.latest())  # fmt: skip
        self.assertEqual(caught.exception.exit_code, 3)
        self.assertIn("garbage.pt", caught.exception.message)
        self.assertNothingWritten()

    def test_model_run(self):
        # Wrong input size: torch.jit.trace fails in this process.
        with self.assertRaises(t2n.ModelRunError) as caught:
            export_model_to_nnef(Unsupported(), torch.randn(2, 5), self.dir / "m.nnef.tgz",
                                 TractNNEF.latest())  # fmt: skip
        self.assertEqual(caught.exception.exit_code, 6)
        self.assertIsInstance(caught.exception.__cause__, RuntimeError)
        self.assertNothingWritten()

    def test_usage(self):
        x = torch.randn(2, 6)
        model = nn.Linear(6, 3)
        cases = {
            "two names, one arg": dict(input_names=["a", "b"]),
            "bad scheme": dict(nnef_variable_naming_scheme="short"),
            "bad level": dict(compression_level=12),
            "extensions as a set": dict(custom_extensions={"tract_assert B >= 1"}),
        }
        for what, kwargs in cases.items():
            with self.subTest(what), self.assertRaises(t2n.UsageError) as caught:
                export_model_to_nnef(model, (x,), self.dir / "m.nnef.tgz", TractNNEF.latest(),
                                     **kwargs)  # fmt: skip
            self.assertIsInstance(caught.exception, ValueError)
            self.assertEqual(caught.exception.exit_code, 2)
        with self.assertRaises(t2n.UsageError):
            export_model_to_nnef(model, (3.0,), self.dir / "m.nnef.tgz", TractNNEF.latest())
        with self.assertRaises(t2n.UsageError):
            export_model_to_nnef(model, (x,), self.dir / "m.nnef.tgz", "tract")
        self.assertNothingWritten()

    # Issue 42: an extension that is not a string was written as "None"; a
    # bytes path failed with TypeError ("not JSON serializable"); a lone
    # surrogate (bytes that are not UTF-8, as os.fsdecode gives them)
    # surfaced the engine's JSON parse error.
    def test_path_and_extension_types(self):
        x = torch.randn(2, 6)
        model = nn.Linear(6, 3)
        with self.assertRaises(t2n.UsageError) as caught:
            export_model_to_nnef(model, x, self.dir / "m.nnef.tgz", TractNNEF.latest(),
                                 custom_extensions=[None])  # fmt: skip
        self.assertIn("custom_extensions[0] is a NoneType", caught.exception.message)
        with self.assertRaises(t2n.UsageError) as caught:
            export_model_to_nnef(model, x, str(self.dir) + "/\udcff.nnef.tgz", TractNNEF.latest())
        self.assertIn("file_path_export", caught.exception.message)
        self.assertIn("not UTF-8", caught.exception.message)
        self.assertNotIn("json", str(caught.exception).lower())
        with self.assertRaises(t2n.UsageError) as caught:
            export_model_to_nnef(model, x, self.dir / "m.nnef.tgz", TractNNEF.latest(),
                                 debug_bundle_path=os.fsencode(str(self.dir)) + b"/b\xff")  # fmt: skip
        self.assertIn("debug_bundle_path", caught.exception.message)
        self.assertNothingWritten()
        # bytes are a path like str
        out = export_model_to_nnef(model, x, os.fsencode(str(self.dir / "b.nnef.tgz")),
                                   TractNNEF.latest())  # fmt: skip
        self.assertEqual(out, self.dir / "b.nnef.tgz")
        self.assertTrue(out.is_file())

    # Issue 42: 8,000 tensor arguments (a forward summing them: 8,000 chained
    # adds) killed the interpreter and left a .t2n-tmp-* file.
    def test_eight_thousand_arguments(self):
        class SumAll(nn.Module):
            def forward(self, *xs):
                return torch.stack(xs).sum(0)

        args = tuple(torch.full((2,), float(i)) for i in range(8000))
        out = export_model_to_nnef(SumAll(), args, self.dir / "m.nnef.tgz", TractNNEF.latest())
        self.assertEqual(sorted(p.name for p in self.dir.iterdir()), ["m.nnef.tgz"])
        self.assertTrue(out.is_file())

    # Caught by the engine: the output's suffix (OutputPathError, 5) and a
    # dynamic axis past the input's rank (InvalidOptionError, 7).
    def test_engine_refusals(self):
        x = torch.randn(2, 6)
        model = nn.Linear(6, 3)
        with self.assertRaises(t2n.OutputPathError) as caught:
            export_model_to_nnef(model, x, self.dir / "m.onnx", TractNNEF.latest())
        self.assertEqual(caught.exception.exit_code, 5)
        self.assertEqual(caught.exception.stage, "write")
        target = TractNNEF.latest(dynamic_axes={"input_0": {5: "B"}})
        with self.assertRaises(t2n.InvalidOptionError) as caught:
            export_model_to_nnef(model, x, self.dir / "m.nnef.tgz", target)
        self.assertEqual(caught.exception.exit_code, 7)
        with self.assertRaises(t2n.InvalidOptionError):
            TractNNEF.latest(feature_flags={"complex"})
        self.assertNothingWritten()

    # The GIL is released while the engine works: a Python thread keeps
    # counting during the export.
    def test_gil_released(self):
        import torchvision

        torch.manual_seed(0)
        model = torchvision.models.resnet18().eval()
        ticks = []
        done = threading.Event()

        def count():
            while not done.is_set():
                ticks.append(time.monotonic())
                time.sleep(0.001)

        counter = threading.Thread(target=count)
        with torch.no_grad():
            scripted = torch.jit.trace(model, torch.rand(1, 3, 224, 224))
        counter.start()
        start = time.monotonic()
        try:
            export_model_to_nnef(scripted, torch.rand(1, 3, 224, 224), self.dir / "r.nnef.tgz",
                                 TractNNEF.latest())  # fmt: skip
        finally:
            elapsed = time.monotonic() - start
            done.set()
            counter.join()
        during = [t for t in ticks if start <= t <= start + elapsed]
        # One tick per ~1 ms unloaded; a thread held off by the GIL would
        # tick only before and after the engine's work. One tick per 100 ms
        # still proves it ran throughout, on a machine as loaded as ours.
        self.assertGreater(len(during), elapsed * 10, f"{len(during)} ticks in {elapsed:.2f} s")
        print(f"\n  GIL: {len(during)} ticks of the counting thread in {elapsed:.2f} s of export")


# Ctrl+C in a separate interpreter (a signal to this one would stop unittest),
# sent a while after the engine's first log line ("loaded ..."): the engine is
# at work, whatever the machine's load made of the Python side's time.
CANCEL_SCRIPT = textwrap.dedent(
    """
    import logging, os, signal, sys, threading, time
    import torch, torchvision
    import t2n
    out = sys.argv[1]
    torch.manual_seed(0)
    model = torchvision.models.resnet18().eval()
    x = torch.rand(1, 3, 224, 224)
    with torch.no_grad():
        scripted = torch.jit.trace(model, x)

    class CtrlCOnceStarted(logging.Handler):
        timer = None

        def emit(self, record):
            if self.timer is None:
                self.timer = threading.Timer(float(sys.argv[2]), os.kill,
                                             (os.getpid(), signal.SIGINT))
                self.timer.start()

    logging.getLogger("t2n").addHandler(CtrlCOnceStarted())
    start = time.monotonic()
    try:
        t2n.export_model_to_nnef(scripted, x, out, t2n.TractNNEF.latest())
    except t2n.ExportCancelled as e:
        assert isinstance(e, KeyboardInterrupt), type(e).__mro__
        assert not isinstance(e, Exception), "except Exception would swallow Ctrl+C"
        print("cancelled after %.2f s at stage %s: %s" % (time.monotonic() - start, e.stage, e))
        sys.exit(e.exit_code)
    print("not cancelled")
    """
)


class CancelTest(unittest.TestCase):
    # Ctrl+C (SIGINT) during an export stops the engine through its cancel
    # path: ExportCancelled, a KeyboardInterrupt, nothing written.
    def test_ctrl_c_cancels(self):
        with tempfile.TemporaryDirectory(prefix="t2n-python-") as d:
            out = pathlib.Path(d) / "r.nnef.tgz"
            r = subprocess.run(
                [sys.executable, "-c", CANCEL_SCRIPT, str(out), "0.3"],
                capture_output=True,
                text=True,
                timeout=600,
            )
            print("\n  " + r.stdout.strip())
            self.assertEqual(r.returncode, 8, r.stdout + r.stderr)
            self.assertIn("cancelled after", r.stdout)
            self.assertEqual(list(pathlib.Path(d).iterdir()), [])


# Which LibTorch files a process maps after importing torch and t2n, in both
# orders: one copy of each (python3-torch's libraries are Debian's
# libtorch1.13, the ones t2n links).
MAPS_SCRIPT = textwrap.dedent(
    """
    import sys
    first, second = sys.argv[1:3]
    __import__(first); __import__(second)
    libs = set()
    for line in open("/proc/self/maps"):
        path = line.split()[-1] if len(line.split()) >= 6 else ""
        name = path.rsplit("/", 1)[-1]
        if name.startswith(("libtorch", "libc10")):
            libs.add(__import__("os").path.realpath(path))
    print("\\n".join(sorted(libs)))
    """
)


class OneLibTorchTest(unittest.TestCase):
    def test_one_libtorch_either_order(self):
        for order in (("torch", "t2n"), ("t2n", "torch")):
            with self.subTest(order):
                r = subprocess.run([sys.executable, "-c", MAPS_SCRIPT, *order],
                                   capture_output=True, text=True)  # fmt: skip
                self.assertEqual(r.returncode, 0, r.stderr)
                libs = r.stdout.split()
                names = [os.path.basename(p).split(".so")[0] for p in libs]
                self.assertIn("libtorch_cpu", names)
                self.assertEqual(len(names), len(set(names)), libs)
                print(f"\n  import {order[0]}, {order[1]}: " + " ".join(libs))


if __name__ == "__main__":
    unittest.main(verbosity=2)
