//! `mofmu compare` on csv-compare's behaviours, the tube's sizing rules,
//! malformed input (a fuzz-style property test: no panic, exit 2), the
//! report files, `mofmu simulate --plot` and fmusim's option names, the
//! cross-check directory and `<SourceFiles>`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Instant;

use mofmu::compare::{compare, parse_table, summarize, Table, Tube, Verdict};

use crate::export::{export, library, package, repo, shared_cache};

fn mofmu(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mofmu"))
        .args(args)
        .current_dir(repo())
        .env(
            "MOFMU_CACHE_DIR",
            Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-object-cache"),
        )
        .output()
        .expect("the mofmu binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn temp_dir() -> tempfile::TempDir {
    tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("a scratch directory")
}

/// A CSV with `;` between fields, as csv-compare writes by default.
fn csv(names: &[&str], rows: &[Vec<f64>], delimiter: char) -> String {
    let mut out = names
        .iter()
        .map(|n| format!("\"{n}\""))
        .collect::<Vec<_>>()
        .join(&delimiter.to_string());
    out.push('\n');
    for row in rows {
        let cells: Vec<String> = row.iter().map(|v| format!("{v:?}")).collect();
        out.push_str(&cells.join(&delimiter.to_string()));
        out.push('\n');
    }
    out
}

fn table(text: &str) -> Table {
    parse_table(text).unwrap_or_else(|e| panic!("parses: {e}\n{text}"))
}

/// y = sin(2t) + t/2 on [0, 4] with `n` samples, and a step of height 1 at
/// t = 2 written as an event (two rows at t = 2).
fn sine_and_step(n: usize, shift_after: Option<(f64, f64)>) -> String {
    let mut rows = Vec::new();
    for i in 0..n {
        let t = 4.0 * i as f64 / (n - 1) as f64;
        let shift = match shift_after {
            Some((from, by)) if t >= from => by,
            _ => 0.0,
        };
        let y = (2.0 * t).sin() + 0.5 * t + shift;
        if (t - 2.0).abs() < 1e-12 {
            rows.push(vec![t, y, 0.0]);
            rows.push(vec![t, y, 1.0]);
        } else {
            rows.push(vec![t, y, if t > 2.0 { 1.0 } else { 0.0 }]);
        }
    }
    csv(&["time", "y", "step"], &rows, ';')
}

#[test]
fn tube_size_follows_csv_compare_rules() {
    // Reference on [1, 3] with values in [-2, 5]: X = tol*(span + |t_min|),
    // Y = X * max(0.0004, (y_max - y_min + |y_min|)/span).
    let time = [1.0, 2.0, 3.0];
    let values = [5.0, -2.0, 0.0];
    let tube = Tube::new(&time, &values, 0.002).unwrap();
    let x = 0.002 * (2.0 + 1.0);
    assert_eq!(tube.size.half_width, x);
    assert_eq!(tube.size.half_height, x * (7.0 + 2.0) / 2.0);
    // A flat signal gets the minimum slope 0.0004.
    let flat = [0.0, 0.0, 0.0];
    let tube = Tube::new(&time, &flat, 0.01).unwrap();
    assert_eq!(tube.size.half_height, 0.0004 * 0.03);
    // No time span or a NaN: no tube.
    assert!(Tube::new(&[1.0, 1.0], &[0.0, 1.0], 0.002).is_none());
    assert!(Tube::new(&time, &[0.0, f64::NAN, 1.0], 0.002).is_none());
    // At a vertex of a peak, the upper bound is the peak plus Y and the
    // lower bound the lowest value within X (interpolated) minus Y.
    let tube = Tube::new(&[0.0, 1.0, 2.0], &[0.0, 1.0, 0.0], 0.1).unwrap();
    let (x, y) = (tube.size.half_width, tube.size.half_height);
    assert_eq!(x, 0.2);
    let (low, high) = tube.bounds(1.0).unwrap();
    assert!((high - (1.0 + y)).abs() < 1e-15);
    assert!((low - (1.0 - x - y)).abs() < 1e-15);
    // The tube reaches X beyond the reference's ends and no further.
    assert!(tube.bounds(-0.2).is_some() && tube.bounds(-0.2001).is_none());
    assert!(tube.bounds(2.2).is_some() && tube.bounds(2.2001).is_none());
}

#[test]
fn equal_result_passes() {
    let reference = table(&sine_and_step(401, None));
    let summary = summarize(
        "r",
        "r",
        0.002,
        compare(&reference, &reference, None, 0.002),
    );
    assert!(summary.passed, "{summary:?}");
    assert_eq!(summary.signals.len(), 2);
    for s in &summary.signals {
        assert_eq!(s.outliers, 0);
        assert_eq!(s.checked, 402);
    }
    // Every committed independent reference passes against itself, and so
    // does the same file written with `,` instead of `;`.
    for entry in std::fs::read_dir(repo().join("fmu-tests/references")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "csv") {
            let t = table(&std::fs::read_to_string(&path).unwrap());
            let reports = compare(&t, &t, None, 0.002);
            assert!(
                reports.iter().all(|r| r.passed),
                "{}: {reports:?}",
                path.display()
            );
        }
    }
}

