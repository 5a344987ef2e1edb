"""Reads a `mofmu sweep` dataset back with pyarrow and pandas, as users will.

Exports the heated rod, sweeps it over a CSV table of cases (one of which fails: a zero
density makes the heat capacity zero), and checks that pyarrow reads the summary with the
documented columns and types, that the same cases as a Parquet table give the same rows, that the trajectories read as one Hive-partitioned dataset with a
`case` column, and that a case's trajectory equals `mofmu simulate` of that case (whose CSV
holds every digit) exactly.

    .venv/bin/python fmu-tests/sweep_dataset.py --mofmu target/release/mofmu
"""

import argparse
import csv
import pathlib
import subprocess
import sys
import tempfile

import pandas as pd
import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUTPUTS = ["rod.T[1]", "rod.T[5]"]


def run(*args):
    result = subprocess.run([str(a) for a in args], capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"{' '.join(map(str, args))} failed:\n{result.stdout}{result.stderr}")
    return result.stdout


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mofmu", default=str(ROOT / "target/release/mofmu"))
    mofmu = parser.parse_args().mofmu
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        fmu = tmp / "rod.fmu"
        run(mofmu, "export", ROOT / "examples/Base.mo", ROOT / "examples/Thermal",
            "--model", "Thermal.Examples.RodHeating", "-o", fmu)
        cases = tmp / "cases.csv"
        cases.write_text("conductor.G,rod.rho\n0.5,2700\n1,0\n2,2700\n")
        out = tmp / "sweep"
        run(mofmu, "sweep", fmu, "--cases", cases, "--stop-time", "50",
            "--outputs", ",".join(OUTPUTS), "-o", out)

        summary = pq.read_table(out / "summary.parquet")
        expected = ["case", "conductor.G", "rod.rho", "status", "message", "wall_s"] + [
            f"final.{o}" for o in OUTPUTS]
        assert summary.column_names == expected, summary.column_names
        assert summary.schema.field("case").type == pa.int64()
        assert summary.schema.field("status").type == pa.string()
        frame = summary.to_pandas()
        assert list(frame["status"]) == ["ok", "failed", "ok"], frame
        assert "not finite" in frame["message"][1], frame["message"][1]
        assert pd.isna(frame["final.rod.T[1]"][1])
        assert list(frame["conductor.G"]) == [0.5, 1.0, 2.0]

        trajectories = ds.dataset(out / "trajectories", format="parquet",
                                  partitioning="hive").to_table().to_pandas()
        assert set(trajectories["case"].astype(int)) == {0, 2}, "the failed case has no rows"
        case2 = trajectories[trajectories["case"].astype(int) == 2].sort_values("time")

        single = tmp / "single.csv"
        run(mofmu, "simulate", fmu, "--start-value", "conductor.G", "2",
            "--start-value", "rod.rho", "2700", "--stop-time", "50",
            "--variables", ",".join(OUTPUTS), "-o", single)
        with open(single) as f:
            rows = list(csv.reader(f))
        header, values = rows[0], [[float(v) for v in r] for r in rows[1:]]
        for name in ["time"] + OUTPUTS:
            column = [r[header.index(name)] for r in values]
            assert list(case2[name]) == column, f"{name} differs from mofmu simulate"
        assert frame["final.rod.T[5]"][2] == values[-1][header.index("rod.T[5]")]
        # The same cases as a Parquet table written by pandas give the same rows.
        table = tmp / "cases.parquet"
        pd.DataFrame({"conductor.G": [0.5, 1.0, 2.0], "rod.rho": [2700, 0, 2700]}).to_parquet(table)
        again = tmp / "again"
        run(mofmu, "sweep", fmu, "--cases", table, "--stop-time", "50",
            "--outputs", ",".join(OUTPUTS), "-o", again)
        other = pq.read_table(again / "summary.parquet").to_pandas()
        columns = [c for c in expected if c != "wall_s"]
        pd.testing.assert_frame_equal(other[columns], frame[columns])

        print(f"sweep dataset: {len(frame)} summary rows, {len(trajectories)} trajectory rows; "
              "pyarrow and pandas read it, case 2 equals mofmu simulate bit for bit")


if __name__ == "__main__":
    main()
