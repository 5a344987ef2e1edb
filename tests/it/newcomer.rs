//! A modeller's first hour (issue 26): the diagnostics that teach the
//! methodology, `check --fix`, the corpus of plain-Modelica newcomer models
//! and the command line's help.
//!
//! * `test_data/teach/NAME.mo` (loaded after `examples/Base.mo`) reports
//!   exactly `NAME.expected` (human form, no colour) and `NAME.json`
//!   (one JSON object per diagnostic); every diagnostic there carries a
//!   suggestion.
//! * `test_data/newcomer/NAME.mo`: the first diagnostic is `NAME.expected`
//!   and names the compliant form; `check --fix` makes eight of the ten
//!   compliant, and those export and match their closed forms (computed
//!   here from the textbook solutions, never from mofmu).
//! * `test_data/cli/*.expected`: `mofmu --help` and each subcommand's
//!   `--help`; every option has text.
//!
//! `UPDATE_EXPECT=1` rewrites the expectations; review the diff.

use std::path::{Path, PathBuf};
use std::process::Command;

use mofmu::export::export_model;
use mofmu::fix::{fix, unified_diff};
use mofmu::harness::{simulate, SimOptions};
use mofmu::library::{check_library, load_library};

use crate::export::{package, repo, shared_cache};

fn base() -> (String, String) {
    let text = std::fs::read_to_string(repo().join("examples/Base.mo")).expect("Base.mo");
    ("examples/Base.mo".to_string(), text)
}

/// The files of a fixture as the library loads them: Base, then it.
fn files(relative: &str) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(repo().join(relative)).expect("fixture readable");
    vec![base(), (relative.to_string(), text)]
}

fn fixtures(dir: &str) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(repo().join(dir))
        .expect("fixture directory")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".mo"))
        .map(|n| format!("{dir}/{n}"))
        .collect();
    names.sort();
    names
}

/// Compares `actual` with the file, or rewrites it under UPDATE_EXPECT.
fn expect_file(path: &Path, actual: &str) {
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(path, actual).expect("writing the expectation");
        return;
    }
    let expected = std::fs::read_to_string(path)
        .unwrap_or_else(|_| panic!("{} missing (UPDATE_EXPECT=1 writes it)", path.display()));
    assert_eq!(
        expected,
        actual,
        "{} differs (UPDATE_EXPECT=1 rewrites it)",
        path.display()
    );
}

fn with_extension(relative: &str, ext: &str) -> PathBuf {
    repo().join(relative).with_extension(ext)
}

#[test]
fn teaching_diagnostics_name_the_compliant_form() {
    for fixture in fixtures("test_data/teach") {
        let lib = load_library(files(&fixture));
        let diags = check_library(&lib);
        assert!(!diags.is_empty(), "{fixture} must be refused");
        let first = &diags[0];
        assert!(
            !first.suggestions.is_empty() || first.code == "MC116",
            "{fixture}: the first diagnostic carries a suggestion: {first:?}"
        );
        let human: String = diags
            .iter()
            .map(|d| d.render_human(&lib.sources, false))
            .collect();
        expect_file(&with_extension(&fixture, "expected"), &human);
        let json: String = diags
            .iter()
            .map(|d| d.render_json(&lib.sources) + "\n")
            .collect();
        for line in json.lines() {
            let value: serde_json::Value =
                serde_json::from_str(line).expect("each line is one JSON object");
            assert!(value["suggestions"].is_array() && value["span"]["line"].is_u64());
        }
        expect_file(&with_extension(&fixture, "json"), &json);
    }
}

#[test]
fn cascades_are_suppressed() {
    // An unknown variable is the one fault of its class: the equation that
    // then has two unknowns is not reported as well.
    let lib = load_library(files("test_data/teach/unknown_variable.mo"));
    let codes: Vec<&str> = check_library(&lib).iter().map(|d| d.code).collect();
    assert_eq!(codes, ["MC022"]);
    // An acausal potential is the one fault of its connector.
    let lib = load_library(files("test_data/teach/acausal_connector.mo"));
    let codes: Vec<&str> = check_library(&lib).iter().map(|d| d.code).collect();
    assert_eq!(codes, ["MC014"]);
    // An unknown function is the one fault of its class: the equations
    // after the call are undetermined because of it.
    let lag = "model Lag\n  parameter Real T = 1;\n  Base.ContinuousState x(start = 0);\n  \
               Real y;\n  Real z;\nequation\n  y = sqr(time);\n  z = 2*y;\n  \
               T*der(x) = z - x;\nend Lag;\n";
    let lib = load_library(vec![base(), ("Lag.mo".to_string(), lag.to_string())]);
    let codes: Vec<&str> = check_library(&lib).iter().map(|d| d.code).collect();
    assert_eq!(codes, ["MC023"]);
    // A plain Real under der(): one diagnostic, not one per equation.
    let lib = load_library(files("test_data/newcomer/MassSpringDamper.mo"));
    let codes: Vec<&str> = check_library(&lib).iter().map(|d| d.code).collect();
    assert_eq!(codes, ["MC038"]);
}

