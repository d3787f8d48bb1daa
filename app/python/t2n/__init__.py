"""t2n: TorchScript and nn.Module export to NNEF for tract, with
torch_to_nnef's call.

    from t2n import TractNNEF, export_model_to_nnef

    export_model_to_nnef(model=my_model.eval(), args=(x,),
                         file_path_export="model.nnef.tgz",
                         inference_target=TractNNEF.latest(),
                         input_names=["inp"], output_names=["out"])

The engine is t2n's C++ library (the same as the `t2n` command line's and
t2n-studio's); docs/python.md maps every argument to torch_to_nnef's.
"""

from . import _engine
from ._errors import (
    CheckMismatchError,
    ExportCancelled,
    InternalError,
    InvalidOptionError,
    ModelFileError,
    ModelRunError,
    OutputPathError,
    T2NError,
    T2NErrorInvalidArgument,
    T2NErrorIOPytorchTractNotISO,
    T2NErrorNotImplemented,
    T2NErrorTorchJitTraceFailed,
    UnsupportedOperatorError,
    UsageError,
)
from .export import export_model_to_nnef
from .inputs import InputProposal, ProposedInput, infer_inputs
from .inference_target import (
    InferenceTarget,
    KhronosNNEF,
    SemanticVersion,
    TractCheckTolerance,
    TractNNEF,
)

__version__ = _engine.version()

__all__ = [
    "CheckMismatchError",
    "ExportCancelled",
    "InferenceTarget",
    "InputProposal",
    "InternalError",
    "InvalidOptionError",
    "KhronosNNEF",
    "ModelFileError",
    "ModelRunError",
    "OutputPathError",
    "ProposedInput",
    "SemanticVersion",
    "T2NError",
    "T2NErrorIOPytorchTractNotISO",
    "T2NErrorInvalidArgument",
    "T2NErrorNotImplemented",
    "T2NErrorTorchJitTraceFailed",
    "TractCheckTolerance",
    "TractNNEF",
    "UnsupportedOperatorError",
    "UsageError",
    "export_model_to_nnef",
    "infer_inputs",
]
