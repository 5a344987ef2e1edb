//! `mofmu sweep` on the heated rod: the order of a grid's cases, CSV cases, a failing
//! case recorded without stopping the sweep, every case equal bit for bit to a single
//! `mofmu simulate` of it, the checks of names and values before anything runs, and
//! resume (after a changed grid and after a sweep killed mid-run).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::record::{Field, Row};

use super::runtime::repo_path;
use mofmu::export::export_model_with;
use mofmu::fmu::description::table::Interfaces;
use mofmu::harness::{simulate, SimOptions};
use mofmu::library::load_library;
use mofmu::loader::load_paths;
use mofmu::package::{build_fmu, ObjectCache};
use mofmu::sweep::{run_local, Cases, PlotStyle, Status, SweepError, SweepOptions};

const ROD: &str = "Thermal.Examples.RodHeating";
const OUTPUTS: [&str; 2] = ["rod.T[1]", "rod.T[5]"];
const STOP: f64 = 20.0;

/// The heated rod's FMU, exported once for every test of this file.
fn rod_fmu() -> &'static Path {
    static FMU: OnceLock<PathBuf> = OnceLock::new();
    FMU.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("sweep-rod");
        std::fs::create_dir_all(&dir).unwrap();
        let paths = [repo_path("examples/Base.mo"), repo_path("examples/Thermal")];
        let lib = load_library(load_paths(&paths).expect("libraries load"));
        let out = export_model_with(&lib, ROD, &[], 100.0, Interfaces::BOTH)
            .unwrap_or_else(|e| panic!("{ROD}: export failed: {e:?}"));
        let cache = ObjectCache::new(dir.join("cache"));
        let fmu = dir.join("RodHeating.fmu");
        build_fmu(&out.build_spec(), &fmu, Some(&cache)).expect("packaging works");
        fmu
    })
}

fn options(dir: &Path) -> SweepOptions {
    SweepOptions {
        start_time: None,
        stop_time: Some(STOP),
        output_interval: None,
        relative_tolerance: None,
        interface: None,
        outputs: OUTPUTS.iter().map(|s| s.to_string()).collect(),
        dir: dir.to_path_buf(),
        workers: Some(2),
    }
}

fn grids(grids: &[&str]) -> Cases {
    Cases::from_grids(&grids.iter().map(|g| g.to_string()).collect::<Vec<_>>()).unwrap()
}

fn rows(path: &Path) -> Vec<Row> {
    let reader = SerializedFileReader::new(std::fs::File::open(path).unwrap()).unwrap();
    reader
        .get_row_iter(None)
        .unwrap()
        .map(|r| r.unwrap())
        .collect()
}

/// A column of a Parquet file by name (null as NaN).
fn column(rows: &[Row], name: &str) -> Vec<f64> {
    rows.iter()
        .map(|row| {
            let (_, field) = row
                .get_column_iter()
                .find(|(n, _)| n.as_str() == name)
                .unwrap_or_else(|| panic!("no column {name}"));
            match field {
                Field::Double(v) => *v,
                Field::Long(v) => *v as f64,
                Field::Null => f64::NAN,
                other => panic!("{name}: {other:?}"),
            }
        })
        .collect()
}

fn strings(rows: &[Row], name: &str) -> Vec<String> {
    rows.iter()
        .map(|row| {
            let (_, field) = row
                .get_column_iter()
                .find(|(n, _)| n.as_str() == name)
                .unwrap_or_else(|| panic!("no column {name}"));
            match field {
                Field::Str(s) => s.clone(),
                other => panic!("{name}: {other:?}"),
            }
        })
        .collect()
}

fn trajectory(dir: &Path, case: usize) -> Vec<Row> {
    rows(&dir.join(format!("trajectories/case={case}/part-0.parquet")))
}

