"""mofmu from Python: check a Modelica library, export a model as an FMU, simulate an FMU.

The three calls do what the command line's ``mofmu check``, ``mofmu export`` and
``mofmu simulate`` do, through the same compiled code::

    import mofmu
    mofmu.check(["examples/Base.mo", "examples/Thermal"])
    mofmu.export(["examples/Base.mo", "examples/Thermal"], "Thermal.Examples.RodHeating",
                 "rod.fmu", set={"rod.n": 20})
    result = mofmu.simulate("rod.fmu", stop_time=100, outputs=["rod.T[1]"])
    result["rod.T[1]"][-1]      # a numpy structured array, as FMPy returns
    result.to_pandas()          # a DataFrame indexed by time (needs pandas)

Diagnostics of the Modelica text raise :class:`ModelicaError`, which carries each
diagnostic's code, file, line and message. Every other failure (a file that cannot
be read, an FMU that does not load, a solver that gives up) raises
:class:`MofmuError`.
"""

from __future__ import annotations

# Imports under a leading underscore, and typing names only for type
# checkers, so that ``dir(mofmu)`` shows the package's own names.
import json as _json
import os as _os
import typing as _typing
from dataclasses import dataclass as _dataclass
from dataclasses import field as _field

import numpy as _np

if _typing.TYPE_CHECKING:
    from typing import Dict, Iterable, List, Mapping, Optional, Sequence, Union


from . import _native
from ._native import MofmuError
from ._sweep import SweepResult, plot_sweep, sweep

__version__: str = _native.__version__

__all__ = [
    "Diagnostic",
    "Fmu",
    "ModelicaError",
    "MofmuError",
    "Result",
    "check",
    "export",
    "load",
    "simulate",
    "sweep",
    "plot_sweep",
    "SweepResult",
]

PathLike = _typing.Union[str, "_os.PathLike[str]"]
SetValue = _typing.Union[bool, int, float, str]


@_dataclass(frozen=True)
class Diagnostic:
    """One diagnostic: a stable code and the one place in the text it names."""

    code: str
    severity: str
    message: str
    file: str
    line: int
    column: int
    label: str = ""
    help: str = ""
    notes: List[str] = _field(default_factory=list)

    @classmethod
    def _from_json(cls, text: str) -> "Diagnostic":
        d = _json.loads(text)
        span = d["span"]
        return cls(
            code=d["code"],
            severity=d["severity"],
            message=d["message"],
            file=span["file"],
            line=span["line"],
            column=span["column"],
            label=d.get("label", ""),
            help=d.get("help", ""),
            notes=[n["message"] for n in d.get("notes", [])],
        )

    def __str__(self) -> str:
        text = f"{self.file}:{self.line}:{self.column}: {self.severity}[{self.code}]: {self.message}"
        if self.help:
            text += f"\n  help: {self.help}"
        return text


class ModelicaError(MofmuError):
    """The Modelica text was refused; ``diagnostics`` lists why, each at its line.

    ``code``, ``file``, ``line`` and ``message`` are those of the first diagnostic.
    """

    def __init__(self, diagnostics: Sequence[Diagnostic]):
        self.diagnostics: List[Diagnostic] = list(diagnostics)
        first = self.diagnostics[0]
        self.code: str = first.code
        self.file: str = first.file
        self.line: int = first.line
        self.message: str = first.message
        n = len(self.diagnostics)
        more = f" (and {n - 1} more)" if n > 1 else ""
        super().__init__(f"{first}{more}")


def _paths(paths: Union[PathLike, Iterable[PathLike]]) -> List[str]:
    if isinstance(paths, (str, _os.PathLike)):
        return [_os.fspath(paths)]
    return [_os.fspath(p) for p in paths]


def _raise_diagnostics(diagnostics: Sequence[str]) -> None:
    if diagnostics:
        raise ModelicaError([Diagnostic._from_json(d) for d in diagnostics])


def check(paths: Union[PathLike, Iterable[PathLike]], units: bool = True) -> int:
    """Checks the library at ``paths`` (``.mo`` files and library directories, in load order).

    Returns the number of classes checked; raises :class:`ModelicaError` with every
    diagnostic when the library is not compliant (or, with ``units``, has a unit conflict).
    """
    n, diagnostics = _native.check(_paths(paths), units)
    _raise_diagnostics(diagnostics)
    return n


def _set_literal(name: str, value: SetValue) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, _np.integer)):
        return str(int(value))
    if isinstance(value, (float, _np.floating)):
        return repr(float(value))
    if isinstance(value, str):
        return value
    raise TypeError(f"set[{name!r}]: expected a bool, a number or an enumeration literal, got {type(value).__name__}")


