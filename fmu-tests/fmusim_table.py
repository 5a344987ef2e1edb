#!/usr/bin/env python3
"""The reference importer's table: fmusim on every case, exported as FMI 3.0.

fmusim is the Modelica Association's reference FMI importer (its last C
release is v0.0.39 of Reference-FMUs). It is not installed by this project
and not needed by CI (the conformance walk of tests/it/conformance.rs is
CI's check of the state machine); this script runs an fmusim binary the
caller built, to judge the FMUs by the importer the standard's authors
keep. For each case of fmu-tests/cases.toml (or those whose name contains
`-k`):

1. `mofmu export --fmi-version 3` the model with the case's `--set`s;
2. fmusim as Model Exchange with its explicit Euler and as Co-Simulation
   (`fmi3DoStep`) at the case's communication step, recording the case's
   variables (an element `rod.T[3]` through its array `rod.T`), with
   logging on at level warning: the run must exit 0, not by a signal, and
   no line of its log may be an `[Error]` or `[Fatal]` of the FMU;
3. the Co-Simulation result against FMPy's run of the same FMU with the
   same step: every recorded value within 1e-9 of its signal's range
   (of 1 for a constant signal).

It prints one line per case (the table of docs/fmu.md, "The reference
importer") and `N passed, N failed`.

    python fmu-tests/fmusim_table.py --fmusim PATH/TO/fmusim [--mofmu target/release/mofmu] [-k NAME]
"""

from __future__ import annotations

import argparse
import csv
import signal
import tomllib
import subprocess
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fmi3_roundtrip as f3  # noqa: E402
import roundtrip as rt  # noqa: E402

# Co-Simulation of the same FMU by two importers at the same step: only the
# order of floating-point operations outside the FMU may differ.
CS_TOLERANCE = 1e-9
EULER_STEPS = 20000


def read_fmusim_csv(path: Path) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """fmusim's CSV: quoted names, an array's elements space-separated in
    one column."""
    with path.open() as f:
        rows = list(csv.reader(f))
    names = rows[0]
    columns: dict[str, list[list[float]]] = {name: [] for name in names}
    for row in rows[1:]:
        for name, cell in zip(names, row):
            columns[name].append([float(x) for x in cell.split()])
    time = np.asarray([r[0] for r in columns["time"]])
    return time, {name: np.asarray(v) for name, v in columns.items() if name != "time"}


def run_fmusim(fmusim: Path, fmu: Path, case: rt.Case, interface: str, arrays: list[str],
               out: Path, stiff: bool) -> tuple[str, Path]:
    """Runs fmusim; returns a problem ("" when none) and the result file."""
    result = out / f"{case.name}.fmusim-{interface}.csv"
    log = out / f"{case.name}.fmusim-{interface}.log"
    # Euler takes the 20000 steps of importers.py's Euler stage.
    step = case.cs_step if interface == "cs" else case.stop_time / EULER_STEPS
    command = [str(fmusim), "--interface-type", interface, "--stop-time", repr(case.stop_time),
               "--tolerance", repr(case.solver_rtol),
               "--output-interval", repr(step), "--logging-on", "--log-level", "warning",
               "--log-file", str(log), "--output-file", str(result)]
    if interface == "me":
        command += ["--solver", "euler"]
    for name in arrays:
        command += ["--output-variable", name]
    command.append(str(fmu))
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=1800)
    except subprocess.TimeoutExpired:
        return "timed out", result
    if done.returncode < 0:
        return f"killed by {signal.Signals(-done.returncode).name}", result
    text = (log.read_text() if log.exists() else "") + done.stdout + done.stderr
    errors = [line for line in text.splitlines() if "[Error]" in line or "[Fatal]" in line]
    if errors:
        return f"{len(errors)} error lines, first: {errors[0][:300]}", result
    if done.returncode != 0:
        discards = [line for line in text.splitlines() if "[Discard]" in line]
        if interface == "me" and stiff and discards:
            # Explicit Euler leaves the stability region of a stiff model;
            # the FMU says so with fmi3Discard, as FMI 3.0 asks.
            return f"stiff: {discards[0][:160]}", result
        return f"exit status {done.returncode}: {text[-300:]}", result
    return "", result


