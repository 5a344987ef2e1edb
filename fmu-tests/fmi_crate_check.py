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
(`fmi3-crate-cs-vs-reference`); and the state event of Switch.mo. And the
structural parameters (`check_structural`, one `Structural` per model):
RodHeating (rod.n) and Acc4's chain (n, the size of its component arrays)
exported once as FMI 3.0 at n = 5, run by the crate at n = 5, 1,000 and
10^5 set in configuration mode (`fmi-importer --set rod.n=N`), against the
FMI 2.0 exports of those sizes run the same way, and against the closed
form; FMPy's FMU3Slave at 1,000.

Prints `PASS|FAIL <case> <check> <detail>` and `N passed, N failed`; the exit
status is 1 when any check failed. The state event, the cases and the
structural models run side by side in worker processes
(roundtrip.for_each_case, `MOFMU_TEST_JOBS`), their lines printed in that
order.
"""

from __future__ import annotations

import argparse
import functools
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from roundtrip import (
    Case,
    Report,
    Tolerance,
    Trajectory,
    array_element,
    compare,
    drop_event_duplicates,
    fmpy_simulate,
    for_each_case,
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

# Below, `fmi_version` is "2" or "3": the FMI version exported and imported
# (--fmi-version).


def export(mofmu: Path, fmu: Path, libraries: list[str], model: str, stop_time: float,
           sets: list[str], fmi_version: str) -> None:
    command = [str(mofmu), "export", *[str(ROOT / lib) for lib in libraries],
               "--model", model, "-o", str(fmu), "--stop-time", repr(stop_time),
               "--fmi-version", fmi_version]
    for s in sets:
        command += ["--set", s]
    subprocess.run(command, check=True, capture_output=True, text=True, timeout=COMMAND_TIMEOUT)


def run_importer(importer: Path, fmu: Path, csv: Path, stop_time: float, interval: float,
                 step: float, variables: list[str], sets: list[str] | None = None, *,
                 fmi_version: str, tolerance: float = 1e-8) -> tuple[Trajectory, str, float]:
    """Runs fmi-importer; returns its result, its statistics line and its run time.

    `sets` are `NAME=VALUE` for `--set` (FMI 3: a structural parameter is
    set in configuration mode). `tolerance` is the Co-Simulation solver's
    relative tolerance (the case's `solver_rtol`)."""
    command = [str(importer), str(fmu), "--stop-time", repr(stop_time),
               "--output-interval", repr(interval), "--step", repr(step),
               "--method", "rk4", "--variables", ",".join(variables), "-o", str(csv),
               "--fmi-version", fmi_version]
    for s in sets or []:
        command += ["--set", s]
    if step <= 0.0:
        # Co-Simulation: the FMU integrates by itself.
        command[command.index("--step"):command.index("--step") + 4] = [
            "--interface", "cs", "--tolerance", repr(tolerance)]
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


def real_variables(fmu: Path, names: list[str], fmi_version: str) -> dict[str, str]:
    """The names among `names` that the FMU declares as Reals, each with the
    name the importer reads it by: the importer reads Reals only, so Boolean
    and Integer variables (AccDiscrete) are left to FMPy and the harness in
    roundtrip.py. In FMI 3 an element a[k] of a Float64 array a is read as
    itself, and an element `cap[k].T` of a member array `cap.T` (a component
    array sized by a structural parameter) as `cap.T[k]`."""
    import xml.etree.ElementTree as ET
    import zipfile

    with zipfile.ZipFile(fmu) as z:
        root = ET.fromstring(z.read("modelDescription.xml"))
    if fmi_version == "3":
        floats = {v.get("name"): v.find("Dimension") is not None for v in root.iter("Float64")}
        found = {}
        for n in names:
            if floats.get(n) is False or floats.get(n.rsplit("[", 1)[0]) is True:
                found[n] = n
                continue
            element = array_element(n, lambda array: floats.get(array) is True)
            if element is not None:
                found[n] = f"{element[0]}[{element[1]}]"
        return found
    real = {v.get("name") for v in root.iter("ScalarVariable") if v.find("Real") is not None}
    return {n: n for n in names if n in real}


def by_case_names(result: Trajectory, names: dict[str, str]) -> Trajectory:
    """The importer's result with each column under the case's name."""
    return Trajectory(result.time, {case: result.columns[read] for case, read in names.items()})


def check_case(case: Case, report: Report, mofmu: Path, importer: Path, out: Path,
               fmi_version: str) -> None:
    """The checks of one case of cases.toml."""
    fmu = out / f"{case.name}.fmu"
    try:
        export(mofmu, fmu, case.libraries, case.model, case.stop_time, case.sets, fmi_version)
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as e:
        report.check(False, case.name, "export", str(e))
        return
    step = STEPS.get(case.name, DEFAULT_STEP)
    names = real_variables(fmu, case.variables, fmi_version)
    if not names:
        print(f"SKIP {case.name} fmi-crate-run: the case judges no Real variable "
              f"({', '.join(case.variables)}); its Booleans and Integers are judged by "
              f"FMPy and the harness in roundtrip.py", flush=True)
        return
    variables, read = list(names), list(names.values())
    try:
        fine, statistics, elapsed = run_importer(
            importer, fmu, out / f"{case.name}.csv", case.stop_time,
            case.output_interval, step, read, fmi_version=fmi_version)
        coarse, _, _ = run_importer(
            importer, fmu, out / f"{case.name}_2h.csv", case.stop_time,
            case.output_interval, 2.0 * step, read, fmi_version=fmi_version)
        fine, coarse = by_case_names(fine, names), by_case_names(coarse, names)
    except (RuntimeError, subprocess.TimeoutExpired) as e:
        report.check(False, case.name, "fmi-crate-run", str(e))
        return
    if fmi_version == "3":
        against, check = read_csv(case.reference), "fmi3-crate-vs-reference"
    else:
        against, check = fmpy_simulate(fmu, case), "fmi-crate-vs-fmpy"
    verdict = compare(fine, against, variables, case.tolerance, case.stop_time,
                      case.output_interval)
    report.check(verdict.ok, case.name, check,
                 f"{verdict.summary}; tolerance {case.tolerance.abs_tol:g} + "
                 f"{case.tolerance.rel_tol:g}*|x|; RK4 h={step:g}: {statistics}, {elapsed:.2f} s")
    share, where = step_doubling(fine, coarse, variables, case.tolerance)
    report.check(share <= RK4_ERROR_SHARE, case.name, "rk4-error",
                 f"step-doubling estimate {where}, {100.0 * share:.2g}% of tolerance "
                 f"(limit {100.0 * RK4_ERROR_SHARE:g}%)")
    cs_check = ("fmi3-crate-cs-vs-reference" if fmi_version == "3"
                else "fmi-crate-cs-vs-reference")
    try:
        cs, statistics, elapsed = run_importer(
            importer, fmu, out / f"{case.name}_cs.csv", case.stop_time,
            case.output_interval, 0.0, read, fmi_version=fmi_version, tolerance=case.solver_rtol)
        cs = by_case_names(cs, names)
        verdict = compare(cs, read_csv(case.reference), variables, case.tolerance,
                          case.stop_time, case.output_interval)
        report.check(verdict.ok, case.name, cs_check,
                     f"{verdict.summary}; {statistics}, {elapsed:.2f} s")
    except (RuntimeError, subprocess.TimeoutExpired, OSError, ValueError) as e:
        report.check(False, case.name, cs_check, str(e))


def check_state_event(report: Report, mofmu: Path, importer: Path, out: Path, fmi_version: str) -> None:
    name = "Switch.RiseThenDecay"
    fmu = out / "Switch_RiseThenDecay.fmu"
    export(mofmu, fmu, ["examples/Base.mo", "test_data/events/Switch.mo"], name, 2.0, [], fmi_version)
    result, statistics, _ = run_importer(importer, fmu, out / "Switch_RiseThenDecay.csv",
                                         2.0, 0.01, 1e-3, ["x"], fmi_version=fmi_version)
    t = result.time
    x = result.columns["x"]
    repeated = t[1:][np.diff(t) == 0.0]
    at_half = [e for e in repeated if abs(e - 0.5) <= 1e-9]
    report.check(len(repeated) == 1 and len(at_half) == 1, name, "state-event",
                 f"event instants {[float(e) for e in repeated]} (want one at 0.5 within 1e-9); "
                 f"{statistics}")
    closed = np.where(t < 0.5, t, 0.5 * np.exp(-(t - 0.5)))
    # At the event instant the row before the event holds the rising branch.
    before = np.zeros(t.size, dtype=bool)
    before[:-1] = t[:-1] == t[1:]
    closed[before] = t[before]
    worst = float(np.max(np.abs(x - closed)))
    report.check(worst <= 1e-6, name, "closed-form", f"worst {worst:.2e} (limit 1e-6)")


def rod_closed_form(n: int, t: np.ndarray, volumes: list[int]) -> dict[str, np.ndarray]:
    """RodHeating with n volumes, solved without mofmu: source(T=400) --
    conductor(G=1) -- rod(n, T0=300), far end insulated; C = rho*c*A*L/n,
    G = lambda*A/(L/n) (L=0.1, A=1e-4, rho=2700, c=900, lambda=200). Every
    volume has the same C, so A of T' = A*T + b is symmetric and
    T(t) = T_inf + V exp(Lambda t) V^T (T0 - T_inf) (one eigh). The columns
    `rod.T[k]` for k in `volumes` (1-based)."""
    cap = 2700.0 * 900.0 * 1e-4 * 0.1 / n
    g = 200.0 * 1e-4 / (0.1 / n)
    a = np.zeros((n, n))
    i = np.arange(n - 1)
    a[i, i + 1] = a[i + 1, i] = g / cap
    a[i, i] -= g / cap
    a[i + 1, i + 1] -= g / cap
    a[0, 0] -= 1.0 / cap
    b = np.zeros(n)
    b[0] = 400.0 / cap
    lam, v = np.linalg.eigh(a)
    x_inf = np.linalg.solve(a, -b)
    k = [j - 1 for j in volumes]
    x = x_inf[k] + (np.exp(np.outer(t, lam)) * (v.T @ (np.full(n, 300.0) - x_inf))) @ v[k].T
    return {f"rod.T[{j}]": x[:, c] for c, j in enumerate(volumes)}


def chain_closed_form(n: int, t: np.ndarray, caps: list[int]) -> dict[str, np.ndarray]:
    """Acc4.Chain with n elements, solved without mofmu: source(T=400) --
    link[1] -- cap[1] -- link[2] -- ... -- cap[n], every link G = 2, every
    capacitor C = 50 from 300 K. C T' = A T + b with A the symmetric
    tridiagonal of the links (-2G on the diagonal, -G at the last capacitor,
    which has no link after it), b = G*400 at the first, so
    T(t) = T_inf + V exp(Lambda t) V^T (T0 - T_inf) (one eigh). The columns
    `cap[k].T` for k in `caps` (1-based)."""
    g, cap = 2.0, 50.0
    a = np.zeros((n, n))
    i = np.arange(n - 1)
    a[i, i + 1] = a[i + 1, i] = g / cap
    a[np.arange(n), np.arange(n)] = -2.0 * g / cap
    a[n - 1, n - 1] = -g / cap
    b = np.zeros(n)
    b[0] = 400.0 * g / cap
    lam, v = np.linalg.eigh(a)
    x_inf = np.linalg.solve(a, -b)
    k = [j - 1 for j in caps]
    x = x_inf[k] + (np.exp(np.outer(t, lam)) * (v.T @ (np.full(n, 300.0) - x_inf))) @ v[k].T
    return {f"cap[{j}].T": x[:, c] for c, j in enumerate(caps)}


@dataclass
class Structural:
    """One model whose array size is a structural parameter in FMI 3.0:
    exported once at `size`, run by the crate at each of `runs` (size, stop
    time, output interval, RK4 step; 0: Co-Simulation) with `parameter` set
    in configuration mode, against the FMI 2.0 export of that size run the
    same way, and against `closed_form` up to 1,000 elements. The states are
    the Float64 array `array` of the FMI 3 description, whose element k the
    FMI 2.0 description names `element(k)`. FMPy's FMU3Slave runs the FMI 3
    FMU at `fmpy_size` in Co-Simulation."""
    name: str
    case: str
    parameter: str
    size: int
    array: str
    element: Callable[[int], str]
    runs: list[tuple[int, float, float, float]]
    closed_form: Callable[[int, np.ndarray, list[int]], dict[str, np.ndarray]]
    fmpy_size: int


STRUCTURAL = [
    # RK4 must resolve the rod's fastest mode, about 4G/C = 0.033*n^2 1/s
    # (RK4 is stable for h*|lambda| < 2.78): at n = 5 the case's 1e-2 s; at
    # n = 1,000 (|lambda| 3.3e4) 2e-5 s over the first 0.5 s; at 10^5
    # (|lambda| 3.3e8) only the FMU's own implicit integrator (fmi3DoStep,
    # RODAS3 on a band matrix, rtol 1e-8) is practical.
    Structural("RodHeating-structural", "RodHeating", "rod.n", 5, "rod.T",
               lambda k: f"rod.T[{k}]",
               [(5, 100.0, 0.5, 1e-2), (1000, 0.5, 0.01, 2e-5), (1000, 100.0, 0.5, 0.0),
                (100_000, 100.0, 5.0, 0.0)],
               rod_closed_form, 1000),
    # The chain's fastest mode is below 4G/C = 0.16 1/s at every n, so RK4 at
    # 0.1 s is far inside its stability bound and its error (about
    # (h*lambda)^4/120 per unit time) far below the case's 1e-6. Exported at
    # its default n = 3, where the exported schedule keeps plain what the
    # template rolls; n = 2 is the smallest size it serves.
    Structural("Acc4_Chain-structural", "Acc4_Chain", "n", 3, "cap.T",
               lambda k: f"cap[{k}].T",
               [(2, 100.0, 0.5, 0.1), (3, 100.0, 0.5, 0.1), (5, 100.0, 0.5, 0.1),
                (1000, 100.0, 0.5, 0.1), (1000, 100.0, 0.5, 0.0),
                (100_000, 100.0, 5.0, 0.5)],
               chain_closed_form, 1000),
]


def fmpy_configured_cs(fmu: Path, spec: Structural, n: int, stop: float, interval: float,
                       elements: list[int]) -> Trajectory:
    """The FMI 3 FMU through FMPy's own FMI 3 wrapper (fmpy.fmi3.FMU3Slave):
    the structural parameter set to n in configuration mode, then
    fmi3DoStep per output interval at relative tolerance 1e-8. FMPy's
    `simulate_fmu` never calls fmi3EnterConfigurationMode (FMPy 0.3.32), so
    this drives the wrapper's calls one by one; the FMU and FMPy's ctypes
    bindings do the rest. Columns are named as in the FMI 2.0 description."""
    from fmpy import extract, read_model_description
    from fmpy.fmi3 import FMU3Slave

    md = read_model_description(str(fmu))
    vrs = {v.name: v.valueReference for v in md.modelVariables}
    directory = extract(str(fmu))
    slave = FMU3Slave(guid=md.guid, unzipDirectory=directory,
                      modelIdentifier=md.coSimulation.modelIdentifier, instanceName="structural")
    slave.instantiate()
    try:
        slave.enterConfigurationMode()
        slave.setUInt64([vrs[spec.parameter]], [n])
        slave.exitConfigurationMode()
        slave.enterInitializationMode(tolerance=1e-8, startTime=0.0, stopTime=stop)
        slave.exitInitializationMode()
        steps = int(round(stop / interval))
        times, rows = [], []
        for k in range(steps + 1):
            t = min(k * interval, stop)
            values = slave.getFloat64([vrs[spec.array]], nValues=n)
            times.append(t)
            rows.append([values[j - 1] for j in elements])
            if k < steps:
                slave.doStep(t, min((k + 1) * interval, stop) - t)
        slave.terminate()
    finally:
        slave.freeInstance()
    columns = np.array(rows)
    return Trajectory(np.array(times),
                      {spec.element(j): columns[:, c] for c, j in enumerate(elements)})


def check_structural(report: Report, mofmu: Path, importer: Path, out: Path, spec: Structural) -> None:
    """Issue 24's must-show, for one `Structural` model: exported once as
    FMI 3.0, instantiated by the crate at each size set in configuration
    mode, matches the FMI 2.0 exports of those sizes, run the same way by
    the same importer, within the round-trip tolerance (the case's), and
    the closed form where one eigh is affordable."""
    case = next(c for c in load_cases(HERE / "cases.toml") if c.name == spec.case)
    name = spec.name
    fmu3 = out / f"{spec.case}_struct_fmi3.fmu"
    try:
        export(mofmu, fmu3, case.libraries, case.model, case.stop_time,
               [f"{spec.parameter}={spec.size}"], fmi_version="3")
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as e:
        report.check(False, name, "export", str(e))
        return
    exported: dict[int, Path] = {}
    for n, stop, interval, step in spec.runs:
        label = f"n={n} " + (f"RK4 h={step:g}" if step > 0 else "CS rtol 1e-8") + f" to {stop:g} s"
        elements = sorted({1, 2, n // 2, n - 1, n} - {0})
        variables = [spec.element(k) for k in elements]
        tag = f"n{n}_{'rk4' if step > 0 else 'cs'}"
        try:
            if n not in exported:
                fmu2 = out / f"{spec.case}_n{n}_fmi2.fmu"
                started = time.monotonic()
                export(mofmu, fmu2, case.libraries, case.model, case.stop_time,
                       [f"{spec.parameter}={n}"], fmi_version="2")
                exported[n] = fmu2
                print(f"  FMI 2.0 export of {spec.case} at n={n}: "
                      f"{time.monotonic() - started:.2f} s", flush=True)
            three, statistics3, elapsed3 = run_importer(
                importer, fmu3, out / f"struct_{spec.case}_{tag}_fmi3.csv", stop, interval, step,
                [f"{spec.array}[{k}]" for k in elements], [f"{spec.parameter}={n}"], fmi_version="3")
            three = Trajectory(three.time, {
                spec.element(k): three.columns[f"{spec.array}[{k}]"] for k in elements})
            two, statistics2, elapsed2 = run_importer(
                importer, exported[n], out / f"struct_{spec.case}_{tag}_fmi2.csv", stop,
                interval, step, variables, None, fmi_version="2")
        except (RuntimeError, KeyError, subprocess.TimeoutExpired,
                subprocess.CalledProcessError) as e:
            report.check(False, name, f"run {label}", str(e))
            continue
        verdict = compare(three, two, variables, case.tolerance, stop, interval)
        report.check(verdict.ok, name, "fmi3-configured-vs-fmi2",
                     f"{label}: {verdict.summary}; FMI 3 {elapsed3:.2f} s ({statistics3}), "
                     f"FMI 2 {elapsed2:.2f} s")
        if step == 0.0 and n == spec.fmpy_size:
            try:
                fmpy = fmpy_configured_cs(fmu3, spec, n, stop, interval, elements)
                verdict = compare(fmpy, two, variables, case.tolerance, stop, interval)
                report.check(verdict.ok, name, "fmpy-fmu3slave-configured-vs-fmi2",
                             f"{label}: {verdict.summary}")
            except Exception as e:  # FMPy raises its own exception types
                report.check(False, name, "fmpy-fmu3slave-configured-vs-fmi2", f"{label}: {e}")
        if n <= 1000:
            exact = Trajectory(three.time, spec.closed_form(n, three.time, elements))
            verdict = compare(three, exact, variables, case.tolerance, stop, interval)
            report.check(verdict.ok, name, "fmi3-configured-vs-closed-form",
                         f"{label}: {verdict.summary}")


def check_item(item: tuple[str, Case | str | None], report: Report, mofmu: Path, importer: Path,
               out: Path, fmi_version: str) -> None:
    """One item of the run: ("state-event", None), ("case", a case) or
    ("structural", the name of a `Structural`)."""
    kind, what = item
    if kind == "state-event":
        check_state_event(report, mofmu, importer, out, fmi_version)
    elif kind == "case":
        check_case(what, report, mofmu, importer, out, fmi_version)
    else:
        check_structural(report, mofmu, importer, out, next(spec for spec in STRUCTURAL if spec.name == what))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mofmu", type=Path, default=ROOT / "target" / "release" / "mofmu")
    parser.add_argument("--importer", type=Path, default=DEFAULT_IMPORTER)
    parser.add_argument("--out", type=Path, default=ROOT / "out" / "fmi-crate")
    parser.add_argument("-k", dest="only", help="only cases whose name contains this")
    parser.add_argument("--fmi-version", choices=["2", "3"], default="2",
                        help="export and import FMI 2.0 (default) or FMI 3.0")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    # The state event, every case, and for FMI 3.0 the structural
    # parameters, side by side in worker processes (for_each_case).
    items: list[tuple[str, Case | str | None]] = [("state-event", None)]
    items += [("case", case) for case in load_cases(HERE / "cases.toml")
              if not args.only or args.only in case.name]
    if args.fmi_version == "3":
        items += [("structural", spec.name) for spec in STRUCTURAL
                  if not args.only or args.only in spec.name]
    report = Report()
    for_each_case(functools.partial(check_item, mofmu=args.mofmu, importer=args.importer, out=args.out,
                                    fmi_version=args.fmi_version), items, report)
    print(f"fmi crate check (FMI {args.fmi_version}) took {time.monotonic() - started:.1f} s")
    print(f"{report.passed} passed, {report.failed} failed")
    return 0 if report.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
