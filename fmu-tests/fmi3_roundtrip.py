#!/usr/bin/env python3
"""Round-trip example models through `mofmu export --fmi-version 3` and FMPy.

For each case of fmu-tests/cases.toml (or those whose name contains `-k`):

1. `mofmu export --fmi-version 3` the model, and the FMI 2.0 export of it;
2. validate the FMI 3 FMU with FMPy (the list of problems must be empty);
3. simulate it with FMPy as Model Exchange (CVode, relative tolerance 1e-8)
   and compare with the case's independent reference at the case's
   tolerance (as roundtrip.py does for FMI 2.0);
4. compare it with FMPy's CVode on the FMI 2.0 export at the same tolerance;
5. with `--cs`: simulate the FMI 3 FMU as Co-Simulation (fmi3DoStep, the
   embedded RODAS3) at the case's communication step and compare with the
   reference;
6. `mofmu simulate` the FMI 3 FMU (mofmu's harness, FMI 3 behind the same
   loops as FMI 2) as Model Exchange and compare with FMPy's run of it at the
   case's tolerance; with `--cs`, as Co-Simulation at the case's
   communication step against FMPy's Co-Simulation of it, to 1e-9 of each
   signal's range (both drive the FMU's own solver), and `mofmu compare`
   of the two CSV files must pass;
7. with `--rebuild K` (repeatable; the cases whose name contains K): unpack
   the FMI 3 FMU, delete its binaries, rebuild them from `sources/` alone
   with FMPy's `build_platform_binary` (which reads
   `sources/buildDescription.xml`), and check that FMPy's CVode run of the
   rebuilt FMU reproduces the shipped binary's to 1e-12 relative.

The comparison, the tolerances and the reporting are roundtrip.py's, and so
is `for_each_case`, which runs the cases side by side in worker processes
(`MOFMU_TEST_JOBS`) and prints their lines in the cases' order.
"""

from __future__ import annotations

import argparse
import functools
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import roundtrip as rt  # noqa: E402


def simulate(fmu: Path, case: rt.Case, fmi_type: str) -> rt.Trajectory:
    from fmpy import simulate_fmu

    options = dict(
        validate=False,
        fmi_type=fmi_type,
        relative_tolerance=case.solver_rtol,
        start_time=0.0,
        stop_time=case.stop_time,
        output=case.variables,
    )
    if fmi_type == "ModelExchange":
        options.update(solver=rt.FMPY_SOLVER, output_interval=case.output_interval)
    else:
        options.update(output_interval=case.cs_step)
    # An FMI 3 description declares a Real array as one variable: the
    # element `rod.T[3]` is read as element 3 of `rod.T`.
    where = variables_in(fmu, case.variables)
    options["output"] = sorted({array for array, _ in where.values()})
    result = simulate_fmu(str(fmu), **options)
    signals = {}
    for name, (array, index) in where.items():
        column = np.asarray(result[array], dtype=float)
        signals[name] = column if index is None else column[:, index]
    return rt.Trajectory(np.asarray(result["time"], dtype=float), signals)


def variables_in(fmu: Path, names: list[str]) -> dict[str, tuple[str, int | None]]:
    """Each name's variable in the FMU's description and, for an element of
    an array variable, its 0-based index there: `x[k]` and `der(x[k])` of
    an array of Reals, `cap[k].T` and `der(cap[k].T)` of the member array
    `cap.T` (declared so when a structural parameter sizes `cap`)."""
    from fmpy import read_model_description

    declared = {v.name: v for v in read_model_description(str(fmu)).modelVariables}
    where = {}
    for name in names:
        if name in declared:
            where[name] = (name, None)
            continue
        element = rt.array_element(name, lambda array: array in declared)
        if element is None:
            raise KeyError(f"{name} is neither a variable nor an element of an array of {fmu}")
        where[name] = (element[0], element[1] - 1)
    return where


# Two importers driving the FMU's own Co-Simulation solver at the same step
# differ only in what they do outside the FMU.
SAME_SOLVER = 1e-9


def harness_names(fmu: Path, case: rt.Case) -> dict[str, str]:
    """Each case variable's name in mofmu's scalar view of the FMI 3 FMU:
    an array's element `x[k]` (a member array's `cap.T[k]`), or the name."""
    return {name: array if index is None else f"{array}[{index + 1}]"
            for name, (array, index) in variables_in(fmu, case.variables).items()}


