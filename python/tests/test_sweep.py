"""Sweeps from Python: the local executor, and the Dask executor on a real local cluster
(a scheduler and two worker processes started here) with one worker killed mid-sweep.

Each case of the dataset must equal a single simulation of that case (``mofmu.simulate``
with the case's start values, the code path of ``mofmu simulate``) within 1e-9.
"""

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest
from pathlib import Path

import numpy as np

import mofmu

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
THERMAL = [EXAMPLES / "Base.mo", EXAMPLES / "Thermal"]
OUTPUTS = ["rod.T[1]", "rod.T[40]"]


def read_summary(path):
    import pyarrow.parquet as pq

    return pq.read_table(path).to_pandas().sort_values("case").reset_index(drop=True)


def read_case(out, case):
    import pyarrow.parquet as pq

    return pq.read_table(os.path.join(out, "trajectories", f"case={case}", "part-0.parquet")).to_pandas()


class Rod:
    """A 40-volume rod exported once per test class."""

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        cls.tmp = Path(cls.dir.name)
        cls.rod = cls.tmp / "rod.fmu"
        mofmu.export(THERMAL, "Thermal.Examples.RodHeating", cls.rod, set={"rod.n": 40})

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def assert_cases_equal_single_runs(self, out, names, rows, stop_time):
        summary = read_summary(os.path.join(out, "summary.parquet"))
        self.assertEqual(list(summary["case"]), list(range(len(rows))))
        self.assertTrue((summary["status"] == "ok").all(), summary[summary["status"] != "ok"])
        fmu = mofmu.load(self.rod)
        for case, row in enumerate(rows):
            # The case's own values (the grid's points as mofmu computes them) ...
            values = [float(summary[name][case]) for name in names]
            # ... are the grid asked for.
            np.testing.assert_allclose(values, row, rtol=1e-14)
            single = fmu.simulate(stop_time=stop_time, start_values=dict(zip(names, values)), outputs=OUTPUTS)
            for output in OUTPUTS:
                self.assertLessEqual(abs(summary[f"final.{output}"][case] - single[output][-1]), 1e-9)
            if case % 37 == 0:
                trajectory = read_case(out, case)
                for output in OUTPUTS:
                    np.testing.assert_allclose(trajectory[output], single[output], rtol=0, atol=1e-9)


class Sweeps(Rod, unittest.TestCase):
    def test_local_sweep_and_resume(self):
        out = self.tmp / "local"
        grid = {"conductor.G": "0.5:2:4", "rod.T0": [290, 300]}
        first = mofmu.sweep(self.rod, OUTPUTS, out, grid=grid, stop_time=50, workers=2)
        self.assertEqual((first.cases, first.ran, first.skipped, first.failed), (8, 8, 0, 0))
        # Remove two cases' files: a second run runs exactly those.
        for case in (3, 6):
            shutil.rmtree(out / "trajectories" / f"case={case}")
        again = mofmu.sweep(self.rod, OUTPUTS, out, grid=grid, stop_time=50, workers=2)
        self.assertEqual((again.ran, again.skipped), (2, 6))
        names = ["conductor.G", "rod.T0"]
        rows = [[g, t] for g in np.linspace(0.5, 2, 4) for t in (290.0, 300.0)]
        self.assert_cases_equal_single_runs(out, names, rows, 50)

    def test_cases_as_columns(self):
        out = self.tmp / "columns"
        r = mofmu.sweep(self.rod, OUTPUTS, out, cases={"conductor.G": [1.0, 3.0]}, stop_time=20)
        self.assertEqual((r.cases, r.ran, r.failed), (2, 2, 0))

    def test_plot(self):
        import xml.etree.ElementTree as ET

        out = self.tmp / "plotted"
        svg = self.tmp / "plots" / "rod.svg"
        grid = {"conductor.G": [0.5, 1.0, 2.0]}
        r = mofmu.sweep(self.rod, OUTPUTS, out, grid=grid, stop_time=20, plot=svg)
        self.assertEqual(r.plot, str(svg))
        root = ET.parse(svg).getroot()
        ns = "{http://www.w3.org/2000/svg}"
        # A line per case and output (grid lines and ticks have two points each).
        lines = [p for p in root.iter(f"{ns}polyline") if len(p.get("points").split()) > 10]
        self.assertEqual(len(lines), 3 * len(OUTPUTS))
        drawn = mofmu.plot_sweep(out, self.tmp / "again.svg")
        self.assertEqual((drawn["cases"], drawn["drawn"], drawn["style"]), (3, 3, "lines"))
        self.assertEqual(drawn["colour_by"], "conductor.G")
        self.assertEqual((self.tmp / "again.svg").read_bytes(), svg.read_bytes())
        mofmu.plot_sweep(out, self.tmp / "rod.png")
        self.assertEqual((self.tmp / "rod.png").read_bytes()[:4], b"\x89PNG")
        # A plot that cannot be written as asked is refused before anything runs.
        with self.assertRaisesRegex(mofmu.MofmuError, r"\.svg or \.png"):
            mofmu.sweep(self.rod, OUTPUTS, self.tmp / "never", grid=grid, stop_time=20, plot="rod.pdf")
        self.assertFalse((self.tmp / "never").exists())

    def test_unknown_parameter_is_an_error_before_anything_runs(self):
        out = self.tmp / "bad"
        with self.assertRaisesRegex(mofmu.MofmuError, "conductor.GG"):
            mofmu.sweep(self.rod, OUTPUTS, out, grid={"conductor.GG": [1.0]}, stop_time=20)
        self.assertFalse((out / "summary.parquet").exists())


