#!/usr/bin/env python3
"""mofmu's harness against FMPy on FMI 3.0 FMUs that mofmu did not write.

The hand-written C test FMUs of test_data/harness3/ (a bouncing ball with
state events, a Co-Simulation-only decay, arrays sized by a structural
parameter) are compiled and packed here, validated by FMPy, and simulated
by `mofmu simulate` and by FMPy with the same settings: Model Exchange
(mofmu's BDF against FMPy's CVode, both at relative tolerance 1e-10) within
1e-6 of each signal's range, Co-Simulation (both drive the FMU's own exact
step) within 1e-12 of it; and `mofmu compare` of the two results passes.
Prints `N passed, N failed`.

    python fmu-tests/harness3_fmpy.py [--mofmu target/release/mofmu]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import roundtrip as rt  # noqa: E402

SOURCES = rt.ROOT / "test_data" / "harness3"

# (model, interface, variables, limit relative to each signal's range)
RUNS = [
    ("ball", "me", ["h"], 1e-6),
    ("decay", "cs", ["x"], 1e-12),
    ("arrays", "me", ["x", "y"], 1e-6),
    ("arrays", "cs", ["x", "y"], 1e-12),
]


def build(model: str, out: Path) -> Path:
    library = out / f"{model}.so"
    subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", str(library), str(SOURCES / f"{model}.c"), "-lm"],
                   check=True)
    fmu = out / f"{model}.fmu"
    with zipfile.ZipFile(fmu, "w") as z:
        z.write(SOURCES / f"{model}.xml", "modelDescription.xml")
        z.write(library, f"binaries/x86_64-linux/{model}.so")
    return fmu


def fmpy_run(fmu: Path, interface: str, variables: list[str], stop: float, step: float) -> dict[str, np.ndarray]:
    """FMPy's run, an array's elements as columns `x[1]`, `x[2]`, ..."""
    from fmpy import simulate_fmu

    result = simulate_fmu(str(fmu), validate=False, fmi_type="ModelExchange" if interface == "me" else "CoSimulation",
                          solver="CVode", relative_tolerance=1e-10, stop_time=stop, output_interval=step,
                          output=variables)
    columns = {"time": np.asarray(result["time"], dtype=float)}
    for name in variables:
        values = np.asarray(result[name], dtype=float)
        if values.ndim == 1:
            columns[name] = values
        else:
            for k in range(values.shape[1]):
                columns[f"{name}[{k + 1}]"] = values[:, k]
    return columns


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mofmu", type=Path, default=rt.DEFAULT_MOFMU)
    args = parser.parse_args(argv)
    from fmpy.validation import validate_fmu

    report = rt.Report()
    with tempfile.TemporaryDirectory(prefix="mofmu-harness3-") as tmp:
        out = Path(tmp)
        fmus = {model: build(model, out) for model in sorted({r[0] for r in RUNS})}
        for model, fmu in fmus.items():
            problems = validate_fmu(str(fmu))
            report.check(not problems, model, "fmpy-validate", "; ".join(problems) or "no problems")
        for model, interface, variables, limit in RUNS:
            label = f"{model} {interface}"
            stop, step = 2.0, 0.01
            theirs = fmpy_run(fmus[model], interface, variables, stop, step)
            names = [n for n in theirs if n != "time"]
            mine_csv = out / f"{model}-{interface}.mofmu.csv"
            ok, detail = rt.run_command(
                [str(args.mofmu), "simulate", str(fmus[model]), "--interface", interface,
                 "--stop-time", repr(stop), "--output-interval", repr(step), "--tolerance", "1e-10",
                 "--variables", ",".join(names), "-o", str(mine_csv)], out / f"{model}-{interface}.log")
            if not report.check(ok, label, "mofmu-simulate", detail):
                continue
            mine = rt.read_csv(mine_csv)
            # Events appear twice in mofmu's result (left and right limit);
            # FMPy's grid has them too at the same instants.
            if len(mine.time) != len(theirs["time"]):
                mine = rt.drop_event_duplicates(mine)
                keep = np.concatenate(([True], np.diff(theirs["time"]) > 0))
                theirs = {k: v[keep] for k, v in theirs.items()}
            if not report.check(len(mine.time) == len(theirs["time"]), label, "same-grid",
                                f"{len(mine.time)} rows against FMPy's {len(theirs['time'])}"):
                continue
            worst, where = 0.0, ""
            for name in names:
                scale = float(np.ptp(theirs[name])) or 1.0
                d = float(np.max(np.abs(mine.columns[name] - theirs[name]))) / scale
                if d >= worst:
                    worst, where = d, name
            report.check(worst <= limit, label, "mofmu-vs-fmpy",
                         f"worst {worst:.2e} of range ({where}), limit {limit:g}")
            reference = out / f"{model}-{interface}.fmpy.csv"
            rt.write_csv(reference, rt.Trajectory(theirs["time"], {n: theirs[n] for n in names}))
            ok, detail = rt.run_command([str(args.mofmu), "compare", str(reference), str(mine_csv)],
                                        out / f"{model}-{interface}.compare.log")
            report.check(ok, label, "mofmu-compare", detail)
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