def mofmu_simulate(fmu: Path, case: rt.Case, mofmu: Path, out: Path, interface: str) -> rt.Trajectory:
    """`mofmu simulate` of the FMI 3 FMU, its columns named as the case names them."""
    names = harness_names(fmu, case)
    csv_path = out / f"{case.name}.fmi3.mofmu-{interface}.csv"
    csv_path.unlink(missing_ok=True)
    step = case.cs_step if interface == "cs" else case.output_interval
    command = [str(mofmu), "simulate", str(fmu), "--interface", interface,
               "--stop-time", repr(case.stop_time), "--output-interval", repr(step),
               "--tolerance", repr(case.solver_rtol), "--variables", ",".join(names.values()),
               "-o", str(csv_path)]
    ok, detail = rt.run_command(command, out / f"{case.name}.fmi3.simulate-{interface}.log")
    if not ok:
        raise RuntimeError(detail)
    result = rt.read_csv(csv_path)
    return rt.Trajectory(result.time, {case_name: result.columns[name] for case_name, name in names.items()})


def mofmu_checks(case: rt.Case, fmu: Path, mofmu: Path, out: Path, report: rt.Report,
                 fmpy_me: rt.Trajectory, cs: bool) -> None:
    """mofmu's harness on the FMI 3 FMU against FMPy's runs of it."""
    try:
        mine = mofmu_simulate(fmu, case, mofmu, out, "me")
    except Exception as e:
        report.check(False, case.name, "mofmu-fmi3-vs-fmpy", f"mofmu simulate failed: {e}")
        return
    c = rt.compare(mine, fmpy_me, case.variables, case.tolerance, case.stop_time, case.output_interval)
    report.check(c.ok, case.name, "mofmu-fmi3-vs-fmpy", c.summary)
    if not cs:
        return
    try:
        mine = mofmu_simulate(fmu, case, mofmu, out, "cs")
        theirs = simulate(fmu, case, "CoSimulation")
    except Exception as e:
        report.check(False, case.name, "mofmu-cs-fmi3-vs-fmpy-cs", f"a simulation failed: {e}")
        return
    same_grid = len(mine.time) == len(theirs.time) and np.allclose(
        mine.time, theirs.time, rtol=0.0, atol=1e-12 * case.stop_time)
    worst, where = 0.0, ""
    for name in case.variables if same_grid else []:
        scale = float(np.ptp(theirs.columns[name])) or 1.0
        d = float(np.max(np.abs(mine.columns[name] - theirs.columns[name]))) / scale
        if d >= worst:
            worst, where = d, name
    report.check(same_grid and worst <= SAME_SOLVER, case.name, "mofmu-cs-fmi3-vs-fmpy-cs",
                 f"worst {worst:.2e} of range ({where}), limit {SAME_SOLVER:g}" if same_grid
                 else f"{len(mine.time)} rows against FMPy's {len(theirs.time)}")
    # mofmu compare: FMPy's Co-Simulation as the reference, mofmu's as the result.
    reference, result = out / f"{case.name}.fmi3.fmpy-cs.csv", out / f"{case.name}.fmi3.mofmu-cs-named.csv"
    rt.write_csv(reference, theirs)
    rt.write_csv(result, mine)
    ok, detail = rt.run_command([str(mofmu), "compare", str(reference), str(result)],
                                out / f"{case.name}.fmi3.compare.log")
    report.check(ok, case.name, "mofmu-compare-fmi3-cs", detail)


# The rebuilt binary must reproduce the shipped one's numbers this closely
# (as cross_check.py asks of the FMI 2.0 rebuild).
REBUILD_RTOL = 1e-12


def rebuild(fmu: Path, case: rt.Case, shipped: rt.Trajectory, report: rt.Report) -> None:
    """Rebuilds the FMU's binary from `sources/` with FMPy (cmake) and
    compares the rebuilt FMU's CVode run with the shipped binary's."""
    with tempfile.TemporaryDirectory(prefix="mofmu-fmi3-rebuild-") as tmp:
        unzipped, ok, detail = rt.unpack_and_rebuild(fmu, Path(tmp))
        if not report.check(ok, case.name, "fmi3-build_platform_binary", detail):
            return
        try:
            rebuilt = simulate(unzipped, case, "ModelExchange")
        except Exception as e:
            report.check(False, case.name, "fmi3-rebuilt-same-results", f"FMPy failed: {type(e).__name__}: {e}")
            return
        same_shape = len(rebuilt.time) == len(shipped.time)
        worst = 0.0
        if same_shape:
            pairs = [(shipped.time, rebuilt.time)]
            pairs += [(shipped.columns[n], rebuilt.columns[n]) for n in case.variables]
            for a, b in pairs:
                worst = max(worst, float(np.max(np.abs(a - b) / np.maximum(np.abs(a), 1.0))))
        report.check(same_shape and worst <= REBUILD_RTOL, case.name, "fmi3-rebuilt-same-results",
                     f"largest relative difference {worst:.3g} over {len(shipped.time)} rows"
                     if same_shape else f"{len(rebuilt.time)} rows vs {len(shipped.time)}")


