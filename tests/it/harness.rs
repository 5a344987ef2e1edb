//! The FMU harness against hand-written C test FMUs (test_data/harness/): closed-form
//! solutions, events, stiffness, size, misbehaving FMUs and unsafe archives.

use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use mofmu::harness::{simulate, Fmu, HarnessError, ModelDescription, SimOptions};
use zip::write::SimpleFileOptions;

const TARGET: &str = "x86_64-unknown-linux-gnu";

fn test_data(file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("test_data/harness")
        .join(file)
}

/// Compiles `test_data/harness/<model>.c` (with extra `-D` defines) into a shared
/// library and packs it with `xml` as `<dir>/<file_name>.fmu`.
fn build_fmu(dir: &Path, model: &str, xml: &str, defines: &[&str], file_name: &str) -> PathBuf {
    let compiler = cc::Build::new()
        .cargo_metadata(false)
        .opt_level(2)
        .target(TARGET)
        .host(TARGET)
        .get_compiler();
    let library = dir.join(format!("{file_name}.so"));
    let mut command: Command = compiler.to_command();
    command
        .arg("-shared")
        .arg("-fPIC")
        .arg("-o")
        .arg(&library)
        .arg(test_data(&format!("{model}.c")));
    for define in defines {
        command.arg(format!("-D{define}"));
    }
    command.arg("-lm");
    let output = command.output().expect("run the C compiler");
    assert!(
        output.status.success(),
        "compiling {model}.c failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let fmu = dir.join(format!("{file_name}.fmu"));
    let entries = [
        ("modelDescription.xml".to_string(), xml.as_bytes().to_vec()),
        (
            format!("binaries/linux64/{model}.so"),
            fs::read(&library).expect("read the library"),
        ),
    ];
    write_zip(&fmu, &entries);
    fmu
}

fn write_zip(path: &Path, entries: &[(String, Vec<u8>)]) {
    let mut writer = zip::ZipWriter::new(fs::File::create(path).expect("create zip"));
    for (name, data) in entries {
        writer
            .start_file(name.as_str(), SimpleFileOptions::default())
            .expect("start zip entry");
        writer.write_all(data).expect("write zip entry");
    }
    writer.finish().expect("finish zip");
}

fn model_fmu(dir: &Path, model: &str) -> PathBuf {
    let xml = fs::read_to_string(test_data(&format!("{model}.xml"))).expect("read xml");
    build_fmu(dir, model, &xml, &[], model)
}

fn temp_dir() -> tempfile::TempDir {
    tempfile::tempdir().expect("temporary directory")
}

fn assert_close(actual: f64, expected: f64, relative: f64, what: &str) {
    let error = (actual - expected).abs() / expected.abs().max(1e-300);
    assert!(
        error <= relative,
        "{what}: got {actual}, expected {expected} (relative error {error:e} > {relative:e})"
    );
}

#[test]
fn decay_matches_closed_form_across_a_time_event() {
    let dir = temp_dir();
    let fmu = model_fmu(dir.path(), "decay");
    let options = SimOptions {
        start_values: vec![("k2".into(), 3.0)],
        ..SimOptions::default()
    };
    let started = Instant::now();
    let result = simulate(&fmu, &options).expect("simulate decay");
    eprintln!("decay: {:?} in {:?}", result.stats, started.elapsed());
    assert_eq!(result.names, ["time", "x", "y"]);
    let (k1, k2, t_switch) = (1.0, 3.0, 0.5);
    let exact = |t: f64| {
        if t <= t_switch {
            (-k1 * t).exp()
        } else {
            (-k1 * t_switch).exp() * (-k2 * (t - t_switch)).exp()
        }
    };
    let time = result.column("time").expect("time");
    let x = result.column("x").expect("x");
    let y = result.column("y").expect("y");
    // 101 output points (stepSize 0.01 over [0, 1]) plus the event instant twice, where
    // it coincides with the output point 0.5.
    assert_eq!(time.len(), 102);
    assert_eq!(time.iter().filter(|&&t| t == t_switch).count(), 2);
    assert_eq!(time.last(), Some(&1.0));
    for i in 0..time.len() {
        assert_close(x[i], exact(time[i]), 1e-5, &format!("x at t = {}", time[i]));
        assert_close(y[i], 2.0 * x[i], 1e-12, "y = 2 x");
    }
    // The slope changes at the event: compare the decay rates on either side.
    let before = time.iter().position(|&t| t == 0.49).expect("t = 0.49");
    let after = time.iter().position(|&t| t == 0.51).expect("t = 0.51");
    assert_close(
        (x[before - 1] / x[before]).ln() / 0.01,
        k1,
        1e-4,
        "rate before",
    );
    assert_close(
        (x[after] / x[after + 1]).ln() / 0.01,
        k2,
        1e-4,
        "rate after",
    );

    // The CSV reads back as the same numbers.
    let csv = dir.path().join("decay.csv");
    result.write_csv(&csv).expect("write csv");
    let text = fs::read_to_string(&csv).expect("read csv");
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("\"time\",\"x\",\"y\""));
    let parsed: Vec<Vec<f64>> = lines
        .map(|line| {
            line.split(',')
                .map(|v| v.parse().expect("number"))
                .collect()
        })
        .collect();
    assert_eq!(parsed, result.rows);
}

