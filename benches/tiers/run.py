#!/usr/bin/env python3
"""One derivative call of every example model of fmu-tests/cases.toml, its
schedule compiled against interpreted (benches/tiers/tiers.c: both FMUs in one
process, interleaved rounds, min and median ns per call, and the median of
interpreted / compiled).

    benches/tiers/run.py [--mofmu BIN] [--rounds R] [--ms MS] [--case NAME]...

Prints a Markdown table. A ratio above 1 means the compiled tier is faster.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "fmu-tests"))

from roundtrip import load_cases  # noqa: E402  (the one reader of cases.toml)

# mofmu's own C flags (src/package/compile.rs).
FLAGS = ["-std=c99", "-O2", "-ffp-contract=off"]


def export(mofmu: Path, case, tier: str, out: Path) -> Path:
    fmu = out / f"{case.name}.{tier}.fmu"
    command = [str(mofmu), "export", *case.libraries, "--model", case.model, "-o", str(fmu)]
    for assignment in case.sets:
        command += ["--set", assignment]
    command += ["--schedule", tier]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(done.stderr.strip()[-300:])
    said = next((line for line in done.stdout.splitlines() if line.startswith("schedule: ")), "")
    directory = out / f"{case.name}.{tier}"
    with zipfile.ZipFile(fmu) as z:
        z.extractall(directory)
    return directory, said


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mofmu", type=Path, default=ROOT / "target" / "release" / "mofmu")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--ms", type=float, default=40.0)
    parser.add_argument("--case", action="append", default=[])
    args = parser.parse_args()
    cases = [c for c in load_cases(ROOT / "fmu-tests" / "cases.toml") if not args.case or c.name in args.case]
    with tempfile.TemporaryDirectory(prefix="mofmu-tiers-") as tmp:
        out = Path(tmp)
        program = out / "tiers"
        subprocess.run(["cc", *FLAGS, "-o", str(program), str(ROOT / "benches" / "tiers" / "tiers.c"), "-ldl"], check=True)
        print("| model | states | compiled ns/call (min / median) | interpreted ns/call (min / median) | interpreted / compiled (median) |")
        print("|---|---|---|---|---|")
        slower = 0
        for case in cases:
            try:
                compiled, said = export(args.mofmu, case, "compiled", out)
                interpreted, _ = export(args.mofmu, case, "interpreted", out)
            except RuntimeError as e:
                print(f"| {case.name} | export failed: {e} | | | |")
                continue
            if not said.startswith("schedule: compiled"):
                print(f"| {case.name} | {said} | | | |")
                continue
            done = subprocess.run(
                [str(program), str(compiled), str(interpreted), str(args.rounds), str(args.ms)],
                capture_output=True,
                text=True,
            )
            if done.returncode != 0:
                print(f"| {case.name} | failed: {done.stderr.strip()} | | | |")
                continue
            n, c_min, c_med, i_min, i_med, ratio = done.stdout.split()
            if int(n) == 0:
                continue
            slower += float(ratio) < 1.0
            print(f"| {case.name} | {n} | {c_min} / {c_med} | {i_min} / {i_med} | {float(ratio):.2f} |", flush=True)
        print(f"\n{slower} models with the compiled tier slower at the median")
    return 0


if __name__ == "__main__":
    sys.exit(main())
