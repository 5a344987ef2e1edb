"""Parameter sweeps from Python: ``mofmu.sweep``, locally or on a Dask cluster.

The local executor is the command line's (``mofmu sweep``): worker threads in this
process, each with its own loaded copy of the FMU. The Dask executor ships the FMU to
every worker once (``Client.scatter(..., broadcast=True)``), runs the pending cases in
batches, each batch as a local sweep of one thread on the worker, and writes each case's
file into the dataset here, on the driver, atomically as its batch comes back. Dask
re-runs the tasks of a worker that dies on another worker; a case's file is written only
from the one result of its task, so no case is written twice. The summary is then
written by a local sweep that finds every case done. Both executors therefore leave the
same dataset (docs/sweep.md), and re-running either resumes.
"""

from __future__ import annotations

import hashlib
import math
import os
import shutil
import tempfile
from dataclasses import dataclass
from typing import Dict, List, Mapping, Optional, Sequence, Tuple, Union

from . import _native

PathLike = Union[str, "os.PathLike[str]"]
GridSpec = Union[str, Sequence[float]]


@dataclass(frozen=True)
class SweepResult:
    """What a sweep did; the rows are in ``summary`` (``DIR/summary.parquet``)."""

    cases: int
    ran: int
    skipped: int
    failed: int
    summary: str
    trajectories: str
    #: The plot file drawn with ``plot=...``, else None.
    plot: Optional[str] = None


def _grid_args(grid: Mapping[str, GridSpec]) -> List[str]:
    args = []
    for name, spec in grid.items():
        if isinstance(spec, str):
            args.append(f"{name}={spec}")
        else:
            values = [repr(float(v)) for v in spec]
            if not values:
                raise ValueError(f"grid[{name!r}] has no values")
            args.append(f"{name}={','.join(values)}")
    return args


def _case_table(grid, cases) -> Tuple[List[str], List[List[float]]]:
    if (grid is None) == (cases is None):
        raise ValueError("give exactly one of grid= (a mapping NAME -> 'a:b:n' or values) and cases= (a CSV path or a table)")
    if grid is not None:
        return _native.sweep_cases(_grid_args(grid), None)
    if isinstance(cases, (str, os.PathLike)):
        return _native.sweep_cases([], os.fspath(cases))
    # A mapping of columns (or a pandas DataFrame): names and rows.
    names = [str(n) for n in cases.keys()]
    columns = [[float(v) for v in cases[n]] for n in cases.keys()]
    lengths = {len(c) for c in columns}
    if len(lengths) != 1:
        raise ValueError("cases: every column needs the same number of rows")
    return names, [list(row) for row in zip(*columns)]


def sweep(
    fmu: PathLike,
    outputs: Sequence[str],
    out: PathLike,
    *,
    grid: Optional[Mapping[str, GridSpec]] = None,
    cases=None,
    start_time: Optional[float] = None,
    stop_time: Optional[float] = None,
    output_interval: Optional[float] = None,
    tolerance: Optional[float] = None,
    interface: Optional[str] = None,
    workers: Optional[int] = None,
    scheduler: Optional[str] = None,
    batch_size: Optional[int] = None,
    progress: bool = False,
    plot: Optional[PathLike] = None,
) -> SweepResult:
    """Simulates ``fmu`` once per case into the Parquet dataset ``out``, as ``mofmu sweep``.

    The cases are a ``grid`` (``{"rod.G": "0.5:2:16", "T0": [290, 300]}``: ``a:b:n`` is n
    points from a to b inclusive, a list its values; several axes give their cartesian
    product, the first varying slowest) or ``cases`` (a CSV or Parquet path with a header of
    parameter names, or a mapping / DataFrame of columns). Each case sets its values as
    start values, as ``mofmu simulate --start-value`` does. ``out`` receives
    ``summary.parquet`` (``case``, one column per parameter, ``status``, ``message``,
    ``wall_s``, ``final.<output>``) and ``trajectories/case=<id>/part-0.parquet``.
    A failing case is a row with its status and message and never stops the sweep;
    running the same sweep again runs only the cases the dataset lacks.

    ``workers`` threads run locally (default: the number of cores), or, with
    ``scheduler="tcp://HOST:PORT"``, the cases run on that Dask cluster (needs
    ``dask.distributed``, and ``mofmu`` installed on the workers) in batches of
    ``batch_size`` cases.

    ``plot="file.svg"`` (or ``.png``) then draws every output over time for every case
    into that file (as ``mofmu sweep --plot``; :func:`plot_sweep` draws an existing dataset).
    """
    if plot is not None:
        _native.check_plot_path(os.fspath(plot))
    names, rows = _case_table(grid, cases)
    settings = (start_time, stop_time, output_interval, tolerance, interface)
    fmu, out, outputs = os.fspath(fmu), os.fspath(out), [str(o) for o in outputs]
    ran_on_dask = None
    if scheduler is not None:
        ran_on_dask = _run_on_dask(fmu, names, rows, outputs, out, settings, scheduler, batch_size, progress)
        workers, progress = 1, False
    # Locally: the run. After Dask: the summary of the cases the workers ran (a local
    # pass finds them done; it runs only a case whose file could not be placed).
    done = _native.sweep(fmu, names, rows, outputs, out, *settings, workers, None, progress)
    ran = done["ran"] + (ran_on_dask or 0)
    if plot is not None:
        _native.plot_sweep(out, os.fspath(plot))
    return SweepResult(
        cases=len(rows),
        ran=ran,
        skipped=len(rows) - ran,
        failed=done["failed"],
        summary=os.path.join(out, "summary.parquet"),
        trajectories=os.path.join(out, "trajectories"),
        plot=None if plot is None else os.fspath(plot),
    )


