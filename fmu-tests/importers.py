#!/usr/bin/env python3
"""Events located by FMPy's CVode, and FMPy's Euler solver on every example.

1. Events. Two FMUs with a switch at t = 0.5, simulated by FMPy with CVode
   at relative tolerance 1e-10:
   - Signals.Examples.StepIntegrator: a relation on `time` (a time event);
     x = 1 before 0.5 and 1 + 3*(t - 0.5) after;
   - test_data/events/Switch.mo, RiseThenDecay: a relation on a state (an
     event indicator); x = t until x = 0.5, then 0.5*exp(-(t - 0.5)).
   The event must appear in the result at t = 0.5 (within 1e-9 for the time
   event, 1e-7 for the located state event), and every sample after it
   must match the closed form to 1e-6.
2. Hybrid models that must end, through FMPy with a 60 s bound each (a
   child process, killed past it): test_data/events/Chatter.mo's Runaway,
   whose event iteration never settles, fails in ME and CS with the FMU's
   message naming the variable; the bouncing ball without a resting speed
   (v_min = 0) runs to its stop or stops with an error. Events.Feedthrough
   driven by an input table of Real, Integer and Boolean columns passes
   them on (the Integer and Boolean held, the Real interpolated in ME and
   held over a step in CS, as FMPy sets it) and counts the rising edges.
3. A second solver. Every non-stiff case of cases.toml is simulated by
   FMPy's fixed-step explicit Euler solver and compared with the committed
   reference at a tolerance that follows from the step (first-order error);
   a case's `euler_steps` asks for more steps than the default 20000, and a
   case's `euler_skip` says why Euler cannot judge it (state events whose
   delays add up).
   Cases marked `stiff` in cases.toml are skipped with their reason: the
   mechanical examples are stiff by design (the dialectic time constant
   TD = 1e-4 s puts eigenvalues near -1e4): explicit Euler needs h < 2e-4 s
   to be stable and its first-order error over their horizons stays above
   the limit at any step FMPy's Python loop can afford, so they are left to
   the fixed-step RK4 of the fmi-crate importer (fmi_crate_check.py).

Prints `PASS|FAIL <what> <detail>` per check and `N passed, N failed`; the
exit status is 1 when any check failed.
"""

from __future__ import annotations

import argparse
import csv
import math
import subprocess
import sys
import tomllib
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

# Euler with step h has a global error of order h * |x''| * horizon; the
# tolerance is relative to the range of each reference variable.
EULER_STEPS = 20000
EULER_REL_TOL = 1e-3

passed = 0
failed = 0


def report(ok: bool, what: str, detail: str) -> None:
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
    print(f"{'PASS' if ok else 'FAIL'} {what} {detail}", flush=True)


def export(mofmu: Path, out: Path, libraries: list[str], model: str, name: str,
           stop_time: float, sets: list[str] | None = None) -> Path:
    fmu = out / f"{name}.fmu"
    command = [str(mofmu), "export", *[str(ROOT / lib) for lib in libraries],
               "--model", model, "-o", str(fmu), "--stop-time", repr(stop_time)]
    for s in sets or []:
        command += ["--set", s]
    subprocess.run(command, check=True, capture_output=True, text=True)
    return fmu