def start(cmd, **kw):
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True, **kw)


@unittest.skipUnless(shutil.which("dask", path=os.path.dirname(sys.executable)), "dask.distributed is not installed")
class DaskSweep(Rod, unittest.TestCase):
    def test_dask_sweep_survives_a_killed_worker(self):
        bindir = os.path.dirname(sys.executable)
        dask = os.path.join(bindir, "dask")
        scheduler_file = self.tmp / "scheduler.json"
        procs = [start([dask, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                        "--scheduler-file", str(scheduler_file)])]
        try:
            for _ in range(600):
                if scheduler_file.exists() and scheduler_file.stat().st_size > 0:
                    break
                time.sleep(0.1)
            import json

            address = json.loads(scheduler_file.read_text())["address"]
            workers = [
                start([dask, "worker", address, "--nworkers", "1", "--nthreads", "1", "--no-dashboard",
                       "--no-nanny", "--local-directory", str(self.tmp / f"w{i}")])
                for i in range(2)
            ]
            procs += workers
            from dask.distributed import Client

            with Client(address) as client:
                client.wait_for_workers(2, timeout=120)

            out = self.tmp / "dask"
            names = ["conductor.G", "rod.T0"]
            g = np.linspace(0.5, 4.0, 20)
            t0 = np.linspace(280.0, 320.0, 10)
            rows = [[a, b] for a in g for b in t0]
            grid = {"conductor.G": "0.5:4:20", "rod.T0": "280:320:10"}
            result = {}

            def run():
                result["r"] = mofmu.sweep(self.rod, OUTPUTS, out, grid=grid, stop_time=200,
                                          scheduler=address, batch_size=4, plot=self.tmp / "dask.svg")

            thread = threading.Thread(target=run)
            thread.start()
            # Kill one worker once some cases are in, and before all are.
            trajectories = out / "trajectories"
            for _ in range(6000):
                done = len(list(trajectories.glob("case=*/part-0.parquet"))) if trajectories.exists() else 0
                if done >= 20 or not thread.is_alive():
                    break
                time.sleep(0.01)
            self.assertTrue(thread.is_alive(), "the sweep ended before a worker could be killed")
            self.assertLess(done, 200)
            os.killpg(workers[0].pid, signal.SIGKILL)
            thread.join(timeout=600)
            self.assertFalse(thread.is_alive())
            self.assertEqual((result["r"].cases, result["r"].ran), (200, 200))
            self.assertEqual(result["r"].failed, 0)
            self.assertEqual(len(read_summary(out / "summary.parquet")), 200)
            # 200 cases are drawn as bands, from the dataset the workers filled.
            import xml.etree.ElementTree as ET

            bands = list(ET.parse(self.tmp / "dask.svg").getroot().iter("{http://www.w3.org/2000/svg}polygon"))
            self.assertEqual(len(bands), 2 * len(OUTPUTS), "min-max and 10-90 % per output")
            self.assert_cases_equal_single_runs(out, names, rows, 200)
        finally:
            for p in procs:
                try:
                    os.killpg(p.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                p.wait()


if __name__ == "__main__":
    unittest.main()
