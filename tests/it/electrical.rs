//! The Electrical library (examples/Electrical, docs/electrical.md): its
//! examples and the small circuits of `test_data/electrical/Circuits.mo`
//! exported, loaded back through the harness and compared with closed forms
//! written here from the textbook (the round trips against the references of
//! `fmu-tests/references/electrical_references.py` run in
//! `export::every_example_case_matches_its_reference`). The transmission
//! line's load follows its source by length*sqrt(l*c), and another number
//! of segments compiles nothing.

use std::path::Path;

use mofmu::harness::{simulate, SimOptions, SimResult};
use mofmu::package::ObjectCache;

use crate::export::{export, library, package, set, shared_cache, zip_entry};

const ELECTRICAL: &[&str] = &[
    "examples/Base.mo",
    "examples/Signals.mo",
    "examples/Planar",
    "examples/Electrical",
];

const CIRCUITS: &[&str] = &[
    "examples/Base.mo",
    "examples/Signals.mo",
    "examples/Planar",
    "examples/Electrical",
    "test_data/electrical/Circuits.mo",
];

/// Exports `model` of `libraries` with `sets`, simulates it to `stop` at
/// relative tolerance `rtol` and returns the recorded `outputs`.
fn run(
    libraries: &[&str],
    model: &str,
    sets: &[mofmu::instantiate::SetValue],
    stop: f64,
    rtol: f64,
    outputs: &[&str],
) -> SimResult {
    let lib = library(libraries);
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("model.fmu");
    package(&export(&lib, model, sets), &path, &shared_cache());
    let options = SimOptions {
        stop_time: Some(stop),
        relative_tolerance: Some(rtol),
        output: outputs.iter().map(|s| s.to_string()).collect(),
        ..SimOptions::default()
    };
    simulate(&path, &options).unwrap_or_else(|e| panic!("{model}: {e}"))
}

/// Every recorded value of `name` against `exact(t)`, to `abs + rel*|exact|`.
fn assert_follows(result: &SimResult, name: &str, exact: impl Fn(f64) -> f64, abs: f64, rel: f64) {
    let time = result.column("time").expect("time");
    let values = result.column(name).expect("recorded");
    assert!(time.len() > 10, "{name}: too few rows");
    for (t, x) in time.iter().zip(&values) {
        let want = exact(*t);
        assert!(
            (x - want).abs() <= abs + rel * want.abs(),
            "{name}({t}) = {x}, the closed form gives {want}"
        );
    }
}

/// The solution at rest of x' = A x + b for a 2x2 A with real distinct or
/// complex eigenvalues, from its eigenvalues (the textbook's two cases).
fn second_order_at_rest(a: [[f64; 2]; 2], b: [f64; 2], t: f64) -> [f64; 2] {
    let det = a[0][0] * a[1][1] - a[0][1] * a[1][0];
    // The steady state x* solves A x* = -b; x = x* + y with y' = A y,
    // y(0) = -x*.
    let star = [
        (-b[0] * a[1][1] + b[1] * a[0][1]) / det,
        (-b[1] * a[0][0] + b[0] * a[1][0]) / det,
    ];
    let y0 = [-star[0], -star[1]];
    let trace = a[0][0] + a[1][1];
    let half = trace / 2.0;
    let disc = half * half - det;
    // exp(A t) = e^(half t) (c(t) I + s(t) (A - half I)), with c, s the
    // cosine and sine (or their hyperbolic twins) of sqrt(|disc|) t.
    let (c, s) = if disc < 0.0 {
        let w = (-disc).sqrt();
        ((w * t).cos(), (w * t).sin() / w)
    } else {
        let w = disc.sqrt();
        ((w * t).cosh(), (w * t).sinh() / w)
    };
    let e = (half * t).exp();
    let m = [[a[0][0] - half, a[0][1]], [a[1][0], a[1][1] - half]];
    let y = [
        e * (c * y0[0] + s * (m[0][0] * y0[0] + m[0][1] * y0[1])),
        e * (c * y0[1] + s * (m[1][0] * y0[0] + m[1][1] * y0[1])),
    ];
    [star[0] + y[0], star[1] + y[1]]
}

