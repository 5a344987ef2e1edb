//! The Co-Simulation side of exported FMUs through the harness: events located inside
//! a communication step against closed forms, fmi2Discard with a message, the
//! `--interface` choice in the model description, and input signals from a table in
//! both interfaces.

use std::path::{Path, PathBuf};

use super::runtime::repo_path;
use mofmu::export::export_model_with;
use mofmu::fmu::description::table::Interfaces;
use mofmu::harness::{
    simulate, Coupling, Extrapolation, HarnessError, InputSignals, Interface, Overrides,
    SimOptions, SimResult,
};
use mofmu::library::load_library;
use mofmu::loader::load_paths;
use mofmu::package::{build_fmu, ObjectCache};

fn export(
    dir: &Path,
    libraries: &[&str],
    model: &str,
    stop_time: f64,
    interfaces: Interfaces,
) -> PathBuf {
    let paths: Vec<_> = libraries.iter().map(|p| repo_path(p)).collect();
    let lib = load_library(load_paths(&paths).expect("libraries load"));
    let out = export_model_with(&lib, model, &[], stop_time, interfaces)
        .unwrap_or_else(|e| panic!("{model}: export failed: {e:?}"));
    let cache = ObjectCache::new(Path::new(env!("CARGO_TARGET_TMPDIR")).join("cosim-cache"));
    let fmu = dir.join(format!("{}.fmu", model.replace('.', "_")));
    build_fmu(&out.build_spec(), &fmu, Some(&cache)).expect("packaging works");
    fmu
}

const SIGNALS: &[&str] = &["examples/Base.mo", "examples/Signals.mo"];

fn co_simulate(fmu: &Path, stop_time: f64, step: f64, variable: &str) -> SimResult {
    let options = SimOptions {
        stop_time: Some(stop_time),
        output_interval: Some(step),
        relative_tolerance: Some(1e-8),
        output: vec![variable.to_string()],
        interface: Some(Interface::CoSimulation),
        ..SimOptions::default()
    };
    simulate(fmu, &options).unwrap_or_else(|e| panic!("{}: {e}", fmu.display()))
}

/// Largest |value - closed form| over the rows.
fn worst(result: &SimResult, variable: &str, closed: impl Fn(f64) -> f64) -> f64 {
    let times = result.column("time").expect("time");
    let values = result.column(variable).expect("variable");
    times
        .iter()
        .zip(&values)
        .map(|(&t, &x)| (x - closed(t)).abs())
        .fold(0.0, f64::max)
}

#[test]
fn events_inside_a_communication_step_match_closed_forms() {
    let dir = tempfile::tempdir().unwrap();
    // A time event at t = 0.5 inside the step from 0.3 to 0.6: the integrator's
    // input steps from 0 to 2 there, so x = 1 + 1.5*2*(t - 0.5) after it.
    let fmu = export(
        dir.path(),
        SIGNALS,
        "Signals.Examples.StepIntegrator",
        2.1,
        Interfaces::BOTH,
    );
    let result = co_simulate(&fmu, 2.1, 0.3, "integrator.x");
    let times = result.column("time").unwrap();
    assert_eq!(times.len(), 8, "{times:?}");
    let error = worst(&result, "integrator.x", |t| {
        if t < 0.5 {
            1.0
        } else {
            1.0 + 3.0 * (t - 0.5)
        }
    });
    println!("StepIntegrator, steps of 0.3 s: worst error {error:.2e}");
    assert!(error <= 1e-6, "worst error {error:e}");

    // The lag of FirstOrderStep: the step at t = 1 falls inside (0.9, 1.2); after it
    // x = 2 + (0.5 e^-2 - 2) e^-(t-1)/0.5.
    let fmu = export(
        dir.path(),
        SIGNALS,
        "Signals.Examples.FirstOrderStep",
        3.0,
        Interfaces::BOTH,
    );
    let result = co_simulate(&fmu, 3.0, 0.3, "firstOrder.x");
    let error = worst(&result, "firstOrder.x", |t| {
        if t < 1.0 {
            0.5 * (-t / 0.5).exp()
        } else {
            2.0 + (0.5 * (-2.0f64).exp() - 2.0) * (-(t - 1.0) / 0.5).exp()
        }
    });
    println!("FirstOrderStep, steps of 0.3 s: worst error {error:.2e}");
    assert!(error <= 1e-6, "worst error {error:e}");

    // A state event: the clock state reaches 0.5 inside (0.3, 0.6); then x decays,
    // x = 0.5 e^-(t-0.5).
    let fmu = export(
        dir.path(),
        &["examples/Base.mo", "test_data/events/Switch.mo"],
        "Switch.RiseThenDecay",
        2.1,
        Interfaces::BOTH,
    );
    let result = co_simulate(&fmu, 2.1, 0.3, "x");
    let error = worst(&result, "x", |t| {
        if t < 0.5 {
            t
        } else {
            0.5 * (-(t - 0.5)).exp()
        }
    });
    println!("Switch.RiseThenDecay, steps of 0.3 s: worst error {error:.2e}");
    assert!(error <= 1e-6, "worst error {error:e}");
}

