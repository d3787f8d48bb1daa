"""Inference targets with torch_to_nnef's constructors: TractNNEF and
KhronosNNEF hold the target's options; export_model_to_nnef turns them into
t2n's recipe keys (docs/python.md has the table)."""

import enum
import functools
import re

from ._errors import InvalidOptionError, UsageError


@functools.total_ordering
class SemanticVersion:
    """A MAJOR.MINOR.PATCH version, as torch_to_nnef.utils.SemanticVersion."""

    def __init__(self, major, minor, patch):
        self.major, self.minor, self.patch = int(major), int(minor), int(patch)

    @classmethod
    def from_str(cls, text):
        m = re.fullmatch(r"v?(\d+)\.(\d+)\.(\d+)", str(text).strip())
        if not m:
            raise UsageError(
                f"'{text}' is not a version", hint="give MAJOR.MINOR.PATCH, e.g. 0.21.13"
            )
        return cls(*m.groups())

    def _key(self):
        return (self.major, self.minor, self.patch)

    def __eq__(self, other):
        return isinstance(other, SemanticVersion) and self._key() == other._key()

    def __lt__(self, other):
        return self._key() < other._key()

    def __hash__(self):
        return hash(self._key())

    def __str__(self):
        return f"{self.major}.{self.minor}.{self.patch}"

    def __repr__(self):
        return f"SemanticVersion.from_str('{self}')"


class TractCheckTolerance(str, enum.Enum):
    """tract's --approx levels, as torch_to_nnef names them."""

    EXACT = "exact"
    APPROXIMATE = "approximate"
    CLOSE = "close"
    VERY = "very"
    SUPER = "super"
    ULTRA = "ultra"


def _value(x):
    """An enum's value or the thing itself (upstream passes enums or strings)."""
    return x.value if isinstance(x, enum.Enum) else x


def _known_versions():
    from . import _engine

    return [SemanticVersion.from_str(v) for v in _engine.known_tract_versions()]


class InferenceTarget:
    """What every target has: a version and whether to check the archive."""

    def __init__(self, version, check_io=True):
        self.version = version
        self.check_io = bool(check_io)


class TractNNEF(InferenceTarget):
    """tract, with torch_to_nnef's TractNNEF options. Options t2n has no
    equivalent for are refused when set (not ignored): feature_flags and
    native_gated_delta_op."""

    def __init__(
        self,
        version,
        feature_flags=None,
        check_io=True,
        dynamic_axes=None,
        specific_tract_binary_path=None,
        check_io_tolerance=TractCheckTolerance.APPROXIMATE,
        specific_properties=None,
        dump_identity_properties=True,
        force_attention_inner_in_f32=False,
        force_linear_accumulation_in_f32=False,
        force_norm_in_f32=False,
        reify_sdpa_operator=None,
        upsample_with_debox=False,
        native_gated_delta_op=None,
    ):
        if not isinstance(version, SemanticVersion):
            version = SemanticVersion.from_str(version)
        super().__init__(version, check_io)
        if feature_flags:
            raise InvalidOptionError(
                "feature_flags is not supported by t2n",
                hint="t2n writes complex values for any tract it knows; leave feature_flags unset",
            )
        if native_gated_delta_op:
            raise InvalidOptionError(
                "native_gated_delta_op is not supported by t2n",
                hint="t2n has no gated-delta-net lowering; leave it unset",
            )
        self.feature_flags = feature_flags
        self.dynamic_axes = dict(dynamic_axes or {})
        self.specific_tract_binary_path = specific_tract_binary_path
        tolerance = _value(check_io_tolerance)
        if not isinstance(tolerance, str):
            raise UsageError(
                f"check_io_tolerance {check_io_tolerance!r} is not a tolerance",
                hint="use TractCheckTolerance.APPROXIMATE or one of exact, approximate, close, "
                "very, super, ultra (t2n also takes custom:ATOL,RTOL,OUTLIERS and allclose)",
            )
        self.check_io_tolerance = tolerance
        self.specific_properties = dict(specific_properties or {})
        self.dump_identity_properties = bool(dump_identity_properties)
        self.force_attention_inner_in_f32 = bool(force_attention_inner_in_f32)
        self.force_linear_accumulation_in_f32 = bool(force_linear_accumulation_in_f32)
        self.force_norm_in_f32 = bool(force_norm_in_f32)
        # None is upstream's "auto" (on for tract > 0.22.0); t2n's default
        # is off (docs/python.md says why).
        self.reify_sdpa_operator = bool(reify_sdpa_operator)
        self.upsample_with_debox = bool(upsample_with_debox)
        self.native_gated_delta_op = native_gated_delta_op

    @classmethod
    def latest_version(cls):
        """The newest tract version t2n has rules for."""
        return max(_known_versions())

    @classmethod
    def latest(cls, **kwargs):
        return cls(cls.latest_version(), **kwargs)

    def with_dynamic_axes(self, dynamic_axes):
        copy = self._copy()
        copy.dynamic_axes = dict(dynamic_axes or {})
        return copy

    def with_check_io_tolerance(self, tolerance):
        copy = self._copy()
        copy.check_io_tolerance = _value(tolerance)
        return copy

    def with_specific_properties(self, properties):
        copy = self._copy()
        copy.specific_properties = dict(properties or {})
        return copy

    def _copy(self):
        copy = object.__new__(type(self))
        copy.__dict__.update(self.__dict__)
        return copy

    def _recipe(self):
        """The target's recipe keys (engine/src/util/option_table.cpp)."""
        return {
            "target": f"tract@{self.version}",
            "check": self.check_io,
            "check_tolerance": self.check_io_tolerance,
            "tract_binary": str(self.specific_tract_binary_path or ""),
            "properties": [
                {"key": str(k), "value": str(v)} for k, v in self.specific_properties.items()
            ],
            "identity_properties": self.dump_identity_properties,
            "f32_attention": self.force_attention_inner_in_f32,
            "f32_linear_accumulation": self.force_linear_accumulation_in_f32,
            "f32_norm": self.force_norm_in_f32,
            "reify_sdpa": self.reify_sdpa_operator,
            "upsample_with_debox": self.upsample_with_debox,
        }

    def __repr__(self):
        return f"TractNNEF(version={str(self.version)!r}, check_io={self.check_io})"


class KhronosNNEF(InferenceTarget):
    """Any consumer of Khronos NNEF 1.0.5 (standard operations only); the
    check runs t2n's reference interpreter."""

    def __init__(self, version="1.0.5", check_io=True):
        if str(version) != "1.0.5":
            raise InvalidOptionError(
                f"Khronos NNEF {version} is not supported",
                hint="t2n writes Khronos NNEF 1.0.5 only",
            )
        super().__init__(str(version), check_io)
        self.dynamic_axes = {}

    @classmethod
    def latest(cls, **kwargs):
        return cls("1.0.5", **kwargs)

    def _recipe(self):
        return {"target": "khronos", "check": self.check_io}

    def __repr__(self):
        return f"KhronosNNEF(version='1.0.5', check_io={self.check_io})"