def events(mofmu: Path, out: Path) -> None:
    from fmpy import simulate_fmu

    cases = [
        ("time event", ["examples/Base.mo", "examples/Signals.mo"],
         "Signals.Examples.StepIntegrator", "integrator.x",
         lambda t: np.where(t < 0.5, 1.0, 1.0 + 3.0 * (t - 0.5)), 1e-9),
        ("state event", ["examples/Base.mo", "test_data/events/Switch.mo"],
         "Switch.RiseThenDecay", "x",
         lambda t: np.where(t < 0.5, t, 0.5 * np.exp(-(t - 0.5))), 1e-7),
    ]
    for what, libraries, model, variable, closed_form, time_tol in cases:
        fmu = export(mofmu, out, libraries, model, model.replace(".", "_"), 2.0)
        result = simulate_fmu(str(fmu), fmi_type="ModelExchange", solver="CVode", relative_tolerance=1e-10,
                              stop_time=2.0, output_interval=0.01,
                              output=[variable])
        t = result["time"]
        x = result[variable]
        # An event instant appears twice: before and after.
        repeated = t[1:][np.diff(t) == 0.0]
        at_half = [e for e in repeated if abs(e - 0.5) <= time_tol]
        report(len(at_half) == 1, f"{what} {model}",
               f"event instants {list(repeated)} (want one at 0.5 within {time_tol:g})")
        if not at_half:
            continue
        event = at_half[0]
        # Samples from the one just after the event on.
        after = np.nonzero(t >= event)[0]
        after = after[1:] if len(after) > 1 and t[after[0]] == t[after[1]] else after
        deviation = np.abs(x[after] - closed_form(t[after]))
        worst = float(deviation.max())
        first = float(deviation[0])
        report(worst <= 1e-6 and first <= 1e-6, f"{what} {model}",
               f"event at t = {event:.12f}; just after: {x[after[0]]:.12f} "
               f"(error {first:.2e}); worst after: {worst:.2e} (limit 1e-6)")


def read_reference(path: Path) -> dict[str, np.ndarray]:
    """A reference CSV by column name (a quoted name may hold commas:
    `"cap[1,1].T"`)."""
    with path.open(newline="") as f:
        rows = list(csv.reader(f))
    values = np.array([[float(x) for x in row] for row in rows[1:]], dtype=float)
    # An event on the grid has two rows at its instant (before and after, as
    # the clocked examples' ticks): neither is compared, as in roundtrip.py.
    t = values[:, 0]
    repeated = np.zeros(t.size, dtype=bool)
    repeated[:-1] |= t[:-1] == t[1:]
    repeated[1:] |= t[1:] == t[:-1]
    values = values[~repeated]
    return {name: values[:, k] for k, name in enumerate(rows[0])}


def euler(mofmu: Path, out: Path) -> None:
    from fmpy import simulate_fmu

    manifest = tomllib.loads((HERE / "cases.toml").read_text())
    for case in manifest["case"]:
        if case.get("stiff"):
            print(f"SKIP Euler {case['name']} stiff ({case['stiff']}); covered by the fmi-crate RK4 stage")
            continue
        if case.get("euler_skip"):
            print(f"SKIP Euler {case['name']} ({case['euler_skip']}); its events are located by the CVode "
                  f"stages and mofmu's own solvers")
            continue
        fmu = export(mofmu, out, case["libraries"], case["model"], "euler_" + case["name"],
                     case["stop_time"], case.get("set"))
        stop = case["stop_time"]
        reference = read_reference(HERE / case["reference"])
        # FMPy's Euler takes one step per output interval, so the output
        # interval is the step.
        # A case may ask for more steps (same tolerance): state events are found
        # only at the end of Euler's step, which adds a step's delay at each.
        h = stop / case.get("euler_steps", EULER_STEPS)
        result = simulate_fmu(str(fmu), fmi_type="ModelExchange", solver="Euler", step_size=h, stop_time=stop,
                              output_interval=h, output=case["variables"])
        worst_relative = 0.0
        for variable in case["variables"]:
            ref_t = reference["time"]
            ref_x = reference[variable]
            x = np.interp(ref_t, result["time"], result[variable])
            scale = max(float(np.ptp(ref_x)), 1e-12)
            worst_relative = max(worst_relative, float(np.max(np.abs(x - ref_x))) / scale)
        report(worst_relative <= EULER_REL_TOL, f"Euler {case['name']}",
               f"worst deviation {worst_relative:.2e} of the range (limit {EULER_REL_TOL:g}, "
               f"h = {h:g})")


def run_bounded(seconds: float, function, *args, **kwargs):
    """Runs `function` in a child process and gives its result or its
    exception's text; a run past `seconds` is killed and reported as a hang."""
    import multiprocessing

    def child(queue):
        logged: list[str] = []
        kwargs["logger"] = lambda *a: logged.append(a[-1].decode(errors="replace"))
        try:
            queue.put(("ok", function(*args, **kwargs)))
        except Exception as e:  # the FMU's refusal is what some checks want
            queue.put(("error", f"{type(e).__name__}: {e}; the FMU logged: {' | '.join(logged)}"))

    queue = multiprocessing.get_context("fork").Queue()
    process = multiprocessing.get_context("fork").Process(target=child, args=(queue,))
    process.start()
    process.join(seconds)
    if process.is_alive():
        process.kill()
        process.join()
        return "hang", f"still running after {seconds:g} s"
    return queue.get() if not queue.empty() else ("error", f"exit code {process.exitcode}")


