#!/usr/bin/python3
"""The Python module t2n against torch_to_nnef's call and the t2n CLI.

Run by CTest (python.export) with Debian's /usr/bin/python3, PYTHONPATH naming
the build tree's package (build/python) and T2N_TEST_CLI the `t2n` program.
Every archive is judged from outside the module: re-read with tarfile, checked
by `t2n check` against the TorchScript model, by the independent reader
tests/tools/verify_nnef_archive.py, or compared byte for byte with what the
CLI writes for the same model and options.
"""

import logging
import pathlib
import subprocess
import sys
import tarfile
import unittest

import torch
from torch import nn

import t2n
from support import CLI, FolderTest
from t2n import TractNNEF, export_model_to_nnef

HERE = pathlib.Path(__file__).resolve().parent
VERIFY = HERE.parent / "tools" / "verify_nnef_archive.py"


def graph_text(archive):
    with tarfile.open(archive) as tar:
        return tar.extractfile("graph.nnef").read().decode()


def run_cli(*args):
    return subprocess.run([CLI, *map(str, args)], capture_output=True, text=True, timeout=600)


class Small(nn.Module):
    """Conv, norm, pooling and a linear layer: enough for names and weights."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, padding=1)
        self.norm = nn.BatchNorm2d(4)
        self.fc = nn.Linear(4, 5)

    def forward(self, x):
        y = torch.relu(self.norm(self.conv(x)))
        return self.fc(y.mean(dim=(2, 3)))


def small(seed=0):
    torch.manual_seed(seed)
    return Small().eval()


class ExportTest(FolderTest):
    # The seeds' example (shared/seeds/000, "Main export API's") on a
    # torchvision ResNet-18 nn.Module, with only the import changed; its
    # archive passes `t2n check` against the module traced independently here
    # and the independent reader finds every weight bit for bit.
    def test_seed_example_resnet18(self):
        import torchvision

        from t2n import SemanticVersion

        torch.manual_seed(0)
        my_model = torchvision.models.resnet18()
        x = torch.rand(1, 3, 224, 224)
        # --- the seed's lines, import changed ---------------------------
        target = TractNNEF.latest()  # or TractNNEF(SemanticVersion.from_str("0.23.0"))
        export_model_to_nnef(
            model=my_model.eval(),
            args=(x,),
            file_path_export=str(self.dir / "model.nnef.tgz"),  # suffix expresses archive intent
            inference_target=target,
            input_names=["inp"],
            output_names=["out"],
            compression_level=1,  # 1..9 => .tgz, 0 => .tar, None => .nnef dir
        )
        # -----------------------------------------------------------------
        self.assertIsInstance(SemanticVersion.from_str("0.23.0"), SemanticVersion)
        archive = self.dir / "model.nnef.tgz"
        self.assertTrue(archive.is_file())
        self.assertIn("graph network(inp) -> (out)", graph_text(archive))
        reference = self.dir / "resnet18.pt"
        with torch.no_grad():
            torch.jit.save(torch.jit.trace(my_model, (x,)), str(reference))
        checked = run_cli("check", archive, "--model", reference, "--input", "inp:1x3x224x224:f32",
                          "--output-name", "out")  # fmt: skip
        self.assertEqual(checked.returncode, 0, checked.stderr)
        verified = subprocess.run(
            [sys.executable, str(VERIFY), str(archive), "--model", str(reference)],
            capture_output=True,
            text=True,
        )
        self.assertEqual(verified.returncode, 0, verified.stdout + verified.stderr)

    # The seeds' doctest (shared/seeds/000, export_model_to_nnef's
    # docstring), import changed and the archive read without chdir: a .tgz
    # path with compression_level=0 is still an archive tarfile opens.
    def test_seed_doctest(self):
        import tempfile

        mod = nn.Sequential(nn.Linear(1, 5), nn.ReLU())
        export_path = tempfile.mktemp(suffix=".nnef.tgz", dir=self.dir)
        inference_target = TractNNEF.latest()
        _ = export_model_to_nnef(
            mod,
            torch.rand(3, 1),
            export_path,
            inference_target,
            compression_level=0,
            input_names=["inp"],
            output_names=["out"],
        )
        self.assertIn("graph network(inp) -> (out)", graph_text(export_path))

    # An nn.Module, the same module scripted, and its TorchScript file: each
    # gives the archive the CLI writes for that file with the same options,
    # byte for byte (the module named as the file with model_name).
    def test_module_scriptmodule_and_path_equal_the_cli(self):
        model = small()
        x = torch.randn(1, 3, 8, 8)
        path = self.dir / "small.pt"
        with torch.no_grad():
            torch.jit.save(torch.jit.trace(model, (x,)), str(path))
        cli = run_cli(
            "export", path, "--input", "x:1x3x8x8:f32", "--output-name", "y",
            "--naming", "numeric", "--compression", "3", "--property", "stage=test",
            "-o", self.dir / "cli.nnef.tgz",
        )  # fmt: skip
        self.assertEqual(cli.returncode, 0, cli.stderr)
        expected = (self.dir / "cli.nnef.tgz").read_bytes()

        def export(m, out, **kwargs):
            return export_model_to_nnef(
                m, (x,), self.dir / out, TractNNEF.latest(specific_properties={"stage": "test"}),
                input_names=["x"], output_names=["y"], compression_level=3,
                nnef_variable_naming_scheme="numeric", **kwargs,
            )  # fmt: skip

        got = export(model, "module.nnef.tgz", model_name="small.pt")
        self.assertEqual(got, self.dir / "module.nnef.tgz")
        self.assertEqual(got.read_bytes(), expected)
        self.assertTrue(model.training is False)
        scripted = torch.jit.load(str(path))
        got = export(scripted, "script.nnef.tgz", model_name="small.pt")
        self.assertEqual(got.read_bytes(), expected)
        got = export(path, "path.nnef.tgz")
        self.assertEqual(got.read_bytes(), expected)
        got = export(str(path), "path-str.nnef.tgz")
        self.assertEqual(got.read_bytes(), expected)

    # Without model_name the archive names an in-memory module by its class,
    # and the default input names are torch_to_nnef's input_0, input_1, ...
    def test_defaults(self):
        x = torch.randn(2, 3, 8, 8)
        quantized_engine = torch.backends.quantized.engine
        out = export_model_to_nnef(small(), x, self.dir / "m.nnef", TractNNEF.latest())
        # The engine's choice of qnnpack for its own loading is not left to
        # the caller's PyTorch.
        self.assertEqual(torch.backends.quantized.engine, quantized_engine)
        self.assertEqual(out, self.dir / "m.nnef.tar")  # compression_level 0: a .tar
        text = graph_text(out)
        self.assertIn('("exported_model", "Small")', text)
        self.assertIn("graph network(input_0) -> (output_0)", text)
        scripted = torch.jit.script(small())
        out = export_model_to_nnef(scripted, (x,), self.dir / "s.nnef", TractNNEF.latest(),
                                   compression_level=None)  # fmt: skip
        self.assertTrue((self.dir / "s.nnef" / "graph.nnef").is_file())
        self.assertIn('("exported_model", "Small")', (out / "graph.nnef").read_text())

    # A training-mode module is traced in eval mode (as torch_to_nnef does)
    # and given back in training mode, every submodule as it was.
    def test_training_flags_restored(self):
        model = small()
        model.train()
        model.norm.eval()
        export_model_to_nnef(model, torch.randn(1, 3, 8, 8), self.dir / "m.nnef.tgz",
                             TractNNEF.latest())  # fmt: skip
        self.assertTrue(model.training and model.conv.training and model.fc.training)
        self.assertFalse(model.norm.training)

    # Dynamic axes in both of torch.onnx's forms: the symbols are declared and
    # the input's external shape carries them (the engine checks the archive
    # at two sizes of each).
    def test_dynamic_axes(self):
        x = torch.randn(2, 3, 8, 8)
        target = TractNNEF.latest(dynamic_axes={"x": {0: "B"}})
        out = export_model_to_nnef(small(), x, self.dir / "d.nnef.tgz", target, input_names=["x"])
        text = graph_text(out)
        self.assertIn("extension tract_symbol B;", text)
        self.assertIn("x = external<scalar>(shape = [B, 3, 8, 8]);", text)
        target = TractNNEF.latest(dynamic_axes={"x": [0]})
        out = export_model_to_nnef(small(), x, self.dir / "l.nnef.tgz", target, input_names=["x"])
        text = graph_text(out)
        self.assertIn("extension tract_symbol x_dynamic_axes_1;", text)
        self.assertIn("shape = [x_dynamic_axes_1, 3, 8, 8]", text)

    # Without args the engine proposes the inputs, as `t2n export` does
    # without --input: infer_inputs gives the same proposal as `t2n inspect
    # --inputs --json` on the module's file (3 channels: the conv's weight),
    # and the export uses it, named by input_names.
    def test_inputs_proposed(self):
        import json

        scripted = torch.jit.script(small())
        proposal = t2n.infer_inputs(scripted)
        self.assertTrue(proposal.confirmed)
        self.assertEqual([(i.name, i.dtype) for i in proposal.inputs], [("x", "f32")])
        self.assertEqual(proposal.inputs[0].shape[1], 3)
        self.assertTrue(proposal.inputs[0].reason)
        path = self.dir / "s.pt"
        torch.jit.save(scripted, str(path))
        cli = run_cli("inspect", path, "--inputs", "--json")
        self.assertEqual(cli.returncode, 0, cli.stderr)
        self.assertEqual(json.loads(cli.stdout)["flags"], proposal.flags)
        self.assertEqual(t2n.infer_inputs(path).flags, proposal.flags)

        out = export_model_to_nnef(scripted, None, self.dir / "p.nnef.tgz", TractNNEF.latest(),
                                   input_names=["image"])  # fmt: skip
        shape = ", ".join(map(str, proposal.inputs[0].shape))
        self.assertIn(f"image = external<scalar>(shape = [{shape}]);", graph_text(out))
        # An nn.Module without args is scripted (nothing to trace it with).
        out = export_model_to_nnef(small(), None, self.dir / "m.nnef.tgz", TractNNEF.latest())
        self.assertIn(f"x = external<scalar>(shape = [{shape}]);", graph_text(out))

    def test_khronos_target(self):
        out = export_model_to_nnef(small(), torch.randn(1, 3, 8, 8), self.dir / "k.nnef.tgz",
                                   t2n.KhronosNNEF())  # fmt: skip
        text = graph_text(out)
        self.assertNotIn("tract_", text)
        self.assertIn("version 1.0;", text)

    # Every archive option reaches the archive: the target version, properties
    # (identity properties off), custom extensions.
    def test_target_options(self):
        target = TractNNEF(
            t2n.SemanticVersion.from_str("0.21.13"),
            specific_properties={"model.revision": "r1"},
            dump_identity_properties=False,
            dynamic_axes={"input_0": {0: "B"}},
        )
        out = export_model_to_nnef(
            small(), torch.randn(1, 3, 8, 8), self.dir / "o.nnef.tgz", target,
            custom_extensions=["tract_assert B >= 1"], log_level=logging.WARNING,
        )  # fmt: skip
        text = graph_text(out)
        self.assertIn('("tract_target_version", "0.21.13")', text)
        self.assertIn('("model.revision", "r1")', text)
        self.assertNotIn('"hostname"', text)
        # B is the batch's symbol: an assert on it is kept (one on a symbol
        # no shape uses would be left out, as tract 0.23.4 warns about it).
        self.assertIn("extension tract_assert B >= 1;", text)


if __name__ == "__main__":
    unittest.main(verbosity=2)