#[test]
fn stiff_linear_system_matches_closed_form_in_few_steps() {
    let dir = temp_dir();
    let fmu = model_fmu(dir.path(), "stiff");
    let started = Instant::now();
    let result = simulate(&fmu, &SimOptions::default()).expect("simulate stiff");
    eprintln!("stiff: {:?} in {:?}", result.stats, started.elapsed());
    let time = result.column("time").expect("time");
    let x1 = result.column("x1").expect("x1");
    let x2 = result.column("x2").expect("x2");
    assert_eq!(time.len(), 201);
    for i in 0..time.len() {
        let (slow, fast) = ((-time[i]).exp(), (-1e5 * time[i]).exp());
        let what = format!("t = {}", time[i]);
        assert_close(x1[i], 0.5 * (slow + fast), 1e-5, &format!("x1 at {what}"));
        if time[i] >= 0.01 {
            assert_close(x2[i], 0.5 * (slow - fast), 1e-5, &format!("x2 at {what}"));
        } else {
            assert!(x2[i].abs() <= 1e-12, "x2(0) = {}", x2[i]);
        }
    }
    // An explicit method would need about 1e5 steps for stability alone.
    assert!(
        result.stats.integrator.accepted_steps < 3000,
        "{:?}",
        result.stats
    );
}

#[test]
fn stiff_system_takes_large_steps_between_sparse_outputs() {
    let dir = temp_dir();
    let fmu = model_fmu(dir.path(), "stiff");
    let options = SimOptions {
        stop_time: Some(10.0),
        output_interval: Some(5.0),
        ..SimOptions::default()
    };
    let result = simulate(&fmu, &options).expect("simulate stiff");
    eprintln!("stiff, sparse output: {:?}", result.stats);
    let last = result.rows.last().expect("rows");
    assert_eq!(last[0], 10.0);
    // The absolute tolerance is rtol × nominal = 1e-6, so judge the small end value
    // absolutely.
    let exact = 0.5 * (-10f64).exp();
    assert!((last[1] - exact).abs() <= 1e-6, "x1(10) = {}", last[1]);
    assert!((last[2] - exact).abs() <= 1e-6, "x2(10) = {}", last[2]);
    // Outputs come from the solver's dense output and never shorten a step: the
    // same run with 200 times as many output points takes exactly the same steps.
    let dense = SimOptions {
        output_interval: Some(0.025),
        ..options
    };
    let dense = simulate(&fmu, &dense).expect("simulate stiff");
    assert_eq!(dense.rows.len(), 401);
    assert_eq!(
        result.stats.integrator.accepted_steps, dense.stats.integrator.accepted_steps,
        "{:?} vs {:?}",
        result.stats, dense.stats
    );
    // Far from what stability would cost an explicit method (about 1e6 steps).
    assert!(
        result.stats.integrator.accepted_steps < 300,
        "{:?}",
        result.stats
    );
}

