#!/usr/bin/env python3
"""Cross-check directories and rebuilt binaries, checked by FMPy.

For each case of fmu-tests/cases.toml (and the model with inputs
test_data/dependencies/InOut.mo, which has no independent reference):

1. `mofmu export --cross-check DIR` writes the FMI Cross-Check directory,
   DIR = <out>/<case>/fmus/2.0/me/linux64/mofmu/<version>/<ModelIdentifier>,
   with the case's independent reference (`--reference`);
2. FMPy's `fmpy.cross_check.validate_vendor_repo.validate_test_fmu(DIR)`
   must find no problem (file sizes, modelDescription against the schema,
   `_ref.opt`, the CSV rules of `_ref.csv` and `_in.csv`);
3. FMPy simulates the FMU with the settings of `_ref.opt` (CVode, RelTol)
   and `fmpy.cross_check.validate_result` must accept the result against
   `_ref.csv` (and reject it against `_ref.csv` moved off by a third of each
   signal's range plus one);
4. `mofmu compare` (csv-compare's tube, tolerance 0.002 unless the case
   sets a justified `tube_tolerance`) accepts FMPy's result against
   `_ref.csv`;
5. `fmpy.build.build_platform_binary` rebuilds the binary from `sources/` as
   listed in `<SourceFiles>` (through CMake, with FMPy's own FMI headers on
   the include path), after the original binary was deleted; the rebuilt FMU
   simulated by FMPy must give the same numbers as the original
   (relative difference at most 1e-12).

Every check prints `PASS|FAIL <case> <check> <detail>`; the last line is
`N passed, N failed`. The cases run side by side in worker processes
(roundtrip.for_each_case, `MOFMU_TEST_JOBS`), their lines printed in the
cases' order.
"""

from __future__ import annotations

import argparse
import functools
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from roundtrip import Report, for_each_case, load_cases, unpack_and_rebuild  # noqa: E402

DEFAULT_MOFMU = ROOT / "target" / "release" / "mofmu"
DEFAULT_OUT = ROOT / "out" / "cross-check"

# csv-compare's default tube width.
DEFAULT_TUBE_TOLERANCE = 0.002

# The rebuilt binary must reproduce the original's numbers this closely.
REBUILD_RTOL = 1e-12

# A model with inputs and no independent reference (the harness writes the
# reference and the README says so).
EXTRA = {
    "name": "InOutPlant",
    "libraries": ["examples/Base.mo", "test_data/dependencies/InOut.mo"],
    "model": "InOut.Plant",
    "stop_time": 2.0,
    "output_interval": 0.01,
}


def mofmu_version(mofmu: Path) -> str:
    out = subprocess.run([str(mofmu), "--version"], capture_output=True, text=True, check=True)
    return out.stdout.split()[-1]


def fmpy_run(fmu: str, opt: dict, names: list[str], inputs: np.ndarray | None):
    from fmpy import simulate_fmu

    return simulate_fmu(
        fmu,
        validate=False,
        fmi_type="ModelExchange",
        solver="CVode",
        relative_tolerance=opt["RelTol"],
        start_time=opt["StartTime"],
        stop_time=opt["StopTime"],
        output_interval=opt["StepSize"],
        output=names,
        input=inputs,
    )


def on_reference_times(result: np.ndarray, times: np.ndarray) -> np.ndarray:
    """The rows of `result` at the reference's times (within 1e-9 relative).

    FMPy records a row before and after every event. A clocked partition's
    tick between two output points (Clk1_SampledP: ticks every 0.1 s on a
    0.015 s grid) is such an event, where a held value jumps; the reference
    has no rows there, so the tube, drawn through the reference's rows,
    would judge the jump against a straight line. Both sides are compared at
    the instants the reference gives, events on the grid included (both of
    their rows)."""
    t = result["time"]
    k = np.clip(np.searchsorted(times, t), 1, len(times) - 1)
    nearest = np.minimum(np.abs(times[k] - t), np.abs(times[k - 1] - t))
    return result[nearest <= 1e-9 * np.maximum(1.0, np.abs(t))]


def tube_tolerances(manifest: Path) -> dict[str, float]:
    """`tube_tolerance` of the cases that set one (with its justification)."""
    import tomllib

    with manifest.open("rb") as f:
        raw = tomllib.load(f)
    tolerances = {}
    for entry in raw.get("case", []):
        if "tube_tolerance" in entry:
            if not str(entry.get("tube_justification", "")).strip():
                raise ValueError(f"{manifest}: case {entry['name']} sets tube_tolerance without tube_justification")
            tolerances[entry["name"]] = float(entry["tube_tolerance"])
    return tolerances


