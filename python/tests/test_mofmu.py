"""Tests of the Python package, run against an installed wheel:

    MOFMU_BIN=target/release/mofmu python -m unittest discover -s python/tests

Simulated values are compared with closed forms of the textbook equations, and
with what the command line writes for the same FMU and options (the two share one
code path, so they must agree bit for bit).
"""

import csv
import math
import os
import subprocess
import tempfile
import threading
import unittest
from pathlib import Path

import numpy as np

import mofmu

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
SIGNALS = [EXAMPLES / "Base.mo", EXAMPLES / "Signals.mo"]
THERMAL = [EXAMPLES / "Base.mo", EXAMPLES / "Thermal"]


def first_order_step(t, k, T, y0, t_step):
    """T*der(y) + y = k*u with u a unit step at t_step, y(0) = y0."""
    if t < t_step:
        return y0 * math.exp(-t / T)
    y1 = y0 * math.exp(-t_step / T)
    return k + (y1 - k) * math.exp(-(t - t_step) / T)


class Package(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        cls.tmp = Path(cls.dir.name)
        cls.lag = cls.tmp / "lag.fmu"
        cls.report = mofmu.export(SIGNALS, "Signals.Examples.FirstOrderStep", cls.lag)

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def test_check_counts_classes(self):
        self.assertGreater(mofmu.check(THERMAL), 10)

    def test_export_report(self):
        self.assertEqual(self.report["path"], str(self.lag))
        self.assertEqual(self.report["states"], 1)
        self.assertEqual(self.report["bytes"], self.lag.stat().st_size)

    def test_diagnostic_carries_code_file_line(self):
        bad = self.tmp / "Deleted.mo"
        bad.write_text(
            "model Deleted\n"
            "  parameter Real C = 1e-3;\n"
            "  Base.ContinuousState v(start = 0);\n"
            "  Real i;\n"
            "equation\n"
            "  der(v) = i/C;\n"
            "end Deleted;\n"
        )
        with self.assertRaises(mofmu.ModelicaError) as caught:
            mofmu.check([EXAMPLES / "Base.mo", bad])
        e = caught.exception
        self.assertEqual(e.code, "MC029")
        self.assertEqual(Path(e.file).name, "Deleted.mo")
        self.assertEqual(e.line, 4)
        self.assertIn("`i`", e.message)
        self.assertIsInstance(e, mofmu.MofmuError)
        # Nothing is written for a refused model.
        out = self.tmp / "deleted.fmu"
        with self.assertRaises(mofmu.ModelicaError):
            mofmu.export([EXAMPLES / "Base.mo", bad], "Deleted", out)
        self.assertFalse(out.exists())

    def test_dir_shows_the_package_names_only(self):
        # Imports the package uses are not its names.
        names = set(dir(mofmu))
        for imported in ("np", "os", "json", "Dict", "List", "Optional", "dataclass"):
            self.assertNotIn(imported, names)
        for own in mofmu.__all__:
            self.assertIn(own, names)

    def test_unknown_model_suggests_the_name(self):
        with self.assertRaisesRegex(mofmu.MofmuError, "did you mean `Signals.Examples.FirstOrderStep`"):
            mofmu.export(SIGNALS, "Signals.Examples.FirstOrderStp", self.tmp / "x.fmu")

    def test_bad_set_value(self):
        with self.assertRaises(TypeError):
            mofmu.export(SIGNALS, "Signals.Examples.FirstOrderStep", self.tmp / "x.fmu", set={"firstOrder.k": [1]})

    def test_simulate_matches_closed_form(self):
        r = mofmu.simulate(self.lag, tolerance=1e-9, start_values={"firstOrder.T": 0.25}, outputs=["firstOrder.y"])
        self.assertEqual(r.dtype.names[0], "time")
        self.assertEqual(r["time"][-1], 4.0)
        worst = max(
            abs(y - first_order_step(t, 2.0, 0.25, 0.5, 1.0)) for t, y in zip(r["time"], r["firstOrder.y"])
        )
        self.assertLess(worst, 1e-6)

    def test_simulate_equals_command_line(self):
        binary = os.environ.get("MOFMU_BIN")
        if not binary:
            self.skipTest("MOFMU_BIN names the mofmu binary to compare with")
        out = self.tmp / "cli.csv"
        subprocess.run(
            [binary, "simulate", str(self.lag), "--start-value", "firstOrder.k", "3", "-o", str(out)],
            check=True,
            capture_output=True,
        )
        with open(out, newline="") as f:
            rows = list(csv.reader(f))
        names, values = rows[0], np.array(rows[1:], dtype=float)
        r = mofmu.simulate(self.lag, start_values={"firstOrder.k": 3})
        self.assertEqual(list(r.dtype.names), names)
        for i, name in enumerate(names):
            np.testing.assert_array_equal(r[name], values[:, i])

    def test_loaded_fmu_is_reused_across_threads(self):
        fmu = mofmu.load(self.lag)
        self.assertEqual(fmu.model_name, "Signals.Examples.FirstOrderStep")
        gains = [0.5 * (i + 1) for i in range(8)]
        finals = [None] * len(gains)

        def run(i):
            finals[i] = fmu.simulate(start_values={"firstOrder.k": gains[i]}, outputs=["firstOrder.y"])["firstOrder.y"][-1]

        threads = [threading.Thread(target=run, args=(i,)) for i in range(len(gains))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for k, y in zip(gains, finals):
            self.assertAlmostEqual(y, first_order_step(4.0, k, 0.5, 0.5, 1.0), delta=1e-4)

    def test_unknown_start_value_is_an_error(self):
        with self.assertRaisesRegex(mofmu.MofmuError, "firstOrder.kk"):
            mofmu.simulate(self.lag, start_values={"firstOrder.kk": 1})

    def test_to_pandas(self):
        try:
            import pandas  # noqa: F401
        except ImportError:
            self.skipTest("pandas is not installed")
        frame = mofmu.simulate(self.lag, outputs=["firstOrder.y"]).to_pandas()
        self.assertEqual(frame.index.name, "time")
        self.assertEqual(list(frame.columns), ["firstOrder.y"])

    def test_missing_fmu(self):
        with self.assertRaises(mofmu.MofmuError):
            mofmu.load(self.tmp / "absent.fmu")


if __name__ == "__main__":
    unittest.main()
