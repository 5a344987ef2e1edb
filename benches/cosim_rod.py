#!/usr/bin/env python3
"""Co-Simulation at scale: FMPy's Co-Simulation run of a mofmu FMU (the
embedded RODAS3 with the sparse Jacobian) beside FMPy's own CVode on the
Model Exchange side of the same FMU, on Thermal.Examples.RodHeating with
`rod.n` volumes, t = 0 ... 100, FMPy's default output interval.

    .venv/bin/python benches/cosim_rod.py [--mofmu target/release/mofmu] [--n 2000 100000]

For every n it exports the FMU once, then times, in this one process and
one after the other (wall and CPU seconds of the call: the CPU time is the
fairer figure on a shared machine), `simulate_fmu(fmi_type='ModelExchange', solver='CVode')`
and `simulate_fmu(fmi_type='CoSimulation')` (each in a fresh child process,
so that its peak resident memory is its own), and compares the two results
on every recorded variable (largest difference relative to the variable's
range). ME CVode is skipped above --me-limit volumes (it takes minutes).
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

CHILD = r"""
import json, resource, sys, time
import numpy as np
from fmpy import simulate_fmu
fmu, kind, stop, out = sys.argv[1:5]
t0 = time.perf_counter()
u0 = resource.getrusage(resource.RUSAGE_SELF)
cpu0 = u0.ru_utime + u0.ru_stime
if kind == "ME":
    r = simulate_fmu(fmu, validate=False, fmi_type="ModelExchange", solver="CVode",
                     stop_time=float(stop))
else:
    r = simulate_fmu(fmu, validate=False, fmi_type="CoSimulation", stop_time=float(stop))
seconds = time.perf_counter() - t0
usage = resource.getrusage(resource.RUSAGE_SELF)
np.save(out, r)
print(json.dumps({"seconds": seconds, "cpu": usage.ru_utime + usage.ru_stime - cpu0,
                  "peak_mb": usage.ru_maxrss / 1024.0, "rows": len(r)}))
"""


def run(python, fmu, kind, stop, out):
    p = subprocess.run([python, "-c", CHILD, fmu, kind, str(stop), out],
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(f"{kind} run failed:\n{p.stderr}")
    return json.loads(p.stdout.strip().splitlines()[-1])


def compare(me_file, cs_file):
    import numpy as np
    me, cs = np.load(me_file), np.load(cs_file)
    worst = 0.0
    for name in me.dtype.names:
        if name == "time":
            continue
        a = np.interp(cs["time"], me["time"], me[name])
        span = max(np.ptp(me[name]), 1e-12 * max(1.0, float(np.max(np.abs(me[name])))))
        worst = max(worst, float(np.max(np.abs(cs[name] - a))) / span)
    return worst


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mofmu", default="target/release/mofmu")
    ap.add_argument("--n", type=int, nargs="+", default=[2000, 100000])
    ap.add_argument("--stop", type=float, default=100.0)
    ap.add_argument("--me-limit", type=int, default=20000)
    args = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(here)
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.n:
            fmu = os.path.join(tmp, f"rod{n}.fmu")
            t0 = time.perf_counter()
            subprocess.run([args.mofmu, "export", "--model", "Thermal.Examples.RodHeating",
                            os.path.join(repo, "examples/Base.mo"),
                            os.path.join(repo, "examples/Thermal"),
                            "--set", f"rod.n={n}", "--stop-time", str(args.stop),
                            "-o", fmu], check=True, capture_output=True)
            print(f"n = {n}: exported in {time.perf_counter() - t0:.1f} s")
            cs = run(sys.executable, fmu, "CS", args.stop, os.path.join(tmp, "cs.npy"))
            line = (f"  CS (embedded RODAS3): {cs['seconds']:.3f} s wall, {cs['cpu']:.3f} s CPU, "
                    f"peak {cs['peak_mb']:.0f} MB, {cs['rows']} rows")
            if n <= args.me_limit:
                me = run(sys.executable, fmu, "ME", args.stop, os.path.join(tmp, "me.npy"))
                worst = compare(os.path.join(tmp, "me.npy"), os.path.join(tmp, "cs.npy"))
                print(f"  ME (FMPy CVode):      {me['seconds']:.3f} s wall, {me['cpu']:.3f} s CPU, "
                      f"peak {me['peak_mb']:.0f} MB, {me['rows']} rows")
                print(line)
                print(f"  CS / ME wall time: {cs['seconds'] / me['seconds']:.2f}, CPU time: "
                      f"{cs['cpu'] / me['cpu']:.2f}; "
                      f"largest |CS - ME| / range over all outputs: {worst:.2e}")
            else:
                print(line)


if __name__ == "__main__":
    main()
