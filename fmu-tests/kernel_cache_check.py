#!/usr/bin/env python3
"""Check that class kernels do not depend on the system and are cached.

Exports Thermal.Examples.RodHeating twice into separate folders with one fresh
MOFMU_CACHE_DIR: first with `--set rod.n=5`, then with `--set rod.n=10000`.
The class kernel of Thermal.Components.Rod (a file `sources/K_*Rod*.c`) must be
byte-identical in both FMUs, because a kernel is generated from its class
alone and loops over parameter-sized arrays. The second export re-uses the
cached kernels and must take less than --limit seconds (5 by default).

Prints one `PASS|FAIL` line per check, the time of the second export, the
sizes of both FMUs, and finally `N passed, N failed`; exits 1 on a failure.
"""

from __future__ import annotations

import argparse
import fnmatch
import os
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
LIBRARIES = ["examples/Base.mo", "examples/Thermal"]
MODEL = "Thermal.Examples.RodHeating"
KERNEL_PATTERN = "K_*Rod*.c"
COMMAND_TIMEOUT = 600


class Checks:
    def __init__(self) -> None:
        self.passed = 0
        self.failed = 0

    def check(self, ok: bool, name: str, detail: str) -> bool:
        print(f"{'PASS' if ok else 'FAIL'} kernel-cache {name} {detail}", flush=True)
        if ok:
            self.passed += 1
        else:
            self.failed += 1
        return ok

    def finish(self) -> int:
        print(f"{self.passed} passed, {self.failed} failed")
        return 1 if self.failed else 0


def export(mofmu: Path, n: int, out_dir: Path, cache: Path) -> tuple[bool, float, str]:
    """Export RodHeating with rod.n = n; return success, wall time, detail."""
    out_dir.mkdir(parents=True, exist_ok=True)
    fmu = out_dir / "RodHeating.fmu"
    fmu.unlink(missing_ok=True)
    command = [str(mofmu), "export", *LIBRARIES, "--model", MODEL, "-o", str(fmu), "--set", f"rod.n={n}"]
    env = dict(os.environ, MOFMU_CACHE_DIR=str(cache))
    started = time.monotonic()
    try:
        proc = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, env=env, timeout=COMMAND_TIMEOUT)
    except FileNotFoundError:
        return False, 0.0, f"cannot run {mofmu}"
    except subprocess.TimeoutExpired:
        return False, float(COMMAND_TIMEOUT), f"timed out after {COMMAND_TIMEOUT} s"
    elapsed = time.monotonic() - started
    (out_dir / "export.log").write_text(f"$ {' '.join(command)}\n--- stdout\n{proc.stdout}\n--- stderr\n{proc.stderr}")
    if proc.returncode != 0:
        lines = (proc.stderr or proc.stdout).strip().splitlines()
        return False, elapsed, f"exit {proc.returncode}: {lines[-1] if lines else ''}"
    if not fmu.is_file():
        return False, elapsed, f"exit 0 but no {fmu}"
    return True, elapsed, f"{elapsed:.2f} s, {fmu.stat().st_size} bytes"


def rod_kernels(fmu: Path) -> dict[str, bytes]:
    """The Rod class kernels in the FMU's sources/, by file name."""
    kernels = {}
    with zipfile.ZipFile(fmu) as archive:
        for member in archive.namelist():
            parts = member.split("/")
            if parts[0] == "sources" and fnmatch.fnmatchcase(parts[-1], KERNEL_PATTERN):
                kernels[parts[-1]] = archive.read(member)
    return kernels


def model_description(fmu: Path) -> str:
    with zipfile.ZipFile(fmu) as archive:
        return archive.read("modelDescription.xml").decode("utf-8", errors="replace")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mofmu", type=Path, default=ROOT / "target" / "release" / "mofmu")
    parser.add_argument("--out", type=Path, default=ROOT / "out" / "kernel-cache")
    parser.add_argument("--limit", type=float, default=5.0, help="seconds allowed for the cached export")
    args = parser.parse_args(argv)

    mofmu = args.mofmu.resolve()
    if not mofmu.is_file():
        print(f"error: no mofmu binary at {mofmu} (build it with `cargo build --release`)", file=sys.stderr)
        return 2

    checks = Checks()
    out = args.out.resolve()
    cache = out / "cache"
    # A fresh cache, so that the first export fills it and the second one
    # re-uses what the first wrote.
    shutil.rmtree(cache, ignore_errors=True)
    cache.mkdir(parents=True)

    small_ok, _, detail = export(mofmu, 5, out / "n5", cache)
    checks.check(small_ok, "export-n5", detail)
    cached = any(cache.rglob("*"))
    checks.check(cached, "cache-filled", f"{cache} {'has entries' if cached else 'is empty'} after the first export")
    large_ok, elapsed, detail = export(mofmu, 10000, out / "n10000", cache)
    checks.check(large_ok, "export-n10000", detail)
    if not (small_ok and large_ok):
        checks.check(False, "kernel-identical", "not run: an export failed")
        checks.check(False, "cached-export-time", "not run: an export failed")
        return checks.finish()

    small_fmu = out / "n5" / "RodHeating.fmu"
    large_fmu = out / "n10000" / "RodHeating.fmu"
    # The sizes reached the FMUs: n = 5 has rod.T[5] but no rod.T[6];
    # n = 10000 has rod.T[10000].
    small_md = model_description(small_fmu)
    large_md = model_description(large_fmu)
    sizes_ok = '"rod.T[5]"' in small_md and '"rod.T[6]"' not in small_md and '"rod.T[10000]"' in large_md
    checks.check(sizes_ok, "sizes-applied", "rod.T[5] / rod.T[10000] in modelDescription.xml" if sizes_ok
                 else "the modelDescription.xml files do not show rod.n = 5 and rod.n = 10000")

    small_kernels = rod_kernels(small_fmu)
    large_kernels = rod_kernels(large_fmu)
    if not small_kernels or not large_kernels:
        checks.check(False, "kernel-identical", f"no sources/{KERNEL_PATTERN} in {'n5' if not small_kernels else 'n10000'}")
    elif small_kernels.keys() != large_kernels.keys():
        checks.check(False, "kernel-identical", f"kernel files differ: {sorted(small_kernels)} vs {sorted(large_kernels)}")
    else:
        differing = [name for name in small_kernels if small_kernels[name] != large_kernels[name]]
        total = sum(len(b) for b in small_kernels.values())
        checks.check(not differing, "kernel-identical",
                     f"differ: {differing}" if differing else f"{sorted(small_kernels)} ({total} bytes) byte-identical")

    checks.check(elapsed < args.limit, "cached-export-time", f"{elapsed:.2f} s (limit {args.limit:g} s)")
    print(f"cached export (rod.n=10000): {elapsed:.2f} s")
    print(f"FMU sizes: n=5 {small_fmu.stat().st_size} bytes, n=10000 {large_fmu.stat().st_size} bytes")
    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
