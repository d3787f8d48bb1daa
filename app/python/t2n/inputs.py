"""infer_inputs: the inputs t2n's engine proposes for a model given without
any (Session::proposeInputs, t2n/input_proposal.h), as `t2n inspect --inputs`
shows them and as export_model_to_nnef uses them when `args` is left out."""

import collections
import json
import logging

from . import _engine
from ._errors import EngineError
from ._model import torch_settings_kept, torchscript
from .export import engine_log_level, log

ProposedInput = collections.namedtuple("ProposedInput", "name shape dtype spec reason")
ProposedInput.__doc__ = """One forward() argument's proposal: `shape` (a list),
`dtype` (t2n's name: f32, i64, ...), `spec` (the `--input` text, with its
value range when there is one) and `reason` (why, in plain words)."""


class InputProposal:
    """`inputs` (ProposedInput per forward() argument given a value),
    `defaulted` (trailing arguments left to their defaults), `confirmed`
    (a run of forward() on such inputs succeeded), `flags` (the `t2n`
    command line's --input flags that repeat it), `attempts` (every
    candidate tried: inputs, ran, error, seconds)."""

    def __init__(self, doc):
        self.inputs = [
            ProposedInput(i["name"], list(i["shape"]), i["dtype"], i["spec"], i["reason"])
            for i in doc["inputs"]
        ]
        self.defaulted = list(doc["defaulted"])
        self.confirmed = bool(doc["confirmed"])
        self.flags = doc["flags"]
        self.attempts = list(doc["attempts"])

    def __repr__(self):
        return f"InputProposal({self.flags!r}, confirmed={self.confirmed})"


def infer_inputs(
    model, *, seed=0, max_attempts=24, max_seconds=60.0, log_level=logging.INFO, model_name=None
):
    """The inputs the engine proposes for `model` (a ScriptModule, a
    TorchScript file's path, or an nn.Module that torch.jit.script accepts):
    dtypes and shapes read from the operations that first consume each
    argument, confirmed by running the model. Raises UsageError listing the
    attempts when no candidate runs."""
    path, script, name = torchscript(model, None, model_name)
    _, engine_level = engine_log_level(log_level)
    try:
        with torch_settings_kept():
            doc = _engine.propose_inputs(
                script, path, name, int(seed), int(max_attempts), float(max_seconds), log,
                engine_level,
            )  # fmt: skip
    except EngineError as e:
        raise e.as_t2n_error() from None
    return InputProposal(json.loads(doc))