/// The closed form of each corpus model that `check --fix` makes
/// compliant: (variable, value at t).
/// A variable and its closed form in time.
type ClosedForm = (&'static str, fn(f64) -> f64);

fn closed_form(model: &str) -> Vec<ClosedForm> {
    // Underdamped second-order step/free response with natural frequency
    // w0 and damping ratio z, from x(0) = 1, x'(0) = 0.
    fn free(t: f64, w0: f64, z: f64) -> f64 {
        let wd = w0 * (1.0 - z * z).sqrt();
        (-z * w0 * t).exp() * ((wd * t).cos() + z * w0 / wd * (wd * t).sin())
    }
    match model {
        // tau = R*C = 1 s, V = 1.
        "RCCircuit" => vec![("v", |t| 1.0 - (-t).exp())],
        // m = 1, k = 4, d = 0.4: w0 = 2, z = d/(2 sqrt(k m)) = 0.1.
        "MassSpringDamper" => vec![("x", |t| free(t, 2.0, 0.1))],
        // tau = A/a = 4, filled at 1 to h = 2 (1 - e^(-t/4)) until t = 5,
        // then drained from h(5).
        "Tank" => vec![("h", |t| {
            let fill = |t: f64| 2.0 * (1.0 - (-t / 4.0).exp());
            if t <= 5.0 {
                fill(t)
            } else {
                fill(5.0) * (-(t - 5.0) / 4.0).exp()
            }
        })],
        "Cooling" => vec![("T", |t| 293.15 + 70.0 * (-0.3 * t).exp())],
        // w = sqrt(g/L).
        "Pendulum" => vec![("phi", |t| 0.1 * ((9.81f64 / 2.0).sqrt() * t).cos())],
        "HeatChain.TwoNodes" => vec![("T1", |t| heat_chain(t).0), ("T2", |t| heat_chain(t).1)],
        // vC'' + (R/L) vC' + vC/(LC) = V/(LC): w0 = 2, z = 0.25, V = 1.
        "SeriesRLC" => vec![("vC", |t| 1.0 - free(t, 2.0, 0.25))],
        "FallingBody" => vec![("h", |t| 10.0 - 9.81 * t * t / 2.0)],
        "BouncingBall" => vec![("h", bouncing_height)],
        _ => Vec::new(),
    }
}

/// The height of a ball dropped from 1 m (g = 9.81) that rebounds with 0.8
/// times its impact speed: a parabola per flight, the first impact at
/// sqrt(2/g), each flight 2 v/g long.
fn bouncing_height(t: f64) -> f64 {
    let g = 9.81;
    let mut t0 = (2.0f64 / g).sqrt();
    if t <= t0 {
        return 1.0 - g * t * t / 2.0;
    }
    let mut v = 0.8 * g * t0;
    while t > t0 + 2.0 * v / g {
        t0 += 2.0 * v / g;
        v *= 0.8;
    }
    let s = t - t0;
    v * s - g * s * s / 2.0
}

/// T - T0 of the two heat capacities: x' = (G/C) M x with
/// M = [[-2, 1], [1, -1]], x(0) = (50, 100), G/C = 0.2; e^(At) from the two
/// eigenvalues of A = (G/C) M (Sylvester's formula).
fn heat_chain(t: f64) -> (f64, f64) {
    let s: f64 = 0.2;
    let a = [[-2.0 * s, s], [s, -s]];
    let tr = a[0][0] + a[1][1];
    let det = a[0][0] * a[1][1] - a[0][1] * a[1][0];
    let root = (tr * tr / 4.0 - det).sqrt();
    let (l1, l2) = (tr / 2.0 + root, tr / 2.0 - root);
    let x0 = [50.0, 100.0];
    let apply = |m: [[f64; 2]; 2]| {
        [
            m[0][0] * x0[0] + m[0][1] * x0[1],
            m[1][0] * x0[0] + m[1][1] * x0[1],
        ]
    };
    let shifted = |l: f64| [[a[0][0] - l, a[0][1]], [a[1][0], a[1][1] - l]];
    let p = apply(shifted(l2));
    let q = apply(shifted(l1));
    let e1 = (l1 * t).exp() / (l1 - l2);
    let e2 = (l2 * t).exp() / (l1 - l2);
    (300.0 + e1 * p[0] - e2 * q[0], 300.0 + e1 * p[1] - e2 * q[1])
}

fn model_name(fixture: &str) -> String {
    let stem = Path::new(fixture)
        .file_stem()
        .expect("stem")
        .to_string_lossy()
        .into_owned();
    if stem == "HeatChain" {
        "HeatChain.TwoNodes".to_string()
    } else {
        stem
    }
}

#[test]
fn newcomer_corpus_is_taught_fixed_and_matches_closed_forms() {
    let corpus = fixtures("test_data/newcomer");
    assert_eq!(corpus.len(), 10, "ten newcomer models");
    let dir = tempfile::tempdir().expect("temp dir");
    let cache = shared_cache();
    let mut compliant = Vec::new();
    for fixture in &corpus {
        let lib = load_library(files(fixture));
        let diags = check_library(&lib);
        let first = diags.first().expect("plain Modelica is refused");
        let human = first.render_human(&lib.sources, false);
        expect_file(&with_extension(fixture, "expected"), &human);
        // The first diagnostic names the compliant form: a suggestion, or
        // for what cannot be fixed, a help line that says what to write.
        assert!(
            !first.suggestions.is_empty() || first.help.contains("offers today"),
            "{fixture}: {human}"
        );
        let fixed = fix(files(fixture), true);
        let (_, before, after) = &fixed.files[1];
        expect_file(
            &with_extension(fixture, "fix.diff"),
            &unified_diff(fixture, before, after),
        );
        if !fixed.remaining.is_empty() {
            assert!(
                closed_form(&model_name(fixture)).is_empty(),
                "{fixture} stays refused after --fix: {:?}",
                fixed.remaining
            );
            continue;
        }
        compliant.push(fixture.clone());
        let model = model_name(fixture);
        let out = export_model(&fixed.library, &model, &[], None)
            .unwrap_or_else(|e| panic!("{fixture} fixed but not exportable: {e:?}"));
        let fmu = dir.path().join(format!("{}.fmu", out.model_identifier));
        package(&out, &fmu, &cache);
        let expected = closed_form(&model);
        assert!(!expected.is_empty(), "{fixture}: a closed form is needed");
        let names: Vec<String> = expected.iter().rev().map(|(n, _)| n.to_string()).collect();
        let options = SimOptions {
            relative_tolerance: Some(1e-10),
            output: names.clone(),
            ..SimOptions::default()
        };
        let result = simulate(&fmu, &options).expect("simulate the fixed model");
        // The columns come in the order asked (`--variables` keeps it).
        assert_eq!(&result.names[1..], &names[..], "{fixture}: column order");
        for (k, (name, f)) in expected.iter().rev().enumerate() {
            let scale = result
                .rows
                .iter()
                .map(|r| f(r[0]).abs())
                .fold(0.0, f64::max);
            for row in &result.rows {
                let (t, got) = (row[0], row[k + 1]);
                let want = f(t);
                assert!(
                    (got - want).abs() <= 1e-6 * scale,
                    "{fixture}: {name}({t}) = {got}, closed form {want}"
                );
            }
        }
    }
    assert!(
        compliant.len() >= 8,
        "check --fix makes at least eight of ten compliant: {compliant:?}"
    );
}

fn mofmu(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_mofmu"))
        .args(args)
        .current_dir(repo())
        .env("COLUMNS", "100")
        .output()
        .expect("the mofmu binary runs")
}

/// The binary run in `dir`, a directory outside the repository.
fn mofmu_in(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_mofmu"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the mofmu binary runs")
}

#[test]
fn every_help_is_snapshot_and_every_option_has_text() {
    let commands: [&[&str]; 8] = [
        &["--help"],
        &["check", "--help"],
        &["export", "--help"],
        &["units", "--help"],
        &["simulate", "--help"],
        &["compare", "--help"],
        &["cosim", "--help"],
        &["sweep", "--help"],
    ];
    for args in commands {
        let out = mofmu(args);
        assert!(out.status.success(), "{args:?}");
        let help = String::from_utf8_lossy(&out.stdout).into_owned();
        let name = if args.len() == 1 { "mofmu" } else { args[0] };
        expect_file(&repo().join(format!("test_data/cli/{name}.help")), &help);
        let lines: Vec<&str> = help.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let trimmed = line.trim_start();
            let is_item = trimmed.starts_with('-') || trimmed.starts_with('<');
            if !is_item || line.len() == trimmed.len() {
                continue;
            }
            // A possible value: `- name: text`.
            if let Some(value) = trimmed.strip_prefix("- ") {
                let text = value.split_once(':').map_or("", |(_, t)| t.trim());
                assert!(
                    !text.is_empty(),
                    "{args:?}: value `{value}` has no help text"
                );
                continue;
            }
            // Text on the same line after the option, or on the next line
            // (clap's long help puts it there).
            let same_line = trimmed.split("  ").skip(1).any(|s| !s.trim().is_empty());
            let next = lines.get(i + 1).map_or("", |l| l.trim());
            assert!(
                same_line || (!next.is_empty() && !next.starts_with('-')),
                "{args:?}: `{trimmed}` has no help text"
            );
        }
    }
}

