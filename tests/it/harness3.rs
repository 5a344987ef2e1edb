//! The harness on FMI 3.0 FMUs that mofmu did not write: the hand-written C test
//! FMUs of `test_data/harness3/` (a bouncing ball with state events, a
//! Co-Simulation-only decay, arrays sized by a structural parameter), run by
//! the same loops as FMI 2.0 FMUs, against their closed forms.

use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use mofmu::harness::{simulate, Interface, SimOptions};
use zip::write::SimpleFileOptions;

fn test_data(file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("test_data/harness3")
        .join(file)
}

/// Compiles `test_data/harness3/<model>.c` and packs it with its description
/// as an FMI 3.0 FMU (`binaries/x86_64-linux/<model>.so`).
fn fmu3(dir: &Path, model: &str) -> PathBuf {
    let library = dir.join(format!("{model}.so"));
    let output = Command::new("cc")
        .args(["-O2", "-shared", "-fPIC", "-Wall", "-Werror", "-o"])
        .arg(&library)
        .arg(test_data(&format!("{model}.c")))
        .arg("-lm")
        .output()
        .expect("run the C compiler");
    assert!(
        output.status.success(),
        "compiling {model}.c failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let fmu = dir.join(format!("{model}.fmu"));
    let mut writer = zip::ZipWriter::new(fs::File::create(&fmu).expect("create zip"));
    for (name, data) in [
        (
            "modelDescription.xml".to_string(),
            fs::read(test_data(&format!("{model}.xml"))).expect("read the description"),
        ),
        (
            format!("binaries/x86_64-linux/{model}.so"),
            fs::read(&library).expect("read the library"),
        ),
    ] {
        writer
            .start_file(name, SimpleFileOptions::default())
            .expect("start zip entry");
        writer.write_all(&data).expect("write zip entry");
    }
    writer.finish().expect("finish zip");
    fmu
}

fn worst(result: &mofmu::harness::SimResult, name: &str, exact: impl Fn(f64) -> f64) -> f64 {
    let time = result.column("time").expect("time");
    let values = result
        .column(name)
        .unwrap_or_else(|| panic!("no column {name}"));
    time.iter()
        .zip(&values)
        .map(|(&t, &v)| (v - exact(t)).abs())
        .fold(0.0, f64::max)
}

#[test]
fn a_hand_written_fmi3_ball_bounces_at_the_closed_form_impacts() {
    let dir = tempfile::tempdir().unwrap();
    let fmu = fmu3(dir.path(), "ball");
    let options = SimOptions {
        relative_tolerance: Some(1e-10),
        ..SimOptions::default()
    };
    let result = simulate(&fmu, &options).expect("simulate the FMI 3 ball");
    assert_eq!(result.names, ["time", "h", "v"]);
    // Impacts from h0 = 1 at rest: t1 = sqrt(2/g), then every 2 e^k t1.
    let (g, e) = (9.81f64, 0.7f64);
    let t1 = (2.0 / g).sqrt();
    let mut impacts = vec![t1];
    for k in 1..4 {
        impacts.push(impacts[k - 1] + 2.0 * e.powi(k as i32) * t1);
    }
    let time = result.column("time").unwrap();
    // An event is recorded twice, before and after.
    let events: Vec<f64> = time
        .windows(2)
        .filter(|w| w[0] == w[1])
        .map(|w| w[0])
        .collect();
    assert!(events.len() >= 3, "events: {events:?}");
    for (found, exact) in events.iter().zip(&impacts) {
        assert!(
            (found - exact).abs() < 1e-8,
            "impact at {found}, closed form {exact}"
        );
    }
    assert_eq!(result.stats.state_events, events.len());
}

#[test]
fn a_co_simulation_only_fmi3_fmu_runs_through_the_co_simulation_loop() {
    let dir = tempfile::tempdir().unwrap();
    let fmu = fmu3(dir.path(), "decay");
    // No interface asked: it has no Model Exchange, so Co-Simulation.
    let result = simulate(&fmu, &SimOptions::default()).expect("simulate the FMI 3 decay");
    assert_eq!(result.names, ["time", "x"]);
    let error = worst(&result, "x", |t| 2.0 * (-0.8 * t).exp());
    assert!(error < 1e-13, "x against 2 exp(-0.8 t): {error:e}");
    let asked = SimOptions {
        interface: Some(Interface::ModelExchange),
        ..SimOptions::default()
    };
    let refused = simulate(&fmu, &asked).expect_err("there is no Model Exchange");
    assert!(
        refused
            .to_string()
            .contains("does not declare <ModelExchange>"),
        "{refused}"
    );
}

#[test]
fn fmi3_arrays_sized_by_a_structural_parameter_follow_the_size_set() {
    let dir = tempfile::tempdir().unwrap();
    let fmu = fmu3(dir.path(), "arrays");
    for (n, interface) in [
        (3usize, Interface::ModelExchange),
        (3, Interface::CoSimulation),
        (7, Interface::ModelExchange),
        (7, Interface::CoSimulation),
    ] {
        let options = SimOptions {
            relative_tolerance: Some(1e-10),
            start_values: if n == 3 {
                Vec::new()
            } else {
                vec![("n".into(), n as f64)]
            },
            interface: Some(interface),
            output: (1..=n)
                .map(|i| format!("x[{i}]"))
                .chain(["y[1]".into()])
                .collect(),
            ..SimOptions::default()
        };
        let result =
            simulate(&fmu, &options).unwrap_or_else(|e| panic!("n = {n}, {interface:?}: {e}"));
        assert_eq!(result.names.len(), n + 2, "{:?}", result.names);
        // x[i] = exp(-k i t), y[1] their sum.
        let limit = if interface == Interface::CoSimulation {
            1e-14
        } else {
            1e-7
        };
        for i in 1..=n {
            let error = worst(&result, &format!("x[{i}]"), |t| (-0.5 * i as f64 * t).exp());
            assert!(error < limit, "n = {n}, {interface:?}, x[{i}]: {error:e}");
        }
        let sum = |t: f64| (1..=n).map(|i| (-0.5 * i as f64 * t).exp()).sum::<f64>();
        let error = worst(&result, "y[1]", sum);
        assert!(error < limit * n as f64, "n = {n}: y[1]: {error:e}");
    }
    let too_big = SimOptions {
        start_values: vec![("n".into(), 51.0)],
        ..SimOptions::default()
    };
    let refused = simulate(&fmu, &too_big).expect_err("n = 51 is beyond N_MAX");
    assert!(refused.to_string().contains("fmi3SetUInt64"), "{refused}");
}