#[test]
fn a_step_the_solver_cannot_complete_is_discarded_with_a_reason() {
    let dir = tempfile::tempdir().unwrap();
    let fmu = export(
        dir.path(),
        &["examples/Base.mo", "test_data/cosim/Ending.mo"],
        "Ending.SquareRoot",
        2.0,
        Interfaces::BOTH,
    );
    let options = SimOptions {
        stop_time: Some(2.0),
        output_interval: Some(2.0),
        interface: Some(Interface::CoSimulation),
        ..SimOptions::default()
    };
    let error = simulate(&fmu, &options).expect_err("sqrt(1 - time) ends at t = 1");
    let HarnessError::Integrator { time, reason } = &error else {
        panic!("unexpected error: {error}");
    };
    // It stopped at the end of the solution, having got close to it.
    assert!(*time > 0.99 && *time <= 1.0, "stopped at {time}: {reason}");
    assert!(reason.contains("discarded the step"), "{reason}");
    assert!(
        reason.contains("cannot reach the communication point 2"),
        "{reason}"
    );
    println!("{error}");
}

#[test]
fn the_interface_option_chooses_what_the_model_description_declares() {
    let dir = tempfile::tempdir().unwrap();
    let xml = |interfaces: Interfaces, name: &str| {
        let sub = dir.path().join(name);
        std::fs::create_dir_all(&sub).unwrap();
        let fmu = export(&sub, SIGNALS, "Signals.Examples.PIPlant", 1.0, interfaces);
        let unpacked = mofmu::harness::unzip::extract(&fmu).unwrap();
        (
            fmu,
            std::fs::read_to_string(unpacked.path().join("modelDescription.xml")).unwrap(),
        )
    };
    let (_, both) = xml(Interfaces::BOTH, "both");
    assert!(both.contains("<ModelExchange ") && both.contains("<CoSimulation "));
    let (_, me) = xml(Interfaces::MODEL_EXCHANGE, "me");
    assert!(me.contains("<ModelExchange ") && !me.contains("<CoSimulation"));
    let (cs_fmu, cs) = xml(Interfaces::CO_SIMULATION, "cs");
    assert!(!cs.contains("<ModelExchange") && cs.contains("<CoSimulation "));
    // An FMU with Co-Simulation only is simulated through it by default.
    let options = SimOptions {
        stop_time: Some(1.0),
        output_interval: Some(0.5),
        ..SimOptions::default()
    };
    let result = simulate(&cs_fmu, &options).expect("Co-Simulation by default");
    assert_eq!(result.rows.len(), 3);
    let me_only = SimOptions {
        interface: Some(Interface::CoSimulation),
        ..options
    };
    let me_fmu = dir.path().join("me").join("Signals_Examples_PIPlant.fmu");
    let refused = simulate(&me_fmu, &me_only).expect_err("no <CoSimulation>");
    assert!(refused.to_string().contains("CoSimulation"), "{refused}");
}