#[test]
fn oscillator_keeps_amplitude_and_phase() {
    let dir = temp_dir();
    let fmu = model_fmu(dir.path(), "oscillator");
    let result = simulate(&fmu, &SimOptions::default()).expect("simulate oscillator");
    eprintln!("oscillator: {:?}", result.stats);
    assert_eq!(result.names, ["time", "x", "v"]);
    let w = 2.0 * std::f64::consts::PI;
    for row in &result.rows {
        let (t, x, v) = (row[0], row[1], row[2]);
        assert!((x - (w * t).cos()).abs() <= 1e-4, "x({t}) = {x}");
        assert!((v + w * (w * t).sin()).abs() <= 1e-4 * w, "v({t}) = {v}");
    }
}

#[test]
fn bouncing_ball_impacts_match_closed_form() {
    let dir = temp_dir();
    let fmu = model_fmu(dir.path(), "ball");
    let started = Instant::now();
    let result = simulate(&fmu, &SimOptions::default()).expect("simulate ball");
    eprintln!("ball: {:?} in {:?}", result.stats, started.elapsed());
    // States and outputs in model-description order: h (state and output), v.
    assert_eq!(result.names, ["time", "h", "v"]);
    let time = result.column("time").expect("time");
    let v = result.column("v").expect("v");
    let impacts: Vec<usize> = (1..time.len())
        .filter(|&i| time[i] == time[i - 1])
        .collect();
    let (g, e, h0) = (9.81_f64, 0.7_f64, 1.0_f64);
    let first = (2.0 * h0 / g).sqrt();
    let mut expected = vec![first];
    for k in 1..4 {
        let previous = expected[k - 1];
        expected.push(previous + 2.0 * e.powi(k as i32) * first);
    }
    assert_eq!(impacts.len(), expected.len(), "impacts at {impacts:?}");
    assert_eq!(result.stats.state_events, 4);
    for (&row, &t) in impacts.iter().zip(&expected) {
        assert!(
            (time[row] - t).abs() <= 1e-6,
            "impact at {} instead of {t}",
            time[row]
        );
        // The velocity flips at the impact: -v_before * e = v_after.
        assert_close(v[row], -e * v[row - 1], 1e-6, "velocity after impact");
    }
    assert!((time[impacts[0]] - first).abs() <= 1e-9);
}

#[test]
fn zero_state_fmu_is_evaluated_at_output_points() {
    let dir = temp_dir();
    let fmu = model_fmu(dir.path(), "clock");
    let options = SimOptions {
        stop_time: Some(2.0),
        output_interval: Some(0.1),
        start_values: vec![("w".into(), 3.0)],
        ..SimOptions::default()
    };
    let result = simulate(&fmu, &options).expect("simulate clock");
    assert_eq!(result.names, ["time", "y"]);
    assert_eq!(result.rows.len(), 21);
    for row in &result.rows {
        assert!((row[1] - (3.0 * row[0]).sin()).abs() <= 1e-15, "{row:?}");
    }
}