#[test]
fn check_fix_writes_whole_files_and_then_checks_clean() {
    let dir = tempfile::tempdir().expect("temp dir");
    let model = dir.path().join("RC.mo");
    std::fs::copy(repo().join("test_data/newcomer/RCCircuit.mo"), &model).expect("copy");
    let base = repo().join("examples/Base.mo");
    let (base, model_arg) = (base.to_str().unwrap(), model.to_str().unwrap());
    // Dry run: a diff, the file untouched.
    let before = std::fs::read_to_string(&model).unwrap();
    let dry = mofmu(&["check", "--fix", base, model_arg]);
    assert!(String::from_utf8_lossy(&dry.stdout).contains("+  Base.ContinuousState v"));
    assert_eq!(std::fs::read_to_string(&model).unwrap(), before);
    // --write applies; the file then checks clean.
    let wrote = mofmu(&["check", "--fix", "--write", base, model_arg]);
    assert!(
        wrote.status.success(),
        "{}",
        String::from_utf8_lossy(&wrote.stderr)
    );
    let check = mofmu(&["check", base, model_arg]);
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );
    // JSON messages for editors, one object per line.
    let json = mofmu(&[
        "check",
        "--message-format",
        "json",
        base,
        "test_data/teach/state_real.mo",
    ]);
    let line = String::from_utf8_lossy(&json.stdout)
        .lines()
        .next()
        .unwrap_or("")
        .to_string();
    let value: serde_json::Value = serde_json::from_str(&line).expect("JSON");
    assert_eq!(
        value["suggestions"][0]["replacement"],
        "Base.ContinuousState"
    );
    assert_eq!(
        value["suggestions"][0]["applicability"],
        "machine-applicable"
    );
}

/// A state of a unit type (`SI.Temperature T`) is fixed to
/// `Base.ContinuousState` with the type's unit, and then checks clean and
/// keeps its unit in the FMU's units.
#[test]
fn state_fix_keeps_the_unit_of_a_unit_type() {
    let dir = tempfile::tempdir().expect("temp dir");
    let model = dir.path().join("Warm.mo");
    std::fs::copy(repo().join("test_data/teach/state_unit_type.mo"), &model).expect("copy");
    let base = repo().join("examples/Base.mo");
    let (base, model_arg) = (base.to_str().unwrap(), model.to_str().unwrap());
    let wrote = mofmu(&["check", "--fix", "--write", base, model_arg]);
    assert!(
        wrote.status.success(),
        "{}",
        String::from_utf8_lossy(&wrote.stderr)
    );
    let fixed = std::fs::read_to_string(&model).unwrap();
    assert!(
        fixed.contains("Base.ContinuousState T(unit = \"K\", start = 300);")
            && fixed.contains("Base.ContinuousState U(unit = \"K\");"),
        "{fixed}"
    );
    let units = mofmu(&["units", base, model_arg]);
    let report = String::from_utf8_lossy(&units.stdout);
    assert!(
        units.status.success() && report.contains("consistent and complete"),
        "{report}{}",
        String::from_utf8_lossy(&units.stderr)
    );
}

#[test]
fn a_wrong_model_name_gets_a_did_you_mean() {
    let lib_out = mofmu(&[
        "export",
        "examples/Base.mo",
        "examples/Thermal",
        "--model",
        "Thermal.Examples.RodHeatin",
        "-o",
        "/dev/null",
    ]);
    assert!(!lib_out.status.success());
    let stderr = String::from_utf8_lossy(&lib_out.stderr);
    assert!(
        stderr.contains("did you mean `Thermal.Examples.RodHeating`?"),
        "{stderr}"
    );
}

/// The fenced blocks of a Markdown text whose info string is `lang`.
fn code_blocks<'a>(markdown: &'a str, lang: &str) -> Vec<(usize, &'a str)> {
    let mut blocks = Vec::new();
    let fence = format!("```{lang}\n");
    let mut rest = markdown;
    let mut offset = 0;
    while let Some(start) = rest.find(&fence) {
        let body = &rest[start + fence.len()..];
        let end = body.find("```").expect("a closed fence");
        blocks.push((offset + start, &body[..end]));
        offset += start + fence.len() + end + 3;
        rest = &body[end + 3..];
    }
    blocks
}

#[test]
fn porting_guide_examples_hold() {
    let guide = std::fs::read_to_string(repo().join("docs/from-modelica.md")).expect("guide");
    let mut sections = 0;
    for section in guide.split("\n## ").skip(1) {
        let title = section.lines().next().unwrap_or("");
        let blocks = code_blocks(section, "modelica");
        assert_eq!(blocks.len(), 2, "`{title}`: one before and one after");
        let code = section
            .split("Before (")
            .nth(1)
            .and_then(|s| s.split([',', ')']).next())
            .unwrap_or_else(|| panic!("`{title}`: `Before (CODE):`"));
        let check = |text: &str| {
            let lib = load_library(vec![base(), ("guide.mo".to_string(), text.to_string())]);
            check_library(&lib)
        };
        let before = check(blocks[0].1);
        assert!(
            before.iter().any(|d| d.code == code),
            "`{title}`: before is refused with {code}: {before:?}"
        );
        let after = check(blocks[1].1);
        assert!(after.is_empty(), "`{title}`: after is accepted: {after:?}");
        sections += 1;
    }
    assert!(sections >= 9, "{sections} sections");
}

#[test]
fn first_model_in_the_readme() {
    let readme = std::fs::read_to_string(repo().join("README.md")).expect("README");
    let section = readme
        .split("## Your first model")
        .nth(1)
        .expect("README has `Your first model`");
    let model = code_blocks(section, "modelica")[0].1;
    // The README's model is the corpus file without its leading comments.
    let corpus = std::fs::read_to_string(repo().join("test_data/newcomer/RCCircuit.mo")).unwrap();
    let corpus: String = corpus
        .lines()
        .skip_while(|l| l.starts_with("//"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(
        model, corpus,
        "README's first model is test_data/newcomer/RCCircuit.mo"
    );
    // The README's commands, in a scratch directory.
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("RCCircuit.mo");
    std::fs::write(&file, model).unwrap();
    // Base is built in: the commands name only the model's file.
    let file = file.to_str().unwrap();
    let fmu = dir.path().join("RC.fmu");
    let csv = dir.path().join("RC.csv");
    let svg = dir.path().join("RC.svg");
    let commands = section
        .split("```sh\n")
        .nth(1)
        .and_then(|s| s.split("```").next())
        .expect("the commands");
    // The README runs them on a copy in `scratch/`, never on the fixture.
    assert!(commands.contains("cp test_data/newcomer/RCCircuit.mo scratch/"));
    assert!(commands.contains("mofmu check --fix --write scratch/RCCircuit.mo"));
    assert!(!mofmu(&["check", file]).status.success());
    assert!(mofmu(&["check", "--fix", "--write", file]).status.success());
    assert!(mofmu(&["check", file]).status.success());
    let export = mofmu(&[
        "export",
        file,
        "--model",
        "RCCircuit",
        "-o",
        fmu.to_str().unwrap(),
    ]);
    assert!(
        export.status.success(),
        "{}",
        String::from_utf8_lossy(&export.stderr)
    );
    let sim = mofmu(&[
        "simulate",
        fmu.to_str().unwrap(),
        "--variables",
        "v",
        "--tolerance",
        "1e-10",
        "-o",
        csv.to_str().unwrap(),
        "--plot",
        svg.to_str().unwrap(),
    ]);
    assert!(
        sim.status.success(),
        "{}",
        String::from_utf8_lossy(&sim.stderr)
    );
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("\"time\",\"v\""));
    let mut rows = 0;
    for line in lines {
        let (t, v) = line.split_once(',').expect("two columns");
        let (t, v): (f64, f64) = (t.parse().unwrap(), v.parse().unwrap());
        // v(t) = V (1 - e^(-t/(R C))), R C = 1 s.
        assert!((v - (1.0 - (-t).exp())).abs() <= 1e-6, "v({t}) = {v}");
        rows += 1;
    }
    assert_eq!(rows, 501);
    assert!(svg.exists());
}

#[test]
fn variables_keep_the_order_asked() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("Msd.mo");
    std::fs::copy(repo().join("test_data/newcomer/MassSpringDamper.mo"), &file).unwrap();
    let base = repo().join("examples/Base.mo");
    let (base, file) = (base.to_str().unwrap(), file.to_str().unwrap());
    assert!(mofmu(&["check", "--fix", "--write", base, file])
        .status
        .success());
    let fmu = dir.path().join("Msd.fmu");
    let csv = dir.path().join("Msd.csv");
    let export = mofmu(&[
        "export",
        base,
        file,
        "--model",
        "MassSpringDamper",
        "-o",
        fmu.to_str().unwrap(),
    ]);
    assert!(
        export.status.success(),
        "{}",
        String::from_utf8_lossy(&export.stderr)
    );
    for (asked, header) in [
        ("v,x", "\"time\",\"v\",\"x\""),
        ("x,v", "\"time\",\"x\",\"v\""),
    ] {
        let sim = mofmu(&[
            "simulate",
            fmu.to_str().unwrap(),
            "--variables",
            asked,
            "-o",
            csv.to_str().unwrap(),
        ]);
        assert!(sim.status.success());
        let text = std::fs::read_to_string(&csv).unwrap();
        assert_eq!(text.lines().next(), Some(header));
    }
}

