#!/usr/bin/env python3
"""fmi3GetAdjointDerivative over a whole state array, at growing sizes.

Exports Acc4.Chain (test_data/language/Acc4.mo: n conductors and
capacitors, component arrays) once in FMI 3.0 at n = 5, where n is a
structural parameter, and for each size sets n in configuration mode, brings
the instance to continuous-time mode and times fmi3GetAdjointDerivative with
the unknowns der(cap.T) and the knowns cap.T (n values each, one value
reference each): the median CPU time (time.process_time, this process only)
of `--calls` calls, and the first call's result against the closed form
seed^T J of the chain's tridiagonal Jacobian (G/C = 2/50 beside the
diagonal, -2 G/C on it, -G/C at the far end). `--mofmu` picks the exporter,
so a build from before a change can be measured beside one from after;
`--calls-above N C` takes only C calls above n = N (a slow runtime).

Usage: .venv/bin/python benches/fmi3_adjoint.py [--sizes 1000 10000 100000]
       [--mofmu target/release/mofmu] [--calls 5] [--calls-above 10000 1]

Prints one Markdown table row per size (docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import ctypes as C
import re
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
G_OVER_C = 2.0 / 50.0


def vr_of(description: str, name: str) -> int:
    match = re.search(rf'name="{re.escape(name)}" valueReference="(\d+)"', description)
    if match is None:
        raise SystemExit(f"no variable {name} in the description")
    return int(match.group(1))


def closed_form(seed: list[float]) -> list[float]:
    n = len(seed)
    out = []
    for j in range(n):
        s = seed[j] * (-G_OVER_C if j == n - 1 else -2.0 * G_OVER_C)
        if j > 0:
            s += seed[j - 1] * G_OVER_C
        if j + 1 < n:
            s += seed[j + 1] * G_OVER_C
        out.append(s)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--mofmu", type=Path, default=ROOT / "target/release/mofmu")
    parser.add_argument("--calls", type=int, default=5)
    parser.add_argument("--calls-above", type=int, nargs=2, default=None, metavar=("N", "CALLS"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        fmu = Path(temp) / "Chain.fmu"
        subprocess.run(
            [str(args.mofmu), "export", str(ROOT / "examples/Base.mo"), str(ROOT / "examples/Thermal"),
             str(ROOT / "test_data/language/Acc4.mo"), "--model", "Acc4.Chain", "--set", "n=5",
             "--fmi-version", "3", "-o", str(fmu)],
            check=True, stdout=subprocess.DEVNULL)
        unpacked = Path(temp) / "unpacked"
        with zipfile.ZipFile(fmu) as z:
            z.extractall(unpacked)
        description = (unpacked / "modelDescription.xml").read_text()
        token = re.search(r'instantiationToken="([^"]+)"', description).group(1)
        n_vr, t_vr, der_vr = (vr_of(description, x) for x in ("n", "cap.T", "der(cap.T)"))
        lib = C.CDLL(str(unpacked / "binaries/x86_64-linux/Acc4_Chain.so"))
        lib.fmi3InstantiateModelExchange.restype = C.c_void_p
        lib.fmi3InstantiateModelExchange.argtypes = [C.c_char_p, C.c_char_p, C.c_char_p, C.c_bool,
                                                     C.c_bool, C.c_void_p, C.c_void_p]
        for name in ("fmi3EnterConfigurationMode", "fmi3ExitConfigurationMode",
                     "fmi3ExitInitializationMode", "fmi3EnterContinuousTimeMode", "fmi3FreeInstance"):
            getattr(lib, name).argtypes = [C.c_void_p]
        lib.fmi3SetUInt64.argtypes = [C.c_void_p, C.POINTER(C.c_uint32), C.c_size_t,
                                      C.POINTER(C.c_uint64), C.c_size_t]
        lib.fmi3EnterInitializationMode.argtypes = [C.c_void_p, C.c_bool, C.c_double, C.c_double,
                                                    C.c_bool, C.c_double]
        lib.fmi3GetAdjointDerivative.argtypes = [C.c_void_p, C.POINTER(C.c_uint32), C.c_size_t,
                                                 C.POINTER(C.c_uint32), C.c_size_t,
                                                 C.POINTER(C.c_double), C.c_size_t,
                                                 C.POINTER(C.c_double), C.c_size_t]
        resources = f"{unpacked / 'resources'}/".encode()
        print("| n | calls | fmi3GetAdjointDerivative CPU (median) | worst relative error vs closed form |")
        print("|---|---|---|---|")
        for n in args.sizes:
            inst = lib.fmi3InstantiateModelExchange(b"chain", token.encode(), resources, False, False,
                                                    None, None)
            if not inst:
                raise SystemExit("instantiation failed")

            def ok(status: int, what: str) -> None:
                if status != 0:
                    raise SystemExit(f"{what} returned {status} at n = {n}")

            ok(lib.fmi3EnterConfigurationMode(inst), "fmi3EnterConfigurationMode")
            ok(lib.fmi3SetUInt64(inst, C.byref(C.c_uint32(n_vr)), 1, C.byref(C.c_uint64(n)), 1), "fmi3SetUInt64")
            ok(lib.fmi3ExitConfigurationMode(inst), "fmi3ExitConfigurationMode")
            ok(lib.fmi3EnterInitializationMode(inst, False, 0.0, 0.0, False, 0.0), "fmi3EnterInitializationMode")
            ok(lib.fmi3ExitInitializationMode(inst), "fmi3ExitInitializationMode")
            ok(lib.fmi3EnterContinuousTimeMode(inst), "fmi3EnterContinuousTimeMode")
            seed_list = [((i * 7919) % 1000) / 500.0 - 1.0 for i in range(n)]
            seed = (C.c_double * n)(*seed_list)
            sensitivity = (C.c_double * n)()
            calls = args.calls
            if args.calls_above is not None and n > args.calls_above[0]:
                calls = args.calls_above[1]
            times = []
            for _ in range(calls):
                start = time.process_time()
                ok(lib.fmi3GetAdjointDerivative(inst, C.byref(C.c_uint32(der_vr)), 1,
                                                C.byref(C.c_uint32(t_vr)), 1, seed, n, sensitivity, n),
                   "fmi3GetAdjointDerivative")
                times.append(time.process_time() - start)
            want = closed_form(seed_list)
            worst = max(abs(sensitivity[j] - want[j]) / max(abs(want[j]), 1e-300) for j in range(n))
            lib.fmi3FreeInstance(inst)
            median = statistics.median(times)
            shown = f"{median * 1e3:.2f} ms" if median < 1 else f"{median:.1f} s"
            print(f"| {n:,} | {calls} | {shown} | {worst:.1e} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
