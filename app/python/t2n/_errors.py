"""Exceptions of the t2n module: one class per exit category of the `t2n`
command line (docs/python.md), so that `except` says what went wrong.

Every class but ExportCancelled derives from T2NError (upstream's base class
name, so that `except T2NError` written for torch_to_nnef keeps working);
the upstream names of the categories that mean the same are aliases.
"""

from . import _engine

# The engine's ErrorCode values (t2n/error.h): the CLI's exit codes.
_CODES = _engine.exit_codes()


class _Details:
    """What the engine says about a failure, beside the text."""

    exit_code = 0

    def _init_details(self, message, stage=None, hint="", nodes=(), text=None):
        self.message = message
        self.stage = stage
        self.hint = hint
        self.nodes = list(nodes)
        self.text = text if text is not None else message

    def __str__(self):
        return self.text


class T2NError(_Details, Exception):
    """Any failure of an export. `message`, `hint`, `stage` (load, harden,
    trace, translate, write, check, report or None when the Python side
    refused before the engine ran) and `nodes` (one dict per TorchScript
    node concerned: kind, module_path, source_file, source_line,
    source_text, message) say what and where; `exit_code` is the `t2n`
    command line's exit code for the same failure."""

    def __init__(self, message, *, stage=None, hint="", nodes=(), text=None):
        Exception.__init__(self, message)
        self._init_details(message, stage, hint, nodes, text)


class CheckMismatchError(T2NError):
    """The archive does not compute what the model computes (or cannot be
    read back); nothing was written. `report` is the export report (dict),
    its "check" entry says which output differs and where first."""

    exit_code = 1  # the CLI's exit code for a failed check

    def __init__(self, message, *, report=None, **kwargs):
        super().__init__(message, **kwargs)
        self.report = report


class UsageError(T2NError, ValueError):
    """A bad argument: an input spec, a name, a value of the wrong type."""

    exit_code = _CODES["usage"]


class ModelFileError(T2NError):
    """The model is missing, unreadable or not TorchScript."""

    exit_code = _CODES["model_file"]


class UnsupportedOperatorError(T2NError, NotImplementedError):
    """Operators the target cannot express; `nodes` lists every one."""

    exit_code = _CODES["unsupported"]


class OutputPathError(T2NError):
    """The artifact or debug bundle path is not writable or has a bad suffix."""

    exit_code = _CODES["output_path"]


class ModelRunError(T2NError):
    """The model failed on the example inputs (or could not be traced)."""

    exit_code = _CODES["model_run"]


class InvalidOptionError(T2NError, ValueError):
    """An option inconsistent with the model or the target."""

    exit_code = _CODES["invalid_option"]


class InternalError(T2NError):
    """A bug in t2n: please report it."""

    exit_code = _CODES["internal"]


class ExportCancelled(_Details, KeyboardInterrupt):
    """Ctrl+C during an export: the engine stopped cleanly and wrote
    nothing. A KeyboardInterrupt (not a T2NError), so that `except
    Exception` around an export does not swallow the user's Ctrl+C."""

    exit_code = _CODES["cancelled"]

    def __init__(self, message, *, stage=None, hint="", nodes=(), text=None):
        KeyboardInterrupt.__init__(self, message)
        self._init_details(message, stage, hint, nodes, text)


# torch_to_nnef's names for the same categories.
T2NErrorInvalidArgument = UsageError
T2NErrorNotImplemented = UnsupportedOperatorError
T2NErrorIOPytorchTractNotISO = CheckMismatchError
T2NErrorTorchJitTraceFailed = ModelRunError

_BY_EXIT_CODE = {
    cls.exit_code: cls
    for cls in (
        CheckMismatchError,
        UsageError,
        ModelFileError,
        UnsupportedOperatorError,
        OutputPathError,
        ModelRunError,
        InvalidOptionError,
        ExportCancelled,
        InternalError,
    )
}


class EngineError(Exception):
    """Raised by t2n._engine; the package re-raises it as the class of its
    exit code (never seen by users)."""

    def __init__(self, code, stage, message, hint, text, nodes):
        super().__init__(text)
        self.code, self.stage, self.message = code, stage, message
        self.hint, self.text, self.nodes = hint, text, nodes

    def as_t2n_error(self):
        cls = _BY_EXIT_CODE.get(self.code, InternalError)
        return cls(
            self.message, stage=self.stage, hint=self.hint, nodes=self.nodes, text=self.text
        )