/// The Pendulum of the corpus, fixed by `check --fix --write` in `dir`:
/// the path of Base and of the fixed file.
fn fixed_pendulum(dir: &Path) -> (String, String) {
    let file = dir.join("Pendulum.mo");
    std::fs::copy(repo().join("test_data/newcomer/Pendulum.mo"), &file).unwrap();
    let base = repo()
        .join("examples/Base.mo")
        .to_str()
        .unwrap()
        .to_string();
    let file = file.to_str().unwrap().to_string();
    let fixed = mofmu(&["check", "--fix", "--write", &base, &file]);
    assert!(fixed.status.success(), "{}", stderr(&fixed));
    (base, file)
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Every name typed on the command line that names nothing is refused
/// with its close names, or, with none close, with the command that lists
/// them all; the listing commands list them.
#[test]
fn every_typed_name_gets_close_names_or_how_to_list_them() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (base, file) = fixed_pendulum(dir.path());
    // export --list-parameters: parameters and states, nothing written.
    let fmu = dir.path().join("P.fmu");
    let fmu_arg = fmu.to_str().unwrap();
    let list = mofmu(&[
        "export",
        &base,
        &file,
        "--model",
        "Pendulum",
        "--list-parameters",
    ]);
    assert!(list.status.success(), "{}", stderr(&list));
    let listed: Vec<String> = stdout(&list)
        .lines()
        .map(|l| l.split_whitespace().next().unwrap_or("").to_string())
        .collect();
    assert_eq!(listed, ["g", "L", "phi", "w"]);
    assert!(stdout(&list).contains("state (sets its start value)"));
    assert!(!fmu.exists());
    // --model: a slip gets the model.
    let wrong_model = mofmu(&["export", &base, &file, "--model", "pendulum", "-o", fmu_arg]);
    assert!(stderr(&wrong_model).contains("did you mean `Pendulum`?"));
    // --set: a slip gets the parameter, a name far from all the listing.
    let export = |set: &str| {
        mofmu(&[
            "export", &base, &file, "--model", "Pendulum", "-o", fmu_arg, "--set", set,
        ])
    };
    let slip = export("l=3");
    assert!(!slip.status.success());
    assert!(
        stderr(&slip).contains("did you mean `L`?"),
        "{}",
        stderr(&slip)
    );
    let far = export("Length=3");
    assert!(
        stderr(&far)
            .contains("list them with `mofmu export FILES... --model Pendulum --list-parameters`"),
        "{}",
        stderr(&far)
    );
    // --set on a state sets its start value, and the summary says so.
    let state = export("phi=0.2");
    assert!(state.status.success(), "{}", stderr(&state));
    assert!(
        stdout(&state).contains("note: --set phi: `phi` is a state; the value is its start value"),
        "{}",
        stdout(&state)
    );
    let csv = dir.path().join("P.csv");
    let csv_arg = csv.to_str().unwrap();
    let sim = mofmu(&[
        "simulate",
        fmu_arg,
        "--variables",
        "phi",
        "--stop-time",
        "0.1",
        "-o",
        csv_arg,
    ]);
    assert!(sim.status.success(), "{}", stderr(&sim));
    let first_row = std::fs::read_to_string(&csv).unwrap();
    let phi0: f64 = first_row
        .lines()
        .nth(1)
        .unwrap()
        .split(',')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(phi0, 0.2, "the state starts from the value set");
    // simulate --list-variables, --variables, --output-variable, --start-value.
    let vars = mofmu(&["simulate", fmu_arg, "--list-variables"]);
    assert!(vars.status.success(), "{}", stderr(&vars));
    assert!(stdout(&vars).contains("phi") && stdout(&vars).contains(", state"));
    let how = format!("list them with `mofmu simulate {fmu_arg} --list-variables`");
    for args in [
        &["--variables", "omega"][..],
        &["--output-variable", "omega"],
        &["--start-value", "omega", "1"],
    ] {
        let mut all = vec!["simulate", fmu_arg, "-o", csv_arg];
        all.extend_from_slice(args);
        let out = mofmu(&all);
        assert!(!out.status.success(), "{args:?}");
        assert!(
            stderr(&out).contains("the FMU has no variable `omega`"),
            "{}",
            stderr(&out)
        );
        assert!(stderr(&out).contains(&how), "{args:?}: {}", stderr(&out));
    }
    let slip = mofmu(&["simulate", fmu_arg, "-o", csv_arg, "--variables", "Phi"]);
    assert!(
        stderr(&slip).contains("close names: `phi`"),
        "{}",
        stderr(&slip)
    );
    let slip = mofmu(&[
        "simulate",
        fmu_arg,
        "-o",
        csv_arg,
        "--start-value",
        "ww",
        "1",
    ]);
    assert!(
        stderr(&slip).contains("close names: `w`"),
        "{}",
        stderr(&slip)
    );
}

/// A Modelica file (or any file that is not a zip archive) given to
/// `simulate` is refused with the export that makes an FMU of it.
#[test]
fn simulate_of_a_modelica_file_says_export_it_first() {
    let out = mofmu(&["simulate", "test_data/newcomer/Pendulum.mo"]);
    assert!(!out.status.success());
    let text = stderr(&out);
    assert!(
        text.contains("is a Modelica file, not an FMU; export it first: mofmu export examples/Base.mo test_data/newcomer/Pendulum.mo --model Pendulum -o Pendulum.fmu"),
        "{text}"
    );
    assert!(!text.contains("EOCD"), "{text}");
    let out = mofmu(&["simulate", "README.md"]);
    assert!(
        stderr(&out).contains("not a zip archive, not an FMU; export it first"),
        "{}",
        stderr(&out)
    );
}

/// A fixture of `test_data/newcomer/friction` without Base.
fn alone(relative: &str) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(repo().join(relative)).expect("fixture readable");
    vec![(relative.to_string(), text)]
}

