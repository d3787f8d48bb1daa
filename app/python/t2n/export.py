"""export_model_to_nnef with torch_to_nnef's arguments, on t2n's engine.

The model reaches the engine as TorchScript bytes: an nn.Module is traced
here, in the caller's process, with `args` (in eval mode, without
gradients), a ScriptModule is saved as it is, both with torch.jit.save into
memory (never a temporary file); a path is read by the engine itself. The
arguments become a t2n recipe (the JSON form of the engine's ExportOptions,
whose reader validates every value) plus the values of `args`.
"""

import json
import logging
import os
import pathlib
import sys

from . import _engine
from ._errors import (
    CheckMismatchError,
    EngineError,
    InvalidOptionError,
    UsageError,
)
from ._model import torch_settings_kept, torchscript
from .inference_target import InferenceTarget

LOGGER = logging.getLogger("t2n")

# The engine's LogLevel (trace ... error) as Python logging levels.
_PY_LEVELS = [5, logging.DEBUG, logging.INFO, logging.WARNING, logging.ERROR]

_NAMING_SCHEMES = ("raw", "natural_verbose", "natural_verbose_camel", "numeric")

# torch dtypes t2n takes as model inputs, by t2n's names.
_DTYPES = {
    "float32": "f32",
    "float16": "f16",
    "float64": "f64",
    "int64": "i64",
    "int32": "i32",
    "int16": "i16",
    "int8": "i8",
    "uint8": "u8",
    "bool": "bool",
}


def engine_log_level(level):
    """(the Python level, the engine's name for it)."""
    if isinstance(level, str):
        named = logging.getLevelName(level.upper())
        if not isinstance(named, int):
            raise UsageError(
                f"log_level {level!r} is not a logging level",
                hint="use logging.INFO, logging.WARNING, ...",
            )
        level = named
    if not isinstance(level, int):
        raise UsageError(f"log_level {level!r} is not a logging level")
    for name, bound in (
        ("trace", logging.DEBUG),
        ("debug", logging.INFO),
        ("info", logging.WARNING),
        ("warn", logging.ERROR),
        ("error", logging.CRITICAL + 1),
    ):
        if level < bound:
            return level, name
    return level, "off"


def log(level, message):
    LOGGER.log(_PY_LEVELS[min(level, len(_PY_LEVELS) - 1)], message)


def _as_tuple(args):
    if args is None:
        return ()
    if isinstance(args, (tuple, list)):
        return tuple(args)
    if isinstance(args, dict):
        raise UsageError(
            "args is a dict: t2n takes a tensor or a flat tuple of tensors",
            hint="pass the tensors in forward()'s order",
        )
    return (args,)


def _input_specs(args, names):
    """One recipe input per tensor, and its values as float64 (exact for
    every dtype t2n takes, integers up to 2**53)."""
    torch = sys.modules.get("torch")
    specs, values = [], []
    for i, (t, name) in enumerate(zip(args, names)):
        if torch is None or not isinstance(t, torch.Tensor):
            raise UsageError(
                f"args[{i}] is a {type(t).__name__}, not a tensor",
                hint="t2n takes a flat tuple of tensors (no nested containers, no Python "
                "scalars: trace those into the model)",
            )
        dtype = _DTYPES.get(str(t.dtype).replace("torch.", ""))
        if dtype is None:
            raise UsageError(
                f"args[{i}] ('{name}') is a {t.dtype} tensor",
                hint="t2n takes " + ", ".join(f"torch.{d}" for d in _DTYPES) + " inputs",
            )
        t = t.detach().cpu().contiguous()
        if dtype == "i64" and t.numel() and int(t.abs().max()) > 2**53:
            raise UsageError(
                f"args[{i}] ('{name}') holds integers beyond 2**53",
                hint="t2n carries example values as float64; give smaller example values",
            )
        specs.append({"name": name, "shape": list(t.shape), "dtype": dtype})
        values.append(t.to(torch.float64).numpy().reshape(-1))
    return specs, values


def path_text(value, what):
    """A path argument (str, bytes or os.PathLike) as the text of the recipe:
    bytes are decoded as the OS does (os.fsdecode); a name that cannot be
    written as UTF-8 (a lone surrogate: bytes that are not UTF-8) is refused
    naming the argument, since the recipe is JSON."""
    try:
        path = os.fsdecode(os.fspath(value))
    except TypeError:
        raise UsageError(
            f"{what} is a {type(value).__name__}, not a path",
            hint="give a str, bytes or pathlib.Path",
        ) from None
    try:
        path.encode("utf-8")
    except UnicodeEncodeError as e:
        raise UsageError(
            f"{what} {path!r} holds a character that is not UTF-8 "
            f"({path[e.start]!r} at index {e.start})",
            hint="t2n takes paths whose names are UTF-8; rename the file or folder",
        ) from None
    return path


def _extensions(custom_extensions):
    if custom_extensions is None:
        return []
    if not isinstance(custom_extensions, list):
        raise UsageError(
            "custom_extensions is not a list", hint="give a list: the order matters to tract"
        )
    for i, e in enumerate(custom_extensions):
        if not isinstance(e, str):
            raise UsageError(
                f"custom_extensions[{i}] is a {type(e).__name__}, not a str",
                hint="give extension lines as strings, e.g. 'tract_assert S >= 1'",
            )
    return list(custom_extensions)