def check_case(name, libraries, model, sets, stop_time, output_interval, reference,
               mofmu: Path, out: Path, version: str, report: Report, tube_tolerance: float) -> None:
    from fmpy.cross_check import validate_result
    from fmpy.cross_check.validate_vendor_repo import read_csv, validate_test_fmu
    from fmpy.util import read_ref_opt_file

    identifier = model.replace(".", "_")
    case_root = out / name
    shutil.rmtree(case_root, ignore_errors=True)
    xc = case_root / "fmus" / "2.0" / "me" / "linux64" / "mofmu" / version / identifier
    command = [str(mofmu), "export", *libraries, "--model", model, "--stop-time", repr(stop_time),
               "--cross-check", str(xc), "--output-interval", repr(output_interval)]
    for s in sets:
        command += ["--set", s]
    if reference is not None:
        command += ["--reference", str(reference)]
    proc = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    if not report.check(proc.returncode == 0, name, "export --cross-check",
                        proc.stderr.strip().splitlines()[-1] if proc.returncode else str(xc.relative_to(out))):
        return

    problems = validate_test_fmu(str(xc))
    report.check(not problems, name, "validate_test_fmu", "; ".join(problems) or "no problems")

    fmu = xc / f"{identifier}.fmu"
    opt = read_ref_opt_file(str(xc / f"{identifier}_ref.opt"))
    ref = read_csv(str(xc / f"{identifier}_ref.csv"))
    names = list(ref.dtype.names[1:])
    inputs = None
    in_csv = xc / f"{identifier}_in.csv"
    if in_csv.exists():
        inputs = read_csv(str(in_csv))
    original = fmpy_run(str(fmu), opt, names, inputs)
    problem = validate_result(result=original, reference=ref, t_start=opt["StartTime"], t_stop=opt["StopTime"])
    report.check(problem is None, name, "validate_result", problem or f"{len(names)} signals within FMPy's band")
    # mofmu's own csv-compare tube (csv-compare's default tolerance 0.002,
    # or the case's justified `tube_tolerance`) on FMPy's result.
    from fmpy.util import write_csv
    result_csv = case_root / f"{identifier}_fmpy.csv"
    write_csv(str(result_csv), on_reference_times(original, ref["time"]))
    proc = subprocess.run([str(mofmu), "compare", str(xc / f"{identifier}_ref.csv"), str(result_csv),
                           "--tolerance", repr(tube_tolerance), "--report", str(case_root / "compare-report")],
                          capture_output=True, text=True)
    lines = proc.stdout.strip().splitlines()
    report.check(proc.returncode == 0, name, "mofmu-compare-fmpy-vs-reference",
                 lines[-1] if lines else proc.stderr.strip())
    # The same validation must reject a reference moved off by a third of
    # its range plus one, so the check above is not one that cannot fail.
    # FMPy's band around a constant signal is 10% of its value (not of its
    # range, which is zero), so a constant one is moved by 20% of its value
    # besides (Acc5_MaybeHeated_off stays at 293.15 K).
    moved = ref.copy()
    for n in names:
        constant_band = 0.2 * np.max(np.abs(moved[n])) if np.ptp(moved[n]) == 0 else 0.0
        moved[n] = moved[n] + (np.ptp(moved[n]) / 3 + 1 + constant_band)
    problem = validate_result(result=original, reference=moved, t_start=opt["StartTime"], t_stop=opt["StopTime"])
    report.check(problem is not None, name, "validate_result-rejects-moved-reference", problem or "accepted!")

    with tempfile.TemporaryDirectory(prefix="mofmu-rebuild-") as tmp:
        unzipped, ok, detail = unpack_and_rebuild(fmu, Path(tmp))
        if not report.check(ok, name, "build_platform_binary", detail):
            return
        rebuilt = fmpy_run(str(unzipped), opt, names, inputs)
        worst = 0.0
        same_shape = len(rebuilt) == len(original)
        if same_shape:
            for n in ["time", *names]:
                a, b = np.asarray(original[n], float), np.asarray(rebuilt[n], float)
                worst = max(worst, float(np.max(np.abs(a - b) / np.maximum(np.abs(a), 1.0))))
        report.check(same_shape and worst <= REBUILD_RTOL, name, "rebuilt-same-results",
                     f"largest relative difference {worst:.3g} over {len(original)} rows"
                     if same_shape else f"{len(rebuilt)} rows vs {len(original)}")


def reference_names(path: Path) -> list[str]:
    """The column names of a reference CSV (quoted names may hold commas)."""
    import csv
    with Path(path).open(newline="") as f:
        return next(csv.reader(f))


def check_or_skip(case: tuple, report: Report, mofmu: Path, out: Path, version: str,
                  tubes: dict[str, float]) -> None:
    """`check_case` of a case (name, libraries, model, sets, stop time,
    output interval, reference), unless FMPy's reader cannot read its
    reference."""
    if case[6] is not None and any("," in name for name in reference_names(case[6])):
        # FMPy's cross-check reader (numpy's genfromtxt) splits the quoted
        # header "cap[1,1].T" at its comma: such a case cannot be read
        # back by the third-party validator, so it is not offered to it.
        print(f"SKIP {case[0]}: a variable name holds a comma (two-dimensional component "
              "array), which FMPy's cross-check CSV reader cannot read")
        return
    check_case(*case, mofmu=mofmu, out=out, version=version, report=report,
               tube_tolerance=tubes.get(case[0], DEFAULT_TUBE_TOLERANCE))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mofmu", type=Path, default=DEFAULT_MOFMU, help="the mofmu binary")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="folder for the directories")
    parser.add_argument("-k", dest="filters", action="append", default=[], metavar="NAME",
                        help="only cases whose name contains NAME (repeatable)")
    args = parser.parse_args(argv)
    if shutil.which("cmake") is None:
        print("error: build_platform_binary needs cmake (apt-get install cmake)", file=sys.stderr)
        return 1
    out = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    version = mofmu_version(args.mofmu)
    tubes = tube_tolerances(HERE / "cases.toml")
    report = Report()
    cases = [(c.name, c.libraries, c.model, c.sets, c.stop_time, c.output_interval, c.reference)
             for c in load_cases(HERE / "cases.toml")]
    cases.append((EXTRA["name"], EXTRA["libraries"], EXTRA["model"], [], EXTRA["stop_time"],
                  EXTRA["output_interval"], None))
    cases = [case for case in cases if not args.filters or any(f in case[0] for f in args.filters)]
    for_each_case(functools.partial(check_or_skip, mofmu=args.mofmu.resolve(), out=out, version=version,
                                    tubes=tubes), cases, report)
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