/// `fixed` checks clean, exports, and its variable `name` follows `exact`
/// over the model's experiment (1e-6 of its largest value).
fn fixed_model_matches(fixed: &mofmu::fix::Fixed, model: &str, name: &str, exact: fn(f64) -> f64) {
    assert!(fixed.remaining.is_empty(), "{model}: {:?}", fixed.remaining);
    let dir = tempfile::tempdir().expect("temp dir");
    let out = export_model(&fixed.library, model, &[], None)
        .unwrap_or_else(|e| panic!("{model} fixed but not exportable: {e:?}"));
    let fmu = dir.path().join(format!("{model}.fmu"));
    package(&out, &fmu, &shared_cache());
    let options = SimOptions {
        relative_tolerance: Some(1e-10),
        output: vec![name.to_string()],
        ..SimOptions::default()
    };
    let result = simulate(&fmu, &options).expect("simulate the fixed model");
    let scale = result
        .rows
        .iter()
        .map(|r| exact(r[0]).abs())
        .fold(0.0, f64::max);
    for row in &result.rows {
        let want = exact(row[0]);
        assert!(
            (row[1] - want).abs() <= 1e-6 * scale,
            "{model}: {name}({}) = {}, closed form {want}",
            row[0],
            row[1]
        );
    }
}

/// Files given without `Base` to the library itself (not through the
/// loader): `Base.X` is not a misspelling, the help says the commands load
/// the built-in Base and names `with_base`; through it the file checks
/// clean. `fix` loads the built-in Base as the commands do, so the fix
/// that writes `Base.ContinuousState` is applied and the model runs.
#[test]
fn a_missing_base_is_explained_and_fix_loads_the_built_in_one() {
    let lib = load_library(alone("test_data/newcomer/friction/MissingBase.mo"));
    let diags = check_library(&lib);
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0].code, "MC005");
    assert!(
        diags[0].help.contains("load their built-in copy")
            && diags[0].help.contains("mofmu::library::with_base"),
        "{}",
        diags[0].help
    );
    assert!(diags[0].suggestions.is_empty());
    let lib = load_library(mofmu::library::with_base(alone(
        "test_data/newcomer/friction/MissingBase.mo",
    )));
    assert!(check_library(&lib).is_empty());
    let fixture = "test_data/newcomer/friction/MissingBaseFix.mo";
    let fixed = fix(alone(fixture), true);
    assert_eq!(fixed.edits, 1, "{:?}", fixed.remaining);
    assert_eq!(
        fixed.files.len(),
        1,
        "the built-in Base is not a file of the user's"
    );
    assert!(fixed.files[0]
        .2
        .contains("Base.ContinuousState x(start = 1);"));
    fixed_model_matches(&fixed, "MissingBaseFix", "x", |t| (-t).exp());
}

/// An output that is a state gets its type, `output Base.ContinuousState`,
/// as a fix `check --fix` applies.
#[test]
fn an_output_state_gets_its_type() {
    let fixture = "test_data/newcomer/friction/OutputState.mo";
    let lib = load_library(files(fixture));
    let diags = check_library(&lib);
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0].code, "MC038");
    let s = &diags[0].suggestions[0];
    assert!(s.machine_applicable);
    assert_eq!(s.replacement, "Base.ContinuousState");
    let fixed = fix(files(fixture), true);
    assert!(fixed.files[1]
        .2
        .contains("output Base.ContinuousState y(start = 1);"));
    // T = 2: y = e^(-t/2).
    fixed_model_matches(&fixed, "OutputState", "y", |t| (-t / 2.0).exp());
}

/// A valve coefficient with a fractional exponent (m^(5/2)/s): UC001 says
/// the way out and its fix drops the declared unit; it is reported in the
/// same run as the class's structural error (the output state), not after
/// that is fixed. The fixed valve drains as the closed form says.
#[test]
fn a_fractional_unit_is_dropped_and_reported_with_the_other_errors() {
    let fixture = "test_data/newcomer/friction/Valve.mo";
    let lib = load_library(files(fixture));
    let diags = check_library(&lib);
    let codes: Vec<&str> = diags.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["UC001", "MC038"], "{diags:?}");
    let unit = &diags[0];
    assert!(
        unit.help.contains("drop the declared unit")
            && unit.help.contains("inference")
            && unit.help.contains("m^(5/2)/s"),
        "{}",
        unit.help
    );
    let s = &unit.suggestions[0];
    assert!(s.machine_applicable && s.replacement.is_empty(), "{s:?}");
    let fixed = fix(files(fixture), true);
    let text = &fixed.files[1].2;
    assert!(text.contains("  parameter Real k = 0.5;\n"), "{text}");
    assert!(
        text.contains("output Base.ContinuousState h(unit = \"m\", start = 1);"),
        "{text}"
    );
    // A dh/dt = -k sqrt(h): sqrt(h) = sqrt(h0) - k t / (2 A), A = 2,
    // k = 0.5, h0 = 1 (empty at t = 8, after the stop time 5).
    fixed_model_matches(&fixed, "Valve", "h", |t| (1.0 - t / 8.0).powi(2));
}

/// `check --fix` prints each changed line's removal before its addition.
#[test]
fn the_fix_diff_removes_before_it_adds() {
    let fixed = fix(files("test_data/newcomer/RCCircuit.mo"), true);
    let (name, before, after) = &fixed.files[1];
    let diff = unified_diff(name, before, after);
    let changed: Vec<char> = diff
        .lines()
        .skip(2)
        .filter_map(|l| l.chars().next())
        .filter(|c| matches!(c, '-' | '+'))
        .collect();
    let first_add = changed.iter().position(|c| *c == '+').expect("an addition");
    assert!(
        first_add > 0 && changed[..first_add].iter().all(|c| *c == '-'),
        "{diff}"
    );
}

/// `mofmu units` writes a derivative in the unit of the variable that an
/// equation equates with it (`der(phi) = w`, `w` in rad/s), not in another
/// spelling of its dimension that some other variable declares (`d` in 1/s).
#[test]
fn units_spell_a_derivative_as_the_variable_equated_with_it() {
    let base = repo().join("examples/Base.mo");
    let model = repo().join("test_data/newcomer/friction/DerSpelling.mo");
    let out = mofmu(&[
        "units",
        base.to_str().unwrap(),
        model.to_str().unwrap(),
        "--model",
        "DerSpelling",
    ]);
    let report = stdout(&out);
    assert!(out.status.success(), "{report}{}", stderr(&out));
    let line = |name: &str| {
        report
            .lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("no line for {name} in\n{report}"))
            .split_whitespace()
            .nth(1)
            .map(str::to_string)
    };
    assert_eq!(line("der(phi)").as_deref(), Some("rad/s"), "{report}");
    assert_eq!(line("d").as_deref(), Some("1/s"), "{report}");
    assert_eq!(line("der(w)").as_deref(), Some("1/s2"), "{report}");
}