def run_case(case: rt.Case, report: rt.Report, mofmu: Path, fmusim: Path, out: Path,
             stiff: bool) -> None:
    out.mkdir(parents=True, exist_ok=True)
    fmu = out / f"{case.name}.fmi3.fmu"
    fmu.unlink(missing_ok=True)
    command = [str(mofmu), "export", *case.libraries, "--model", case.model, "-o", str(fmu),
               "--fmi-version", "3"]
    for assignment in case.sets:
        command += ["--set", assignment]
    ok, detail = rt.run_command(command, out / f"{case.name}.export.log")
    if not report.check(ok and fmu.is_file(), case.name, "export", detail):
        return
    where = f3.variables_in(fmu, case.variables)
    arrays = sorted({array for array, _ in where.values()})
    problems = {}
    for interface in ("me", "cs"):
        problem, result = run_fmusim(fmusim, fmu, case, interface, arrays, out, stiff)
        problems[interface] = (problem, result)
        fine = not problem or problem.startswith("stiff: ")
        report.check(fine, case.name, f"fmusim-{interface}", problem or "no crash, no error")
    problem, result = problems["cs"]
    if problem:
        return
    time, columns = read_fmusim_csv(result)
    theirs = f3.simulate(fmu, case, "CoSimulation")
    # The rows of both grids at the same communication points (k times the
    # step): fmusim 0.0.39 sums its steps in floating point and can end a
    # few steps short of the stop time, which the table notes.
    step = case.cs_step
    mine_k = np.round(time / step).astype(np.int64)
    theirs_k = np.round(theirs.time / step).astype(np.int64)
    common, mine_at, theirs_at = np.intersect1d(mine_k, theirs_k, return_indices=True)
    short = len(theirs.time) - len(common)
    if len(common) < 0.99 * len(theirs.time):
        report.check(False, case.name, "fmusim-cs-vs-fmpy",
                     f"{len(time)} rows against FMPy's {len(theirs.time)}, {len(common)} in common")
        return
    worst, worst_name = 0.0, ""
    for name, (array, index) in where.items():
        column = columns[array]
        mine = column[mine_at, 0 if index is None else index]
        fmpy = theirs.columns[name][theirs_at]
        scale = float(np.ptp(theirs.columns[name])) or 1.0
        deviation = float(np.max(np.abs(mine - fmpy))) / scale
        if deviation >= worst:
            worst, worst_name = deviation, name
    if short:
        worst_name += f"; fmusim ends {short} steps before the stop time"
    report.check(worst <= CS_TOLERANCE, case.name, "fmusim-cs-vs-fmpy",
                 f"worst {worst:.2e} of range ({worst_name}), limit {CS_TOLERANCE:g}")


# fmusim's absolute tolerance on times (FMIIsClose in its FMIUtil.c).
FMUSIM_EPSILON = 1e-5


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fmusim", type=Path, required=True)
    parser.add_argument("--mofmu", type=Path, default=rt.DEFAULT_MOFMU)
    parser.add_argument("--manifest", type=Path, default=rt.DEFAULT_MANIFEST)
    parser.add_argument("--out", type=Path, default=rt.ROOT / "out" / "fmusim")
    parser.add_argument("-k", action="append", default=[], help="cases whose name contains this")
    args = parser.parse_args(argv)
    cases = [c for c in rt.load_cases(args.manifest) if not args.k or any(k in c.name for k in args.k)]
    with args.manifest.open("rb") as f:
        stiff = {c["name"] for c in tomllib.load(f)["case"] if c.get("stiff")}
    report = rt.Report()
    for case in cases:
        if case.stop_time <= FMUSIM_EPSILON:
            # fmusim 0.0.39 compares times with FMIIsClose, which takes any two
            # times within 1e-5 s as equal: it ends such a run at its start.
            print(f"SKIP {case.name} fmusim: the run lasts {case.stop_time:g} s, which fmusim "
                  f"0.0.39 takes as already at its stop (FMIIsClose: |a - b| <= 1e-5 s)", flush=True)
            continue
        run_case(case, report, args.mofmu, args.fmusim, args.out, case.name in stiff)
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
