#!/usr/bin/env python3
"""A parameter sweep of one FMU, three ways on the same cores, side by side in one run:

1. a Python loop over ``fmpy.simulate_fmu(path, ...)``, as a user writes it (FMPy unzips
   the FMU and reads its description on every call);
2. FMPy with Dask as FMPy's documentation shows it (the FMU extracted and its description
   read once, one ``simulate_fmu`` task per case on a ``LocalCluster`` of WORKERS
   single-threaded worker processes);
3. ``mofmu sweep`` with WORKERS local workers (each loads the FMU once), writing its Parquet
   dataset.

    .venv/bin/python benches/sweep.py [--mofmu target/release/mofmu] [--cases 1000] [--workers 2]

The model is the planar pendulum (``Planar.Examples.Pendulum``) to t = 10 s, the cases
``revolute.phi_start`` from 0 to 1.5 rad. Wall seconds of each executor are printed with
the ratios, and the final angle of every case from mofmu is compared with FMPy's (different
integrators: CVode against mofmu's BDF, both at the FMU's tolerance 1e-6).
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODEL = "Planar.Examples.Pendulum"
PARAMETER = "revolute.phi_start"
OUTPUT = "revolute.phi"
STOP = 10.0


def fmpy_case(fmu, value):
    from fmpy import simulate_fmu

    r = simulate_fmu(fmu, validate=False, stop_time=STOP, start_values={PARAMETER: value},
                     output=[OUTPUT])
    return float(r[OUTPUT][-1])


def fmpy_loop(fmu, values):
    return [fmpy_case(fmu, v) for v in values]


def fmpy_dask(fmu, values, workers):
    import dask
    from dask.distributed import Client, LocalCluster
    from fmpy import extract, read_model_description, simulate_fmu

    unzipdir = extract(fmu)
    description = read_model_description(unzipdir)

    def case(value):
        r = simulate_fmu(unzipdir, validate=False, stop_time=STOP, start_values={PARAMETER: value},
                         model_description=description, output=[OUTPUT])
        return float(r[OUTPUT][-1])

    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster):
        started = time.perf_counter()
        finals = dask.compute(*[dask.delayed(case)(v) for v in values])
        return list(finals), time.perf_counter() - started


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mofmu", default=os.path.join(ROOT, "target", "release", "mofmu"))
    ap.add_argument("--cases", type=int, default=1000)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()

    work = tempfile.mkdtemp(prefix="mofmu-sweep-bench-")
    fmu = os.path.join(work, "Pendulum.fmu")
    subprocess.run([args.mofmu, "export", os.path.join(ROOT, "examples", "Base.mo"),
                    os.path.join(ROOT, "examples", "Signals.mo"),
                    os.path.join(ROOT, "examples", "Planar"), "--model", MODEL, "-o", fmu],
                   check=True, capture_output=True)
    values = list(np.linspace(0.0, 1.5, args.cases))
    print(f"{args.cases} cases of {MODEL} to t = {STOP:g} s, {args.workers} workers, "
          f"{os.cpu_count()} cores")

    dataset = os.path.join(work, "sweep")
    started = time.perf_counter()
    subprocess.run([args.mofmu, "sweep", fmu, "--grid", f"{PARAMETER}=0:1.5:{args.cases}",
                    "--stop-time", str(STOP), "--outputs", OUTPUT, "-o", dataset,
                    "--workers", str(args.workers)], check=True, capture_output=True)
    t_mofmu = time.perf_counter() - started
    import pyarrow.parquet as pq

    summary = pq.read_table(os.path.join(dataset, "summary.parquet")).to_pandas()
    summary = summary.sort_values("case")
    ok = int((summary["status"] == "ok").sum())
    mofmu_finals = summary[f"final.{OUTPUT}"].to_numpy()

    dask_finals, t_dask = fmpy_dask(fmu, values, args.workers)

    started = time.perf_counter()
    loop_finals = fmpy_loop(fmu, values)
    t_loop = time.perf_counter() - started

    deviation = float(np.max(np.abs(np.asarray(loop_finals) - mofmu_finals)))
    same = float(np.max(np.abs(np.asarray(loop_finals) - np.asarray(dask_finals))))
    faster = min(t_loop, t_dask)
    print(f"mofmu sweep:        {t_mofmu:8.2f} s  ({ok}/{len(summary)} ok)")
    print(f"FMPy + Dask:        {t_dask:8.2f} s  ({t_dask / t_mofmu:.1f}x mofmu)")
    print(f"FMPy loop:          {t_loop:8.2f} s  ({t_loop / t_mofmu:.1f}x mofmu)")
    print(f"speed-up against the faster FMPy executor: {faster / t_mofmu:.1f}x")
    print(f"final {OUTPUT}: largest |mofmu - FMPy| = {deviation:.2e} rad "
          f"(FMPy loop vs FMPy+Dask: {same:.1e})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