def plot_sweep(out: PathLike, file: PathLike) -> Dict[str, object]:
    """Draws every recorded output of every case of the sweep dataset ``out`` into the SVG
    or PNG file ``file``: one panel per output over time, a line per case coloured by the first
    parameter that varies (more than 100 cases: median, 10-90 % and min-max bands). Cases
    that are not ``ok`` are counted in the title, not drawn. Returns ``cases``, ``drawn``,
    ``style`` (``"lines"`` or ``"bands"``), ``outputs`` and ``colour_by``."""
    return _native.plot_sweep(os.fspath(out), os.fspath(file))


# --- The Dask executor ---------------------------------------------------------------

#: Per worker process: the folder holding the FMUs shipped to it, by digest.
_WORKER_DIR: Dict[str, str] = {}


def _worker_fmu(data: bytes, digest: str) -> str:
    """The FMU on this worker's disk, written once per worker process."""
    home = _WORKER_DIR.get("home")
    if home is None:
        home = _WORKER_DIR["home"] = tempfile.mkdtemp(prefix="mofmu-worker-")
    path = os.path.join(home, f"{digest}.fmu")
    if not os.path.exists(path):
        tmp = path + ".part"
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    return path


def _run_batch(data, digest, table, outputs, settings, batch):
    """On a worker: the cases of ``batch`` as a local sweep of one thread; each case's
    file as bytes, for the driver to place into the dataset."""
    names, rows = table
    fmu = _worker_fmu(data, digest)
    out = tempfile.mkdtemp(prefix="batch-", dir=os.path.dirname(fmu))
    try:
        _native.sweep(fmu, names, rows, outputs, out, *settings, 1, list(batch), False)
        payloads = []
        for case in batch:
            with open(_case_file(out, case), "rb") as f:
                payloads.append((case, f.read()))
        return payloads
    finally:
        shutil.rmtree(out, ignore_errors=True)


def _case_file(out: str, case: int) -> str:
    return os.path.join(out, "trajectories", f"case={case}", "part-0.parquet")


def _place(out: str, case: int, payload: bytes) -> None:
    """Writes one case's file into the dataset atomically (a temporary file renamed)."""
    path = _case_file(out, case)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".part-", dir=os.path.dirname(path))
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(payload)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _run_on_dask(fmu, names, rows, outputs, out, settings, scheduler, batch_size, progress) -> int:
    """Runs the pending cases on the cluster and places their files; the number run."""
    try:
        from dask.distributed import Client, as_completed
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise _native.MofmuError(
            "scheduler=...: the Dask executor needs dask.distributed (pip install 'dask[distributed]')"
        ) from e
    pending = _native.sweep_pending(fmu, names, rows, outputs, out, *settings)
    if not pending:
        return 0
    with open(fmu, "rb") as f:
        data = f.read()
    digest = hashlib.sha256(data).hexdigest()
    with Client(scheduler) as client:
        workers = max(1, len(client.scheduler_info().get("workers", {})))
        size = batch_size or max(1, min(64, math.ceil(len(pending) / (4 * workers))))
        shipped = client.scatter(data, broadcast=True, hash=False)
        table = client.scatter((names, rows), broadcast=True, hash=False)
        batches = [pending[i : i + size] for i in range(0, len(pending), size)]
        futures = [
            client.submit(
                _run_batch, shipped, digest, table, outputs, settings, batch,
                key=f"mofmu-sweep-{digest[:16]}-{batch[0]}-{len(batch)}", pure=False, retries=3,
            )
            for batch in batches
        ]
        done = 0
        for future in as_completed(futures):
            for case, payload in future.result():
                _place(out, case, payload)
            done += 1
            if progress:
                print(f"\rmofmu sweep: {done}/{len(batches)} batches", end="", flush=True)
        if progress:
            print()
    return len(pending)
