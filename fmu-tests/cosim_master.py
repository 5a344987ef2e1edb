#!/usr/bin/env python3
"""Two-FMU co-simulation of the PI control loop, against the monolithic reference.

Signals.Examples.PIControlLoop is split into Signals.Examples.PIController
(setpoint, feedback, PI controller; input `measurement`, output `u`) and
Signals.Examples.PIPlant (first-order plant and meter; input `u`, output `y`).
Each is exported on its own as a Co-Simulation FMU and the two are coupled by
a small master written here on FMPy's FMU2Slave:

- at each communication point t the controller reads the plant's output y(t)
  (the plant has no direct feed-through), the plant reads the controller's
  u(t) (which depends directly on its input), then both step by h;
- `zoh`: the inputs are held over the step; `extrapolated`: both FMUs also
  get their input's slope from the last two points through
  fmi2SetRealInputDerivatives (they declare canInterpolateInputs), a linear
  extrapolation.

The coupled result is compared with references/PIControlLoop.csv (the exact
matrix exponential of the monolithic loop, computed without mofmu) at every
communication point, for steps of 0.2, 0.1, 0.05, 0.025 and 0.0125 s. The
error must shrink as the step shrinks (by at least 1.6x per halving, as a
first-order coupling should), and at the smallest step it must be below 1 %
of the unit setpoint step. Both schemes are first order here: the
setpoint's jump at t = 0.5 reaches the plant only at communication points,
and an extrapolated jump overshoots for one step. Prints one line per step and scheme.

The same two FMUs are then coupled by `mofmu cosim` (its own master, through a
connection file) with zero-order hold at every step: its result must equal this
master's `zoh` result within 1e-7 (both run the same FMUs, the same exchange order
and the same tolerance), which checks mofmu's master against an independent one.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
LIBRARIES = ["examples/Base.mo", "examples/Signals.mo"]
STOP_TIME = 10.0
STEPS = [0.2, 0.1, 0.05, 0.025, 0.0125]
# First-order coupling halves the error with the step; 1.6 leaves room for
# the higher-order terms at the larger steps.
MIN_RATIO = 1.6
# 1 % of the setpoint step (height 1) at h = 0.0125 s.
FINEST_TOLERANCE = 1e-2
# The variables compared: (FMU, variable in the split model, column of the
# monolithic reference).
COMPARED = [
    ("controller", "controller.x", "controller.x"),
    ("plant", "plant.x", "plant.x"),
    ("plant", "meter.x", "meter.x"),
]


class Slave:
    """One Co-Simulation FMU instance with name-based access to its reals."""

    def __init__(self, path: Path, name: str, out: Path):
        from fmpy import extract, read_model_description
        from fmpy.fmi2 import FMU2Slave

        self.description = read_model_description(str(path))
        if self.description.coSimulation is None:
            raise RuntimeError(f"{path} declares no <CoSimulation>")
        unzipped = extract(str(path), unzipdir=str(out / f"{name}.unzipped"))
        self.vr = {v.name: v.valueReference for v in self.description.modelVariables}
        self.fmu = FMU2Slave(
            guid=self.description.guid,
            unzipDirectory=unzipped,
            modelIdentifier=self.description.coSimulation.modelIdentifier,
            instanceName=name,
        )
        self.fmu.instantiate()
        self.fmu.setupExperiment(tolerance=1e-8, startTime=0.0, stopTime=STOP_TIME)
        self.fmu.enterInitializationMode()

    def get(self, name: str) -> float:
        return self.fmu.getReal([self.vr[name]])[0]

    def set(self, name: str, value: float) -> None:
        self.fmu.setReal([self.vr[name]], [value])

    def set_derivative(self, name: str, value: float) -> None:
        self.fmu.setRealInputDerivatives([self.vr[name]], [1], [value])

    def close(self) -> None:
        self.fmu.terminate()
        self.fmu.freeInstance()


def co_simulate(plant_fmu: Path, controller_fmu: Path, h: float, extrapolate: bool, out: Path):
    """Runs the coupled loop with step h; returns times and the compared values."""
    plant = Slave(plant_fmu, "plant", out)
    controller = Slave(controller_fmu, "controller", out)
    # Initialization: the plant's output depends on its state only.
    controller.set("measurement", plant.get("y"))
    plant.set("u", controller.get("u"))
    plant.fmu.exitInitializationMode()
    controller.fmu.exitInitializationMode()
    steps = int(round(STOP_TIME / h))
    times, rows = [], []
    u_before = y_before = None
    for k in range(steps + 1):
        t = k * h
        y = plant.get("y")
        controller.set("measurement", y)
        u = controller.get("u")
        plant.set("u", u)
        slaves = {"plant": plant, "controller": controller}
        times.append(t)
        rows.append([slaves[fmu].get(name) for fmu, name, _ in COMPARED])
        if k == steps:
            break
        if extrapolate and u_before is not None:
            plant.set_derivative("u", (u - u_before) / h)
            controller.set_derivative("measurement", (y - y_before) / h)
        u_before, y_before = u, y
        for slave in (controller, plant):
            status = slave.fmu.doStep(currentCommunicationPoint=t, communicationStepSize=h)
            if status not in (None, 0):
                raise RuntimeError(f"fmi2DoStep returned {status} at t = {t}")
    plant.close()
    controller.close()
    return np.array(times), np.array(rows)


def reference_at(times: np.ndarray) -> np.ndarray:
    """The monolithic reference at `times` (on its own grid, exact; elsewhere
    linearly interpolated), without the duplicated rows of its event."""
    path = HERE / "references" / "PIControlLoop.csv"
    data = np.genfromtxt(path, delimiter=",", names=True, deletechars="")
    t = np.asarray(data["time"], dtype=float)
    keep = np.ones(t.size, dtype=bool)
    keep[1:] &= t[1:] != t[:-1]
    keep[:-1] &= t[:-1] != t[1:]
    return np.column_stack([np.interp(times, t[keep], np.asarray(data[c], dtype=float)[keep]) for _, _, c in COMPARED])


# Agreement of `mofmu cosim --extrapolation hold` with the FMPy master's zoh run.
MASTERS_AGREE = 1e-7

CONNECTION_FILE = """stop = {stop}
step = {step}
extrapolation = "hold"
tolerance = 1e-8
connections = ["plant.y -> controller.measurement", "controller.u -> plant.u"]
output = ["controller.controller.x", "plant.plant.x", "plant.meter.x"]

