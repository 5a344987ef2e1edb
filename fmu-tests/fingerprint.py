#!/usr/bin/env python3
"""Fingerprint every example FMU, to the bit, so that two builds of mofmu
can be shown to export the same FMUs and compute the same numbers.

For each case of fmu-tests/cases.toml and each FMI version asked for:

1. `mofmu export` the model (FMI 2.0, or FMI 3.0 with `--fmi-version 3`);
2. hash `modelDescription.xml` (and FMI 3's `sources/buildDescription.xml`);
3. load the FMU with FMPy's low-level API and record, as hexadecimal floats:
   the derivatives and event indicators after initialisation, at the start
   states and at two perturbed state vectors, and (FMI 2, where the FMU
   provides them) the directional derivatives of the derivatives along the
   first three states;
4. hash the CSV of `mofmu simulate` in Model Exchange and in
   Co-Simulation (`mofmu` writes every value in its shortest exact form, so
   equal hashes mean equal bits).

    fingerprint.py --mofmu BIN -o OUT.json [--fmi-version 2|3|both] [--case NAME]...
                   [--schedule compiled|interpreted]
    fingerprint.py --compare A.json B.json [--computed]

`--compare` prints one line per case and version that differs, naming the
first field that differs, and `N passed, N failed` last; it exits 1 when any
differs. A restructuring of mofmu must leave every line equal.

`--schedule` exports with that tier of schedule (the default is mofmu's);
the two tiers' FMUs differ in their GUID and C units, not in what they
compute, so `--compare --computed` compares only the numbers and the
simulations.

    fingerprint.py --mofmu BIN --tiers -o DIR [--fmi-version ...] [--case NAME]...

fingerprints every case with each tier (DIR/compiled.json and
DIR/interpreted.json), compares what they compute to the bit, and checks
that the compiled FMUs' runtime said it runs the schedule compiled (the
export may choose the interpreter for a schedule that does not roll up,
and says so); it exits 1 when anything differs or a compiled FMU did not
run compiled.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from roundtrip import load_cases  # noqa: E402  (the one reader of cases.toml)

COMMAND_TIMEOUT = 900


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def hexes(values) -> list[str]:
    return [float(v).hex() for v in values]


def run(command: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=COMMAND_TIMEOUT)


def sample(fmu, description, n: int, nz: int, get_derivatives) -> dict:
    """The FMU in continuous-time mode at its start states and at two perturbed
    state vectors: the derivatives and event indicators there as hex floats,
    then the directional derivatives of the derivatives along three states.
    `get_derivatives` is the version's name for fmiGetDerivatives."""
    import numpy as np

    out: dict = {}
    x0 = np.zeros(n)
    if n:
        fmu.getContinuousStates(x0.ctypes.data_as(fmu_pointer()), n)
    points = [x0, x0 * (1 + 1e-3) + 1e-3, x0 * (1 - 2e-3) - 0.5e-3 * np.arange(n)]
    for k, x in enumerate(points):
        x = np.ascontiguousarray(x, dtype=float)
        dx, z = np.zeros(n), np.zeros(nz)
        if n:
            fmu.setContinuousStates(x.ctypes.data_as(fmu_pointer()), n)
            get_derivatives(dx.ctypes.data_as(fmu_pointer()), n)
        if nz:
            fmu.getEventIndicators(z.ctypes.data_as(fmu_pointer()), nz)
        out[f"point{k}"] = {"x": hexes(x), "der": hexes(dx), "z": hexes(z)}
    derivative_refs = [u.variable.valueReference for u in description.derivatives]
    if getattr(description.modelExchange, "providesDirectionalDerivative", False) and n and derivative_refs:
        knowns = [v.valueReference for v in state_variables(description)]
        out["directional"] = [
            hexes(fmu.getDirectionalDerivative(derivative_refs, [knowns[j]], [1.0]))
            for j in range(min(3, len(knowns)))
        ]
    return out


def tier_said(log: str) -> str:
    """Which tier the runtime said runs the schedule (its message at instantiation)."""
    for line in log.splitlines():
        if "the schedule " in line:
            return line[line.index("the schedule ") :].strip()
    return "not said"


def numbers_fmi2(unzipped: Path, description) -> dict:
    """Derivatives, event indicators and directional derivatives of an FMI 2 FMU."""
    from fmpy.fmi2 import FMU2Model

    fmu = FMU2Model(
        guid=description.guid,
        unzipDirectory=str(unzipped),
        modelIdentifier=description.modelExchange.modelIdentifier,
        instanceName="fingerprint",
    )
    import contextlib
    import io

    # The runtime says at instantiation which tier runs the schedule.
    said = io.StringIO()
    with contextlib.redirect_stdout(said):
        fmu.instantiate(loggingOn=True)
    fmu.setDebugLogging(False, [])
    try:
        fmu.setupExperiment(startTime=0.0)
        fmu.enterInitializationMode()
        fmu.exitInitializationMode()
        while fmu.newDiscreteStates()[0]:
            pass
        fmu.enterContinuousTimeMode()
        n, nz = description.numberOfContinuousStates, description.numberOfEventIndicators
        return {**sample(fmu, description, n, nz, fmu.getDerivatives), "tier": tier_said(said.getvalue())}
    finally:
        fmu.terminate()
        fmu.freeInstance()


