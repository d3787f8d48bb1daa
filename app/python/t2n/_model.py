"""The model on its way to the engine: TorchScript bytes, from a torch.jit.save
into memory (never a temporary file), or the path of a TorchScript file."""

import contextlib
import io
import os
import sys

from ._errors import ModelRunError, UsageError


def _first_line(e):
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__


@contextlib.contextmanager
def _eval_mode(model):
    """The module in eval mode (as torch_to_nnef traces), every submodule's
    training flag given back afterwards."""
    modes = [(m, m.training) for m in model.modules()]
    model.eval()
    try:
        yield model
    finally:
        for m, training in modes:
            m.training = training


@contextlib.contextmanager
def torch_settings_kept():
    """The engine selects LibTorch's quantized engine (qnnpack, the only
    deterministic one of Debian's build) for the whole process when it loads
    a model; the caller's choice (PyTorch's default: onednn) is given back."""
    torch = sys.modules.get("torch")
    engine = torch.backends.quantized.engine if torch is not None else None
    try:
        yield
    finally:
        if torch is not None and torch.backends.quantized.engine != engine:
            torch.backends.quantized.engine = engine


def _trace(model, args):
    import torch

    with _eval_mode(model), torch.no_grad():
        try:
            return torch.jit.trace(model, args, check_trace=False)
        except Exception as e:
            raise ModelRunError(
                f"torch.jit.trace failed on the {type(model).__name__} with args: "
                + _first_line(e),
                hint="the model must run on args and be traceable (tensors in, tensors or "
                "tuples of tensors out)",
            ) from e


def _script(model):
    """An nn.Module given without args: nothing to trace with, so scripted."""
    import torch

    with _eval_mode(model):
        try:
            return torch.jit.script(model)
        except Exception as e:
            raise UsageError(
                f"the {type(model).__name__} was given without args and torch.jit.script "
                "refuses it: " + _first_line(e),
                hint="give args (the module is traced with them), or a ScriptModule",
            ) from e


def torchscript(model, args, model_name):
    """(model path or "", TorchScript bytes or None, the model's name): an
    nn.Module is traced with args (scripted without), a ScriptModule saved
    as it is, a path left to the engine."""
    if isinstance(model, (str, bytes, os.PathLike)):
        from .export import path_text

        path = path_text(model, "model")
        return path, None, model_name or os.path.basename(path)
    torch = sys.modules.get("torch")
    if torch is None or not isinstance(model, torch.nn.Module):
        raise UsageError(
            f"model is a {type(model).__name__}",
            hint="give an nn.Module, a torch.jit.ScriptModule or the path of a TorchScript file",
        )
    if isinstance(model, torch.jit.ScriptModule):
        name = model_name or model.original_name
    else:
        name = model_name or type(model).__name__
        model = _trace(model, args) if args else _script(model)
    buffer = io.BytesIO()
    torch.jit.save(model, buffer)
    return "", buffer.getbuffer(), name
