#!/usr/bin/env python3
"""The rod's FMU in FMI 2.0 and FMI 3.0 side by side, at growing sizes.

For each n and each FMI version: `mofmu export` of Thermal.Examples.RodHeating
with `--set rod.n=n` (wall time, CPU time of the export process, its peak
resident memory), the size of `modelDescription.xml`, and the time FMPy's
`read_model_description` takes to read the FMU (in a fresh process, so its
peak memory is its own). FMPy's reading of an FMI 2.0 description is skipped
above `--fmpy-fmi2-max` volumes (at 10^6 its 705 MB description would need
more than 10 GB).

Usage: .venv/bin/python benches/fmi3_rod.py [--sizes 1000 100000 1000000]
       [--mofmu target/release/mofmu] [--out out/bench-fmi3]

Prints one Markdown table row per size and version (docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

READ = """
import resource, sys, time
from fmpy import read_model_description
t = time.perf_counter()
md = read_model_description(sys.argv[1])
elapsed = time.perf_counter() - t
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(f"{elapsed} {peak} {len(md.modelVariables)} {md.numberOfContinuousStates}")
"""


def run_measured(command: list[str]) -> tuple[float, float, int]:
    """Wall time, CPU time (user + system) and peak RSS (kB) of a child."""
    start = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    stderr = proc.stderr.read().decode() if proc.stderr else ""
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{stderr}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 100000, 1000000])
    parser.add_argument("--mofmu", type=Path, default=ROOT / "target/release/mofmu")
    parser.add_argument("--out", type=Path, default=ROOT / "out/bench-fmi3")
    parser.add_argument("--fmpy-fmi2-max", type=int, default=100000)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    print("| n | FMI | export wall | export CPU | export peak | modelDescription.xml | FMPy read_model_description | FMPy peak |")
    print("|---|---|---|---|---|---|---|---|")
    for n in args.sizes:
        for version in ("2", "3"):
            fmu = args.out / f"rod_{n}.fmi{version}.fmu"
            command = [
                str(args.mofmu), "export", str(ROOT / "examples/Base.mo"), str(ROOT / "examples/Thermal"),
                "--model", "Thermal.Examples.RodHeating", "--set", f"rod.n={n}",
                "--fmi-version", version, "-o", str(fmu),
            ]
            wall, cpu, peak = run_measured(command)
            if not fmu.is_file():
                print(f"export failed: {' '.join(command)}", file=sys.stderr)
                return 1
            with zipfile.ZipFile(fmu) as z:
                description = z.getinfo("modelDescription.xml").file_size
            if version == "2" and n > args.fmpy_fmi2_max:
                read = "not run (memory)"
                read_peak = "—"
            else:
                out = subprocess.run([sys.executable, "-c", READ, str(fmu)], check=True,
                                     capture_output=True, text=True).stdout.split()
                read = f"{float(out[0]):.3f} s"
                read_peak = f"{int(out[1]) / 1024:.0f} MB"
                if int(out[3]) != n:
                    print(f"FMPy counts {out[3]} states in {fmu}, not {n}", file=sys.stderr)
                    return 1
            print(f"| {n:,} | {version}.0 | {wall:.2f} s | {cpu:.2f} s | {peak / 1024:.0f} MB | "
                  f"{description / 1e3:,.1f} kB | {read} | {read_peak} |", flush=True)
            fmu.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main())