def numbers_fmi3(unzipped: Path, description) -> dict:
    """Derivatives, event indicators and directional derivatives of an FMI 3 FMU."""
    from fmpy.fmi3 import FMU3Model

    fmu = FMU3Model(
        guid=description.guid,
        unzipDirectory=str(unzipped),
        modelIdentifier=description.modelExchange.modelIdentifier,
        instanceName="fingerprint",
    )
    said: list[str] = []
    fmu.instantiate(
        loggingOn=True,
        logMessage=lambda _env, _status, _category, message: said.append(
            message.decode() if isinstance(message, bytes) else str(message)
        ),
    )
    fmu.setDebugLogging(False, [])
    try:
        fmu.enterInitializationMode(startTime=0.0)
        fmu.exitInitializationMode()
        while fmu.updateDiscreteStates()[0]:
            pass
        fmu.enterContinuousTimeMode()
        n, nz = fmu.getNumberOfContinuousStates(), fmu.getNumberOfEventIndicators()
        return {
            **sample(fmu, description, n, nz, fmu.getContinuousStateDerivatives),
            "tier": tier_said("\n".join(said)),
        }
    finally:
        fmu.terminate()
        fmu.freeInstance()


def fmu_pointer():
    import ctypes

    return ctypes.POINTER(ctypes.c_double)


def state_variables(description):
    """The continuous states, in the order of the derivatives."""
    return [u.variable.derivative for u in description.derivatives]


def fingerprint_case(case, mofmu: Path, version: int, tmp: Path, schedule: str | None = None) -> dict:
    from fmpy import read_model_description

    fmu = tmp / f"{case.name}.fmi{version}.fmu"
    command = [str(mofmu), "export", *case.libraries, "--model", case.model, "-o", str(fmu)]
    for assignment in case.sets:
        command += ["--set", assignment]
    if version == 3:
        command += ["--fmi-version", "3"]
    if schedule:
        command += ["--schedule", schedule]
    done = run(command)
    if done.returncode != 0:
        return {"export": f"failed: {done.stderr.strip()[-400:]}"}
    record: dict = {}
    record["schedule"] = next(
        (line.split(": ", 1)[1] for line in done.stdout.splitlines() if line.startswith("schedule: ")), "?"
    )
    unzipped = tmp / f"{case.name}.fmi{version}"
    with zipfile.ZipFile(fmu) as z:
        z.extractall(unzipped)
        record["modelDescription.xml"] = sha(z.read("modelDescription.xml"))
        if "sources/buildDescription.xml" in z.namelist():
            record["buildDescription.xml"] = sha(z.read("sources/buildDescription.xml"))
        record["resources"] = {
            name: sha(z.read(name)) for name in sorted(z.namelist()) if name.startswith("resources/")
        }
    description = read_model_description(str(unzipped / "modelDescription.xml"))
    try:
        record["numbers"] = (numbers_fmi2 if version == 2 else numbers_fmi3)(unzipped, description)
    except Exception as e:  # A broken FMU can make FMPy raise anything.
        record["numbers"] = f"failed: {type(e).__name__}: {e}"
    for interface in ("me", "cs"):
        record[f"simulate-{interface}"] = (simulate_mofmu if version == 2 else simulate_fmpy)(
            mofmu, fmu, case, interface, tmp
        )
    return record


def simulate_mofmu(mofmu: Path, fmu: Path, case, interface: str, tmp: Path) -> str:
    """The hash of `mofmu simulate`'s CSV (FMI 2: mofmu's harness)."""
    csv = tmp / f"{fmu.stem}.{interface}.csv"
    done = run(
        [
            str(mofmu),
            "simulate",
            str(fmu),
            "--stop-time",
            repr(case.stop_time),
            "--output-interval",
            repr(case.output_interval),
            "--interface",
            interface,
            "-o",
            str(csv),
        ]
    )
    return sha(csv.read_bytes()) if done.returncode == 0 else f"failed: {done.stderr.strip()[-300:]}"


def simulate_fmpy(mofmu: Path, fmu: Path, case, interface: str, tmp: Path) -> str:
    """The hash of FMPy's result array (FMI 3, which mofmu's harness does not load):
    CVode in Model Exchange, the FMU's own solver in Co-Simulation."""
    from fmpy import simulate_fmu

    try:
        result = simulate_fmu(
            str(fmu),
            fmi_type="ModelExchange" if interface == "me" else "CoSimulation",
            solver="CVode",
            relative_tolerance=1e-8,
            stop_time=case.stop_time,
            output_interval=case.output_interval,
        )
    except Exception as e:  # A broken FMU can make FMPy raise anything.
        return f"failed: {type(e).__name__}: {e}"
    return sha(result.tobytes())