#[test]
fn series_rlc_and_dc_motor_match_their_closed_forms() {
    // The step of V on R, L, C in series: L i' = V - R i - vC, C vC' = i.
    for r in [10.0, 40.0] {
        let (v, l, c) = (1.0, 0.1, 1e-3);
        let a = [[-r / l, -1.0 / l], [1.0 / c, 0.0]];
        let b = [v / l, 0.0];
        let result = run(
            ELECTRICAL,
            "Electrical.Examples.SeriesRLC",
            &[set("R", r)],
            0.2,
            1e-8,
            &["vC", "i"],
        );
        assert_follows(
            &result,
            "i",
            |t| second_order_at_rest(a, b, t)[0],
            1e-6,
            1e-6,
        );
        assert_follows(
            &result,
            "vC",
            |t| second_order_at_rest(a, b, t)[1],
            1e-6,
            1e-6,
        );
    }
    // The motor: L i' = V - R i - k w, J w' = k i - d w.
    let (v, r, l, k, j, d) = (12.0, 1.0, 0.02, 0.1, 0.002, 0.001);
    let a = [[-r / l, -k / l], [k / j, -d / j]];
    let b = [v / l, 0.0];
    let result = run(
        ELECTRICAL,
        "Electrical.Examples.DCMotor",
        &[],
        1.0,
        1e-8,
        &["w", "i"],
    );
    assert_follows(
        &result,
        "i",
        |t| second_order_at_rest(a, b, t)[0],
        1e-5,
        1e-6,
    );
    assert_follows(
        &result,
        "w",
        |t| second_order_at_rest(a, b, t)[1],
        1e-5,
        1e-6,
    );
}

#[test]
fn the_line_delays_the_step_by_length_times_sqrt_lc() {
    // The suite's values: the load crosses half the step one line delay
    // after the filter's output does. The filter (w, D = 1, at rest) gives
    // 1 - (1 + w t) exp(-w t), which reaches 1/2 at w t = 1.678346990...
    let (length, l, c, w) = (100.0f64, 253e-9f64, 101e-12f64, 5e6f64);
    let delay = length * (l * c).sqrt();
    let mut wt = 1.0f64;
    for _ in 0..50 {
        let f = 1.0 - (1.0 + wt) * (-wt).exp() - 0.5;
        wt -= f / (wt * (-wt).exp());
    }
    let source_half = wt / w;
    for n in [30.0, 60.0] {
        let result = run(
            ELECTRICAL,
            "Electrical.Examples.TransmissionLine",
            &[set("N", n)],
            4e-6,
            1e-10,
            &["vLoad", "filter.y"],
        );
        assert_follows(
            &result,
            "filter.y",
            |t| 1.0 - (1.0 + w * t) * (-w * t).exp(),
            1e-7,
            1e-7,
        );
        let time = result.column("time").expect("time");
        let load = result.column("vLoad").expect("vLoad");
        let k = load
            .iter()
            .position(|v| *v >= 0.5)
            .expect("the load reaches 1/2");
        let load_half =
            time[k - 1] + (0.5 - load[k - 1]) / (load[k] - load[k - 1]) * (time[k] - time[k - 1]);
        let measured = load_half - source_half;
        assert!(
            (measured - delay).abs() < 0.02 * delay,
            "N = {n}: the load follows {measured:e} s after the source, length*sqrt(l*c) = {delay:e} s"
        );
        // Before the wave arrives the load is at rest.
        let early = time
            .iter()
            .position(|t| *t >= 0.5 * delay)
            .expect("early rows");
        assert!(
            load[..early].iter().all(|v| v.abs() < 1e-3),
            "N = {n}: the load moved early"
        );
    }
}

#[test]
fn another_number_of_segments_compiles_nothing() {
    let lib = library(ELECTRICAL);
    let dir = tempfile::tempdir().expect("temp dir");
    let cache = ObjectCache::new(dir.path().join("cache"));
    let mut libraries = Vec::new();
    for n in [30.0, 60.0, 1000.0] {
        let path = dir.path().join(format!("line{n}.fmu"));
        let report = package(
            &export(&lib, "Electrical.Examples.TransmissionLine", &[set("N", n)]),
            &path,
            &cache,
        );
        if n != 30.0 {
            assert_eq!(report.objects_compiled, 0, "N = {n} compiled new objects");
            assert!(report.library_from_cache, "N = {n} linked a new library");
        }
        libraries.push(zip_entry(
            &path,
            "binaries/linux64/Electrical_Examples_TransmissionLine.so",
        ));
    }
    assert!(
        libraries.windows(2).all(|w| w[0] == w[1]),
        "one library for every N"
    );
}

