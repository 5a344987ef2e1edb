#!/usr/bin/env python3
"""Round-trip every example model through mofmu and FMPy.

For each case of fmu-tests/cases.toml:

1. `mofmu export` the model to an FMU;
2. validate the FMU with FMPy (the list of problems must be empty);
3. simulate it with FMPy (CVode, relative tolerance 1e-8) and compare with the
   reference computed without mofmu (references/make_references.py);
4. simulate it with `mofmu simulate` (same relative tolerance) and compare
   with the same reference;
5. compare the FMPy and mofmu results with each other;
6. simulate it with FMPy as a Co-Simulation FMU (the FMU's embedded
   integrator, relative tolerance 1e-8) at communication steps of 1e-3 (or
   the case's `cs_step`) and of 0.1 of the stop time, and with `mofmu simulate --interface cs`, each
   compared with the same reference and tolerance: the result must not
   depend on the communication step.

Every check prints one line `PASS|FAIL <case> <check> <worst deviation>`; the
last line is `N passed, N failed`, and the exit status is 1 when any check
failed. The cases run side by side in worker processes (`for_each_case`,
`MOFMU_TEST_JOBS`), their lines printed in the cases' order. `--self-test`
exercises the comparison logic on synthetic data and needs neither mofmu
nor FMPy.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import functools
import io
import os
import re
import subprocess
import sys
import time
import tomllib
import traceback
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Any, Callable, Iterable

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DEFAULT_MANIFEST = HERE / "cases.toml"
DEFAULT_MOFMU = ROOT / "target" / "release" / "mofmu"
DEFAULT_OUT = ROOT / "out" / "fmu-tests"

# FMPy's solver settings for the round trip (see cases.toml for the
# tolerances that follow from them).
FMPY_SOLVER = "CVode"
FMPY_RELATIVE_TOLERANCE = 1e-8

# A result must reach the stop time within this fraction of the horizon.
TIME_SLACK = 1e-9

# Time limit for one mofmu command, in seconds.
COMMAND_TIMEOUT = 600


# ---------------------------------------------------------------------------
# Results and their comparison
# ---------------------------------------------------------------------------


@dataclass
class Trajectory:
    """Sampled values of some variables over time."""

    time: np.ndarray
    columns: dict[str, np.ndarray]


@dataclass
class Comparison:
    ok: bool
    summary: str


@dataclass
class Tolerance:
    abs_tol: float
    rel_tol: float


def array_element(name: str, is_array) -> tuple[str, int] | None:
    """The FMI 3 array a scalar name is an element of, and its 1-based index:
    `x[k]` and `der(x[k])` of the array `x` (`der(x)`), `cap[k].T` and
    `der(cap[k].T)` of the member array `cap.T` (`der(cap.T)`, declared so
    when a structural parameter sizes the component array `cap`); None when
    `is_array` accepts no such array name."""
    der = name.startswith("der(") and name.endswith(")")
    body = name[4:-1] if der else name
    for index in re.finditer(r"\[(\d+)\]", body):
        member = body[:index.start()] + body[index.end():]
        array = f"der({member})" if der else member
        if is_array(array):
            return array, int(index.group(1))
    return None


def drop_event_duplicates(traj: Trajectory) -> Trajectory:
    """Remove every row whose time occurs more than once.

    At an event a simulator records the values just before and just after it
    at the same time instant; which of them a reference matches depends on
    the variable. Both simulators and the reference lose all rows at such an
    instant, so each is judged on the same set of unambiguous instants.
    """
    t = traj.time
    if t.size < 2:
        return traj
    same_as_next = np.zeros(t.size, dtype=bool)
    same_as_next[:-1] = t[:-1] == t[1:]
    duplicate = same_as_next.copy()
    duplicate[1:] |= same_as_next[:-1]
    keep = ~duplicate
    return Trajectory(t[keep], {name: values[keep] for name, values in traj.columns.items()})


def event_instants(traj: Trajectory) -> np.ndarray:
    """The times that occur more than once (an event's two rows)."""
    t = traj.time
    if t.size < 2:
        return np.zeros(0)
    return np.unique(t[:-1][t[:-1] == t[1:]])


def compare(
    result: Trajectory,
    reference: Trajectory,
    names: list[str],
    tol: Tolerance,
    stop_time: float,
    output_interval: float,
) -> Comparison:
    """Compare a result with a reference, interpolated onto the result's times.

    A value passes when |value - reference| <= abs_tol + rel_tol*|reference|.
    The summary names the worst variable, where it is worst, its deviation
    and what share of the allowed deviation that is.
    """
    # The horizon is judged on every row: an event at the stop time (a pulse
    # edge there) leaves its two rows out of the comparison, not the horizon.
    covered = (float(result.time[0]), float(result.time[-1])) if result.time.size else None
    reference_covered = (
        (float(reference.time[0]), float(reference.time[-1])) if reference.time.size else None
    )
    # The density too: an event on a grid time adds a row there, it takes none away.
    distinct_times = int(np.unique(result.time).size)
    reference_events = event_instants(reference)
    result = drop_event_duplicates(result)
    reference = drop_event_duplicates(reference)
    t = result.time
    rt = reference.time

    missing = [name for name in names if name not in result.columns]
    if missing:
        return Comparison(False, f"result lacks {', '.join(missing)}")
    missing = [name for name in names if name not in reference.columns]
    if missing:
        return Comparison(False, f"reference lacks {', '.join(missing)}")
    if t.size == 0:
        return Comparison(False, "result has no rows")
    if rt.size == 0:
        return Comparison(False, "reference has no rows")
    if np.any(np.diff(t) < 0) or np.any(np.diff(rt) < 0):
        return Comparison(False, "time is not increasing")

    slack = TIME_SLACK * max(1.0, stop_time)
    if covered is None or abs(covered[0]) > slack or abs(covered[1] - stop_time) > slack:
        return Comparison(False, f"result covers [{t[0]:.9g}, {t[-1]:.9g}], expected [0, {stop_time:g}]")
    if reference_covered is None or reference_covered[0] > covered[0] + slack or reference_covered[1] < covered[1] - slack:
        first, last = reference_covered or (float("nan"), float("nan"))
        return Comparison(False, f"reference covers [{first:.9g}, {last:.9g}], shorter than the result")
    # A result must be sampled at least about as densely as asked; a handful
    # of grid points may coincide with events and be dropped above.
    expected_rows = int(round(stop_time / output_interval)) + 1
    if distinct_times < 0.9 * expected_rows:
        return Comparison(False, f"result has {distinct_times} distinct times, expected about {expected_rows}")

    # A result row between two reference rows that straddle one of the
    # reference's dropped event instants would be judged against a line drawn
    # across the event (a kink or a jump the reference has no row for): it is
    # not judged. Rows at the reference's own times always are.
    judged = np.ones(t.size, dtype=bool)
    if reference_events.size:
        k = np.clip(np.searchsorted(rt, t, side="right") - 1, 0, rt.size - 1)
        after = np.minimum(k + 1, rt.size - 1)
        # Past the reference's last row the line is held to the end: an event there
        # (a terminate at the stop) lies across it too.
        upper = np.where(after > k, rt[after], np.inf)
        on_row = np.isin(t, rt)
        for e in reference_events:
            judged &= on_row | ~((rt[k] < e) & (e < upper))
    if not np.any(judged):
        return Comparison(False, "every result row lies across a reference event")

    worst_ratio = -1.0
    worst = ("", 0.0, 0.0)
    for name in names:
        values = result.columns[name][judged]
        expected = np.interp(t[judged], rt, reference.columns[name])
        if not np.all(np.isfinite(values)):
            i = int(np.argmin(np.isfinite(values)))
            return Comparison(False, f"{name} is not finite at t={t[judged][i]:.9g}")
        deviation = np.abs(values - expected)
        allowed = tol.abs_tol + tol.rel_tol * np.abs(expected)
        # An exact comparison (no tolerance) passes only on equal values.
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = np.where(allowed > 0, deviation / np.where(allowed > 0, allowed, 1.0),
                             np.where(deviation > 0, np.inf, 0.0))
        i = int(np.argmax(ratio))
        if ratio[i] > worst_ratio:
            worst_ratio = float(ratio[i])
            worst = (name, float(t[judged][i]), float(deviation[i]))
    name, at, deviation = worst
    summary = f"worst {deviation:.3e} ({name} at t={at:.6g}, {100.0 * worst_ratio:.1f}% of tolerance)"
    return Comparison(worst_ratio <= 1.0, summary)


def on_reference_grid(result: Trajectory, reference: Trajectory, stop_time: float) -> Trajectory:
    """The rows of a densely sampled result at the reference's own times.

    A reference is sampled at the case's output interval; interpolating it
    linearly onto a much finer grid would add its own interpolation error, so
    a fine result is judged where the reference has values. The result's event
    duplicates are dropped first, as `compare` does.
    """
    raw = result
    result = drop_event_duplicates(result)
    # Every time of the reference, its event instants included: `compare` leaves
    # out a row there, but it counts towards the density asked for.
    rt = np.unique(reference.time)
    slack = TIME_SLACK * max(1.0, stop_time)
    index = np.clip(np.searchsorted(result.time, rt), 1, max(result.time.size - 1, 1))
    left = result.time[index - 1]
    right = result.time[np.minimum(index, result.time.size - 1)]
    nearest = np.where(np.abs(rt - left) <= np.abs(right - rt), index - 1, index)
    nearest = np.minimum(nearest, result.time.size - 1)
    keep = np.unique(nearest[np.abs(result.time[nearest] - rt) <= slack])
    picked = Trajectory(result.time[keep], {name: values[keep] for name, values in result.columns.items()})
    # An event at the stop time: its two rows go along, so that `compare`
    # skips them as it skips every event instant but sees the horizon covered.
    end = raw.time[-1] if raw.time.size else None
    if (end is not None and abs(end - stop_time) <= slack
            and (picked.time.size == 0 or picked.time[-1] < end - slack)):
        last = raw.time == end
        return Trajectory(np.concatenate([picked.time, raw.time[last]]),
                          {name: np.concatenate([values, raw.columns[name][last]])
                           for name, values in picked.columns.items()})
    return picked


def read_csv(path: Path) -> Trajectory:
    """Read a CSV with a header `"time","name",...` and numeric rows."""
    with path.open(newline="") as f:
        rows = list(csv.reader(f))
    if not rows:
        raise ValueError(f"{path}: empty file")
    header = [name.strip() for name in rows[0]]
    if not header or header[0] != "time":
        raise ValueError(f"{path}: the first column must be \"time\", found {header[:1]}")
    if len(set(header)) != len(header):
        raise ValueError(f"{path}: repeated column names")
    data = np.empty((len(rows) - 1, len(header)))
    for i, row in enumerate(rows[1:]):
        if len(row) != len(header):
            raise ValueError(f"{path}: row {i + 2} has {len(row)} fields, the header {len(header)}")
        try:
            data[i] = [float(x) for x in row]
        except ValueError as e:
            raise ValueError(f"{path}: row {i + 2}: {e}") from None
    return Trajectory(data[:, 0], {name: data[:, j] for j, name in enumerate(header) if j > 0})


def write_csv(path: Path, traj: Trajectory) -> None:
    names = list(traj.columns)
    with path.open("w", newline="") as f:
        writer = csv.writer(f, quoting=csv.QUOTE_NONNUMERIC, lineterminator="\n")
        writer.writerow(["time", *names])
        for i in range(traj.time.size):
            writer.writerow([float(traj.time[i]), *(float(traj.columns[n][i]) for n in names)])


# ---------------------------------------------------------------------------
# Reporting
# ---------------------------------------------------------------------------


@dataclass
class Report:
    passed: int = 0
    failed: int = 0
    failures: list[str] = field(default_factory=list)

    def check(self, ok: bool, case: str, check: str, detail: str) -> bool:
        verdict = "PASS" if ok else "FAIL"
        print(f"{verdict} {case} {check} {detail}", flush=True)
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            self.failures.append(f"{case} {check}")
        return ok

    def finish(self) -> int:
        if self.failures:
            cases = list(dict.fromkeys(f.split(" ", 1)[0] for f in self.failures))
            print("cases with failed checks: " + ", ".join(cases))
        print(f"{self.passed} passed, {self.failed} failed")
        return 1 if self.failed else 0

    def add(self, other: Report) -> None:
        """Counts the checks of `other` (a case's report from a worker)."""
        self.passed += other.passed
        self.failed += other.failed
        self.failures += other.failures


# ---------------------------------------------------------------------------
# Cases side by side
# ---------------------------------------------------------------------------

# Worker processes for the cases of a stage: MOFMU_TEST_JOBS, else the
# machine's cores up to MAX_DEFAULT_JOBS. A case runs one compiler or one
# simulation at a time, so two cases keep a 2-core machine busy; the suite
# must stay under an hour on one (scripts/test-all prints each stage's time).
JOBS_ENV = "MOFMU_TEST_JOBS"
MAX_DEFAULT_JOBS = 2


def worker_count() -> int:
    """How many cases run at once (`MOFMU_TEST_JOBS=1`: one after another,
    in this process)."""
    value = os.environ.get(JOBS_ENV, "").strip()
    if not value:
        return max(1, min(os.cpu_count() or 1, MAX_DEFAULT_JOBS))
    if not value.isdigit() or int(value) < 1:
        raise ValueError(f"{JOBS_ENV}={value!r}: expected a whole number of at least 1")
    return int(value)


@dataclass
class CaseOutcome:
    """What one item printed and checked in a worker process, and the
    traceback of an exception that ended it."""

    output: str
    report: Report
    error: str | None


def _run_captured(check: Callable[[Any, Report], None], item: Any) -> CaseOutcome:
    report = Report()
    output = io.StringIO()
    error = None
    with contextlib.redirect_stdout(output):
        try:
            check(item, report)
        except Exception:
            error = traceback.format_exc()
    return CaseOutcome(output.getvalue(), report, error)


def for_each_case(check: Callable[[Any, Report], None], items: Iterable[Any], report: Report,
                  jobs: int | None = None) -> None:
    """Runs `check(item, report)` for every item, with the output and the
    counts of a loop over `items`: the items run in `jobs` worker processes
    (default `worker_count()`), each into a report of its own, and each item's
    printed lines are printed here in the items' order as soon as it and
    the items before it are done, its checks added to `report`. With one
    job the loop runs here, printing as it goes.

    The workers are started fresh (spawn): `check` must be a module-level
    function, or a `functools.partial` of one, of picklable arguments, and
    must not depend on globals that `main` sets. An exception in an item
    ends the run, as it would end the loop."""
    items = list(items)
    jobs = worker_count() if jobs is None else jobs
    if jobs <= 1 or len(items) <= 1:
        for item in items:
            check(item, report)
        return
    with ProcessPoolExecutor(max_workers=min(jobs, len(items)), mp_context=get_context("spawn")) as pool:
        futures = [pool.submit(_run_captured, check, item) for item in items]
        for future in futures:
            outcome = future.result()
            sys.stdout.write(outcome.output)
            sys.stdout.flush()
            report.add(outcome.report)
            if outcome.error is not None:
                for pending in futures:
                    pending.cancel()
                sys.stderr.write(outcome.error)
                raise RuntimeError("a case raised an exception (traceback above)")


# ---------------------------------------------------------------------------
# The round trip
# ---------------------------------------------------------------------------


@dataclass
class Case:
    name: str
    libraries: list[str]
    model: str
    sets: list[str]
    stop_time: float
    output_interval: float
    reference: Path
    variables: list[str]
    tolerance: Tolerance
    justification: str
    # FMPy's fixed Co-Simulation step (CS_STEP unless the case says
    # `cs_step`, for horizons where 1e-3 s steps would be millions).
    cs_step: float = 1e-3
    # The solvers' relative tolerance (FMPY_RELATIVE_TOLERANCE unless the
    # case says `solver_rtol`, with its `solver_rtol_justification`).
    solver_rtol: float = 1e-8


# Communication steps of the Co-Simulation checks: a fixed one, and a tenth
# of the stop time.
CS_STEP = 1e-3
CS_STOP_FRACTION = 0.1

CHECKS = (
    "export",
    "validate",
    "fmpy-vs-reference",
    "mofmu-vs-reference",
    "fmpy-vs-mofmu",
    "fmpy-cs-step-vs-reference",
    "fmpy-cs-0.1T-vs-reference",
    "mofmu-cs-vs-reference",
)


def load_cases(manifest: Path) -> list[Case]:
    with manifest.open("rb") as f:
        raw = tomllib.load(f)
    cases = []
    names = set()
    for entry in raw.get("case", []):
        try:
            case = Case(
                name=str(entry["name"]),
                libraries=[str(p) for p in entry["libraries"]],
                model=str(entry["model"]),
                sets=[str(s) for s in entry.get("set", [])],
                stop_time=float(entry["stop_time"]),
                output_interval=float(entry["output_interval"]),
                reference=manifest.parent / str(entry["reference"]),
                variables=[str(v) for v in entry["variables"]],
                tolerance=Tolerance(float(entry["abs_tol"]), float(entry["rel_tol"])),
                justification=str(entry["justification"]),
                cs_step=float(entry.get("cs_step", CS_STEP)),
                solver_rtol=float(entry.get("solver_rtol", FMPY_RELATIVE_TOLERANCE)),
            )
        except KeyError as e:
            raise ValueError(f"{manifest}: a case lacks the key {e}") from None
        if case.name in names:
            raise ValueError(f"{manifest}: case {case.name} appears twice")
        if "solver_rtol" in entry and not str(entry.get("solver_rtol_justification", "")).strip():
            raise ValueError(f"{manifest}: case {case.name} sets solver_rtol without solver_rtol_justification")
        if not case.justification.strip():
            raise ValueError(f"{manifest}: case {case.name} has no tolerance justification")
        names.add(case.name)
        cases.append(case)
    return cases


def unpack_and_rebuild(fmu: Path, tmp: Path) -> tuple[Path, bool, str]:
    """Unpacks `fmu` into `tmp/fmu`, deletes its binaries and rebuilds them
    from `sources/` alone with FMPy's `build_platform_binary` (CMake; it
    reads `<SourceFiles>` of an FMI 2.0 description, or an FMI 3.0 FMU's
    `sources/buildDescription.xml`), in a process of its own. Returns the
    unpacked directory, whether the build succeeded, and its time or its
    last line of output."""
    import shutil
    import zipfile

    unzipped = tmp / "fmu"
    with zipfile.ZipFile(fmu) as z:
        z.extractall(unzipped)
    shutil.rmtree(unzipped / "binaries")
    (tmp / "build").mkdir()
    started = time.monotonic()
    try:
        build = subprocess.run(
            [sys.executable, "-c",
             "import sys; from fmpy.build import build_platform_binary; "
             "build_platform_binary(sys.argv[1], sys.argv[2])",
             str(unzipped), str(tmp / "build")],
            capture_output=True, text=True)
    except OSError as e:
        return unzipped, False, str(e)
    if build.returncode == 0:
        return unzipped, True, f"{time.monotonic() - started:.1f} s"
    lines = (build.stderr or build.stdout).strip().splitlines()
    return unzipped, False, lines[-1] if lines else f"exit status {build.returncode}"


def run_command(command: list[str], log: Path) -> tuple[bool, str]:
    """Run a command, keep its output in `log`, say whether it succeeded."""
    started = time.monotonic()
    try:
        proc = subprocess.run(command, capture_output=True, text=True, timeout=COMMAND_TIMEOUT, cwd=ROOT)
    except FileNotFoundError:
        return False, f"cannot run {command[0]}"
    except subprocess.TimeoutExpired:
        return False, f"timed out after {COMMAND_TIMEOUT} s"
    elapsed = time.monotonic() - started
    log.write_text(f"$ {' '.join(command)}\n--- stdout\n{proc.stdout}\n--- stderr\n{proc.stderr}")
    if proc.returncode != 0:
        lines = (proc.stderr or proc.stdout).strip().splitlines()
        last = lines[-1] if lines else ""
        return False, f"exit {proc.returncode} after {elapsed:.2f} s: {last} (log: {log})"
    return True, f"{elapsed:.2f} s"


def fmpy_simulate(fmu: Path, case: Case) -> Trajectory:
    from fmpy import simulate_fmu

    result = simulate_fmu(
        str(fmu),
        validate=False,
        fmi_type="ModelExchange",
        solver=FMPY_SOLVER,
        relative_tolerance=case.solver_rtol,
        start_time=0.0,
        stop_time=case.stop_time,
        output_interval=case.output_interval,
        output=case.variables,
    )
    return Trajectory(
        np.asarray(result["time"], dtype=float),
        {name: np.asarray(result[name], dtype=float) for name in case.variables},
    )


def fmpy_simulate_cs(fmu: Path, case: Case, step: float) -> Trajectory:
    from fmpy import simulate_fmu

    result = simulate_fmu(
        str(fmu),
        validate=False,
        fmi_type="CoSimulation",
        relative_tolerance=case.solver_rtol,
        start_time=0.0,
        stop_time=case.stop_time,
        output_interval=step,
        output=case.variables,
    )
    return Trajectory(
        np.asarray(result["time"], dtype=float),
        {name: np.asarray(result[name], dtype=float) for name in case.variables},
    )


def run_case(case: Case, mofmu: Path, out: Path, report: Report) -> None:
    out.mkdir(parents=True, exist_ok=True)
    fmu = out / f"{case.name}.fmu"
    fmu.unlink(missing_ok=True)

    def not_run(checks: tuple[str, ...], reason: str) -> None:
        for check in checks:
            report.check(False, case.name, check, f"not run: {reason}")

    # 1. Export.
    command = [str(mofmu), "export", *case.libraries, "--model", case.model, "-o", str(fmu)]
    for assignment in case.sets:
        command += ["--set", assignment]
    ok, detail = run_command(command, out / f"{case.name}.export.log")
    if ok and not fmu.is_file():
        ok, detail = False, f"mofmu exited 0 but wrote no {fmu}"
    if not report.check(ok, case.name, "export", detail):
        not_run(CHECKS[1:], "export failed")
        return

    # 2. Validate.
    try:
        from fmpy.validation import validate_fmu

        problems = validate_fmu(str(fmu))
        report.check(not problems, case.name, "validate", "; ".join(problems) if problems else "no problems")
    except Exception as e:  # FMPy raises many kinds on a broken FMU.
        report.check(False, case.name, "validate", f"{type(e).__name__}: {e}")

    try:
        reference = read_csv(case.reference)
    except (OSError, ValueError) as e:
        reference = None
        reference_error = str(e)

    # 3. FMPy against the reference.
    fmpy_result: Trajectory | None = None
    try:
        fmpy_result = fmpy_simulate(fmu, case)
        write_csv(out / f"{case.name}.fmpy.csv", fmpy_result)
    except Exception as e:  # A broken FMU can make FMPy raise anything.
        report.check(False, case.name, "fmpy-vs-reference", f"FMPy failed: {type(e).__name__}: {e}")
    if fmpy_result is not None:
        if reference is None:
            report.check(False, case.name, "fmpy-vs-reference", reference_error)
        else:
            c = compare(fmpy_result, reference, case.variables, case.tolerance, case.stop_time, case.output_interval)
            report.check(c.ok, case.name, "fmpy-vs-reference", c.summary)

    # 4. mofmu simulate against the reference.
    mofmu_result: Trajectory | None = None
    csv_path = out / f"{case.name}.mofmu.csv"
    csv_path.unlink(missing_ok=True)
    command = [
        str(mofmu),
        "simulate",
        str(fmu),
        "--stop-time",
        repr(case.stop_time),
        "--output-interval",
        repr(case.output_interval),
        "--tolerance",
        repr(case.solver_rtol),
        "--variables",
        ",".join(case.variables),
        "-o",
        str(csv_path),
    ]
    ok, detail = run_command(command, out / f"{case.name}.simulate.log")
    if ok:
        try:
            mofmu_result = read_csv(csv_path)
        except (OSError, ValueError) as e:
            ok, detail = False, str(e)
    if not ok:
        report.check(False, case.name, "mofmu-vs-reference", f"mofmu simulate failed: {detail}")
    elif reference is None:
        report.check(False, case.name, "mofmu-vs-reference", reference_error)
    else:
        assert mofmu_result is not None
        c = compare(mofmu_result, reference, case.variables, case.tolerance, case.stop_time, case.output_interval)
        report.check(c.ok, case.name, "mofmu-vs-reference", c.summary)

    # 5. FMPy against mofmu: FMPy's result plays the reference.
    if fmpy_result is None or mofmu_result is None:
        not_run(("fmpy-vs-mofmu",), "a simulation failed")
    else:
        c = compare(mofmu_result, fmpy_result, case.variables, case.tolerance, case.stop_time, case.output_interval)
        report.check(c.ok, case.name, "fmpy-vs-mofmu", c.summary)

    # 6. Co-Simulation: FMPy's master at two communication steps, then the
    # harness's own Co-Simulation loop.
    for label, step in (
        ("fmpy-cs-step-vs-reference", case.cs_step),
        ("fmpy-cs-0.1T-vs-reference", CS_STOP_FRACTION * case.stop_time),
    ):
        if reference is None:
            report.check(False, case.name, label, reference_error)
            continue
        started, asked = time.monotonic(), step
        try:
            cs_result = fmpy_simulate_cs(fmu, case, step)
        except Exception as e:  # A broken FMU can make FMPy raise anything.
            report.check(False, case.name, label, f"FMPy failed: {type(e).__name__}: {e}")
            continue
        if step < case.output_interval:
            cs_result = on_reference_grid(cs_result, reference, case.stop_time)
            step = case.output_interval
        c = compare(cs_result, reference, case.variables, case.tolerance, case.stop_time, step)
        report.check(c.ok, case.name, label, f"{c.summary} (step {asked:g} s, {time.monotonic() - started:.2f} s)")

    cs_csv = out / f"{case.name}.mofmu-cs.csv"
    cs_csv.unlink(missing_ok=True)
    command = [
        str(mofmu),
        "simulate",
        str(fmu),
        "--interface",
        "cs",
        "--stop-time",
        repr(case.stop_time),
        "--output-interval",
        repr(case.output_interval),
        "--tolerance",
        repr(case.solver_rtol),
        "--variables",
        ",".join(case.variables),
        "-o",
        str(cs_csv),
    ]
    ok, detail = run_command(command, out / f"{case.name}.simulate-cs.log")
    if not ok:
        report.check(False, case.name, "mofmu-cs-vs-reference", f"mofmu simulate --interface cs failed: {detail}")
    elif reference is None:
        report.check(False, case.name, "mofmu-cs-vs-reference", reference_error)
    else:
        try:
            c = compare(read_csv(cs_csv), reference, case.variables, case.tolerance, case.stop_time, case.output_interval)
            report.check(c.ok, case.name, "mofmu-cs-vs-reference", c.summary)
        except (OSError, ValueError) as e:
            report.check(False, case.name, "mofmu-cs-vs-reference", str(e))


def run_named_case(case: Case, report: Report, mofmu: Path, out: Path) -> None:
    """`run_case` under a heading line with the case's tolerance."""
    tol = case.tolerance
    print(f"== {case.name}: {case.model}, abs {tol.abs_tol:g} rel {tol.rel_tol:g} ({case.justification})")
    run_case(case, mofmu, out / case.name, report)


# ---------------------------------------------------------------------------
# Self-test of the comparison logic
# ---------------------------------------------------------------------------


def self_test(out: Path) -> int:
    """Check `compare` and the CSV reader on synthetic trajectories."""
    report = Report()
    out.mkdir(parents=True, exist_ok=True)
    tol = Tolerance(1e-6, 1e-6)
    grid = np.arange(201) * 0.01
    ref = Trajectory(grid, {"x": np.exp(-grid), "y[2]": 300.0 + grid})
    names = ["x", "y[2]"]

    # A CSV written and read back is the same trajectory, names with
    # brackets and quotes included.
    path = out / "selftest.csv"
    write_csv(path, ref)
    back = read_csv(path)
    same = list(back.columns) == names and np.array_equal(back.time, ref.time)
    same = same and all(np.array_equal(back.columns[n], ref.columns[n]) for n in names)
    report.check(same, "self-test", "csv-round-trip", f"{path}")

    def expect(label: str, result: Trajectory, want_ok: bool, ref_traj: Trajectory = ref) -> None:
        c = compare(result, ref_traj, names, tol, 2.0, 0.01)
        report.check(c.ok == want_ok, "self-test", label, f"compare said {'ok' if c.ok else 'not ok'}: {c.summary}")

    expect("identical", ref, True)
    # Within tolerance: 0.5 of the allowed deviation everywhere.
    expect(
        "inside-tolerance",
        Trajectory(grid, {"x": ref.columns["x"] + 0.5 * (1e-6 + 1e-6 * ref.columns["x"]), "y[2]": ref.columns["y[2]"]}),
        True,
    )
    # The relative part matters: 1e-4 on ~300 is inside 1e-6 + 1e-6*300.
    expect("relative-part", Trajectory(grid, {"x": ref.columns["x"], "y[2]": ref.columns["y[2]"] + 2.5e-4}), True)
    # One bad sample fails the comparison.
    bad = ref.columns["x"].copy()
    bad[137] += 1e-5
    expect("one-bad-sample", Trajectory(grid, {"x": bad, "y[2]": ref.columns["y[2]"]}), False)
    # Event rows: duplicated instants with a jump between them are skipped.
    i_ev = 100  # t = 1.0
    t_ev = np.insert(grid, i_ev, grid[i_ev])
    jump = np.exp(-t_ev)
    jump[i_ev] = 99.0
    expect("event-duplicates", Trajectory(t_ev, {"x": jump, "y[2]": 300.0 + t_ev}), True)
    # An event at the stop time: its rows are skipped, the horizon is covered.
    t_end = np.append(grid, grid[-1])
    end_jump = np.exp(-t_end)
    end_jump[-1] = 99.0
    expect("event-at-stop-time", Trajectory(t_end, {"x": end_jump, "y[2]": 300.0 + t_end}), True)
    # ... but only exact duplicates are skipped.
    t_near = t_ev.copy()
    t_near[i_ev] -= 1e-3
    expect("near-duplicate-not-skipped", Trajectory(t_near, {"x": jump, "y[2]": 300.0 + t_near}), False)
    # A result on another grid is compared with the interpolated reference.
    linear = Trajectory(grid, {"x": 1.0 + 2.0 * grid, "y[2]": 300.0 + grid})
    fine = np.arange(401) * 0.005
    expect("other-grid", Trajectory(fine, {"x": 1.0 + 2.0 * fine, "y[2]": 300.0 + fine}), True, linear)
    # A reference with an event at t = 1 (a kink: x = 1 - t, then 0) whose two
    # rows there are dropped: a result row at t = 1 lies between the
    # reference's rows at 0.99 and 1.01, whose line across the kink is off by
    # 5e-3, and is not judged; every other row still is.
    kink_t = np.insert(grid, 100, grid[100])
    kink = Trajectory(kink_t, {"x": np.maximum(0.0, 1.0 - kink_t), "y[2]": 300.0 + kink_t})
    exact = Trajectory(grid, {"x": np.maximum(0.0, 1.0 - grid), "y[2]": 300.0 + grid})
    expect("row-across-a-reference-event-not-judged", exact, True, kink)
    off_beside = exact.columns["x"].copy()
    off_beside[99] += 1e-4  # t = 0.99, a row the reference has
    expect("row-beside-a-reference-event-judged",
           Trajectory(grid, {"x": off_beside, "y[2]": exact.columns["y[2]"]}), False, kink)
    off_far = exact.columns["x"].copy()
    off_far[150] += 1e-4  # t = 1.5, after the event
    expect("rows-after-a-reference-event-judged",
           Trajectory(grid, {"x": off_far, "y[2]": exact.columns["y[2]"]}), False, kink)
    # Without the event rows the same reference is a line through the kink's
    # neighbours, and the row at t = 1 is judged (and fails).
    no_event = Trajectory(grid[grid != 1.0], {n: v[grid != 1.0] for n, v in exact.columns.items()})
    expect("row-across-a-gap-without-event-judged", exact, False, no_event)
    # Missing variables, short horizons, sparse and non-finite results fail.
    expect("missing-variable", Trajectory(grid, {"x": ref.columns["x"]}), False)
    expect("short-horizon", Trajectory(grid[:150], {n: v[:150] for n, v in ref.columns.items()}), False)
    expect("too-few-rows", Trajectory(grid[::20], {n: v[::20] for n, v in ref.columns.items()}), False)
    nan = ref.columns["x"].copy()
    nan[5] = np.nan
    expect("not-finite", Trajectory(grid, {"x": nan, "y[2]": ref.columns["y[2]"]}), False)
    expect("reference-too-short", ref, False, Trajectory(grid[:100], {n: v[:100] for n, v in ref.columns.items()}))

    # Malformed CSVs are errors, not crashes.
    for label, text in [
        ("csv-no-time", '"t","x"\n0,1\n'),
        ("csv-ragged", '"time","x"\n0,1\n1\n'),
        ("csv-not-a-number", '"time","x"\n0,abc\n'),
        ("csv-empty", ""),
    ]:
        bad_path = out / f"selftest-{label}.csv"
        bad_path.write_text(text)
        try:
            read_csv(bad_path)
            report.check(False, "self-test", label, "accepted")
        except ValueError as e:
            report.check(True, "self-test", label, f"rejected: {e}")
    return report.finish()


# ---------------------------------------------------------------------------
# Driver
# ---------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mofmu", type=Path, default=DEFAULT_MOFMU, help="the mofmu binary")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="folder for FMUs, CSVs and logs")
    parser.add_argument("--cases", type=Path, default=DEFAULT_MANIFEST, help="the case manifest")
    parser.add_argument("-k", dest="filters", action="append", default=[], metavar="NAME",
                        help="run only cases whose name contains NAME (repeatable)")
    parser.add_argument("--self-test", action="store_true", help="test the comparison logic and exit")
    args = parser.parse_args(argv)

    if args.self_test:
        return self_test(args.out / "self-test")

    try:
        cases = load_cases(args.cases)
    except (OSError, ValueError, tomllib.TOMLDecodeError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.filters:
        cases = [c for c in cases if any(f in c.name for f in args.filters)]
    if not cases:
        print("error: no case selected", file=sys.stderr)
        return 2
    mofmu = args.mofmu.resolve()
    if not mofmu.is_file():
        print(f"error: no mofmu binary at {mofmu} (build it with `cargo build --release`)", file=sys.stderr)
        return 2

    report = Report()
    for_each_case(functools.partial(run_named_case, mofmu=mofmu, out=args.out), cases, report)
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