#[test]
fn a_grid_is_the_product_of_its_axes_and_every_case_is_one_simulate() {
    let dir = tempfile::tempdir().unwrap();
    let cases = grids(&["conductor.G=0.5,2", "rod.T0=290:300:3"]);
    let summary = run_local(rod_fmu(), &cases, &options(dir.path()), false).unwrap();
    assert_eq!((summary.ran, summary.skipped, summary.failed()), (6, 0, 0));

    let table = rows(&dir.path().join("summary.parquet"));
    assert_eq!(column(&table, "case"), vec![0.0, 1.0, 2.0, 3.0, 4.0, 5.0]);
    assert_eq!(
        column(&table, "conductor.G"),
        vec![0.5, 0.5, 0.5, 2.0, 2.0, 2.0]
    );
    assert_eq!(
        column(&table, "rod.T0"),
        vec![290.0, 295.0, 300.0, 290.0, 295.0, 300.0]
    );
    assert!(strings(&table, "status").iter().all(|s| s == "ok"));
    assert!(column(&table, "wall_s").iter().all(|&w| w > 0.0));

    // Each case's trajectory and final values are those of one simulation of the FMU
    // with the case's start values, bit for bit.
    for (case, values) in cases.rows.iter().enumerate() {
        let single = simulate(
            rod_fmu(),
            &SimOptions {
                stop_time: Some(STOP),
                start_values: vec![
                    ("conductor.G".into(), values[0]),
                    ("rod.T0".into(), values[1]),
                ],
                output: OUTPUTS.iter().map(|s| s.to_string()).collect(),
                ..SimOptions::default()
            },
        )
        .unwrap();
        let swept = trajectory(dir.path(), case);
        for name in ["time", OUTPUTS[0], OUTPUTS[1]] {
            let expected = single.column(name).unwrap();
            assert_eq!(column(&swept, name), expected, "case {case}, {name}");
            if name != "time" {
                let last = column(&table, &format!("final.{name}"))[case];
                assert_eq!(last.to_bits(), expected.last().unwrap().to_bits());
            }
        }
    }
    // The hotter start and the better conductor end warmer at the far end.
    let far = column(&table, "final.rod.T[5]");
    assert!(far[5] > far[2] && far[2] > far[0], "{far:?}");
}

/// The CLI's `mofmu simulate --start-value` of one case writes the same numbers (its
/// CSV holds every digit) as the sweep's trajectory of that case.
#[test]
fn a_swept_case_equals_the_simulate_command() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sweep");
    let status = Command::new(env!("CARGO_BIN_EXE_mofmu"))
        .arg("sweep")
        .arg(rod_fmu())
        .args(["--grid", "conductor.G=0.7:1.3:3", "--stop-time", "20"])
        .args(["--outputs", "rod.T[1],rod.T[5]", "--workers", "2", "-o"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(status.status.success(), "{status:?}");
    let stdout = String::from_utf8_lossy(&status.stdout);
    assert!(
        stdout.contains("3 run, 0 already done; 0 failed"),
        "{stdout}"
    );
    let csv = dir.path().join("single.csv");
    let single = Command::new(env!("CARGO_BIN_EXE_mofmu"))
        .arg("simulate")
        .arg(rod_fmu())
        .args(["--start-value", "conductor.G", "1", "--stop-time", "20"])
        .args(["--variables", "rod.T[1],rod.T[5]", "-o"])
        .arg(&csv)
        .output()
        .unwrap();
    assert!(single.status.success(), "{single:?}");
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines = text.lines();
    lines.next();
    let csv_rows: Vec<Vec<f64>> = lines
        .map(|l| l.split(',').map(|v| v.parse().unwrap()).collect())
        .collect();
    let swept = trajectory(&out, 1);
    for (i, name) in ["time", "rod.T[1]", "rod.T[5]"].into_iter().enumerate() {
        let expected: Vec<f64> = csv_rows.iter().map(|r| r[i]).collect();
        assert_eq!(column(&swept, name), expected, "{name}");
    }
}

/// A case that fails (a zero density makes the heat capacity zero: the derivatives
/// are not finite and the FMU refuses to initialise) is a row with its status and
/// message; the cases after it still run.
#[test]
fn csv_cases_and_a_failing_case_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("cases.csv");
    std::fs::write(&csv, "rod.rho,rod.T0\n2700,300\n0,300\n1000,310\n").unwrap();
    let cases = Cases::from_csv(&csv).unwrap();
    let out = dir.path().join("out");
    let summary = run_local(rod_fmu(), &cases, &options(&out), false).unwrap();
    let statuses: Vec<Status> = summary.results.iter().map(|r| r.status).collect();
    assert_eq!(statuses, vec![Status::Ok, Status::Failed, Status::Ok]);
    let failed = &summary.results[1];
    assert!(
        failed.message.contains("not finite"),
        "the FMU's reason: {}",
        failed.message
    );
    let table = rows(&out.join("summary.parquet"));
    assert_eq!(strings(&table, "status"), vec!["ok", "failed", "ok"]);
    assert_eq!(strings(&table, "message")[1], failed.message);
    assert!(column(&table, "final.rod.T[1]")[1].is_nan(), "null final");
    assert_eq!(column(&table, "rod.rho"), vec![2700.0, 0.0, 1000.0]);
    assert!(trajectory(&out, 1).is_empty(), "a failed case has no rows");
    assert!(!trajectory(&out, 2).is_empty());
}