def run_case(case: rt.Case, mofmu: Path, out: Path, report: rt.Report, cs: bool,
             rebuild_it: bool = False) -> None:
    out.mkdir(parents=True, exist_ok=True)
    fmus = {}
    for version in ("2", "3"):
        fmu = out / f"{case.name}.fmi{version}.fmu"
        fmu.unlink(missing_ok=True)
        command = [str(mofmu), "export", *case.libraries, "--model", case.model, "-o", str(fmu)]
        command += ["--fmi-version", version]
        for assignment in case.sets:
            command += ["--set", assignment]
        ok, detail = rt.run_command(command, out / f"{case.name}.fmi{version}.export.log")
        if not report.check(ok and fmu.is_file(), case.name, f"export-fmi{version}", detail):
            return
        fmus[version] = fmu

    from fmpy.validation import validate_fmu

    try:
        problems = validate_fmu(str(fmus["3"]))
        report.check(not problems, case.name, "validate-fmi3", "; ".join(problems) or "no problems")
    except Exception as e:  # FMPy raises many kinds on a broken FMU.
        report.check(False, case.name, "validate-fmi3", f"{type(e).__name__}: {e}")

    reference = rt.read_csv(case.reference)
    try:
        fmi3 = simulate(fmus["3"], case, "ModelExchange")
        fmi2 = simulate(fmus["2"], case, "ModelExchange")
    except Exception as e:
        report.check(False, case.name, "fmpy-fmi3-vs-reference", f"FMPy failed: {type(e).__name__}: {e}")
        return
    c = rt.compare(fmi3, reference, case.variables, case.tolerance, case.stop_time, case.output_interval)
    report.check(c.ok, case.name, "fmpy-fmi3-vs-reference", c.summary)
    c = rt.compare(fmi3, fmi2, case.variables, case.tolerance, case.stop_time, case.output_interval)
    report.check(c.ok, case.name, "fmpy-fmi3-vs-fmi2", c.summary)
    mofmu_checks(case, fmus["3"], mofmu, out, report, fmi3, cs)
    if rebuild_it:
        rebuild(fmus["3"], case, fmi3, report)
    if cs:
        try:
            result = simulate(fmus["3"], case, "CoSimulation")
        except Exception as e:
            report.check(False, case.name, "fmpy-cs-fmi3-vs-reference", f"FMPy failed: {type(e).__name__}: {e}")
            return
        step = case.cs_step
        if step < case.output_interval:
            # As roundtrip.py does: the fine CS result on the reference's grid.
            result = rt.on_reference_grid(result, reference, case.stop_time)
            step = case.output_interval
        c = rt.compare(result, reference, case.variables, case.tolerance, case.stop_time, step)
        report.check(c.ok, case.name, "fmpy-cs-fmi3-vs-reference", c.summary)


def run_marked_case(marked: tuple[rt.Case, bool], report: rt.Report, mofmu: Path, out: Path, cs: bool) -> None:
    """`run_case` of a case and whether to rebuild its binary."""
    case, rebuild_it = marked
    run_case(case, mofmu, out, report, cs, rebuild_it)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--manifest", type=Path, default=rt.DEFAULT_MANIFEST)
    parser.add_argument("--mofmu", type=Path, default=rt.DEFAULT_MOFMU)
    parser.add_argument("--out", type=Path, default=rt.DEFAULT_OUT / "fmi3")
    parser.add_argument("-k", action="append", default=[], help="run the cases whose name contains this")
    parser.add_argument("--cs", action="store_true", help="also run the FMI 3 Co-Simulation check")
    parser.add_argument("--rebuild", action="append", default=[], metavar="K",
                        help="also rebuild the binaries of the cases whose name contains K from "
                             "sources/ (FMPy's build_platform_binary, needs cmake) and compare")
    args = parser.parse_args(argv)
    report = rt.Report()
    cases = [(case, any(k in case.name for k in args.rebuild)) for case in rt.load_cases(args.manifest)
             if not args.k or any(k in case.name for k in args.k)]
    rt.for_each_case(functools.partial(run_marked_case, mofmu=args.mofmu, out=args.out, cs=args.cs),
                     cases, report)
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