#[test]
fn shifted_result_fails_at_the_first_shifted_time() {
    let reference = table(&sine_and_step(401, None));
    // A shift of 0.05 from t = 3 on: far more than Y = 0.008*(range ~ 3)/4.
    let result = table(&sine_and_step(201, Some((3.0, 0.05))));
    let reports = compare(&reference, &result, None, 0.002);
    let y = &reports[0];
    assert_eq!(y.verdict, Verdict::OutsideTube);
    assert_eq!(y.first_failure_time, Some(3.0));
    // Samples from t = 3 to t = 4 (every 0.02 s) are all outside.
    assert_eq!(y.outliers, 51);
    let largest = y.largest_violation.unwrap();
    let half_height = y.tube_half_height.unwrap();
    assert!(
        largest > 0.05 - 3.0 * half_height && largest < 0.05,
        "{largest}"
    );
    // The step signal was not shifted.
    assert!(reports[1].passed, "{:?}", reports[1]);
    // A shift smaller than the tube passes.
    let small = table(&sine_and_step(201, Some((3.0, 0.5 * half_height))));
    assert!(compare(&reference, &small, None, 0.002)[0].passed);
}

#[test]
fn missing_signals_fail() {
    let reference = table(&sine_and_step(101, None));
    let only_y = table("time,y\n0,0\n4,1.4\n");
    let reports = compare(&reference, &only_y, None, 0.002);
    assert_eq!(reports[1].verdict, Verdict::MissingInResult);
    assert!(!reports[1].passed);
    let names = vec!["y".to_string(), "nowhere".to_string()];
    let reports = compare(&reference, &reference, Some(&names), 0.002);
    assert!(reports[0].passed);
    assert_eq!(reports[1].verdict, Verdict::MissingInReference);
    // A result that stops early fails although the part it has is right.
    let short: String = sine_and_step(401, None)
        .lines()
        .take(200)
        .collect::<Vec<_>>()
        .join("\n");
    let reports = compare(&reference, &table(&short), None, 0.002);
    assert_eq!(reports[0].verdict, Verdict::ShortResult);
}

#[test]
fn events_in_both_files_pass_and_a_late_event_fails() {
    let reference = table(&sine_and_step(401, None));
    // The result has the event (two rows at t = 2) on its own grid.
    let result = table(&sine_and_step(51, None).replace(';', ","));
    assert_eq!(result.delimiter, ',');
    assert_eq!(result.time.iter().filter(|&&t| t == 2.0).count(), 2);
    let reports = compare(&reference, &result, None, 0.002);
    assert!(reports.iter().all(|r| r.passed), "{reports:?}");
    // The same step 0.1 s late lies outside the tube from t = 2 on.
    let mut rows = Vec::new();
    for i in 0..=400 {
        let t = 0.01 * i as f64;
        rows.push(vec![t, if t >= 2.1 { 1.0 } else { 0.0 }]);
    }
    let late = table(&csv(&["Time", "step"], &rows, ','));
    let reports = compare(&reference, &late, None, 0.002);
    let step = reports.iter().find(|r| r.name == "step").unwrap();
    assert_eq!(step.verdict, Verdict::OutsideTube);
    let first = step.first_failure_time.unwrap();
    assert!((first - 2.01).abs() < 1e-9, "{first}");
}

