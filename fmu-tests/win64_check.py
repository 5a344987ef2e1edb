#!/usr/bin/env python3
"""The optional Windows binaries: `mofmu export --platform win64`.

For each case of fmu-tests/cases.toml the model is exported twice with
`--platform win64`; then

1. the FMU holds `binaries/linux64/<id>.so` and `binaries/win64/<id>.dll`,
   and the two exports are byte-identical (the DLL has no timestamp);
2. the DLL (read with the MinGW-w64 `objdump -p`) exports exactly the 44
   functions of the FMI 2.0 API, nothing else; with `--fmi-version 3`
   (`binaries/x86_64-linux/` and `binaries/x86_64-windows/`) exactly what
   the Linux library exports (`nm -D`: the FMI 3.0 API and the FMI 2.0
   functions it wraps);
3. it imports only from the C runtime `msvcrt.dll` and from `KERNEL32.dll`,
   and from KERNEL32 only the functions the MinGW-w64 C runtime glue itself
   uses (listed below), so the DLL needs nothing a Windows machine lacks;
4. the Linux binary is the same as in an export without `--platform win64`.

Needs the Debian package gcc-mingw-w64-x86-64-win32 (scripts/test-all
installs it). Every check prints `PASS|FAIL <case> <check> <detail>`; the
last line is `N passed, N failed`. The cases run side by side in worker
processes (roundtrip.for_each_case, `MOFMU_TEST_JOBS`), their lines printed
in the cases' order.
"""

from __future__ import annotations

import argparse
import functools
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from roundtrip import Report, for_each_case, load_cases  # noqa: E402

DEFAULT_MOFMU = ROOT / "target" / "release" / "mofmu"
DEFAULT_OUT = ROOT / "out" / "win64"
OBJDUMP = "x86_64-w64-mingw32-objdump"

FMI2_FUNCTIONS = {
    "fmi2GetTypesPlatform", "fmi2GetVersion", "fmi2SetDebugLogging", "fmi2Instantiate",
    "fmi2FreeInstance", "fmi2SetupExperiment", "fmi2EnterInitializationMode",
    "fmi2ExitInitializationMode", "fmi2Terminate", "fmi2Reset", "fmi2GetReal", "fmi2GetInteger",
    "fmi2GetBoolean", "fmi2GetString", "fmi2SetReal", "fmi2SetInteger", "fmi2SetBoolean",
    "fmi2SetString", "fmi2GetFMUstate", "fmi2SetFMUstate", "fmi2FreeFMUstate",
    "fmi2SerializedFMUstateSize", "fmi2SerializeFMUstate", "fmi2DeSerializeFMUstate",
    "fmi2GetDirectionalDerivative", "fmi2EnterEventMode", "fmi2NewDiscreteStates",
    "fmi2EnterContinuousTimeMode", "fmi2CompletedIntegratorStep", "fmi2SetTime",
    "fmi2SetContinuousStates", "fmi2GetDerivatives", "fmi2GetEventIndicators",
    "fmi2GetContinuousStates", "fmi2GetNominalsOfContinuousStates", "fmi2SetRealInputDerivatives",
    "fmi2GetRealOutputDerivatives", "fmi2DoStep", "fmi2CancelStep", "fmi2GetStatus",
    "fmi2GetRealStatus", "fmi2GetIntegerStatus", "fmi2GetBooleanStatus", "fmi2GetStringStatus",
}

# What the MinGW-w64 C runtime's own start-up and helper code takes from
# KERNEL32: locks and thread-local storage for the CRT, memory protection
# for pseudo-relocations, and character-set conversion for formatted output.
KERNEL32_FOR_THE_C_RUNTIME = {
    "DeleteCriticalSection", "EnterCriticalSection", "InitializeCriticalSection",
    "LeaveCriticalSection", "GetLastError", "IsDBCSLeadByteEx", "MultiByteToWideChar",
    "WideCharToMultiByte", "Sleep", "TlsGetValue", "VirtualProtect", "VirtualQuery",
}


def pe_exports_and_imports(dll: bytes, path: Path) -> tuple[set[str], dict[str, set[str]]]:
    """The functions a DLL exports, and the functions it imports from each
    DLL (the DLL written to `path` for objdump)."""
    path.write_bytes(dll)
    text = subprocess.run([OBJDUMP, "-p", str(path)], capture_output=True, text=True, check=True).stdout
    exports: set[str] = set()
    if "[Ordinal/Name Pointer] Table" in text:
        table = text.split("[Ordinal/Name Pointer] Table", 1)[1]
        for line in table.splitlines()[1:]:
            m = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s*$", line)
            if not m:
                break
            exports.add(m.group(1))
    imports: dict[str, set[str]] = {}
    current = None
    for line in text.splitlines():
        m = re.match(r"\s*DLL Name: (\S+)", line)
        if m:
            current = imports.setdefault(m.group(1), set())
            continue
        m = re.match(r"\s*[0-9a-f]+\s+\d+\s+(\w+)\s*$", line)
        if current is not None and m:
            current.add(m.group(1))
        elif current is not None and not line.strip():
            current = None
    return exports, imports


