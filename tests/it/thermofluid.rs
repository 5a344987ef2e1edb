//! ThermoFluid Stream Lite (examples/ThermoFluidStream): the library checks
//! clean, every example exports with no declared tearing (so its FMU solves
//! no linear system and, as every mofmu FMU, no nonlinear one), loads back
//! and ends where the closed forms of docs/thermofluid.md say; a volume
//! driven out of the medium's range stops the FMU with a message that names
//! the volume.

use mofmu::instantiate::SetValue;

use super::export::{export, library, package, shared_cache};

const TFS: &[&str] = &[
    "examples/Base.mo",
    "examples/Signals.mo",
    "examples/Thermal",
    "examples/ThermoFluidStream",
];

/// Exports `model` with `sets`, packages it and simulates it to
/// `stop_time` at the round trip's tolerance.
fn run(
    model: &str,
    sets: &[(&str, f64)],
    stop_time: f64,
) -> Result<mofmu::harness::SimResult, mofmu::harness::HarnessError> {
    let lib = library(TFS);
    let sets: Vec<SetValue> = sets
        .iter()
        .map(|(path, value)| SetValue {
            path: path.to_string(),
            value: (*value).into(),
        })
        .collect();
    let out = export(&lib, model, &sets);
    let topology = out
        .kernels
        .iter()
        .filter(|k| k.qualified.starts_with("ThermoFluidStream.Topology."))
        .count();
    // The only linear system an FMU of this library solves is a splitter's
    // or junction's own declared tearing, one balance per instance (each
    // example has at most one); there are no nonlinear systems in mofmu.
    assert_eq!(
        n_balances(&out.system_resource),
        topology as u32,
        "{model}: balances beyond the splitters' and junctions' own"
    );
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("tfs.fmu");
    package(&out, &path, &shared_cache());
    let options = mofmu::harness::SimOptions {
        stop_time: Some(stop_time),
        relative_tolerance: Some(1e-8),
        ..mofmu::harness::SimOptions::default()
    };
    mofmu::harness::simulate(&path, &options)
}

/// `n_balances` of the system resource (its layout: src/fmu/system_image.rs).
fn n_balances(image: &[u8]) -> u32 {
    let mut at = 8 + 4;
    let u32_at = |at: &mut usize| {
        let v = u32::from_le_bytes(image[*at..*at + 4].try_into().expect("4 bytes"));
        *at += 4;
        v
    };
    let skip_str = |at: &mut usize| {
        let n = u32::from_le_bytes(image[*at..*at + 4].try_into().expect("4 bytes")) as usize;
        *at += 4 + n;
    };
    skip_str(&mut at);
    skip_str(&mut at);
    let n_classes = u32_at(&mut at);
    for _ in 0..n_classes {
        skip_str(&mut at);
        at += 4 * 4;
    }
    // n_reals n_integers n_booleans n_states n_event_indicators n_relations
    // n_instances n_steps, then n_balances.
    at += 8 * 4;
    u32_at(&mut at)
}

fn last(result: &mofmu::harness::SimResult, name: &str) -> f64 {
    *result.column(name).expect("recorded").last().expect("rows")
}

#[test]
fn thermofluid_library_checks_clean() {
    let lib = library(TFS);
    let diagnostics = mofmu::export::check_library(&lib);
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
}

/// The laminar path relaxes to 2e5/k with k = 8 mu l/(pi rho r^4); the
/// linear-quadratic one stays at its steady state 40 kg/s.
#[test]
fn flow_resistance_paths_end_at_their_closed_forms() {
    let result = run("ThermoFluidStream.Examples.FlowResistance", &[], 10.0).expect("simulates");
    let rho = 3e5 / (287.05 * 300.0);
    let k = 8.0 * 1.82e-5 * 100.0 / (std::f64::consts::PI * rho * 0.02f64.powi(4));
    let l_sum = 0.01 + 1000.0 + 0.01;
    let laminar = 2e5 / k * (1.0 - (-k * 10.0 / l_sum).exp());
    for (name, expected) in [
        ("sinkLinQuad.m_flow", 40.0),
        ("sinkLaminar.m_flow", laminar),
    ] {
        let value = last(&result, name);
        assert!(
            ((value - expected) / expected).abs() < 1e-6,
            "{name}: {value} vs {expected}"
        );
    }
}

/// At its design speed the pump's volume flow settles at the design flow.
#[test]
fn pump_settles_at_the_design_flow() {
    let result = run("ThermoFluidStream.Examples.Pump", &[], 30.0).expect("simulates");
    let v_flow = last(&result, "sink.m_flow") / 995.586;
    assert!(((v_flow - 1.6667e-3) / 1.6667e-3).abs() < 1e-6, "{v_flow}");
}

/// A heat flow that drains the gas below 0 K (a negative U*A to the hot
/// wall) leaves the ideal gas's range: the FMU stops with the volume's name
/// and the medium function instead of integrating a NaN.
#[test]
fn a_volume_out_of_range_stops_with_its_name() {
    let error = run(
        "ThermoFluidStream.Examples.HeatedVolume",
        &[("volume.UA", -4000.0)],
        20.0,
    )
    .expect_err("the gas cannot be cooled below 0 K");
    let message = error.to_string();
    assert!(
        message.contains(
            "volume: function ThermoFluidStream.Media.pressure_du gave no finite value for its output p"
        ),
        "{message}"
    );
}

/// The last row of a committed reference, by column name.
fn reference_end(stem: &str) -> Vec<(String, f64)> {
    let text = std::fs::read_to_string(
        super::export::repo().join(format!("fmu-tests/references/{stem}.csv")),
    )
    .expect("reference");
    let header: Vec<String> = text
        .lines()
        .next()
        .expect("header")
        .split(',')
        .map(|n| n.trim_matches('"').to_string())
        .collect();
    let values = text
        .lines()
        .last()
        .expect("rows")
        .split(',')
        .map(|v| v.parse::<f64>().expect("a number"));
    header.into_iter().zip(values).skip(1).collect()
}

/// The states at the end of `model` agree with the reference (Radau, rtol
/// 1e-12, of the published equations) to 1e-6.
fn ends_at_reference(model: &str, stem: &str, stop_time: f64, states: &[&str]) {
    let result = run(model, &[], stop_time).expect("simulates");
    let reference = reference_end(stem);
    for name in states {
        let expected = reference
            .iter()
            .find(|(n, _)| n == name)
            .unwrap_or_else(|| panic!("{stem} has {name}"))
            .1;
        let value = last(&result, name);
        assert!(
            ((value - expected) / expected).abs() < 1e-6,
            "{name}: {value} vs {expected}"
        );
    }
}

/// The splitter's declared tearing couples the two paths through the
/// acceleration of their shared inlet path.
#[test]
fn splitter_couples_its_paths_by_one_balance() {
    ends_at_reference(
        "ThermoFluidStream.Examples.Splitter",
        "TFS_Splitter",
        20.0,
        &["sinkA.m_flow", "sinkB.m_flow"],
    );
}

/// The junction closes one inlet path and continues the other; its one
/// balance reproduces the published symmetric junction equations.
#[test]
fn junction_mixes_two_paths_by_one_balance() {
    ends_at_reference(
        "ThermoFluidStream.Examples.Junction",
        "TFS_Junction",
        20.0,
        &["junction.mA", "sink.m_flow"],
    );
}