#[test]
fn csv_variants_are_read() {
    let t = table("# comment\n t ; 'a' ; \"b[1,2]\"\n0;1;2\n# between\n1;3;4\n\n");
    assert_eq!(t.names, ["a", "b[1,2]"]);
    assert_eq!(t.time, [0.0, 1.0]);
    assert_eq!(t.columns[1], [2.0, 4.0]);
    // The time column need not come first.
    let t = table("x,time\n5,0\n6,1\n");
    assert_eq!(t.names, ["x"]);
    assert_eq!(t.time, [0.0, 1.0]);
    // Without a time name, the first column is time.
    let t = table("s,x\n0,5\n2,6\n");
    assert_eq!(t.time, [0.0, 2.0]);
    for (bad, expect) in [
        ("", "no header"),
        ("time\n0\n", "only one column"),
        ("time,x,x\n0,1,2\n", "twice"),
        ("time,x\n0,1\n1\n", "fields"),
        ("time,x\n0,1\n1,abc\n", "not a number"),
        ("time,x\n1,1\n0,1\n", "goes back"),
        ("time,x\nnan,1\n", "not finite"),
        ("time,x\n", "no data rows"),
    ] {
        let e = parse_table(bad).expect_err(bad).to_string();
        assert!(e.contains(expect), "{bad:?}: {e}");
    }
}

/// xorshift64*: deterministic, so a failure reproduces.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Malformed CSV never panics: mutants of valid files (bytes replaced,
/// inserted, deleted, lines duplicated or swapped, fragments of CSV syntax
/// spliced in) and random text go through the parser and, when they parse,
/// through the comparison and the tube's plot outline. The counts are
/// printed (`cargo test -- --nocapture`).
#[test]
fn malformed_csv_never_panics() {
    let seeds: Vec<String> = vec![
        sine_and_step(60, None),
        sine_and_step(30, Some((1.0, 0.2))).replace(';', ","),
        std::fs::read_to_string(repo().join("fmu-tests/references/FirstOrderStep.csv"))
            .unwrap()
            .lines()
            .take(40)
            .collect::<Vec<_>>()
            .join("\n"),
        "time;a\n0;1\n0;2\n0;3\n".to_string(),
    ];
    let fragments: [&str; 16] = [
        ";", ",", "\"", "\n", "#", "nan", "inf", "-inf", "1e308", "-1e-320", "\r\n", "time",
        "\"\"", "\u{feff}", "0", "\0",
    ];
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut parsed, mut rejected, mut compared) = (0usize, 0usize, 0usize);
    let started = Instant::now();
    let iterations = 20_000;
    for i in 0..iterations {
        let seed = &seeds[rng.below(seeds.len())];
        let mut bytes = seed.clone().into_bytes();
        for _ in 0..1 + rng.below(3) {
            let at = if bytes.is_empty() {
                0
            } else {
                rng.below(bytes.len())
            };
            match rng.below(12) {
                0 if !bytes.is_empty() => bytes[at] = rng.next() as u8,
                1 => bytes.insert(at, rng.next() as u8),
                2 if !bytes.is_empty() => {
                    let end = (at + rng.below(20)).min(bytes.len());
                    bytes.drain(at..end);
                }
                3 => {
                    let f = fragments[rng.below(fragments.len())].as_bytes();
                    bytes.splice(at..at, f.iter().copied());
                }
                4 => {
                    let lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
                    let pick = lines[rng.below(lines.len())].to_vec();
                    bytes.splice(at..at, pick.into_iter().chain([b'\n']));
                }
                5 => {
                    let n = rng.below(64);
                    bytes = (0..n).map(|_| rng.next() as u8).collect();
                }
                // Most mutants change one number's digits, so that many
                // still parse and reach the comparison.
                _ => {
                    if let Some(digit) = bytes[at..].iter().position(u8::is_ascii_digit) {
                        bytes[at + digit] = b'0' + rng.below(10) as u8;
                    }
                }
            }
        }
        let Ok(text) = String::from_utf8(bytes) else {
            rejected += 1;
            continue;
        };
        match parse_table(&text) {
            Err(_) => rejected += 1,
            Ok(t) => {
                parsed += 1;
                let reference = table(&seeds[i % 2]);
                for tolerance in [0.002, 1.0, 1e-300] {
                    let a = compare(&reference, &t, None, tolerance);
                    let b = compare(&t, &reference, None, tolerance);
                    let c = compare(&t, &t, None, tolerance);
                    compared += a.len() + b.len() + c.len();
                    let _ = summarize("a", "b", tolerance, c).to_json();
                }
                for column in &t.columns {
                    if let Some(tube) = Tube::new(&t.time, column, 0.002) {
                        let _ = tube.outline();
                    }
                }
            }
        }
    }
    println!(
        "compare fuzz: {iterations} inputs in {:.2} s: {parsed} parsed and compared \
         ({compared} signal comparisons), {rejected} rejected with an error, 0 panics",
        started.elapsed().as_secs_f64()
    );
    assert!(
        parsed > 5000 && rejected > 2000,
        "the mutants reach both paths"
    );
}