#[test]
fn input_tables_drive_both_interfaces() {
    let dir = tempfile::tempdir().unwrap();
    // PIPlant: der(x) = (u - x)/1.5 from x = 0, y = x. The input steps from 0.3
    // to 1.3 at t = 1 and then ramps to 2.3 at t = 2.
    let fmu = export(
        dir.path(),
        SIGNALS,
        "Signals.Examples.PIPlant",
        2.0,
        Interfaces::BOTH,
    );
    let table = dir.path().join("u.csv");
    std::fs::write(&table, "\"time\",\"u\"\n0,0.3\n1,0.3\n1,1.3\n2,2.3\n").unwrap();
    let signals = InputSignals::read(&table).expect("the table reads");
    // Closed form: x1 = 0.3 (1 - e^-t/T) up to t = 1; then with u = 1.3 + (t - 1),
    // x = u - T + (x1(1) - 1.3 + T) e^-(t-1)/T.
    let tau = 1.5f64;
    let x1 = 0.3 * (1.0 - (-1.0 / tau).exp());
    let closed = |t: f64| {
        if t <= 1.0 {
            0.3 * (1.0 - (-t / tau).exp())
        } else {
            1.3 + (t - 1.0) - tau + (x1 - 1.3 + tau) * (-(t - 1.0) / tau).exp()
        }
    };
    for interface in [Interface::ModelExchange, Interface::CoSimulation] {
        let options = SimOptions {
            stop_time: Some(2.0),
            output_interval: Some(0.1),
            relative_tolerance: Some(1e-8),
            output: vec!["y".into()],
            interface: Some(interface),
            input: Some(signals.clone()),
            ..SimOptions::default()
        };
        let result = simulate(&fmu, &options).unwrap_or_else(|e| panic!("{interface:?}: {e}"));
        let error = worst(&result, "y", closed);
        println!("PIPlant with an input table, {interface:?}: worst error {error:.2e}");
        assert!(error <= 1e-6, "{interface:?}: worst error {error:e}");
    }
    // A column that is not an input is refused with its name.
    std::fs::write(&table, "\"time\",\"y\"\n0,1\n").unwrap();
    let options = SimOptions {
        input: Some(InputSignals::read(&table).unwrap()),
        ..SimOptions::default()
    };
    let refused = simulate(&fmu, &options).expect_err("y is an output");
    assert!(
        refused
            .to_string()
            .contains("`y` is not an input of the model (its causality is output)"),
        "{refused}"
    );
}

#[test]
fn a_top_level_physical_connector_is_an_input_and_an_output() {
    let dir = tempfile::tempdir().unwrap();
    let fmu = export(
        dir.path(),
        &[
            "examples/Base.mo",
            "examples/Thermal",
            "test_data/cosim/Wall.mo",
        ],
        "Wall.HeatedWall",
        10.0,
        Interfaces::BOTH,
    );
    let unpacked = mofmu::harness::unzip::extract(&fmu).unwrap();
    let xml = std::fs::read_to_string(unpacked.path().join("modelDescription.xml")).unwrap();
    let line = |name: &str| {
        xml.lines()
            .find(|l| l.contains(&format!("name=\"{name}\"")))
            .unwrap_or_else(|| panic!("{name} is not in the model description"))
            .to_string()
    };
    assert!(
        line("port.T").contains("causality=\"input\""),
        "{}",
        line("port.T")
    );
    assert!(
        line("port.Q_flow").contains("causality=\"output\""),
        "{}",
        line("port.Q_flow")
    );
    // The output depends on the input (direct feed-through) and on the state.
    let outputs = &xml[xml.find("<Outputs>").unwrap()..xml.find("</Outputs>").unwrap()];
    assert!(outputs.contains("dependencies=\"2 "), "{outputs}");
    for interface in [Interface::ModelExchange, Interface::CoSimulation] {
        let options = SimOptions {
            stop_time: Some(10.0),
            output_interval: Some(0.5),
            relative_tolerance: Some(1e-8),
            start_values: vec![("port.T".into(), 350.0)],
            output: vec!["body.T".into(), "port.Q_flow".into()],
            interface: Some(interface),
            ..SimOptions::default()
        };
        let result = simulate(&fmu, &options).unwrap_or_else(|e| panic!("{interface:?}: {e}"));
        let body = |t: f64| 350.0 + (300.0 - 350.0) * (-0.2 * t).exp();
        let error_t = worst(&result, "body.T", body);
        let error_q = worst(&result, "port.Q_flow", |t| 2.0 * (350.0 - body(t)));
        println!("HeatedWall {interface:?}: body.T {error_t:.2e}, port.Q_flow {error_q:.2e}");
        assert!(error_t <= 1e-5 && error_q <= 1e-5, "{interface:?}");
    }
}

#[test]
fn the_sparse_solver_colours_and_reorders_states_that_are_stored_apart() {
    // x[1..40] then y[1..40], each x[i] coupled to y[i] only: one colour, and a
    // band of 1 after reverse Cuthill-McKee (40 in the states' own order).
    let dir = tempfile::tempdir().unwrap();
    let fmu = export(
        dir.path(),
        &["examples/Base.mo", "test_data/cosim/Pairs.mo"],
        "Pairs.Rotations",
        10.0,
        Interfaces::BOTH,
    );
    for (variable, i, sine) in [
        ("x[40]", 40.0, false),
        ("y[17]", 17.0, true),
        ("x[1]", 1.0, false),
    ] {
        let result = co_simulate(&fmu, 10.0, 1.0, variable);
        let w = i / 40.0;
        let error = worst(&result, variable, |t| {
            if sine {
                (w * t).sin()
            } else {
                (w * t).cos()
            }
        });
        println!("Pairs.Rotations {variable}: worst error {error:.2e}");
        assert!(error <= 1e-6, "{variable}: worst error {error:e}");
    }
}

