"""``python -m mofmu sweep ...``: the sweep command with the Dask executor.

The same interface as ``mofmu sweep`` (docs/sweep.md); ``mofmu sweep --scheduler ADDR``
hands its arguments to this entry point, since the Dask executor lives in the Python
package.
"""

import argparse
import sys

from . import MofmuError, sweep


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m mofmu")
    commands = ap.add_subparsers(dest="command", required=True)
    s = commands.add_parser("sweep", help="simulate one FMU once per case into a Parquet dataset")
    s.add_argument("fmu")
    s.add_argument("--grid", action="append", default=[], metavar="NAME=SPEC")
    s.add_argument("--cases", metavar="CASES.csv")
    s.add_argument("--start-time", type=float)
    s.add_argument("--stop-time", type=float)
    s.add_argument("--output-interval", type=float)
    s.add_argument("--tolerance", type=float)
    s.add_argument("--outputs", required=True, metavar="A,B,...")
    s.add_argument("-o", "--output", required=True, metavar="DIR")
    s.add_argument("--workers", type=int)
    s.add_argument("--scheduler", metavar="tcp://HOST:PORT")
    s.add_argument("--batch-size", type=int)
    s.add_argument("--interface", choices=["me", "cs"])
    s.add_argument("--plot", metavar="FILE.svg|png")
    args = ap.parse_args(argv)

    if bool(args.grid) == bool(args.cases):
        ap.error("give --grid NAME=SPEC (repeatable) or --cases CASES.csv")
    grid = None
    if args.grid:
        grid = {}
        for g in args.grid:
            name, sep, spec = g.partition("=")
            if not sep:
                ap.error(f"--grid {g}: expected NAME=SPEC")
            grid[name.strip()] = spec
    try:
        result = sweep(
            args.fmu, [o for o in args.outputs.split(",") if o], args.output,
            grid=grid, cases=args.cases, start_time=args.start_time, stop_time=args.stop_time,
            output_interval=args.output_interval, tolerance=args.tolerance,
            interface=args.interface, workers=args.workers, scheduler=args.scheduler,
            batch_size=args.batch_size, progress=sys.stderr.isatty(), plot=args.plot,
        )
    except MofmuError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    print(
        f"swept {args.fmu} -> {args.output}: {result.cases} cases ({result.ran} run, "
        f"{result.skipped} already done, {result.failed} not ok)"
    )
    if result.plot:
        print(f"plotted -> {result.plot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