#[test]
fn cli_exit_codes_report_and_json() {
    let dir = temp_dir();
    let write = |name: &str, body: &[u8]| {
        let path = dir.path().join(name);
        std::fs::write(&path, body).unwrap();
        path.display().to_string()
    };
    let reference = write("ref.csv", sine_and_step(401, None).as_bytes());
    let equal = write("equal.csv", sine_and_step(101, None).as_bytes());
    let shifted = write(
        "shifted.csv",
        sine_and_step(101, Some((3.0, 0.05))).as_bytes(),
    );
    let garbage = write("garbage.csv", b"\x00\xff\xfe;;\n\"unclosed");
    let bad_number = write("bad.csv", b"time;y\n0;1\n1;x\n");

    let out = mofmu(&["compare", &reference, &equal]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    assert!(text(&out.stdout).contains("compare: 2 of 2 signals passed"));

    let report = dir.path().join("report");
    let json = dir.path().join("summary.json");
    let out = mofmu(&[
        "compare",
        &reference,
        &shifted,
        "--report",
        report.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("FAIL  y: 26 of 102 points outside the tube, first at t = 3"),
        "{stdout}"
    );
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(summary["passed"], false);
    assert_eq!(summary["signals"][0]["verdict"], "outside_tube");
    assert_eq!(summary["signals"][0]["first_failure_time"], 3.0);
    assert_eq!(summary["signals"][1]["verdict"], "pass");
    assert_eq!(
        std::fs::read_to_string(report.join("summary.json")).unwrap(),
        std::fs::read_to_string(&json).unwrap()
    );
    let html = std::fs::read_to_string(report.join("index.html")).unwrap();
    assert!(html.contains("1 of 2 signals passed") && html.contains("001_y.svg"));
    for svg in ["001_y.svg", "002_step.svg"] {
        let svg = std::fs::read_to_string(report.join(svg)).unwrap();
        assert!(
            svg.starts_with("<svg") && svg.contains("<polygon") && svg.contains("\nreference\n")
        );
    }

    for input in [&garbage, &bad_number, &"does-not-exist.csv".to_string()] {
        for args in [
            ["compare", &reference, input],
            ["compare", input, &reference],
        ] {
            let out = mofmu(&args);
            assert_eq!(out.status.code(), Some(2), "{args:?}");
            let stderr = text(&out.stderr);
            assert!(
                stderr.starts_with("error: ") && !stderr.contains("panicked"),
                "{stderr}"
            );
        }
    }
    let out = mofmu(&["compare", &reference, &equal, "--tolerance", "0"]);
    assert_eq!(out.status.code(), Some(2));
    let signals = write("signals.txt", b"# the signals\ny\nmissing\n");
    let out = mofmu(&["compare", &reference, &equal, "--signals", &signals]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).contains("FAIL  missing: missing in the reference"));
}

/// Exports an example with the CLI into `dir`.
fn export_cli(dir: &Path, libraries: &[&str], model: &str, extra: &[&str]) -> PathBuf {
    let fmu = dir.join(format!("{}.fmu", model.replace('.', "_")));
    let mut args = vec!["export"];
    args.extend(libraries);
    args.extend(["--model", model, "-o", fmu.to_str().unwrap()]);
    args.extend(extra);
    let out = mofmu(&args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    fmu
}

#[test]
fn simulate_takes_fmusim_option_names_and_plots() {
    let dir = temp_dir();
    let libs = ["examples/Base.mo", "examples/Signals.mo"];
    let fmu = export_cli(
        dir.path(),
        &libs,
        "Signals.Examples.FirstOrderStep",
        &["--stop-time", "4"],
    );
    let csv_path = dir.path().join("out.csv");
    let svg = dir.path().join("plot.svg");
    let png = dir.path().join("plot.png");
    for plot in [&svg, &png] {
        let out = mofmu(&[
            "simulate",
            fmu.to_str().unwrap(),
            "--start-value",
            "firstOrder.T",
            "0.5",
            "--output-variable",
            "firstOrder.x",
            "--output-file",
            csv_path.to_str().unwrap(),
            "--solver",
            "bdf",
            "--plot",
            plot.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    let result = table(&std::fs::read_to_string(&csv_path).unwrap());
    assert_eq!(result.names, ["firstOrder.x"]);
    let svg_text = std::fs::read_to_string(&svg).unwrap();
    assert!(svg_text.starts_with("<svg") && svg_text.contains("firstOrder.x"));
    let png_bytes = std::fs::read(&png).unwrap();
    assert_eq!(&png_bytes[..8], b"\x89PNG\r\n\x1a\n");
    assert!(png_bytes.len() > 5000, "a drawn chart, not an empty image");

    let out = mofmu(&["simulate", fmu.to_str().unwrap(), "--solver", "cvode"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--solver cvode"));
    let out = mofmu(&[
        "simulate",
        fmu.to_str().unwrap(),
        "--start-value",
        "firstOrder.T",
        "x",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let out = mofmu(&[
        "simulate",
        fmu.to_str().unwrap(),
        "--plot",
        "x.pdf",
        "-o",
        csv_path.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains(".svg or .png"));
}

/// The names in `<SourceFiles>` of a model description.
fn listed_source_files(model_description: &str) -> Vec<String> {
    let start = model_description
        .find("<SourceFiles>")
        .expect("a SourceFiles element");
    let end = model_description.find("</SourceFiles>").unwrap();
    model_description[start..end]
        .split("<File name=\"")
        .skip(1)
        .map(|rest| rest[..rest.find('"').unwrap()].to_string())
        .collect()
}

/// `<SourceFiles>` names every C unit of `sources/` (and the rest of
/// `sources/` is the three headers), so the binary can be rebuilt from the
/// listing alone: a plain C compiler on the listed files, with `sources/`
/// on the include path (what FMPy's `build_platform_binary` does through
/// CMake), gives a binary that simulates to the same numbers.
#[test]
fn source_files_rebuild_the_binary() {
    use std::io::{Read, Write};
    let dir = temp_dir();
    let lib = library(&["examples/Base.mo", "examples/Signals.mo"]);
    let out = export(&lib, "Signals.Examples.PIControlLoop", &[]);
    let fmu = dir.path().join("original.fmu");
    package(&out, &fmu, &shared_cache());

    let mut archive = zip::ZipArchive::new(std::fs::File::open(&fmu).unwrap()).unwrap();
    let mut entries: Vec<(String, Vec<u8>)> = Vec::new();
    for i in 0..archive.len() {
        let mut file = archive.by_index(i).unwrap();
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).unwrap();
        entries.push((file.name().to_string(), bytes));
    }
    let description = entries
        .iter()
        .find(|e| e.0 == "modelDescription.xml")
        .map(|e| text(&e.1))
        .unwrap();
    let listed = listed_source_files(&description);
    let mut c_units: Vec<String> = Vec::new();
    let mut others: Vec<String> = Vec::new();
    let sources = dir.path().join("sources");
    std::fs::create_dir_all(&sources).unwrap();
    for (name, bytes) in &entries {
        if let Some(file) = name.strip_prefix("sources/") {
            std::fs::write(sources.join(file), bytes).unwrap();
            if file.ends_with(".c") {
                c_units.push(file.to_string());
            } else {
                others.push(file.to_string());
            }
        }
    }
    let mut sorted = listed.clone();
    sorted.sort();
    c_units.sort();
    others.sort();
    assert_eq!(
        sorted, c_units,
        "every C unit of sources/ is listed, nothing else"
    );
    // The headers, and the parts of the runtime's one unit (`.inc`, never
    // compiled alone, so an importer that compiles every `.c` file of
    // sources/ builds the same library).
    assert_eq!(
        others,
        [
            "mofmu_cosim.inc",
            "mofmu_cosim_matrix.inc",
            "mofmu_evaluation.inc",
            "mofmu_events.inc",
            "mofmu_fmi2.h",
            "mofmu_fmi2_functions.inc",
            "mofmu_linear_response.inc",
            "mofmu_locations.inc",
            "mofmu_logging.inc",
            "mofmu_model.h",
            "mofmu_resource.inc",
            "mofmu_runtime.h",
            "mofmu_schedule.inc",
            "mofmu_state.inc",
            "mofmu_steps.h",
        ]
    );
    // <CoSimulation> lists the same files as <ModelExchange>.
    let co_simulation = &description[description.find("<CoSimulation").expect("CS")..];
    assert_eq!(listed_source_files(co_simulation), listed);
    // The runtime, the system file, the kernels and the compiled schedule.
    assert_eq!(
        listed.len(),
        2 + out.kernels.len() + usize::from(out.schedule.compiled.is_some())
    );

    // Rebuild with the system compiler's defaults (no flags of mofmu's).
    let library = dir.path().join(format!("{}.so", out.model_identifier));
    let compiler = std::env::var("CC").unwrap_or_else(|_| "cc".to_string());
    let status = Command::new(compiler)
        .args(["-shared", "-fPIC", "-I"])
        .arg(&sources)
        .args(listed.iter().map(|f| sources.join(f)))
        .arg("-o")
        .arg(&library)
        .arg("-lm")
        .status()
        .expect("the C compiler runs");
    assert!(status.success());
    let binary = format!("binaries/linux64/{}.so", out.model_identifier);
    let rebuilt = dir.path().join("rebuilt.fmu");
    let mut writer = zip::ZipWriter::new(std::fs::File::create(&rebuilt).unwrap());
    for (name, bytes) in &entries {
        writer
            .start_file(name.as_str(), zip::write::SimpleFileOptions::default())
            .unwrap();
        if *name == binary {
            writer.write_all(&std::fs::read(&library).unwrap()).unwrap();
        } else {
            writer.write_all(bytes).unwrap();
        }
    }
    writer.finish().unwrap();

    let options = mofmu::harness::SimOptions {
        stop_time: Some(10.0),
        output_interval: Some(0.05),
        ..Default::default()
    };
    let a = mofmu::harness::simulate(&fmu, &options).unwrap();
    let b = mofmu::harness::simulate(&rebuilt, &options).unwrap();
    assert_eq!(a.names, b.names);
    assert_eq!(a.rows.len(), b.rows.len());
    for (ra, rb) in a.rows.iter().zip(&b.rows) {
        for (x, y) in ra.iter().zip(rb) {
            assert!(
                (x - y).abs() <= 1e-12 * x.abs().max(1.0),
                "{ra:?} vs {rb:?}"
            );
        }
    }
}

#[test]
fn cross_check_directory_has_the_layout() {
    let dir = temp_dir();
    // A model with inputs and no independent reference.
    let xc = dir.path().join("InOut_Plant");
    let out = mofmu(&[
        "export",
        "examples/Base.mo",
        "test_data/dependencies/InOut.mo",
        "--model",
        "InOut.Plant",
        "--stop-time",
        "2",
        "--cross-check",
        xc.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let read = |name: &str| std::fs::read_to_string(xc.join(name)).unwrap();
    assert!(xc.join("InOut_Plant.fmu").is_file());
    assert_eq!(
        read("InOut_Plant_ref.opt"),
        "StartTime,0.0\nStopTime,2.0\nStepSize,0.004\nRelTol,1e-6\n"
    );
    let inputs = read("InOut_Plant_in.csv");
    assert_eq!(inputs, "\"time\",\"u\",\"w\"\n0.0,0.3,2.0\n2.0,0.3,2.0\n");
    let reference = read("InOut_Plant_ref.csv");
    assert!(reference.starts_with("\"time\","), "{reference}");
    let reference = table(&reference);
    assert_eq!(reference.time.len(), 501);
    assert!(reference.names.iter().any(|n| n == "y"));
    let readme = read("README.md");
    assert!(readme.contains("mofmu's own harness") && readme.contains("InOut_Plant_in.csv"));

    // An example with its independent reference; `-o` elsewhere copies the FMU.
    let xc = dir.path().join("FirstOrderStep");
    let fmu = dir.path().join("elsewhere.fmu");
    let out = mofmu(&[
        "export",
        "examples/Base.mo",
        "examples/Signals.mo",
        "--model",
        "Signals.Examples.FirstOrderStep",
        "--stop-time",
        "4",
        "-o",
        fmu.to_str().unwrap(),
        "--cross-check",
        xc.to_str().unwrap(),
        "--reference",
        "fmu-tests/references/FirstOrderStep.csv",
        "--output-interval",
        "0.01",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let model = "Signals_Examples_FirstOrderStep";
    let files: Vec<String> = {
        let mut f: Vec<String> = std::fs::read_dir(&xc)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        f.sort();
        f
    };
    assert_eq!(
        files,
        [
            "README.md".to_string(),
            format!("{model}.fmu"),
            format!("{model}_ref.csv"),
            format!("{model}_ref.opt"),
        ]
    );
    assert_eq!(
        std::fs::read(&fmu).unwrap(),
        std::fs::read(xc.join(format!("{model}.fmu"))).unwrap()
    );
    let ours = table(&std::fs::read_to_string(xc.join(format!("{model}_ref.csv"))).unwrap());
    let given = table(
        &std::fs::read_to_string(repo().join("fmu-tests/references/FirstOrderStep.csv")).unwrap(),
    );
    assert_eq!(ours, given);
    assert!(std::fs::read_to_string(xc.join("README.md"))
        .unwrap()
        .contains("independently of mofmu"));

    // A reference column that is no variable of the model is refused.
    let bad = dir.path().join("bad.csv");
    std::fs::write(&bad, "\"time\",\"nowhere\"\n0,1\n4,1\n").unwrap();
    let out = mofmu(&[
        "export",
        "examples/Base.mo",
        "examples/Signals.mo",
        "--model",
        "Signals.Examples.FirstOrderStep",
        "--cross-check",
        dir.path().join("bad").to_str().unwrap(),
        "--reference",
        bad.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("`nowhere` is not a variable of the model"));
}