def export(mofmu: Path, case, out: Path, extra: list[str]) -> tuple[bool, str]:
    command = [str(mofmu), "export", *case.libraries, "--model", case.model,
               "--stop-time", repr(case.stop_time), "-o", str(out), *extra]
    for s in case.sets:
        command += ["--set", s]
    proc = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    return proc.returncode == 0, (proc.stderr.strip().splitlines() or [""])[-1]


def elf_exports(so: bytes, path: Path) -> set[str]:
    """The functions a Linux library exports (its defined dynamic symbols;
    the library written to `path` for nm)."""
    path.write_bytes(so)
    text = subprocess.run(["nm", "-D", "--defined-only", str(path)], capture_output=True, text=True,
                          check=True).stdout
    return {line.split()[-1] for line in text.splitlines() if line.strip()}


def check_case(case, report: Report, mofmu: Path, out: Path, fmi_version: str) -> None:
    """Exports `case` twice with `--platform win64` and once without, and
    checks the binaries."""
    fmi3 = fmi_version == "3"
    linux, windows = ("x86_64-linux", "x86_64-windows") if fmi3 else ("linux64", "win64")
    version = ["--fmi-version", fmi_version]
    first, second, plain = (out / f"{case.name}{s}.fmu" for s in ("", "-again", "-linux-only"))
    ok, detail = export(mofmu, case, first, ["--platform", "win64", *version])
    if not report.check(ok, case.name, "export --platform win64", detail or str(first.name)):
        return
    export(mofmu, case, second, ["--platform", "win64", *version])
    export(mofmu, case, plain, version)
    identifier = case.model.replace(".", "_")
    with zipfile.ZipFile(first) as z:
        names = set(z.namelist())
        dll_path = f"binaries/{windows}/{identifier}.dll"
        dll = z.read(dll_path) if dll_path in names else b""
        so = z.read(f"binaries/{linux}/{identifier}.so")
    report.check(bool(dll) and f"binaries/{linux}/{identifier}.so" in names, case.name, "both-binaries",
                 f"{len(dll)} bytes of DLL")
    report.check(first.read_bytes() == second.read_bytes(), case.name, "reproducible", "two exports equal")
    with zipfile.ZipFile(plain) as z:
        report.check(z.read(f"binaries/{linux}/{identifier}.so") == so, case.name, f"{linux}-unchanged",
                     "same .so as without --platform win64")
    if not dll:
        return
    # The binaries are unpacked under the case's name: cases run side by side.
    exports, imports = pe_exports_and_imports(dll, out / f"{case.name}.dll")
    expected = elf_exports(so, out / f"{case.name}.so") if fmi3 else FMI2_FUNCTIONS
    if fmi3 and not FMI2_FUNCTIONS <= expected:
        report.check(False, case.name, "linux-exports-fmi2", "the Linux library lacks fmi2 functions")
    extra, missing = exports - expected, expected - exports
    report.check(not extra and not missing, case.name, "exports-only-fmi",
                 f"{len(exports)} exports" + (f"; extra {sorted(extra)}" if extra else "")
                 + (f"; missing {sorted(missing)}" if missing else ""))
    foreign = sorted(set(imports) - {"msvcrt.dll", "KERNEL32.dll"})
    kernel = imports.get("KERNEL32.dll", set()) - KERNEL32_FOR_THE_C_RUNTIME
    report.check(not foreign and not kernel, case.name, "imports-only-c-runtime",
                 ", ".join(f"{d} ({len(f)})" for d, f in sorted(imports.items()))
                 + (f"; other DLLs {foreign}" if foreign else "")
                 + (f"; other KERNEL32 functions {sorted(kernel)}" if kernel else ""))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mofmu", type=Path, default=DEFAULT_MOFMU)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("-k", dest="filters", action="append", default=[], metavar="NAME")
    parser.add_argument("--fmi-version", choices=["2", "3"], default="2")
    args = parser.parse_args(argv)
    if shutil.which(OBJDUMP) is None:
        print(f"error: {OBJDUMP} not found (apt-get install gcc-mingw-w64-x86-64-win32)", file=sys.stderr)
        return 1
    out = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    report = Report()
    cases = [case for case in load_cases(HERE / "cases.toml")
             if not args.filters or any(f in case.name for f in args.filters)]
    for_each_case(functools.partial(check_case, mofmu=args.mofmu, out=out, fmi_version=args.fmi_version),
                  cases, report)
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