def hybrid(mofmu: Path, out: Path) -> None:
    """FMPy on the hybrid models that must end: an event iteration that never
    settles fails with the FMU's message, a ball without a resting speed runs
    or stops, within a bound; and the Feedthrough driven by an input table of
    Real, Integer and Boolean columns, Model Exchange and Co-Simulation."""
    from fmpy import simulate_fmu

    events_libraries = ["examples/Base.mo", "examples/Signals.mo", "examples/Events.mo"]
    runaway = export(mofmu, out, ["examples/Base.mo", "test_data/events/Chatter.mo"], "Chatter.Runaway",
                     "Chatter_Runaway", 1.0)
    ball = export(mofmu, out, events_libraries, "Events.BouncingBall", "Zeno_BouncingBall", 3.0)
    for fmi_type in ("ModelExchange", "CoSimulation"):
        status, detail = run_bounded(60.0, lambda **kw: simulate_fmu(str(runaway), fmi_type=fmi_type,
                                                                     stop_time=1.0, **kw))
        report(status == "error" and "do not settle" in detail and "(n)" in detail,
               f"never-settling {fmi_type}", f"{status}: {detail[:300]}")
        status, detail = run_bounded(60.0, lambda **kw: len(simulate_fmu(
            str(ball), fmi_type=fmi_type, stop_time=3.0, start_values={"v_min": 0.0}, **kw)))
        report(status != "hang", f"Zeno ball (v_min = 0) {fmi_type}", f"{status}: {str(detail)[:160]}")

    feedthrough = export(mofmu, out, events_libraries, "Events.Feedthrough", "Feedthrough", 2.0)
    table = np.array([(0.0, 0.0, 1, False), (0.5, 1.0, 2, True), (1.0, 0.0, 3, False), (1.5, 2.0, -4, True),
                      (2.0, 2.0, -4, True)],
                     dtype=[("time", float), ("real_in", float), ("int_in", np.int32), ("bool_in", bool)])
    for fmi_type in ("ModelExchange", "CoSimulation"):
        r = simulate_fmu(str(feedthrough), fmi_type=fmi_type, stop_time=2.0, output_interval=0.01, input=table,
                         output=["real_out", "int_out", "bool_out", "rises"])
        t = r["time"]
        away = np.all([np.abs(t - c) > 1e-9 for c in (0.5, 1.0, 1.5)], axis=0)
        held = np.searchsorted(table["time"], t, side="right") - 1
        ints, bools = table["int_in"][held], table["bool_in"][held]
        rises = (t > 0.5).astype(int) + (t > 1.5).astype(int)
        # FMPy's Co-Simulation sets an input at each communication point and
        # passes no derivative: it is held over the step, and a row shows the
        # input at the point before it.
        at = t if fmi_type == "ModelExchange" else np.concatenate(([t[0]], t[:-1]))
        real = np.interp(at, table["time"], table["real_in"])
        worst = float(np.max(np.abs(r["real_out"][away] - real[away])))
        exact = (np.array_equal(r["int_out"][away], ints[away]) and np.array_equal(r["bool_out"][away], bools[away])
                 and np.array_equal(r["rises"][away], rises[away]))
        report(exact and worst <= 1e-12, f"Feedthrough from an input table {fmi_type}",
               f"Integer, Boolean and rises {'exact' if exact else 'DIFFER'}; Real worst {worst:.1e}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mofmu", type=Path, default=ROOT / "target" / "release" / "mofmu")
    parser.add_argument("--out", type=Path, default=ROOT / "out" / "importers")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    events(args.mofmu, args.out)
    hybrid(args.mofmu, args.out)
    euler(args.mofmu, args.out)
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