def _dynamic_axes(dynamic_axes):
    """torch.onnx's form ({name: {axis: symbol}} or {name: [axis, ...]},
    the list's symbols named NAME_dynamic_axes_N as torch.onnx does) as
    recipe entries."""
    out = []
    for name, axes in (dynamic_axes or {}).items():
        if isinstance(axes, dict):
            pairs = axes.items()
        elif isinstance(axes, (list, tuple)):
            pairs = [(a, f"{name}_dynamic_axes_{i + 1}") for i, a in enumerate(axes)]
        else:
            raise UsageError(
                f"dynamic_axes['{name}'] is a {type(axes).__name__}",
                hint="give {axis: 'SYMBOL'} or a list of axes",
            )
        for axis, symbol in pairs:
            out.append({"tensor": str(name), "axis": int(axis), "symbol": str(symbol)})
    return out


def export_model_to_nnef(
    model,
    args,
    file_path_export,
    inference_target,
    input_names=None,
    output_names=None,
    compression_level=0,
    log_level=logging.INFO,
    nnef_variable_naming_scheme="natural_verbose",
    check_io_names_qte_match=True,
    debug_bundle_path=None,
    custom_extensions=None,
    allow_same_io_names=False,
    auto_harden_jit=True,
    load_extra_op_modules=None,
    discover_extra_entrypoints=False,
    strict_extra_imports=False,
    skip_eager_forward=False,
    *,
    model_name=None,
):
    """Export `model` to an NNEF artifact at `file_path_export` and return
    its path (pathlib.Path). See docs/python.md for each argument and how
    it differs from torch_to_nnef's; `model_name` (t2n only) is the name
    the archive's exported_model property gives the model (default: the
    file name, or the module's class name). Without `args` (t2n only) the
    engine proposes the inputs (see infer_inputs) and says which.

    Raises a T2NError subclass per failure category (ExportCancelled on
    Ctrl+C); nothing is written when it raises."""
    if not isinstance(inference_target, InferenceTarget):
        raise UsageError(
            f"inference_target is a {type(inference_target).__name__}",
            hint="give t2n.TractNNEF(...) (e.g. TractNNEF.latest()) or t2n.KhronosNNEF()",
        )
    if load_extra_op_modules or discover_extra_entrypoints or strict_extra_imports:
        raise InvalidOptionError(
            "t2n has no extra-operator modules (load_extra_op_modules, "
            "discover_extra_entrypoints, strict_extra_imports)",
            hint="leave them unset",
        )
    if not auto_harden_jit:
        LOGGER.warning("auto_harden_jit=False: t2n always runs its hardening chain")
    args = _as_tuple(args)
    if input_names is None:
        input_names = [f"input_{i}" for i in range(len(args))]
    input_names = [str(n) for n in input_names]
    if args and len(input_names) != len(args):
        raise UsageError(
            f"{len(input_names)} input_names for {len(args)} args",
            hint="give one name per tensor of args, in order",
        )
    scheme = getattr(nnef_variable_naming_scheme, "value", nnef_variable_naming_scheme)
    if scheme not in _NAMING_SCHEMES:
        raise UsageError(
            f"nnef_variable_naming_scheme {nnef_variable_naming_scheme!r} is not a scheme",
            hint="use one of " + ", ".join(_NAMING_SCHEMES),
        )
    if compression_level is not None and (
        isinstance(compression_level, bool)
        or not isinstance(compression_level, int)
        or not 0 <= compression_level <= 9
    ):
        raise UsageError(
            f"compression_level {compression_level!r} is not None or 0 to 9",
            hint="None writes a folder, 0 a .tar (or a stored .tgz when the path says .tgz), "
            "1-9 a .tgz",
        )
    extensions = _extensions(custom_extensions)
    output = path_text(file_path_export, "file_path_export")
    bundle = path_text(debug_bundle_path, "debug_bundle_path") if debug_bundle_path else ""
    level, engine_level = engine_log_level(log_level)
    LOGGER.setLevel(level)

    specs, values = _input_specs(args, input_names)
    path, script, name = torchscript(model, args, model_name)
    recipe = {
        "t2n_recipe": 1,
        "model": path,
        "output": output,
        "inputs": specs,
        # Without args the engine proposes the inputs; these names replace its.
        "input_names": [] if args else input_names,
        "output_names": [str(n) for n in (output_names or [])],
        "dynamic_axes": _dynamic_axes(getattr(inference_target, "dynamic_axes", None)),
        "naming": scheme,
        "check_io_names_quantity_match": bool(check_io_names_qte_match),
        "allow_same_io_names": bool(allow_same_io_names),
        "custom_extensions": extensions,
        "compression_level": compression_level,
        "log_level": engine_level,
        "debug_bundle": bundle,
    }
    recipe.update(inference_target._recipe())
    try:
        with torch_settings_kept():
            report = _engine.export_model(json.dumps(recipe), values, script, name, log)
    except EngineError as e:
        raise e.as_t2n_error() from None
    report = json.loads(report)
    if not report["artifact"]["written"]:
        check = report.get("check", {})
        bundle = check.get("debug_bundle") or ""
        raise CheckMismatchError(
            "the archive does not compute what the model computes; nothing was written"
            + (f"; the debug bundle {bundle} holds the archive" if bundle else ""),
            stage="check",
            hint="debug_bundle_path=PATH collects what is needed to reproduce it"
            if not bundle
            else "",
            report=report,
        )
    return pathlib.Path(report["artifact"]["path"])