/// The PI loop of Signals.Examples.PIControlLoop split into two FMUs (PIPlant,
/// PIController), with the setpoint's step moved to t = 0 so the coupled signals are
/// smooth: r = 1, e = r - p, u = k (x + e), der(x) = e / Ti, der(p) = (u - p) / Tp with
/// k = 2, Ti = 0.8, Tp = 1.5. With z = (x, p) - (0.5, 1) this is z' = A z,
/// A = [[0, -1.25], [4/3, -2]], whose eigenvalues are -1 ± iω, ω = sqrt(2/3); so
/// exp(A t) = e^-t (cos ωt I + sin ωt / ω (A + I)) (Cayley-Hamilton: (A + I)² = -ω² I).
fn pi_loop_closed_form(t: f64) -> [f64; 2] {
    let w = (2.0f64 / 3.0).sqrt();
    let d0 = [-0.5, -1.0];
    let b = [[1.0, -1.25], [4.0 / 3.0, -1.0]];
    let (c, s) = ((w * t).cos(), (w * t).sin() / w);
    let decay = (-t).exp();
    let mut z = [0.0; 2];
    for (i, zi) in z.iter_mut().enumerate() {
        let bd = b[i][0] * d0[0] + b[i][1] * d0[1];
        *zi = decay * (c * d0[i] + s * bd);
    }
    [z[0] + 0.5, z[1] + 1.0]
}

const PI_LOOP_FILE: &str = r#"# The PI loop from two FMUs
stop = 10.0
step = 0.1
tolerance = 1e-10
connections = [
  "plant.y -> controller.measurement",
  "controller.u -> plant.u",
]

[[fmu]]
name = "plant"
path = "plant.fmu"

[[fmu]]
name = "controller"
path = "controller.fmu"
parameters = { "setpoint.startTime" = 0 }
"#;

fn export_pi_pair(dir: &Path) {
    for (model, name) in [("PIPlant", "plant"), ("PIController", "controller")] {
        let fmu = export(
            dir,
            SIGNALS,
            &format!("Signals.Examples.{model}"),
            10.0,
            Interfaces::CO_SIMULATION,
        );
        std::fs::rename(fmu, dir.join(format!("{name}.fmu"))).unwrap();
    }
}

/// Largest error of the controller's and the plant's states against the closed form
/// over all communication points.
fn pi_loop_error(file: &Path, step: f64, extrapolation: Extrapolation) -> f64 {
    let overrides = Overrides {
        step: Some(step),
        extrapolation: Some(extrapolation),
        ..Overrides::default()
    };
    let coupling = Coupling::load(file, &overrides).unwrap_or_else(|e| panic!("{e}"));
    let result = coupling.run(false).unwrap_or_else(|e| panic!("{e}"));
    let times = result.column("time").unwrap();
    let x = result.column("controller.controller.x").unwrap();
    let p = result.column("plant.plant.x").unwrap();
    assert!((times.last().unwrap() - 10.0).abs() < 1e-12, "{times:?}");
    assert_eq!(times.len(), (10.0 / step).round() as usize + 1);
    let mut worst = 0.0f64;
    for k in 0..times.len() {
        let exact = pi_loop_closed_form(times[k]);
        worst = worst
            .max((x[k] - exact[0]).abs())
            .max((p[k] - exact[1]).abs());
    }
    worst
}

#[test]
fn cosim_converges_at_first_order_with_hold_and_second_with_output_derivatives() {
    let dir = tempfile::tempdir().unwrap();
    export_pi_pair(dir.path());
    let file = dir.path().join("loop.toml");
    std::fs::write(&file, PI_LOOP_FILE).unwrap();
    let steps = [0.1, 0.05, 0.025];
    for (extrapolation, low, high) in [
        // Zero-order hold is first order: the error halves with the step.
        (Extrapolation::Hold, 1.8, 2.3),
        // Values and exact output derivatives: second order, a quarter per halving.
        (Extrapolation::Linear, 3.5, 4.5),
    ] {
        let errors: Vec<f64> = steps
            .iter()
            .map(|&h| pi_loop_error(&file, h, extrapolation))
            .collect();
        for (pair, h) in errors.windows(2).zip(&steps[1..]) {
            let ratio = pair[0] / pair[1];
            println!(
                "{extrapolation:?}: step {h}: error {:.3e}, fell by {ratio:.3}x on halving",
                pair[1]
            );
            assert!(
                (low..=high).contains(&ratio),
                "{extrapolation:?}: errors {errors:?}, ratio {ratio}"
            );
        }
        if extrapolation == Extrapolation::Linear {
            assert!(errors[2] < 2e-4, "{errors:?}");
        }
    }
}