[[fmu]]
name = "plant"
path = "PIPlant.fmu"

[[fmu]]
name = "controller"
path = "PIController.fmu"
"""


def mofmu_cosim(mofmu: Path, out: Path, h: float) -> tuple[np.ndarray, np.ndarray]:
    """Runs `mofmu cosim` on the two FMUs in `out` with zero-order hold and step h."""
    file = out / f"loop-{h}.toml"
    file.write_text(CONNECTION_FILE.format(stop=STOP_TIME, step=h))
    csv = out / f"mofmu-cosim-{h}.csv"
    subprocess.run([str(mofmu), "cosim", str(file), "-o", str(csv)], check=True, capture_output=True, text=True)
    data = np.genfromtxt(csv, delimiter=",", names=True, deletechars="")
    columns = [f"{fmu}.{name}" for fmu, name, _ in COMPARED]
    return np.asarray(data["time"]), np.column_stack([np.asarray(data[c]) for c in columns])


def export(mofmu: Path, model: str, path: Path) -> None:
    command = [str(mofmu), "export", *LIBRARIES, "--model", model, "--stop-time", str(STOP_TIME),
               "--interface", "cs", "-o", str(path)]
    subprocess.run(command, check=True, cwd=ROOT, capture_output=True, text=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mofmu", type=Path, default=ROOT / "target" / "release" / "mofmu")
    parser.add_argument("--out", type=Path, default=ROOT / "out" / "cosim-master")
    args = parser.parse_args(argv)
    out = args.out
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    plant_fmu, controller_fmu = out / "PIPlant.fmu", out / "PIController.fmu"
    export(args.mofmu, "Signals.Examples.PIPlant", plant_fmu)
    export(args.mofmu, "Signals.Examples.PIController", controller_fmu)

    failures = 0
    for scheme, extrapolate in (("zoh", False), ("extrapolated", True)):
        errors = []
        for h in STEPS:
            times, values = co_simulate(plant_fmu, controller_fmu, h, extrapolate, out / f"{scheme}-{h}")
            if not extrapolate:
                own_times, own = mofmu_cosim(args.mofmu, out, h)
                apart = float(np.abs(own - values).max()) if own.shape == values.shape else np.inf
                same_grid = own_times.shape == times.shape and np.allclose(own_times, times, rtol=0, atol=1e-12)
                print(f"mofmu cosim (hold) h = {h:g}: largest difference from this master {apart:.3e}")
                if not (same_grid and apart <= MASTERS_AGREE):
                    print(f"FAIL mofmu cosim differs from the FMPy master at h = {h:g}: {apart:.3e}")
                    failures += 1
            deviation = np.abs(values - reference_at(times))
            worst = deviation.max(axis=0)
            errors.append(float(worst.max()))
            detail = ", ".join(f"{name} {w:.3e}" for (_, name, _), w in zip(COMPARED, worst))
            ratio = "" if len(errors) < 2 else f", ratio {errors[-2] / errors[-1]:.2f}"
            print(f"{scheme} h = {h:g}: max error {errors[-1]:.3e} ({detail}){ratio}")
        for coarse, fine, h in zip(errors, errors[1:], STEPS[1:]):
            if not coarse / fine >= MIN_RATIO:
                print(f"FAIL {scheme}: error did not shrink enough at h = {h:g} ({coarse:.3e} -> {fine:.3e})")
                failures += 1
        if not errors[-1] <= FINEST_TOLERANCE:
            print(f"FAIL {scheme}: error {errors[-1]:.3e} at h = {STEPS[-1]:g} exceeds {FINEST_TOLERANCE:g}")
            failures += 1
    print("co-simulation converges to the monolithic result" if failures == 0 else f"{failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