#[test]
fn small_circuits_match_their_closed_forms() {
    // A divider through a Node: 10 V * 3k / (1k + 3k).
    let result = run(CIRCUITS, "Circuits.Divider", &[], 1.0, 1e-8, &["vOut"]);
    assert_follows(&result, "vOut", |_| 7.5, 1e-12, 1e-12);
    // I = 1 mA into C = 1 mF with R = 2 kOhm: v = I R (1 - exp(-t/(R C))).
    let result = run(CIRCUITS, "Circuits.CurrentRC", &[], 6.0, 1e-8, &["v"]);
    assert_follows(&result, "v", |t| 2.0 * (1.0 - (-t / 2.0).exp()), 1e-6, 1e-6);
    // A 2 V step at 0.1 s on R = 4 and L = 0.5: i = V/R (1 - exp(-R (t - 0.1)/L)).
    let result = run(CIRCUITS, "Circuits.SensedRL", &[], 1.0, 1e-8, &["i"]);
    let exact = |t: f64| {
        if t < 0.1 {
            0.0
        } else {
            0.5 * (1.0 - (-8.0 * (t - 0.1)).exp())
        }
    };
    // The row at the step's instant is recorded before and after it.
    let time = result.column("time").expect("time");
    let values = result.column("i").expect("i");
    for (t, x) in time.iter().zip(&values) {
        if (t - 0.1).abs() > 1e-12 {
            assert!(
                (x - exact(*t)).abs() <= 1e-6,
                "i({t}) = {x}, exact {}",
                exact(*t)
            );
        }
    }
    // The newcomer's RC: v = V (1 - exp(-t/(R C))).
    let result = run(CIRCUITS, "Circuits.RC", &[], 5.0, 1e-8, &["v"]);
    assert_follows(&result, "v", |t| 1.0 - (-t).exp(), 1e-6, 1e-6);
}

#[test]
fn the_library_checks_clean_with_its_docs() {
    let lib = library(CIRCUITS);
    let diags = mofmu::library::check_library(&lib);
    assert!(diags.is_empty(), "{diags:?}");
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/electrical.md"))
            .expect("docs/electrical.md");
    for class in [
        "Ground",
        "Resistor",
        "SeriesResistor",
        "Capacitor",
        "Inductor",
        "Node",
        "EMF",
        "ConstantVoltage",
        "StepVoltage",
        "SignalVoltage",
        "ConstantCurrent",
        "StepCurrent",
        "SignalCurrent",
        "PotentialSensor",
        "VoltageSensor",
        "CurrentSensor",
    ] {
        let named = ["Basic", "Sources", "Sensors"]
            .iter()
            .any(|package| doc.contains(&format!("`{package}.{class}")));
        assert!(named, "docs/electrical.md's table names {class}");
    }
}

/// The line's data are parameters (issue 58): an importer that sets
/// `length` before initialisation gets the same run as an export with
/// `--set length=...`, to the bit, and the export compiles nothing; twice
/// the length, twice the delay (each segment's elements are bound to the
/// model's calculated parameters Rseg, Lseg, Cseg).
#[test]
fn the_line_data_are_parameters_an_importer_sets() {
    let lib = library(ELECTRICAL);
    let dir = tempfile::tempdir().expect("temp dir");
    let cache = ObjectCache::new(dir.path().join("cache"));
    let model = "Electrical.Examples.TransmissionLine";
    let plain = dir.path().join("line.fmu");
    package(&export(&lib, model, &[]), &plain, &cache);
    let longer = dir.path().join("line200.fmu");
    let report = package(
        &export(&lib, model, &[set("length", 200.0)]),
        &longer,
        &cache,
    );
    assert_eq!(
        report.objects_compiled, 0,
        "--set length compiled new objects"
    );
    let outputs = ["vLoad", "Rseg", "Cseg", "TD"];
    let options = |start_values: Vec<(String, f64)>| SimOptions {
        stop_time: Some(4e-6),
        relative_tolerance: Some(1e-10),
        output: outputs.iter().map(|s| s.to_string()).collect(),
        start_values,
        ..SimOptions::default()
    };
    let set_by_importer = simulate(&plain, &options(vec![("length".to_string(), 200.0)]))
        .expect("the importer sets length");
    let set_at_export = simulate(&longer, &options(Vec::new())).expect("the export at 200 m");
    for name in ["time"].iter().chain(outputs.iter()) {
        let a = set_by_importer.column(name).expect("recorded");
        let b = set_at_export.column(name).expect("recorded");
        assert!(
            a.len() == b.len() && a.iter().zip(&b).all(|(x, y)| x.to_bits() == y.to_bits()),
            "{name} differs between the importer's length and the export's"
        );
    }
    let (l, c) = (253e-9f64, 101e-12f64);
    let r = set_by_importer.column("Rseg").expect("Rseg");
    assert_eq!(r[0], 48e-6 * 200.0 / 30.0);
    let td = set_by_importer.column("TD").expect("TD");
    assert!(
        (td[0] - 200.0 * (l * c).sqrt()).abs() < 1e-18,
        "TD = {}",
        td[0]
    );
    // The load is still at rest at the 100 m line's delay.
    let time = set_by_importer.column("time").expect("time");
    let load = set_by_importer.column("vLoad").expect("vLoad");
    let at = time
        .iter()
        .position(|t| *t >= 100.0 * (l * c).sqrt())
        .expect("rows");
    assert!(
        load[..at].iter().all(|v| v.abs() < 1e-3),
        "the load moved early"
    );
    assert!(load.last().is_some_and(|v| *v > 0.9), "the step arrives");
}