def export(
    paths: Union[PathLike, Iterable[PathLike]],
    model: str,
    out: PathLike,
    set: Optional[Mapping[str, SetValue]] = None,
    stop_time: Optional[float] = None,
    interface: str = "both",
) -> Dict[str, object]:
    """Exports ``model`` of the library at ``paths`` as the FMU ``out``.

    ``set`` fixes parameters at export (``{"rod.n": 100, "useHeater": False,
    "mode": "Boost"}``), as ``mofmu export --set`` does. ``interface`` is ``"me"``,
    ``"cs"`` or ``"both"``. Returns the figures the command line prints (``path``,
    ``bytes``, ``variables``, ``states``, ``instances``, ``classes``, ...). Nothing is
    written when the model is refused: :class:`ModelicaError` says why.
    """
    sets = [(k, _set_literal(k, v)) for k, v in (set or {}).items()]
    report, diagnostics = _native.export(_paths(paths), model, _os.fspath(out), sets, stop_time, interface)
    _raise_diagnostics(diagnostics)
    return dict(report)


class Result(_np.ndarray):
    """A simulation result: a numpy structured array with a field ``time`` and one
    field per recorded variable (one row per output point; an event instant appears
    twice, before and after the event), as FMPy's ``simulate_fmu`` returns."""

    def to_pandas(self):
        """The result as a ``pandas.DataFrame`` indexed by ``time``."""
        import pandas as pd

        frame = pd.DataFrame({name: _np.asarray(self[name]) for name in self.dtype.names})
        return frame.set_index("time")


class Fmu:
    """An FMU unpacked and loaded once. Each :meth:`simulate` runs a fresh instance,
    so a loop of simulations (a parameter study) pays for the unpacking once, and
    Python threads may simulate one ``Fmu`` side by side."""

    def __init__(self, path: PathLike):
        self._fmu = _native.LoadedFmu(_os.fspath(path))

    @property
    def path(self) -> str:
        return self._fmu.path

    @property
    def model_name(self) -> str:
        return self._fmu.model_name

    def simulate(
        self,
        start_time: Optional[float] = None,
        stop_time: Optional[float] = None,
        output_interval: Optional[float] = None,
        tolerance: Optional[float] = None,
        start_values: Optional[Mapping[str, float]] = None,
        outputs: Optional[Sequence[str]] = None,
        interface: Optional[str] = None,
    ) -> Result:
        """Simulates the FMU as ``mofmu simulate`` does; see :func:`simulate`."""
        values = [(k, float(v)) for k, v in (start_values or {}).items()]
        names, data, rows = self._fmu.simulate(
            start_time, stop_time, output_interval, tolerance, values, list(outputs or []), interface
        )
        flat = _np.frombuffer(data, dtype=_np.float64).reshape(rows, len(names))
        dtype = _np.dtype([(name, _np.float64) for name in names])
        out = _np.empty(rows, dtype=dtype)
        for i, name in enumerate(names):
            out[name] = flat[:, i]
        return out.view(Result)

    def __repr__(self) -> str:
        return f"mofmu.Fmu({self.path!r}, model_name={self.model_name!r})"


def load(path: PathLike) -> Fmu:
    """Unpacks and loads the FMU at ``path`` once, for many simulations."""
    return Fmu(path)


def simulate(
    fmu: Union[PathLike, Fmu],
    start_time: Optional[float] = None,
    stop_time: Optional[float] = None,
    output_interval: Optional[float] = None,
    tolerance: Optional[float] = None,
    start_values: Optional[Mapping[str, float]] = None,
    outputs: Optional[Sequence[str]] = None,
    interface: Optional[str] = None,
) -> Result:
    """Simulates an FMU (a path, or an :class:`Fmu` already loaded).

    Times default to the FMU's ``DefaultExperiment``; ``start_values`` are set by
    name before initialisation; ``outputs`` chooses the recorded variables (default:
    every state and output); ``interface`` is ``"me"`` (Model Exchange, with
    mofmu's BDF integrator) or ``"cs"`` (the FMU's own Co-Simulation solver), by
    default Model Exchange when the FMU has it. The values equal those that
    ``mofmu simulate`` writes for the same options.
    """
    loaded = fmu if isinstance(fmu, Fmu) else Fmu(fmu)
    return loaded.simulate(start_time, stop_time, output_interval, tolerance, start_values, outputs, interface)
