"""mofmu from Python: check a library, export a model, and run a small parameter study.

    python python/examples/quickstart.py [OUT_DIR]

Exports the bundled rod (examples/Thermal, 20 volumes), loads the FMU once and
simulates it for four conductances of the conductor that heats it, then prints the
temperature of the rod's far end at t = 100 s for each.
"""

import sys
import tempfile
from pathlib import Path

import mofmu

examples = Path(__file__).resolve().parents[2] / "examples"
library = [examples / "Base.mo", examples / "Thermal"]
out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp())
out.mkdir(parents=True, exist_ok=True)

print(f"checked {mofmu.check(library)} classes")
report = mofmu.export(library, "Thermal.Examples.RodHeating", out / "rod.fmu", set={"rod.n": 20})
print(f"exported {report['path']}: {report['states']} states, {report['bytes']} bytes")

rod = mofmu.load(report["path"])
print("conductor.G   rod.T[20] at t = 100 s")
for g in (0.5, 1.0, 2.0, 4.0):
    result = rod.simulate(stop_time=100, start_values={"conductor.G": g}, outputs=["rod.T[20]"])
    print(f"{g:11.2f}   {result['rod.T[20]'][-1]:.6f} K")

try:
    frame = result.to_pandas()
    print(frame.tail(3))
except ImportError:
    print("(install pandas for Result.to_pandas())")