def first_difference(a, b, path: str = "") -> str | None:
    if type(a) is not type(b):
        return path or "<root>"
    if isinstance(a, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                return f"{path}/{key}"
            found = first_difference(a[key], b[key], f"{path}/{key}")
            if found:
                return found
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path} (length)"
        for i, (x, y) in enumerate(zip(a, b)):
            found = first_difference(x, y, f"{path}[{i}]")
            if found:
                return found
        return None
    return None if a == b else (path or "<root>")


# What an FMU computes: what `--compare --computed` compares.
COMPUTED = ("numbers", "simulate-me", "simulate-cs")


def computed_only(fingerprints: dict) -> dict:
    """What the FMUs compute, without what says how (the tier)."""

    def numbers(value):
        return {k: v for k, v in value.items() if k != "tier"} if isinstance(value, dict) else value

    return {
        key: {k: numbers(v) if k == "numbers" else v for k, v in record.items() if k in COMPUTED}
        for key, record in fingerprints.items()
    }


def compare(a_path: Path, b_path: Path, computed: bool = False) -> int:
    a = json.loads(a_path.read_text())
    b = json.loads(b_path.read_text())
    if computed:
        a, b = computed_only(a), computed_only(b)
    passed = failed = 0
    for key in sorted(set(a) | set(b)):
        if key not in a or key not in b:
            print(f"DIFF {key}: only in {'B' if key not in a else 'A'}")
            failed += 1
            continue
        where = first_difference(a[key], b[key])
        if where is None:
            passed += 1
        else:
            print(f"DIFF {key}: first at {where}")
            failed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def failures(value) -> list[str]:
    """The `failed: ...` strings anywhere in a fingerprint record."""
    if isinstance(value, str):
        return [value] if value.startswith("failed:") else []
    if isinstance(value, dict):
        return [f for v in value.values() for f in failures(v)]
    if isinstance(value, list):
        return [f for v in value for f in failures(v)]
    return []


def tiers(args) -> int:
    """Both tiers of every case: equal computations, and compiled where exported so."""
    args.output.mkdir(parents=True, exist_ok=True)
    paths = {}
    for tier in ("compiled", "interpreted"):
        paths[tier] = args.output / f"{tier}.json"
        code = main(
            [
                "--mofmu",
                str(args.mofmu),
                "-o",
                str(paths[tier]),
                "--fmi-version",
                args.fmi_version,
                "--manifest",
                str(args.manifest),
                "--schedule",
                tier,
                *[a for name in args.case for a in ("--case", name)],
            ]
        )
        if code != 0:
            return code
    failed = compare(paths["compiled"], paths["interpreted"], computed=True)
    compiled = json.loads(paths["compiled"].read_text())
    # Equal is not enough: an export or a run that failed in both tiers the
    # same way compares equal too.
    for tier in ("compiled", "interpreted"):
        for key, record in sorted(json.loads(paths[tier].read_text()).items()):
            broken = failures(record)
            if broken:
                print(f"FAILED {tier} {key}: {broken[0][:300]}")
                failed = 1
    not_run = 0
    for key, record in sorted(compiled.items()):
        exported = str(record.get("schedule", "?"))
        said = record["numbers"].get("tier", "not said") if isinstance(record.get("numbers"), dict) else "failed"
        if exported.startswith("compiled") and said != "the schedule runs compiled":
            print(f"NOT COMPILED {key}: exported {exported!r}, the runtime said {said!r}")
            not_run += 1
        elif not exported.startswith("compiled"):
            print(f"interpreted {key}: {exported}")
    print(f"{len(compiled) - not_run} of {len(compiled)} compiled FMUs ran compiled")
    return 1 if failed or not_run else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mofmu", type=Path)
    parser.add_argument("-o", "--output", type=Path)
    parser.add_argument("--fmi-version", choices=["2", "3", "both"], default="both")
    parser.add_argument("--case", action="append", default=[])
    parser.add_argument("--manifest", type=Path, default=HERE / "cases.toml")
    parser.add_argument("--schedule", choices=["compiled", "interpreted"])
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("A", "B"))
    parser.add_argument("--computed", action="store_true")
    parser.add_argument("--tiers", action="store_true")
    args = parser.parse_args(argv)
    if args.compare:
        return compare(*args.compare, computed=args.computed)
    if args.tiers:
        if not args.mofmu or not args.output:
            parser.error("--tiers needs --mofmu and -o DIR")
        return tiers(args)
    if not args.mofmu or not args.output:
        parser.error("--mofmu and -o are needed unless --compare is given")
    versions = [2, 3] if args.fmi_version == "both" else [int(args.fmi_version)]
    cases = [c for c in load_cases(args.manifest) if not args.case or c.name in args.case]
    result: dict = {}
    with tempfile.TemporaryDirectory(prefix="mofmu-fingerprint-") as tmp:
        for case in cases:
            for version in versions:
                key = f"{case.name} fmi{version}"
                record = fingerprint_case(case, args.mofmu.resolve(), version, Path(tmp), args.schedule)
                result[key] = record
                status = "ok" if all(not str(v).startswith("failed") for v in record.values()) else "some step failed"
                print(f"{key}: {status}", flush=True)
    args.output.write_text(json.dumps(result, indent=1, sort_keys=True) + "\n")
    print(f"{len(result)} fingerprints written to {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