#[test]
fn two_hundred_states_simulate_quickly() {
    const N: usize = 200;
    let dir = temp_dir();
    let mut xml = String::from(
        "<?xml version=\"1.0\"?>\n<fmiModelDescription fmiVersion=\"2.0\" modelName=\"chain\" \
         guid=\"{harness-test-chain}\" numberOfEventIndicators=\"0\">\n\
         <ModelExchange modelIdentifier=\"chain\"/>\n<ModelVariables>\n",
    );
    for i in 0..N {
        xml.push_str(&format!(
            "<ScalarVariable name=\"x[{}]\" valueReference=\"{i}\" causality=\"output\" \
             initial=\"exact\"><Real start=\"1\"/></ScalarVariable>\n",
            i + 1
        ));
    }
    for i in 0..N {
        xml.push_str(&format!(
            "<ScalarVariable name=\"der(x[{}])\" valueReference=\"{}\"><Real derivative=\"{}\"/>\
             </ScalarVariable>\n",
            i + 1,
            N + i,
            i + 1
        ));
    }
    xml.push_str("</ModelVariables>\n<ModelStructure>\n<Outputs>\n");
    for i in 0..N {
        xml.push_str(&format!("<Unknown index=\"{}\"/>\n", i + 1));
    }
    xml.push_str("</Outputs>\n<Derivatives>\n");
    for i in 0..N {
        xml.push_str(&format!("<Unknown index=\"{}\"/>\n", N + i + 1));
    }
    xml.push_str("</Derivatives>\n</ModelStructure>\n</fmiModelDescription>\n");
    let fmu = build_fmu(dir.path(), "chain", &xml, &["CHAIN_N=200"], "chain");
    let options = SimOptions {
        stop_time: Some(1.0),
        output_interval: Some(0.01),
        relative_tolerance: Some(1e-6),
        ..SimOptions::default()
    };
    let started = Instant::now();
    let result = simulate(&fmu, &options).expect("simulate chain");
    let elapsed = started.elapsed();
    eprintln!("chain of {N}: {:?} in {elapsed:?}", result.stats);
    assert_eq!(result.names.len(), N + 1);
    let last = result.rows.last().expect("rows");
    for i in 0..N {
        let rate = 10f64.powf(3.0 * i as f64 / (N - 1) as f64);
        let exact = (-rate).exp();
        assert!(
            (last[i + 1] - exact).abs() <= 1e-5,
            "x[{}](1) = {}, expected {exact}",
            i + 1,
            last[i + 1]
        );
    }
    // Every state at a million output points would be 201 million values
    // (1.6 GB): refused before anything runs, with what to do instead.
    let too_much = SimOptions {
        output_interval: Some(1e-6),
        ..options
    };
    match simulate(&fmu, &too_much) {
        Err(HarnessError::BadOptions(message)) => {
            assert!(
                message.contains("recording 200 variables at 1000001 output points")
                    && message.contains("--output-variable"),
                "{message}"
            );
        }
        other => panic!("a result of 201 million values was not refused: {other:?}"),
    }
}

#[test]
fn fmu_can_be_driven_function_by_function() {
    let dir = temp_dir();
    let path = model_fmu(dir.path(), "decay");
    let fmu = Fmu::load(&path).expect("load decay");
    assert_eq!(fmu.fmi_version(), "2.0");
    let model = fmu.model_description();
    assert_eq!(model.model_identifier, "decay");
    assert_eq!(model.states().expect("states"), [0]);
    let mut instance = fmu.instantiate("direct", false).expect("instantiate");
    instance.set_real(&[3], &[4.0]).expect("set k1");
    instance
        .setup_experiment(Some(1e-6), 0.0, Some(1.0))
        .expect("setup");
    instance.enter_initialization_mode().expect("enter init");
    instance.exit_initialization_mode().expect("exit init");
    let info = instance.new_discrete_states().expect("event iteration");
    assert_eq!(info.next_event_time_defined, 1);
    assert_eq!(info.next_event_time, 0.5);
    instance
        .enter_continuous_time_mode()
        .expect("continuous time");
    instance.set_continuous_states(&[0.25]).expect("set x");
    let mut derivative = [0.0];
    instance
        .get_derivatives(&mut derivative)
        .expect("derivatives");
    assert_eq!(derivative, [-1.0]);
    assert_eq!(instance.get_real(&[2]).expect("y"), [0.5]);
    assert_eq!(
        instance.completed_integrator_step().expect("step"),
        (false, false)
    );
    let error = instance
        .get_real(&[99])
        .expect_err("no such value reference");
    let message = error.to_string();
    assert!(
        message.contains("fmi2GetReal returned Error") && message.contains("reference 99"),
        "{message}"
    );
    instance.terminate().expect("terminate");
}