/// Issue 58: `mofmu simulate` stopped a two-state LC oscillator at 1e7
/// rad/s at its first steps ("Step size is too small") while FMPy's CVode
/// ran it: the solver's smallest step was an absolute 1e-13 s. The step
/// bounds are relative to the problem now: the same oscillator runs at
/// 1e7 and at 1e11 rad/s with the same number of steps and the same
/// accuracy, through Model Exchange.
#[test]
fn a_fast_circuit_runs_at_any_time_scale() {
    let lc = "model LC\n  parameter Real w = 1e7;\n  Base.ContinuousState x(start = 1);\n  \
              Base.ContinuousState v(start = 0);\nequation\n  der(x) = w*v;\n  der(v) = -w*x;\n\
              end LC;\n";
    let lib = load_library(vec![base(), ("LC.mo".to_string(), lc.to_string())]);
    let dir = tempfile::tempdir().expect("temp dir");
    let fmu = dir.path().join("LC.fmu");
    let out = export_model(&lib, "LC", &[], None).expect("LC exports");
    package(&out, &fmu, &shared_cache());
    let mut steps = Vec::new();
    for w in [1e7f64, 1e11] {
        let options = SimOptions {
            stop_time: Some(20.0 / w),
            output_interval: Some(0.01 / w),
            relative_tolerance: Some(1e-8),
            start_values: vec![("w".to_string(), w)],
            output: vec!["x".to_string()],
            ..SimOptions::default()
        };
        let result = simulate(&fmu, &options).unwrap_or_else(|e| panic!("w = {w}: {e}"));
        for row in &result.rows {
            let want = (w * row[0]).cos();
            assert!(
                (row[1] - want).abs() < 1e-5,
                "w = {w}: x({}) = {}, cos gives {want}",
                row[0],
                row[1]
            );
        }
        steps.push(result.stats.integrator.accepted_steps);
    }
    assert_eq!(
        steps[0], steps[1],
        "the time scale changes nothing but the time"
    );
}

/// Writes `files` (name, text) into `dir` and returns their paths, Base
/// first, for the command line.
fn scratch_library(dir: &Path, files: &[(&str, &str)]) -> Vec<String> {
    let mut paths = vec![repo()
        .join("examples/Base.mo")
        .to_str()
        .unwrap()
        .to_string()];
    for (name, text) in files {
        let path = dir.join(name);
        std::fs::write(&path, text).expect("writing a scratch file");
        paths.push(path.to_str().unwrap().to_string());
    }
    paths
}

const TANKS: &str = "package Tanks\n  model Tank\n    parameter Real A = 2 \"Cross-section\";\n    \
                     parameter Real qIn = 1;\n    Base.ContinuousState h(start = 1);\n    Real q;\n\
                     equation\n    q = sqrt(h);\n    A*der(h) = qIn - q;\n  end Tank;\n  model Two\n    \
                     Tank tank1;\n    Tank tank2(A = 3);\n  end Two;\nend Tanks;\n";

/// Issue 58: a value that is not finite at run time named only the
/// derivative it reached ("derivative der(h1) is not finite (-inf) at time
/// 0"). The FMU now names where it starts: the variable, the instance, the
/// class and the equation's file and line, in its log and so in `mofmu
/// simulate`'s error; through Model Exchange's initialisation, its
/// continuous time (a Discard, which the harness asks again with logging on)
/// and Co-Simulation.
#[test]
fn a_value_that_is_not_finite_names_its_equation() {
    let dir = tempfile::tempdir().expect("temp dir");
    let drain = "model Drain\n  Base.ContinuousState h(start = 1);\n  Real q;\nequation\n  \
                 q = sqrt(h);\n  der(h) = -q - 0.1;\nend Drain;\n";
    let paths = scratch_library(dir.path(), &[("Tanks.mo", TANKS), ("Drain.mo", drain)]);
    let fmu = |model: &str| {
        let out = dir.path().join(format!("{model}.fmu"));
        let mut args = vec!["export"];
        args.extend(paths.iter().map(String::as_str));
        args.extend(["--model", model, "-o", out.to_str().unwrap()]);
        let exported = mofmu(&args);
        assert!(exported.status.success(), "{}", stderr(&exported));
        out.to_str().unwrap().to_string()
    };
    let two = fmu("Tanks.Two");
    // A zero cross-section: 0*der(h) = 0 at the start, der(h) = 0/0.
    let run = mofmu(&["simulate", &two, "--start-value", "tank2.A", "0"]);
    assert!(!run.status.success());
    assert!(
        stderr(&run).contains(
            "fmi2ExitInitializationMode: derivative der(tank2.h) is not finite (-nan) at time 0; \
             it starts at der(h) = -nan in tank2 (class Tanks.Tank), the equation at Tanks.mo:9"
        ),
        "{}",
        stderr(&run)
    );
    // A negative level: sqrt(h) is where it starts, through both interfaces.
    for interface in ["me", "cs"] {
        let run = mofmu(&[
            "simulate",
            &two,
            "--start-value",
            "tank1.h=-1",
            "--interface",
            interface,
        ]);
        assert!(
            stderr(&run).contains(
                "it starts at q = -nan in tank1 (class Tanks.Tank), the equation at Tanks.mo:8"
            ),
            "{interface}: {}",
            stderr(&run)
        );
    }
    // An FMI 3.0 export carries the same table and says the same.
    let two3 = dir.path().join("Two3.fmu");
    let mut args = vec!["export"];
    args.extend(paths.iter().map(String::as_str));
    args.extend([
        "--model",
        "Tanks.Two",
        "--fmi-version",
        "3",
        "-o",
        two3.to_str().unwrap(),
    ]);
    let exported = mofmu(&args);
    assert!(exported.status.success(), "{}", stderr(&exported));
    let run = mofmu(&[
        "simulate",
        two3.to_str().unwrap(),
        "--start-value",
        "tank2.A",
        "0",
    ]);
    assert!(
        stderr(&run).contains(
            "fmi3ExitInitializationMode: derivative der(tank2.h) is not finite (-nan) at time 0; \
             it starts at der(h) = -nan in tank2 (class Tanks.Tank), the equation at Tanks.mo:9"
        ),
        "{}",
        stderr(&run)
    );
    // In continuous time: the level reaches zero and the trial points
    // below it are refused (fmi2Discard), with the reason.
    let drain = fmu("Drain");
    for interface in ["me", "cs"] {
        let run = mofmu(&[
            "simulate",
            &drain,
            "--stop-time",
            "5",
            "--interface",
            interface,
        ]);
        assert!(!run.status.success());
        assert!(
            stderr(&run).contains("is not finite (-nan) at time 1.52")
                && stderr(&run).contains(
                    "it starts at q = -nan in Drain (class Drain), the equation at Drain.mo:5"
                ),
            "{interface}: {}",
            stderr(&run)
        );
    }
}

/// What the check can prove singular is refused at its line: a coefficient
/// that is a difference of equal terms (`(A1 - A1)*der(h1)`) passed the
/// check and failed at run time. And one unsolvable equation is one error,
/// not followed by the MC020s of the equations that use its unknown.
#[test]
fn a_singular_equation_is_refused_at_its_line_and_alone() {
    let tanks = "model TwoTanks\n  parameter Real A1 = 2;\n  parameter Real qIn = 1;\n  \
                 Base.ContinuousState h1(start = 1);\nequation\n  (A1 - A1)*der(h1) = qIn - h1;\n\
                 end TwoTanks;\n";
    let lib = load_library(vec![base(), ("TwoTanks.mo".to_string(), tanks.to_string())]);
    let diags = check_library(&lib);
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0].code, "MC024");
    assert_eq!(
        diags[0].message,
        "cannot solve this equation for `der(h1)`: its coefficient is zero whatever the values \
         (a difference of equal terms)"
    );
    assert!(diags[0]
        .render_short(&lib.sources)
        .starts_with("TwoTanks.mo:6:3:"));
    let unsolvable =
        "model Unsolvable\n  Base.ContinuousState x(start = 1);\n  Real y;\n  Real z;\n  \
                      Real w;\nequation\n  y*y = x;\n  z = 2*y;\n  w = z + y;\n  der(x) = -w;\n\
                      end Unsolvable;\n";
    let lib = load_library(vec![
        base(),
        ("Unsolvable.mo".to_string(), unsolvable.to_string()),
    ]);
    let codes: Vec<&str> = check_library(&lib).iter().map(|d| d.code).collect();
    assert_eq!(codes, ["MC024"]);
}