/// Names and values are checked against the model description before anything runs.
#[test]
fn wrong_names_and_values_are_refused_before_anything_runs() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let refuse = |grid: &[&str], outputs: &[&str]| {
        let mut opts = options(&out);
        opts.outputs = outputs.iter().map(|s| s.to_string()).collect();
        run_local(rod_fmu(), &grids(grid), &opts, false).unwrap_err()
    };
    let error = refuse(&["conductor.g=1,2"], &OUTPUTS);
    assert_eq!(error.code(), "SW002", "{error}");
    assert!(error.to_string().contains("`conductor.G`"), "{error}");
    let error = refuse(&["rod.C=1,2"], &OUTPUTS);
    assert_eq!(error.code(), "SW003", "{error}");
    assert!(
        error.to_string().contains("calculated parameter"),
        "{error}"
    );
    let error = refuse(&["rod.T[1]=300"], &OUTPUTS);
    assert_eq!(error.code(), "SW003", "{error}");
    let error = refuse(&["rod.T0=300"], &["rod.T[6]"]);
    assert_eq!(error.code(), "SW008", "{error}");
    assert!(
        error.to_string().contains("close names: `rod.T[1]`"),
        "{error}"
    );
    assert!(!out.join("summary.parquet").exists(), "nothing ran");
    let error = Cases::from_grids(&["rod.T0=300:290".to_string()]).unwrap_err();
    assert_eq!(error.code(), "SW001");
    assert!(matches!(error, SweepError::Grid { .. }));
}

/// Re-running skips the cases the dataset holds; a changed grid re-runs exactly the
/// cases whose values changed and drops the cases past its end.
#[test]
fn a_rerun_resumes_and_a_changed_grid_is_not_mistaken_for_the_old() {
    let dir = tempfile::tempdir().unwrap();
    let opts = options(dir.path());
    let first = run_local(rod_fmu(), &grids(&["rod.T0=290:300:5"]), &opts, false).unwrap();
    assert_eq!((first.ran, first.skipped), (5, 0));
    let again = run_local(rod_fmu(), &grids(&["rod.T0=290:300:5"]), &opts, false).unwrap();
    assert_eq!((again.ran, again.skipped), (0, 5));
    assert_eq!(
        again.results, first.results,
        "the rows read back are the rows written"
    );
    // 290, 292.5, 295 stay; 297.5 and 300 become 296 and 297; 298 is new.
    let changed = grids(&["rod.T0=290,292.5,295,296,297,298"]);
    let third = run_local(rod_fmu(), &changed, &opts, false).unwrap();
    assert_eq!((third.ran, third.skipped), (3, 3));
    let table = rows(&dir.path().join("summary.parquet"));
    assert_eq!(
        column(&table, "rod.T0"),
        vec![290.0, 292.5, 295.0, 296.0, 297.0, 298.0]
    );
    // Other settings are another sweep: every case runs again.
    let mut longer = options(dir.path());
    longer.stop_time = Some(STOP * 2.0);
    let fourth = run_local(rod_fmu(), &grids(&["rod.T0=290,295"]), &longer, false).unwrap();
    assert_eq!((fourth.ran, fourth.skipped), (2, 0));
    assert_eq!(rows(&dir.path().join("summary.parquet")).len(), 2);
    assert!(!dir.path().join("trajectories/case=2").exists());
}