#[test]
fn missing_function_is_reported_by_name() {
    let dir = temp_dir();
    let xml = fs::read_to_string(test_data("decay.xml")).expect("xml");
    let fmu = build_fmu(
        dir.path(),
        "decay",
        &xml,
        &["OMIT_GET_DERIVATIVES"],
        "no_der",
    );
    let error = simulate(&fmu, &SimOptions::default()).expect_err("must fail");
    match &error {
        HarnessError::MissingSymbol { symbol, library } => {
            assert_eq!(symbol, "fmi2GetDerivatives");
            assert_eq!(library, "decay.so");
        }
        other => panic!("unexpected error: {other}"),
    }
}

#[test]
fn instantiate_returning_null_reports_the_log() {
    let dir = temp_dir();
    let xml = fs::read_to_string(test_data("decay.xml")).expect("xml");
    let fmu = build_fmu(
        dir.path(),
        "decay",
        &xml,
        &["INSTANTIATE_FAILS"],
        "no_instance",
    );
    let error = simulate(&fmu, &SimOptions::default()).expect_err("must fail");
    match &error {
        HarnessError::InstantiateFailed { log } => {
            assert_eq!(
                log,
                &["[Error] logStatusError: instance mofmu_harness refuses to start (code 42)"]
            );
        }
        other => panic!("unexpected error: {other}"),
    }
}

#[test]
fn derivative_error_stops_with_the_logged_message() {
    let dir = temp_dir();
    let xml = fs::read_to_string(test_data("decay.xml")).expect("xml");
    let fmu = build_fmu(dir.path(), "decay", &xml, &["DERIVATIVES_FAIL"], "bad_der");
    let error = simulate(&fmu, &SimOptions::default()).expect_err("must fail");
    let message = error.to_string();
    match &error {
        HarnessError::FmiStatus {
            function,
            status,
            log,
        } => {
            assert_eq!(*function, "fmi2GetDerivatives");
            assert_eq!(*status, "Error");
            assert_eq!(log.len(), 1, "{log:?}");
            // The FMU refuses every evaluation after t = 0.25; the first refused one
            // is inside the step that crosses it.
            let prefix = "[Error] logStatusError: derivatives failed at t = ";
            assert!(log[0].starts_with(prefix), "{log:?}");
            let time: f64 = log[0][prefix.len()..]
                .split_whitespace()
                .next()
                .and_then(|t| t.parse().ok())
                .expect("a time in the message");
            assert!(time > 0.25 && time < 0.35, "{log:?}");
        }
        other => panic!("unexpected error: {other}"),
    }
    assert!(message.contains("the FMU logged"), "{message}");
}

#[test]
fn unsafe_or_broken_archives_are_rejected() {
    let dir = temp_dir();
    let xml = fs::read(test_data("decay.xml")).expect("xml");
    type Entries = Vec<(String, Vec<u8>)>;
    let cases: [(&str, Entries); 4] = [
        ("parent", vec![("../evil".into(), b"x".to_vec())]),
        (
            "nested_parent",
            vec![("binaries/../../evil".into(), b"x".to_vec())],
        ),
        ("absolute", vec![("/tmp/evil".into(), b"x".to_vec())]),
        ("backslash", vec![("..\\evil".into(), b"x".to_vec())]),
    ];
    for (name, entries) in cases {
        let path = dir.path().join(format!("{name}.fmu"));
        write_zip(&path, &entries);
        match simulate(&path, &SimOptions::default()) {
            Err(HarnessError::UnsafeZipEntry { .. }) => {}
            other => panic!("{name}: expected UnsafeZipEntry, got {other:?}"),
        }
    }
    assert!(!dir.path().parent().expect("parent").join("evil").exists());

    // A symbolic link entry.
    let path = dir.path().join("symlink.fmu");
    let mut writer = zip::ZipWriter::new(fs::File::create(&path).expect("create"));
    writer
        .add_symlink(
            "modelDescription.xml",
            "/etc/passwd",
            SimpleFileOptions::default(),
        )
        .expect("symlink");
    writer.finish().expect("finish");
    match simulate(&path, &SimOptions::default()) {
        Err(HarnessError::UnsafeZipEntry { reason, .. }) => assert!(reason.contains("symbolic")),
        other => panic!("symlink: expected UnsafeZipEntry, got {other:?}"),
    }

    // Not a zip at all.
    let path = dir.path().join("garbage.fmu");
    fs::write(&path, b"this is not a zip archive").expect("write");
    assert!(matches!(
        simulate(&path, &SimOptions::default()),
        Err(HarnessError::BadZip { .. })
    ));

    // No model description; a model description but no binary.
    let path = dir.path().join("empty.fmu");
    write_zip(
        &path,
        &[("documentation/index.html".into(), b"hi".to_vec())],
    );
    assert!(matches!(
        simulate(&path, &SimOptions::default()),
        Err(HarnessError::MissingModelDescription)
    ));
    let path = dir.path().join("no_binary.fmu");
    write_zip(&path, &[("modelDescription.xml".into(), xml)]);
    match simulate(&path, &SimOptions::default()) {
        Err(HarnessError::MissingBinary { path }) => {
            assert_eq!(path, "binaries/linux64/decay.so")
        }
        other => panic!("expected MissingBinary, got {other:?}"),
    }
}

