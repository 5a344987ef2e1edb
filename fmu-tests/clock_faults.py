#!/usr/bin/env python3
"""A clock whose interval or factor is not positive, refused at export and
by the FMU (docs/language.md, "Clocked partitions").

1. `mofmu export --set Ts=0` (and `Ts=-30`, a factor `f=0`) of
   test_data/clocked/Clk2.mo's Cascade must fail with MX047, naming the
   parameter and the clock.
2. The FMU exported with valid values, FMI 2.0 and FMI 3.0, Model Exchange
   and Co-Simulation, given `Ts` = 0 or -30 by FMPy before initialisation
   (fmi2SetReal / fmi3SetFloat64), must fail at initialisation and log the
   same words; so must Signals.Examples.MotorSpeedControl given
   `controller.Ts`, a parameter of a component, which the message gives by
   its path.

Prints `PASS|FAIL <what> <detail>` per check and `N passed, N failed`; the
exit status is 1 when any check failed.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import fmpy

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

CLK2 = ["examples/Base.mo", "test_data/clocked/Clk2.mo"]
SIGNALS = ["examples/Base.mo", "examples/Signals.mo"]

passed = 0
failed = 0


def report(ok: bool, what: str, detail: str) -> None:
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
    print(f"{'PASS' if ok else 'FAIL'} {what} {detail}", flush=True)


def export(mofmu: Path, libraries: list[str], model: str, fmu: Path, args: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run([str(mofmu), "export", *libraries, "--model", model, "-o", str(fmu), *args],
                          cwd=ROOT, capture_output=True, text=True)


def refused_at_export(mofmu: Path, out: Path) -> None:
    clock = "`subSample(Clock(Ts), f)` of `Clk2.Cascade`; it must be positive"
    for setting, words in [
        ("Ts=0", f"`Ts` = 0 is the interval of the clock {clock}"),
        ("Ts=-30", f"`Ts` = -30 is the interval of the clock {clock}"),
        ("f=0", f"`f` = 0 is the factor of the clock {clock}"),
    ]:
        fmu = out / "refused.fmu"
        fmu.unlink(missing_ok=True)
        run = export(mofmu, CLK2, "Clk2.Cascade", fmu, ["--set", setting, "--message-format", "short"])
        ok = run.returncode != 0 and "error[MX047]" in run.stdout + run.stderr and words in run.stdout + run.stderr
        report(ok and not fmu.exists(), f"export --set {setting}", (run.stdout + run.stderr).strip().splitlines()[0]
               if (run.stdout + run.stderr).strip() else f"exit {run.returncode}")


def refused_by_the_fmu(mofmu: Path, out: Path) -> None:
    cases = [
        (CLK2, "Clk2.Cascade", "Ts", "`{name}` = {value:g} is the interval of the clock "
         "`subSample(Clock(Ts), f)` of `Clk2.Cascade`; it must be positive"),
        (SIGNALS, "Signals.Examples.MotorSpeedControl", "controller.Ts",
         "`{name}` = {value:g} is the interval of the clock `Clock(Ts)` of `controller`; it must be positive"),
    ]
    for libraries, model, name, words in cases:
        for version in ["2", "3"]:
            fmu = out / f"{model}-fmi{version}.fmu"
            run = export(mofmu, libraries, model, fmu, ["--fmi-version", version])
            if run.returncode != 0:
                report(False, f"{model} FMI {version} export", run.stderr.strip())
                continue
            for value in [0.0, -30.0]:
                for fmi_type in ["ModelExchange", "CoSimulation"]:
                    logged: list[str] = []

                    def logger(*args: object) -> None:
                        message = args[-1]
                        logged.append(message.decode() if isinstance(message, bytes) else str(message))

                    try:
                        fmpy.simulate_fmu(str(fmu), fmi_type=fmi_type, start_values={name: value}, stop_time=0.1,
                                          logger=logger)
                        outcome = "ran to the stop time"
                    except Exception as e:  # FMPy raises on the error status
                        outcome = str(e)
                    want = words.format(name=name, value=value)
                    ok = "InitializationMode" in outcome and any(want in m for m in logged)
                    report(ok, f"{model} FMI {version} {fmi_type} {name}={value:g}",
                           next((m for m in logged if want in m), f"{outcome}; logged {logged}"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mofmu", type=Path, default=ROOT / "target" / "release" / "mofmu")
    parser.add_argument("--out", type=Path, default=ROOT / "out" / "clock-faults")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    refused_at_export(args.mofmu.resolve(), args.out.resolve())
    refused_by_the_fmu(args.mofmu.resolve(), args.out.resolve())
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