/// A sweep killed mid-run leaves whole files only; the re-run runs only the missing
/// cases, and the summary then holds every case once.
#[test]
fn a_killed_sweep_resumes_with_only_the_missing_cases() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let args = |cmd: &mut Command| {
        cmd.arg("sweep")
            .arg(rod_fmu())
            .args(["--grid", "rod.T0=280:320:60", "--stop-time", "100"])
            // 20,000 rows a case: about 30 ms each, long enough to kill mid-run.
            .args(["--output-interval", "0.005"])
            .args(["--outputs", "rod.T[1],rod.T[5]", "--workers", "1", "-o"])
            .arg(&out);
    };
    let mut command = Command::new(env!("CARGO_BIN_EXE_mofmu"));
    args(&mut command);
    let mut child = command.spawn().unwrap();
    let done = |out: &Path| {
        (0..60)
            .filter(|c| {
                out.join(format!("trajectories/case={c}/part-0.parquet"))
                    .exists()
            })
            .count()
    };
    let started = std::time::Instant::now();
    while done(&out) < 3 && started.elapsed().as_secs() < 120 {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let finished = done(&out);
    assert!(
        (3..60).contains(&finished),
        "killed mid-run: {finished} done"
    );
    // Whatever summary the killed run left holds whole rows of finished cases.
    if out.join("summary.parquet").exists() {
        let table = rows(&out.join("summary.parquet"));
        assert!(table.len() <= finished);
        assert!(strings(&table, "status").iter().all(|s| s == "ok"));
    }
    let mut command = Command::new(env!("CARGO_BIN_EXE_mofmu"));
    args(&mut command);
    let rerun = command.output().unwrap();
    assert!(rerun.status.success(), "{rerun:?}");
    let stdout = String::from_utf8_lossy(&rerun.stdout);
    let finished_now = done(&out);
    assert_eq!(finished_now, 60);
    // The killed run may have renamed one more case into place after it was counted.
    let ran: usize = stdout
        .split(" run,")
        .next()
        .and_then(|s| s.rsplit('(').next())
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(
        ran <= 60 - finished && ran >= 60 - finished - 1,
        "{ran} run after {finished} finished: {stdout}"
    );
    let table = rows(&out.join("summary.parquet"));
    assert_eq!(
        column(&table, "case"),
        (0..60).map(f64::from).collect::<Vec<_>>()
    );
    let leftovers: Vec<_> = walk(&out)
        .into_iter()
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}

/// `--plot`: a line per case per output panel holding that case's trajectory, coloured
/// by the first varied parameter; the file is well-formed SVG with a line per case and
/// panel (or a PNG); the same dataset gives the same bytes; a failed case is counted, not
/// drawn; a folder without a dataset is SW014.
#[test]
fn a_plot_draws_every_case() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let csv = dir.path().join("cases.csv");
    std::fs::write(
        &csv,
        "conductor.G,rod.rho\n0.5,2700\n2,2700\n1,1000\n1,0\n0.5,1000\n",
    )
    .unwrap();
    let cases = Cases::from_csv(&csv).unwrap();
    let mut opts = options(&out);
    opts.outputs.push("rod.rho".into());
    let summary = run_local(rod_fmu(), &cases, &opts, false).unwrap();
    // A zero density fails the case (as in csv_cases_and_a_failing_case_recorded).
    assert_eq!(summary.failed(), 1);

    let figure = mofmu::sweep::figure(&out).unwrap();
    assert_eq!(figure.title, "5 cases (1 not ok, not drawn)");
    assert_eq!(figure.style, PlotStyle::Lines);
    assert_eq!(figure.scale, Some(("conductor.G".to_string(), 0.5, 2.0)));
    assert_eq!(figure.panels.len(), 3, "one panel per output");
    for (o, panel) in figure.panels.iter().enumerate() {
        assert_eq!(panel.output, opts.outputs[o]);
        let drawn: Vec<usize> = panel.lines.iter().map(|l| l.case).collect();
        assert_eq!(drawn, vec![0, 1, 2, 4], "the ok cases");
        for line in &panel.lines {
            let row = &trajectory(&out, line.case);
            assert_eq!(line.time, column(row, "time"));
            assert_eq!(line.values, column(row, &opts.outputs[o]));
            assert_eq!(
                line.values.last().copied(),
                Some(summary.results[line.case].finals[o])
            );
            let g = summary.results[line.case].values[0];
            assert_eq!(line.at, (g - 0.5) / 1.5, "case {}", line.case);
        }
    }

    let file = dir.path().join("plot.svg");
    let report = mofmu::sweep::plot(&out, &file).unwrap();
    assert_eq!((report.cases, report.drawn), (5, 4));
    assert_eq!(report.colour_by.as_deref(), Some("conductor.G"));
    let svg = std::fs::read_to_string(&file).unwrap();
    let mut reader = quick_xml::Reader::from_str(&svg);
    let mut polylines = 0;
    loop {
        match reader.read_event().expect("the plot is well-formed XML") {
            quick_xml::events::Event::Eof => break,
            // Grid lines and ticks are polylines of two points; the cases' have hundreds.
            quick_xml::events::Event::Empty(e) | quick_xml::events::Event::Start(e)
                if e.name().as_ref() == b"polyline" =>
            {
                let points = e.try_get_attribute("points").unwrap().unwrap();
                if points.value.split(|&b| b == b' ').count() > 10 {
                    polylines += 1;
                }
            }
            _ => {}
        }
    }
    assert_eq!(polylines, 4 * 3, "a line per drawn case and panel");
    let again = dir.path().join("again.svg");
    mofmu::sweep::plot(&out, &again).unwrap();
    assert_eq!(
        std::fs::read(&again).unwrap(),
        svg.as_bytes(),
        "deterministic"
    );
    let png = dir.path().join("plot.png");
    mofmu::sweep::plot(&out, &png).unwrap();
    assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));

    let empty = dir.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let error = mofmu::sweep::plot(&empty, &file).unwrap_err();
    assert_eq!(error.code(), "SW014", "{error}");
    let error = mofmu::sweep::plot(&out, &dir.path().join("plot.pdf")).unwrap_err();
    assert_eq!(error.code(), "SW014", "{error}");
}