#[test]
fn model_description_is_checked() {
    let decay = fs::read_to_string(test_data("decay.xml")).expect("xml");
    let model = ModelDescription::parse(&decay).expect("decay parses");
    assert_eq!(model.guid, "{harness-test-decay}");
    assert_eq!(model.default_experiment.tolerance, Some(1e-8));
    assert_eq!(model.variables.len(), 6);
    assert_eq!(model.variables[1].derivative, Some(0));
    assert_eq!(model.derivatives, [1]);

    let cases = [
        (
            decay.replace("fmiVersion=\"2.0\"", "fmiVersion=\"3.0\""),
            "FMI 3.0 FMU, and mofmu's harness",
        ),
        (
            decay.replace(
                "<ModelExchange modelIdentifier=\"decay\"/>",
                "<CoSimulation/>",
            ),
            "CoSimulation has an empty",
        ),
        (
            decay.replace(
                "<ModelExchange modelIdentifier=\"decay\"/>",
                "<ModelExchange/>",
            ),
            "no <ModelExchange modelIdentifier",
        ),
        (
            decay.replace("modelIdentifier=\"decay\"", "modelIdentifier=\"../decay\""),
            "not a plain file name",
        ),
        (
            decay.replace("<Real derivative=\"1\"/>", "<Real derivative=\"9\"/>"),
            "derivative=\"9\"",
        ),
        (
            decay.replace("valueReference=\"2\"", ""),
            "no `valueReference`",
        ),
        (decay.replace("</ModelVariables>", ""), "XML error"),
    ];
    for (xml, expected) in cases {
        let error = ModelDescription::parse(&xml).expect_err(expected);
        assert!(error.to_string().contains(expected), "{error} / {expected}");
    }
}

#[test]
fn bad_options_are_rejected() {
    let dir = temp_dir();
    let fmu = model_fmu(dir.path(), "clock");
    let cases = [
        SimOptions {
            stop_time: Some(-1.0),
            ..SimOptions::default()
        },
        SimOptions {
            output_interval: Some(0.0),
            ..SimOptions::default()
        },
        SimOptions {
            output_interval: Some(1e-12),
            ..SimOptions::default()
        },
        SimOptions {
            relative_tolerance: Some(-1.0),
            ..SimOptions::default()
        },
    ];
    for options in cases {
        assert!(matches!(
            simulate(&fmu, &options),
            Err(HarnessError::BadOptions(_))
        ));
    }
    let unknown = SimOptions {
        start_values: vec![("nope".into(), 1.0)],
        ..SimOptions::default()
    };
    assert!(matches!(
        simulate(&fmu, &unknown),
        Err(HarnessError::UnknownVariable(name)) if name == "nope"
    ));
}
