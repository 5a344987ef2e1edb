#!/usr/bin/env python3
"""Every example under a second third-party importer: the `fmi` crate.

`fmi-importer` (fmu-tests/fmi-importer/) loads an FMU with the `fmi` crate
from crates.io (rust-fmi): the crate unzips it, parses modelDescription.xml
with its own schema and calls the FMI 2.0 Model Exchange functions through
its own bindings. The program integrates with classical Runge-Kutta 4 at a
fixed step, locating time events, state events (bisection on the step) and
step events. Nothing of mofmu's own harness is involved.

For every case of cases.toml:
1. `fmi-crate-vs-fmpy`: the importer's result at step h agrees with FMPy's
   CVode (rtol 1e-8, the round trip's setting) on the same FMU within the
   case's own tolerance (abs_tol + rel_tol*|value|, justified in cases.toml
   by CVode's error);
2. `rk4-error`: the importer's own error is far below that tolerance: the
   step-doubling estimate |x(2h) - x(h)|/15 (RK4 is fourth order) must stay
   under 10% of it, so the first check measures the FMU and CVode, not the
   fixed-step method;
3. `fmi-crate-cs-vs-reference`: the crate instantiates the same FMU as
   Co-Simulation and steps it with fmi2DoStep at the output interval (the
   FMU's own integrator at relative tolerance 1e-8, the round trip's
   setting); the result matches the case's independent reference within its
   tolerance.

And one state event that no case has (test_data/events/Switch.mo): the
crossing must be found at t = 0.5 within 1e-9 and every sample must match
the closed form to 1e-6.

With `--fmi-version 3` every case is exported as FMI 3.0 instead and the
importer runs the crate's FMI 3 side (fmi3 bindings, its FMI 3 schema, an
element `rod.T[3]` of a case read as element 3 of the Float64 array
`rod.T`): the same RK4 run, checked against the case's independent
reference (`fmi3-crate-vs-reference`, within the case's tolerance), the
same step-doubling bound, and fmi3DoStep against the reference
(`fmi3-crate-cs-vs-reference`); and the state event of Switch.mo.

Prints `PASS|FAIL <case> <check> <detail>` and `N passed, N failed`; the exit
status is 1 when any check failed.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from roundtrip import (
    Tolerance,
    Trajectory,
    compare,
    drop_event_duplicates,
    fmpy_simulate,
    load_cases,
    read_csv,
)

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DEFAULT_IMPORTER = HERE / "fmi-importer" / "target" / "release" / "fmi-importer"

# The RK4 step. Explicit methods must resolve the fastest mode: the planar
# joints' dialectic time constant TD = 1e-4 s puts eigenvalues near -1/TD,
# and RK4 is stable for h*|lambda| < 2.78, so 1e-4 s, also at 2h for the
# step-doubling estimate. The thermal cases are slow (time constants of
# seconds, the 10-volume rod's fastest about 0.5 s), so 1e-2 s.
DEFAULT_STEP = 1e-4
STEPS = {
    "TwoCapacitors": 1e-2,
    "CapacitorCooling": 1e-2,
    "HeatedCapacitor": 1e-2,
    "RodHeating": 1e-2,
    "RodHeating_n10": 1e-2,
    # Energy budgets over hours and days: constant or daily-sine powers
    # integrated by meters, the room's thermal time constant of hours, the
    # kinks located as state events by bisection, so 1 s.
    "EnergyFlows_BatteryDrive": 1.0,
    "EnergyFlows_PriorityBus": 1.0,
    "EnergyFlows_SolarHouse": 1.0,
    # Ten minutes of a water loop whose fastest mode FMPy's Euler follows at
    # 0.03 s steps (its start-up transient and the heater wall's 1 s): at
    # 1e-4 s the run took 278 s of the 300 s limit, at 1e-3 s the
    # step-doubling estimate stays far inside the tolerance.
    "TFS_CoolingLoop": 1e-3,
    # The same loop with the radiator as a channel and cells on signals:
    # the same equations and modes.
    "TFS_CoolingLoopChannel": 1e-3,
    # The plate of capacitors over 1000 s: its fastest mode (C over a cell's
    # conductances) is about 2.5 s, so RK4 at 1e-2 s is far inside both the
    # stability limit and the tolerance (the step-doubling check says so);
    # at 1e-4 s the 10^7 steps took 150 s per version.
    "AccGrid_Plate": 1e-2,
    "AccGrid_Plate_Set": 1e-2,
}

# Share of a case's tolerance that the RK4 error estimate may take.
RK4_ERROR_SHARE = 0.1

COMMAND_TIMEOUT = 300

passed = 0
failed = 0
# "2" or "3": the FMI version exported and imported (--fmi-version).
FMI_VERSION = "2"


def report(ok: bool, case: str, check: str, detail: str) -> None:
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
    print(f"{'PASS' if ok else 'FAIL'} {case} {check} {detail}", flush=True)


def export(mofmu: Path, fmu: Path, libraries: list[str], model: str, stop_time: float,
           sets: list[str]) -> None:
    command = [str(mofmu), "export", *[str(ROOT / lib) for lib in libraries],
               "--model", model, "-o", str(fmu), "--stop-time", repr(stop_time),
               "--fmi-version", FMI_VERSION]
    for s in sets:
        command += ["--set", s]
    subprocess.run(command, check=True, capture_output=True, text=True, timeout=COMMAND_TIMEOUT)


def run_importer(importer: Path, fmu: Path, csv: Path, stop_time: float, interval: float,
                 step: float, variables: list[str]) -> tuple[Trajectory, str, float]:
    """Runs fmi-importer; returns its result, its statistics line and its run time."""
    command = [str(importer), str(fmu), "--stop-time", repr(stop_time),
               "--output-interval", repr(interval), "--step", repr(step),
               "--method", "rk4", "--variables", ",".join(variables), "-o", str(csv),
               "--fmi-version", FMI_VERSION]
    if step <= 0.0:
        # Co-Simulation: the FMU integrates by itself.
        command[command.index("--step"):command.index("--step") + 4] = [
            "--interface", "cs", "--tolerance", "1e-8"]
    started = time.monotonic()
    proc = subprocess.run(command, capture_output=True, text=True, timeout=COMMAND_TIMEOUT)
    elapsed = time.monotonic() - started
    if proc.returncode != 0:
        raise RuntimeError(f"exit {proc.returncode}: {proc.stderr.strip()}")
    statistics = proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else ""
    statistics = statistics.split(": ", 2)[-1]
    return read_csv(csv), statistics, elapsed


def step_doubling(fine: Trajectory, coarse: Trajectory, names: list[str],
                  tol: Tolerance) -> tuple[float, str]:
    """Largest |x(2h) - x(h)|/15 as a share of the tolerance, and a summary."""
    fine = drop_event_duplicates(fine)
    coarse = drop_event_duplicates(coarse)
    worst, where = 0.0, ""
    for name in names:
        estimate = np.abs(np.interp(fine.time, coarse.time, coarse.columns[name])
                          - fine.columns[name]) / 15.0
        share = estimate / (tol.abs_tol + tol.rel_tol * np.abs(fine.columns[name]))
        i = int(np.argmax(share))
        if share[i] > worst:
            worst = float(share[i])
            where = f"{estimate[i]:.2e} ({name} at t={fine.time[i]:.6g})"
    return worst, where or "0"


def real_variables(fmu: Path, names: list[str]) -> list[str]:
    """The names among `names` that the FMU declares as Reals: the importer
    reads Reals only, so Boolean and Integer variables (AccDiscrete) are
    left to FMPy and the harness in roundtrip.py."""
    import xml.etree.ElementTree as ET
    import zipfile

    with zipfile.ZipFile(fmu) as z:
        root = ET.fromstring(z.read("modelDescription.xml"))
    if FMI_VERSION == "3":
        # Float64 variables; an element a[k] of a Float64 array a.
        floats = {v.get("name"): v.find("Dimension") is not None for v in root.iter("Float64")}
        return [n for n in names
                if floats.get(n) is False or floats.get(n.rsplit("[", 1)[0]) is True]
    real = {v.get("name") for v in root.iter("ScalarVariable") if v.find("Real") is not None}
    return [n for n in names if n in real]


def check_cases(mofmu: Path, importer: Path, out: Path, only: str | None) -> None:
    for case in load_cases(HERE / "cases.toml"):
        if only and only not in case.name:
            continue
        fmu = out / f"{case.name}.fmu"
        try:
            export(mofmu, fmu, case.libraries, case.model, case.stop_time, case.sets)
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as e:
            report(False, case.name, "export", str(e))
            continue
        step = STEPS.get(case.name, DEFAULT_STEP)
        variables = real_variables(fmu, case.variables)
        try:
            fine, statistics, elapsed = run_importer(
                importer, fmu, out / f"{case.name}.csv", case.stop_time,
                case.output_interval, step, variables)
            coarse, _, _ = run_importer(
                importer, fmu, out / f"{case.name}_2h.csv", case.stop_time,
                case.output_interval, 2.0 * step, variables)
        except (RuntimeError, subprocess.TimeoutExpired) as e:
            report(False, case.name, "fmi-crate-run", str(e))
            continue
        if FMI_VERSION == "3":
            against, check = read_csv(case.reference), "fmi3-crate-vs-reference"
        else:
            against, check = fmpy_simulate(fmu, case), "fmi-crate-vs-fmpy"
        verdict = compare(fine, against, variables, case.tolerance, case.stop_time,
                          case.output_interval)
        report(verdict.ok, case.name, check,
               f"{verdict.summary}; tolerance {case.tolerance.abs_tol:g} + "
               f"{case.tolerance.rel_tol:g}*|x|; RK4 h={step:g}: {statistics}, {elapsed:.2f} s")
        share, where = step_doubling(fine, coarse, variables, case.tolerance)
        report(share <= RK4_ERROR_SHARE, case.name, "rk4-error",
               f"step-doubling estimate {where}, {100.0 * share:.2g}% of tolerance "
               f"(limit {100.0 * RK4_ERROR_SHARE:g}%)")
        cs_check = ("fmi3-crate-cs-vs-reference" if FMI_VERSION == "3"
                    else "fmi-crate-cs-vs-reference")
        try:
            cs, statistics, elapsed = run_importer(
                importer, fmu, out / f"{case.name}_cs.csv", case.stop_time,
                case.output_interval, 0.0, variables)
            verdict = compare(cs, read_csv(case.reference), variables, case.tolerance,
                              case.stop_time, case.output_interval)
            report(verdict.ok, case.name, cs_check,
                   f"{verdict.summary}; {statistics}, {elapsed:.2f} s")
        except (RuntimeError, subprocess.TimeoutExpired, OSError, ValueError) as e:
            report(False, case.name, cs_check, str(e))


def check_state_event(mofmu: Path, importer: Path, out: Path) -> None:
    name = "Switch.RiseThenDecay"
    fmu = out / "Switch_RiseThenDecay.fmu"
    export(mofmu, fmu, ["examples/Base.mo", "test_data/events/Switch.mo"], name, 2.0, [])
    result, statistics, _ = run_importer(importer, fmu, out / "Switch_RiseThenDecay.csv",
                                         2.0, 0.01, 1e-3, ["x"])
    t = result.time
    x = result.columns["x"]
    repeated = t[1:][np.diff(t) == 0.0]
    at_half = [e for e in repeated if abs(e - 0.5) <= 1e-9]
    report(len(repeated) == 1 and len(at_half) == 1, name, "state-event",
           f"event instants {[float(e) for e in repeated]} (want one at 0.5 within 1e-9); "
           f"{statistics}")
    closed = np.where(t < 0.5, t, 0.5 * np.exp(-(t - 0.5)))
    # At the event instant the row before the event holds the rising branch.
    before = np.zeros(t.size, dtype=bool)
    before[:-1] = t[:-1] == t[1:]
    closed[before] = t[before]
    worst = float(np.max(np.abs(x - closed)))
    report(worst <= 1e-6, name, "closed-form", f"worst {worst:.2e} (limit 1e-6)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mofmu", type=Path, default=ROOT / "target" / "release" / "mofmu")
    parser.add_argument("--importer", type=Path, default=DEFAULT_IMPORTER)
    parser.add_argument("--out", type=Path, default=ROOT / "out" / "fmi-crate")
    parser.add_argument("-k", dest="only", help="only cases whose name contains this")
    parser.add_argument("--fmi-version", choices=["2", "3"], default="2",
                        help="export and import FMI 2.0 (default) or FMI 3.0")
    args = parser.parse_args()
    global FMI_VERSION
    FMI_VERSION = args.fmi_version
    args.out.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    check_state_event(args.mofmu, args.importer, args.out)
    check_cases(args.mofmu, args.importer, args.out, args.only)
    print(f"fmi crate check (FMI {FMI_VERSION}) took {time.monotonic() - started:.1f} s")
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