/// `--start-value` takes negative values, as `NAME VALUE` and `NAME=VALUE`
/// (clap read `-5` as an option, and its tip `-- -5` did not help).
#[test]
fn start_values_may_be_negative_in_both_forms() {
    let dir = tempfile::tempdir().expect("temp dir");
    let paths = scratch_library(dir.path(), &[("Tanks.mo", TANKS)]);
    let out = dir.path().join("Two.fmu");
    let mut args = vec!["export"];
    args.extend(paths.iter().map(String::as_str));
    args.extend(["--model", "Tanks.Two", "-o", out.to_str().unwrap()]);
    assert!(mofmu(&args).status.success());
    let fmu = out.to_str().unwrap();
    let csv = dir.path().join("two.csv");
    for form in [&["tank1.qIn", "-0.5"][..], &["tank1.qIn=-0.5"][..]] {
        let mut args = vec![
            "simulate",
            fmu,
            "--stop-time",
            "0.5",
            "-o",
            csv.to_str().unwrap(),
        ];
        args.push("--start-value");
        args.extend(form.iter().copied());
        let run = mofmu(&args);
        assert!(run.status.success(), "{form:?}: {}", stderr(&run));
        // 2 h' = -0.5 - sqrt(h): the level falls faster than with qIn = 1.
        let text = std::fs::read_to_string(&csv).expect("the CSV");
        let last: Vec<f64> = text
            .lines()
            .last()
            .unwrap()
            .split(',')
            .map(|v| v.parse().unwrap())
            .collect();
        assert!(last[1] < 0.7, "{form:?}: tank1.h = {}", last[1]);
    }
    let run = mofmu(&["simulate", fmu, "--start-value", "tank1.qIn"]);
    assert!(!run.status.success());
    assert!(
        stderr(&run).contains(
            "--start-value tank1.qIn: give it a value, `--start-value tank1.qIn VALUE` or \
             `--start-value tank1.qIn=VALUE`"
        ),
        "{}",
        stderr(&run)
    );
}

/// Issue 58: MC014's suggestion (`output` on the one connector class)
/// turned one error into eleven, several pointing away from the cause. The
/// fix now writes the two-connector form in one step, a class for the side
/// that determines the potential and one for the sides that receive it; each
/// use of the old name is then an MC005 whose help says which to choose,
/// and choosing checks clean.
#[test]
fn an_acausal_connector_becomes_two_connector_classes() {
    let circuit = "package Circuit\n  connector Pin\n    Real v;\n    flow Real i;\n  end Pin;\n  \
                   model Resistor\n    parameter Real R = 1;\n    Pin p;\n    Pin n;\n  equation\n    \
                   p.i = (p.v - n.v)/R;\n    n.i = -p.i;\n  end Resistor;\nend Circuit;\n";
    let lib = load_library(vec![
        base(),
        ("Circuit.mo".to_string(), circuit.to_string()),
    ]);
    let diags = check_library(&lib);
    let codes: Vec<&str> = diags.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["MC014"]);
    assert!(
        diags[0].help.contains("`PinOut` with `output` potentials")
            && diags[0].help.contains("`PinIn` with `input` potentials")
            && diags[0].help.contains("docs/electrical.md"),
        "{}",
        diags[0].help
    );
    let fixed = fix(
        vec![base(), ("Circuit.mo".to_string(), circuit.to_string())],
        true,
    );
    let text = &fixed.files[1].2;
    assert!(
        text.contains(
            "  connector PinOut\n    output Real v;\n    flow Real i;\n  end PinOut;\n\n  \
             connector PinIn\n    input Real v;\n    flow Real i;\n  end PinIn;\n"
        ),
        "{text}"
    );
    assert_eq!(fixed.remaining.len(), 2, "{:?}", fixed.remaining);
    for d in &fixed.remaining {
        assert_eq!(d.code, "MC005");
        assert!(
            d.help.starts_with(
                "`Pin` was split into `PinOut` and `PinIn`: write `PinOut` where this component \
                 determines the potential"
            ),
            "{}",
            d.help
        );
    }
    // A resistor receives both potentials and determines its currents.
    let chosen = text
        .replace("Pin p;", "PinIn p;")
        .replace("Pin n;", "PinIn n;");
    let lib = load_library(vec![base(), ("Circuit.mo".to_string(), chosen)]);
    assert!(check_library(&lib).is_empty());
}

/// Issue 58: two resistances in series leave their common node without a
/// side that determines its potential (MC060, with no fix before); the
/// help names the connector class that would determine it and the node of
/// declared tearing, and the set's flow without a receiver (MC062) is not
/// reported as a second error of the same cause.
#[test]
fn an_undetermined_node_says_what_would_determine_it() {
    let series = "model Series\n  Electrical.Sources.ConstantVoltage source(V = 1);\n  \
                  Electrical.Basic.Resistor r1(R = 1);\n  Electrical.Basic.Resistor r2(R = 1);\n  \
                  Electrical.Basic.Ground ground;\nequation\n  connect(source.p, r1.p);\n  \
                  connect(r1.n, r2.p);\n  connect(r2.n, ground.p);\n  \
                  connect(source.n, ground.p);\nend Series;\n";
    let paths: Vec<PathBuf> = [
        "examples/Base.mo",
        "examples/Signals.mo",
        "examples/Planar",
        "examples/Electrical",
    ]
    .iter()
    .map(|p| repo().join(p))
    .collect();
    let mut files = mofmu::loader::load_paths(&paths).expect("the examples load");
    files.push(("Series.mo".to_string(), series.to_string()));
    let lib = load_library(files);
    let diags = check_library(&lib);
    let codes: Vec<&str> = diags.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["MC060"], "{diags:?}");
    assert_eq!(
        diags[0].message,
        "no side of this connection determines `v` (r1.n.v, r2.p.v)"
    );
    assert!(diags[0]
        .render_short(&lib.sources)
        .starts_with("Series.mo:8:3:"));
    assert!(
        diags[0].help.contains(
            "a component whose connector declares `v` an `output` \
             (`Electrical.Interfaces.PinOut`)"
        ) && diags[0].help.contains("as `Electrical.Basic.Node` does"),
        "{}",
        diags[0].help
    );
}