/// More cases than `MAX_LINES` are drawn as bands: at the stop time they span the least
/// to the greatest final value, the median line is the median of them, and the 10–90 %
/// band lies inside.
#[test]
fn many_cases_are_drawn_as_bands() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let n = mofmu::sweep::MAX_LINES + 3;
    let cases = grids(&[&format!("conductor.G=0.2:3:{n}")]);
    let mut opts = options(&out);
    opts.outputs.truncate(1);
    let summary = run_local(rod_fmu(), &cases, &opts, false).unwrap();
    let figure = mofmu::sweep::figure(&out).unwrap();
    assert_eq!(figure.style, PlotStyle::Bands);
    assert_eq!((figure.cases, figure.drawn), (n, n));
    let (time, q) = figure.panels[0].bands.as_ref().unwrap();
    assert_eq!(time.last(), Some(&STOP));
    let mut finals: Vec<f64> = summary.results.iter().map(|r| r.finals[0]).collect();
    finals.sort_by(f64::total_cmp);
    let at_stop: Vec<f64> = q.iter().map(|b| *b.last().unwrap()).collect();
    assert_eq!(at_stop[0], finals[0]);
    assert_eq!(
        at_stop[2],
        finals[n / 2],
        "n is odd: the median is a case's value"
    );
    assert_eq!(at_stop[4], finals[n - 1]);
    for k in 0..time.len() {
        assert!(q[0][k] <= q[1][k] && q[1][k] <= q[2][k], "at {}", time[k]);
        assert!(q[2][k] <= q[3][k] && q[3][k] <= q[4][k], "at {}", time[k]);
    }
    mofmu::sweep::plot(&out, &dir.path().join("bands.svg")).unwrap();
}

/// A grid over single elements of parameter arrays (`A[1,3]`, `b[2]`): a
/// sweep sets FMI variables by name, and every element is one. The case with
/// both elements changed matches the matrix exponential of the changed
/// system (the reference of the `--set A[1,3]=0.7 --set b[2]=-1` round trip).
#[test]
fn a_grid_over_array_elements_sets_each_element() {
    let dir = tempfile::tempdir().unwrap();
    let paths = [
        repo_path("examples/Base.mo"),
        repo_path("test_data/language/AccMatrix.mo"),
    ];
    let lib = load_library(load_paths(&paths).expect("libraries load"));
    let out = export_model_with(&lib, "AccMatrix.Linear", &[], 5.0, Interfaces::BOTH)
        .unwrap_or_else(|e| panic!("AccMatrix.Linear: export failed: {e:?}"));
    let fmu = dir.path().join("Linear.fmu");
    let cache = ObjectCache::new(dir.path().join("cache"));
    build_fmu(&out.build_spec(), &fmu, Some(&cache)).expect("packaging works");
    let opts = SweepOptions {
        stop_time: Some(5.0),
        relative_tolerance: Some(1e-8),
        outputs: vec!["x[1]".into(), "x[2]".into()],
        ..options(&dir.path().join("out"))
    };
    let cases = grids(&["A[1,3]=0,0.7", "b[2]=0,-1"]);
    let summary = run_local(&fmu, &cases, &opts, false).unwrap();
    assert_eq!((summary.ran, summary.failed()), (4, 0));
    let table = rows(&dir.path().join("out/summary.parquet"));
    assert_eq!(column(&table, "A[1,3]"), vec![0.0, 0.0, 0.7, 0.7]);
    let reference = std::fs::read_to_string(repo_path(
        "fmu-tests/references/AccMatrix_Linear_SetElements.csv",
    ))
    .unwrap();
    let last: Vec<f64> = reference
        .lines()
        .last()
        .unwrap()
        .split(',')
        .map(|v| v.parse().unwrap())
        .collect();
    assert_eq!(last[0], 5.0);
    for (k, name) in ["final.x[1]", "final.x[2]"].iter().enumerate() {
        let got = column(&table, name)[3];
        let want = last[1 + k];
        assert!(
            (got - want).abs() < 1e-5 * (1.0 + want.abs()),
            "{name}: {got} vs {want}"
        );
    }
}