/// Each connection file fault is one diagnostic at its line, with its code.
#[test]
fn cosim_connection_file_faults_are_diagnostics_at_their_line() {
    let dir = tempfile::tempdir().unwrap();
    export_pi_pair(dir.path());
    let fmus = "\n[[fmu]]\nname = \"plant\"\npath = \"plant.fmu\"\n\n[[fmu]]\nname = \"controller\"\npath = \"controller.fmu\"\n";
    let cases: &[(&str, &str, &str)] = &[
        ("syntax", "step = = 1\n", "CS001 1"),
        ("unknown key", "stpe = 0.1\n", "CS001 1"),
        ("bad step", "step = 0\n", "CS010 1"),
        ("bad extrapolation", "extrapolation = \"cubic\"\n", "CS010 1"),
        ("no arrow", "connections = [\n\"plant.y controller.measurement\"]\n", "CS003 2"),
        ("unknown fmu", "connections = [\n\"plnt.y -> controller.measurement\"]\n", "CS004 2"),
        ("unknown variable", "connections = [\n\"plant.y -> controller.measure\"]\n", "CS005 2"),
        ("not an output", "connections = [\n\"plant.u -> controller.measurement\"]\n", "CS006 2"),
        ("not an input", "connections = [\n\"plant.y -> controller.u\"]\n", "CS006 2"),
        (
            "driven twice",
            "connections = [\n\"plant.y -> controller.measurement\",\n\"controller.u -> controller.measurement\"]\n",
            "CS008 3",
        ),
        (
            // The controller's output reads its input directly: a loop into itself.
            "feed-through loop",
            "connections = [\n\"controller.u -> controller.measurement\"]\n",
            "CS009 2",
        ),
    ];
    for (what, head, expected) in cases {
        let file = dir.path().join("bad.toml");
        std::fs::write(&file, format!("{head}{fmus}")).unwrap();
        let error = match Coupling::load(&file, &Overrides::default()) {
            Ok(_) => panic!("{what}: accepted"),
            Err(e) => e,
        };
        let found: Vec<String> = error
            .diagnostics
            .iter()
            .map(|d| {
                let line = error.sources.get(d.span.file).line_col(d.span.start).0;
                format!("{} {line}", d.code)
            })
            .collect();
        assert_eq!(found, vec![expected.to_string()], "{what}: {error}");
        assert!(error
            .diagnostics
            .iter()
            .all(|d| !d.help.is_empty() && !d.label.is_empty()));
    }
    // Parameters: a wrong type, an unknown name, a variable that cannot be set.
    let file = dir.path().join("bad.toml");
    let parameters = "parameters = { \"setpoint.startTime\" = true }\n";
    std::fs::write(&file, format!("{fmus}{parameters}")).unwrap();
    let error = Coupling::load(&file, &Overrides::default())
        .err()
        .expect("refused");
    assert_eq!(error.diagnostics[0].code, "CS007", "{error}");
    let parameters = "parameters = { \"nothing\" = 1, \"u\" = 2 }\n";
    std::fs::write(&file, format!("{fmus}{parameters}")).unwrap();
    let error = Coupling::load(&file, &Overrides::default())
        .err()
        .expect("refused");
    let codes: Vec<_> = error.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["CS005", "CS006"], "{error}");
    // A missing FMU file.
    std::fs::write(&file, fmus.replace("plant.fmu", "missing.fmu")).unwrap();
    let error = Coupling::load(&file, &Overrides::default())
        .err()
        .expect("refused");
    assert_eq!(error.diagnostics[0].code, "CS002", "{error}");
}

/// `mofmu cosim` prints the connection file's faults at their line and exits with 1.
#[test]
fn cosim_command_reports_a_bad_file_with_exit_code_one() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.toml");
    std::fs::write(&file, "step = 0.1\nconnections = [\"a.y -> b.u\"\n").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_mofmu"))
        .arg("cosim")
        .arg(&file)
        .output()
        .expect("mofmu runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("error[CS001]"), "{stderr}");
    assert!(stderr.contains("bad.toml:2:"), "{stderr}");
    assert!(!dir.path().join("bad.csv").exists());
}