/// Issue 58: `import SI = Modelica.Units.SI;` got MC004 "import target is
/// not declared", never that there is no Standard Library here. The help
/// names `Base.Units` and the fix imports it; the fixed package checks
/// clean. Other Standard Library imports get a help without a fix.
#[test]
fn a_standard_library_import_is_pointed_at_base_units() {
    let units = "encapsulated package Units\n  import Base;\n  import SI = Modelica.Units.SI;\n  \
                 model Fall\n    parameter SI.Time tau = 1;\n    \
                 Base.ContinuousState h(start = 1);\n  equation\n    der(h) = -h/tau;\n  \
                 end Fall;\nend Units;\n";
    let lib = load_library(vec![base(), ("Units.mo".to_string(), units.to_string())]);
    let diags = check_library(&lib);
    assert_eq!(diags[0].code, "MC004", "{diags:?}");
    assert!(
        diags[0].help.starts_with(
            "there is no Modelica Standard Library here: the methodology's SI unit types"
        ) && diags[0].help.contains("`Base.Units`"),
        "{}",
        diags[0].help
    );
    let fixed = fix(
        vec![base(), ("Units.mo".to_string(), units.to_string())],
        true,
    );
    assert!(fixed.remaining.is_empty(), "{:?}", fixed.remaining);
    assert!(fixed.files[1].2.contains("  import SI = Base.Units;\n"));
    let math = units.replace("Modelica.Units.SI", "Modelica.Math");
    let lib = load_library(vec![base(), ("Units.mo".to_string(), math)]);
    let diags = check_library(&lib);
    let d = diags.iter().find(|d| d.code == "MC004").expect("MC004");
    assert!(
        d.help.contains("write them in full where they are used") && d.suggestions.is_empty(),
        "{d:?}"
    );
}

/// Issue 58: Base needed a path (`/path/to/mofmu/examples/Base.mo` first
/// in every command outside the clone). A file that names `Base` is
/// checked and exported from any directory with the built-in copy; a
/// library that declares its own `Base` keeps it (the built-in one is not
/// loaded beside it); a file that names no `Base` loads nothing more.
#[test]
fn base_is_built_in() {
    let dir = tempfile::tempdir().expect("temp dir");
    let fall = "model Fall\n  parameter Base.Units.Time tau = 2;\n  \
                Base.ContinuousState h(start = 1);\nequation\n  der(h) = -h/tau;\nend Fall;\n";
    std::fs::write(dir.path().join("Fall.mo"), fall).unwrap();
    let run = |args: &[&str]| mofmu_in(dir.path(), args);
    let check = run(&["check", "Fall.mo"]);
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );
    let export = run(&["export", "Fall.mo", "--model", "Fall", "-o", "Fall.fmu"]);
    assert!(
        export.status.success(),
        "{}",
        String::from_utf8_lossy(&export.stderr)
    );
    assert!(dir.path().join("Fall.fmu").is_file());
    // A fault in the user's file still names the user's file.
    std::fs::write(
        dir.path().join("Bad.mo"),
        fall.replace("Base.ContinuousState h", "Base.ContinuousStat h"),
    )
    .unwrap();
    let bad = run(&["check", "--message-format", "short", "Bad.mo"]);
    let text =
        String::from_utf8_lossy(&bad.stdout).to_string() + &String::from_utf8_lossy(&bad.stderr);
    assert!(!bad.status.success());
    assert!(text.starts_with("Bad.mo:3:"), "{text}");

    let files = |texts: &[(&str, &str)]| {
        mofmu::library::with_base(
            texts
                .iter()
                .map(|(n, t)| (n.to_string(), t.to_string()))
                .collect(),
        )
    };
    let loaded = files(&[("Fall.mo", fall)]);
    assert_eq!(loaded[0].0, mofmu::library::BUNDLED_BASE_NAME);
    assert_eq!(loaded.len(), 2);
    // The repository's Base given first: nothing added.
    let own = std::fs::read_to_string(repo().join("examples/Base.mo")).unwrap();
    assert_eq!(files(&[("Base.mo", &own), ("Fall.mo", fall)]).len(), 2);
    // A library's own Base (the paper's Mechanical.mo brings one).
    let mechanical = std::fs::read_to_string(repo().join("examples/Mechanical.mo")).unwrap();
    assert_eq!(files(&[("Mechanical.mo", &mechanical)]).len(), 1);
    // `Base` only in a comment, a string or as a member name: nothing added.
    let other = "model M // uses Base.Units\n  parameter Real a = 1 \"Base.x\";\n  \
                 Lib.Base.T b;\nend M;\n";
    assert_eq!(files(&[("M.mo", other)]).len(), 1);
}

/// Issue 58: a flat model (a DC motor in two plain `Real`s) got
/// `MC020 ... 2 undetermined unknowns (e, w)` first, the cause only in the
/// help. The first error now names every undeclared state, and
/// `check --fix --write` with no Base on the command line makes it
/// compliant.
#[test]
fn a_flat_model_names_its_undeclared_states() {
    let dir = tempfile::tempdir().expect("temp dir");
    let flat = "model Motor\n  parameter Real R = 1, L = 0.5, k = 0.1, J = 0.01;\n  \
                Real i, w;\nequation\n  L*der(i) = 12 - R*i - k*w;\n  J*der(w) = k*i;\nend Motor;\n";
    std::fs::write(dir.path().join("Motor.mo"), flat).unwrap();
    let run = |args: &[&str]| mofmu_in(dir.path(), args);
    let out = run(&["check", "--message-format", "short", "Motor.mo"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        text.lines().next(),
        Some(
            "Motor.mo:5:3: error[MC038]: `i`, `w` are differentiated but not declared as \
             states: a state's type is `Base.ContinuousState`"
        ),
        "{text}"
    );
    assert_eq!(text.lines().count(), 1, "one root cause, one error: {text}");
    assert!(run(&["check", "--fix", "--write", "Motor.mo"])
        .status
        .success());
    let fixed = std::fs::read_to_string(dir.path().join("Motor.mo")).unwrap();
    assert!(fixed.contains("  Base.ContinuousState i, w;\n"), "{fixed}");
    assert!(run(&["check", "Motor.mo"]).status.success());
}

/// Issue 58: `--list-parameters` showed names only. Each line gives the
/// value at export, the unit and the description; and `mofmu units` gave
/// the derivative a RealWithDerivative carries (`der(flange.w)`) no unit
/// (it is the flange's `rad/s` per second), so the DC motor was
/// "consistent but incomplete".
#[test]
fn parameters_are_listed_with_values_and_units() {
    let lib = [
        "examples/Signals.mo",
        "examples/Planar",
        "examples/Electrical",
    ];
    let mut args = vec!["export"];
    args.extend(lib);
    args.extend([
        "--model",
        "Electrical.Examples.DCMotor",
        "--list-parameters",
    ]);
    let out = mofmu(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let line = |name: &str| {
        text.lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("{name} listed: {text}"))
            .split_whitespace()
            .collect::<Vec<_>>()
    };
    let r = line("R");
    assert_eq!(&r[..4], ["R", "1", "Ohm", "parameter"], "{text}");
    assert!(text.contains("\"Armature resistance\""), "{text}");
    let k = line("k");
    assert_eq!(&k[..3], ["k", "0.1", "N.m/A"], "{text}");
    let i = line("inductor.i");
    assert_eq!(&i[..4], ["inductor.i", "0", "A", "state"], "{text}");

    let mut args = vec!["units"];
    args.extend(lib);
    args.extend(["--model", "Electrical.Examples.DCMotor"]);
    let out = mofmu(&args);
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(
        text.contains("Electrical.Examples.DCMotor: consistent and complete"),
        "{text}"
    );
    let der = text
        .lines()
        .find(|l| l.starts_with("emf.der(flange.w) "))
        .expect("der(flange.w) listed");
    assert_eq!(
        der.split_whitespace().collect::<Vec<_>>(),
        ["emf.der(flange.w)", "rad/s2", "inferred"]
    );
}
