//! ThermoFluid Stream Lite (examples/ThermoFluidStream): the library checks
//! clean, every example exports with one declared tearing per splitter and
//! none else (so its FMU solves no linear system larger than a splitter's
//! own 1x1 and, as every mofmu FMU, no nonlinear one), loads back
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
    assert_eq!(
        n_balances(&out.system_resource),
        splitters(model),
        "{model}: balances beyond the splitters' own"
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

/// The splitters of each example: the only classes with a declared tearing
/// (one balance each). Junctions pass their inlet paths' parallel inertance
/// downstream and need none.
fn splitters(model: &str) -> u32 {
    match model.rsplit('.').next().expect("a name") {
        "Splitter" | "JunctionN" | "CoolingLoop" | "CoolingLoopChannel" => 1,
        // SplitterX and the splitter inside each of the two X junctions, in
        // networks that share nothing: three balances, none coupled.
        "Fittings" => 3,
        _ => 0,
    }
}

/// `n_balances` of the system resource (its layout: src/fmu/image/system_image.rs).
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
    let diagnostics = mofmu::library::check_library(&lib);
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

/// A heat flow that drains the gas below 0 K (a negative heat transfer
/// coefficient U, so U*A = -4000 W/K to the hot wall) leaves the ideal gas's
/// range: the FMU stops with the volume's name and the medium function
/// instead of integrating a NaN.
#[test]
fn a_volume_out_of_range_stops_with_its_name() {
    let error = run(
        "ThermoFluidStream.Examples.HeatedVolume",
        &[("volume.U", -2000.0)],
        20.0,
    )
    .expect_err("the gas cannot be cooled below 0 K");
    let message = error.to_string();
    assert!(
        message.contains(
            "volume: function ThermoFluidStream.Media.SimpleAir.pressure_du gave no finite value for its output p"
        ),
        "{message}"
    );
}

/// The media are packages that implement `PartialMedium`'s partial
/// functions; the liquid implements no `pressure_du`. A gas volume
/// redeclared to the liquid is refused at its call of the function
/// (`MC128`), which names the medium and the function; the same volume with
/// the gas, and the liquid volume with the liquid, check clean.
#[test]
fn a_gas_volume_with_the_liquid_is_refused_at_its_pressure_call() {
    let model = |volume: &str, medium: &str| {
        format!(
            r#"
encapsulated package Wrong
  import TFS = ThermoFluidStream;
  import Thermal;
  model M
    TFS.Boundaries.Source source(redeclare package Medium = TFS.Media.{medium}, p0 = 2e5, T0 = 293.15);
    TFS.Boundaries.{volume} volume(redeclare package Medium = TFS.Media.{medium}, V = 0.01, useHeatPort = true);
    TFS.Boundaries.Sink sink(redeclare package Medium = TFS.Media.{medium}, p0 = 1e5);
    Thermal.Components.FixedTemperature wall(T = 300);
  equation
    connect(source.outlet, volume.inlet);
    connect(volume.outlet, sink.inlet);
    connect(wall.port, volume.heatPort);
  end M;
end Wrong;
"#
        )
    };
    let check = |text: String| {
        let paths: Vec<std::path::PathBuf> =
            TFS.iter().map(|p| super::export::repo().join(p)).collect();
        let mut files = mofmu::loader::load_paths(&paths).expect("the examples load");
        files.push(("Wrong.mo".to_string(), text));
        let lib = mofmu::library::load_library(files);
        assert!(lib.diagnostics.is_empty(), "{:?}", lib.diagnostics);
        let diagnostics = mofmu::library::check_library(&lib);
        (lib, diagnostics)
    };
    let (_, clean) = check(model("Volume", "SimpleAir"));
    assert!(clean.is_empty(), "{clean:?}");
    let (_, clean) = check(model("VolumeLiquid", "SimpleLiquidWater"));
    assert!(clean.is_empty(), "{clean:?}");
    let (lib, diagnostics) = check(model("Volume", "SimpleLiquidWater"));
    // One root cause, one error: the volume's equations that the call
    // leaves undetermined are not reported as well.
    let first = diagnostics.first().expect("an error");
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    assert_eq!(first.code, "MC128", "{diagnostics:?}");
    assert!(
        first
            .message
            .contains("ThermoFluidStream.Media.SimpleLiquidWater.pressure_du"),
        "{}",
        first.message
    );
    assert!(
        lib.sources
            .snippet(first.span)
            .starts_with("Medium.pressure_du"),
        "{}",
        lib.sources.snippet(first.span)
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

/// The junction closes one inlet path and continues the other; with no
/// balance (its outlet carries the inlet paths' parallel inertance) it
/// reproduces the published symmetric junction equations.
#[test]
fn junction_mixes_two_paths_without_a_balance() {
    ends_at_reference(
        "ThermoFluidStream.Examples.Junction",
        "TFS_Junction",
        20.0,
        &["junction.mA", "sink.m_flow"],
    );
}

/// JunctionN over a connector array of three inlets, then SplitterN over two
/// outlets: the published JunctionN/SplitterN equations, one balance (the
/// splitter's own) in the FMU.
#[test]
fn junction_n_and_splitter_n_follow_the_published_equations() {
    ends_at_reference(
        "ThermoFluidStream.Examples.JunctionN",
        "TFS_JunctionN",
        20.0,
        &[
            "junction.m[1]",
            "junction.m[2]",
            "sinkA.m_flow",
            "sinkB.m_flow",
        ],
    );
}

/// The T variants (`SplitterT1`, `SplitterT2`, `JunctionT2`) are the N classes with N = 2
/// behind two named ports: wrappers whose flows, with their carried
/// derivatives, come through their connects. Examples.Splitter and
/// Examples.Junction built from them end at the same references.
#[test]
fn t_variants_wrap_the_n_classes() {
    let mut files = TFS.to_vec();
    files.push("test_data/thermofluid/TVariants.mo");
    let lib = library(&files);
    let diagnostics = mofmu::library::check_library(&lib);
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
    for (model, stem, pairs) in [
        (
            "TVariants.Splitter",
            "TFS_Splitter",
            &[
                ("sinkA.m_flow", "sinkA.m_flow"),
                ("sinkB.m_flow", "sinkB.m_flow"),
            ],
        ),
        (
            "TVariants.SplitterT1",
            "TFS_Splitter",
            &[
                ("sinkA.m_flow", "sinkA.m_flow"),
                ("sinkB.m_flow", "sinkB.m_flow"),
            ],
        ),
        (
            "TVariants.Junction",
            "TFS_Junction",
            &[
                ("junction.junction.m[1]", "junction.mA"),
                ("sink.m_flow", "sink.m_flow"),
            ],
        ),
    ] {
        let out = export(&lib, model, &[]);
        assert_eq!(
            n_balances(&out.system_resource),
            u32::from(model.contains("Splitter"))
        );
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("t2.fmu");
        package(&out, &path, &shared_cache());
        let options = mofmu::harness::SimOptions {
            stop_time: Some(20.0),
            relative_tolerance: Some(1e-8),
            ..mofmu::harness::SimOptions::default()
        };
        let result = mofmu::harness::simulate(&path, &options).expect("simulates");
        let reference = reference_end(stem);
        for (name, reference_name) in pairs {
            let expected = reference
                .iter()
                .find(|(n, _)| n == reference_name)
                .unwrap_or_else(|| panic!("{stem} has {reference_name}"))
                .1;
            let value = last(&result, name);
            assert!(
                ((value - expected) / expected).abs() < 1e-6,
                "{model} {name}: {value} vs {expected}"
            );
        }
    }
}

/// The T and X fittings (JunctionX3, SplitterX, JunctionT1, and JunctionX1
/// and JunctionX2, each a JunctionN whose outlet feeds a SplitterN) in three
/// networks end where the published equations of the networks (Radau, one
/// linear system in the branch accelerations and node pressures) end: the
/// twelve path flows, the states (the mixed p and h are checked over the
/// whole run by the round trip, TFS_Fittings).
#[test]
fn t_and_x_fittings_follow_the_published_network_equations() {
    ends_at_reference(
        "ThermoFluidStream.Examples.Fittings",
        "TFS_Fittings",
        20.0,
        &[
            "junctionX3.junction.m[1]",
            "junctionX3.junction.m[2]",
            "sinkA.m_flow",
            "sinkB.m_flow",
            "junctionT1.junction.m[1]",
            "sinkE.m_flow",
            "junctionX1.junction.junction.m[1]",
            "sinkF.m_flow",
            "sinkG.m_flow",
            "junctionX2.junction.junction.m[1]",
            "sinkH.m_flow",
            "sinkI.m_flow",
        ],
    );
}

/// Every example's FMU: one balance per splitter, none else; the junction
/// of the cooling loop no longer couples with the splitter.
#[test]
fn every_example_solves_at_most_its_splitters_own_systems() {
    let lib = library(TFS);
    for name in [
        "FlowResistance",
        "Pump",
        "HeatedVolume",
        "HeatedPipe",
        "Splitter",
        "Junction",
        "JunctionN",
        "CoolingLoop",
        "CoolingLoopChannel",
        "Fittings",
    ] {
        let model = format!("ThermoFluidStream.Examples.{name}");
        let out = export(&lib, &model, &[]);
        let balances = n_balances(&out.system_resource);
        match balances {
            0 => eprintln!("{model}: no balance, no linear system"),
            b => eprintln!("{model}: {b} balance(s), one {b}x{b} linear system"),
        }
        assert_eq!(balances, splitters(&model), "{model}");
    }
}

const COOLING_LOOP: &str = "ThermoFluidStream.Examples.CoolingLoop";

/// Trapezoidal integral of `y` over `t`, at every row.
fn cumulative(t: &[f64], y: &[f64]) -> Vec<f64> {
    let mut sum = 0.0;
    let mut out = Vec::with_capacity(t.len());
    for i in 0..t.len() {
        if i > 0 {
            sum += 0.5 * (y[i] + y[i - 1]) * (t[i] - t[i - 1]);
        }
        out.push(sum);
    }
    out
}

/// The closed loop's energy balance: what its boundaries give (the heater's
/// 2 kW from `heatSource`, the pump's work m*dh) less what the radiator's
/// cells give to the ambient (the volume's port, at U*A = 0, gives none)
/// is, integrated, the change of the energy stored in the loop (the
/// volume's internal energy, M*h of the heater and of every cell, C*T of
/// the heater wall), to 1e-4 of the heat that has come in, at every output
/// point. The final temperatures' rises above the 293.15 K ambient agree
/// with the reference (Radau of the published equations) to 1e-4, and so
/// do the flows. One declared tearing (the splitter's) closes the loop: the
/// FMU solves one 1x1 linear system, at every n.
#[test]
fn cooling_loop_conserves_energy_and_ends_at_the_reference() {
    let n = 10;
    let lib = library(TFS);
    let out = export(&lib, COOLING_LOOP, &[]);
    assert_eq!(n_balances(&out.system_resource), 1, "the splitter's own");
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("loop.fmu");
    package(&out, &path, &shared_cache());
    let mut names: Vec<String> = [
        "volume.U_med",
        "volume.Q_flow",
        "heater.M",
        "heater.h",
        "heaterWall.T",
        "pump.m_flow",
        "pump.dh",
        "volume.T",
        "heater.T",
        "volume.m_flow_in",
        "junction.mA",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for i in 1..=n {
        for member in ["M", "h", "Q_flow", "T"] {
            names.push(format!("pipe[{i}].{member}"));
        }
    }
    let options = mofmu::harness::SimOptions {
        stop_time: Some(600.0),
        output_interval: Some(0.01),
        relative_tolerance: Some(1e-10),
        output: names,
        ..mofmu::harness::SimOptions::default()
    };
    let result = mofmu::harness::simulate(&path, &options).expect("simulates");
    let col = |name: &str| result.column(name).expect("recorded");
    let t = col("time");
    let (c_wall, q_heater) = (500.0, 2000.0);
    let mut stored: Vec<f64> = col("volume.U_med")
        .iter()
        .zip(col("heater.M").iter().zip(col("heater.h")))
        .zip(col("heaterWall.T"))
        .map(|((u, (m, h)), tw)| u + m * h + c_wall * tw)
        .collect();
    let mut power: Vec<f64> = col("pump.m_flow")
        .iter()
        .zip(col("pump.dh"))
        .zip(col("volume.Q_flow"))
        .map(|((m, dh), q)| q_heater + m * dh + q)
        .collect();
    let heat_in: Vec<f64> = power.clone();
    for i in 1..=n {
        let (m, h, q) = (
            col(&format!("pipe[{i}].M")),
            col(&format!("pipe[{i}].h")),
            col(&format!("pipe[{i}].Q_flow")),
        );
        for k in 0..t.len() {
            stored[k] += m[k] * h[k];
            power[k] += q[k];
        }
    }
    let supplied = cumulative(&t, &power);
    let came_in = cumulative(&t, &heat_in);
    let mut worst: f64 = 0.0;
    for k in 1..t.len() {
        let residual = (stored[k] - stored[0] - supplied[k]).abs() / came_in[k];
        worst = worst.max(residual);
        assert!(
            residual < 1e-4,
            "t = {}: stored {} vs supplied {} (heat in {})",
            t[k],
            stored[k] - stored[0],
            supplied[k],
            came_in[k]
        );
    }
    // The radiator gives most of the heat away by the end: the balance is
    // not only the storage.
    let radiated = supplied[t.len() - 1] - came_in[t.len() - 1];
    assert!(radiated < -0.5 * came_in[t.len() - 1], "{radiated}");
    eprintln!("CoolingLoop energy balance: worst residual {worst:.3e} of the heat in");

    let reference = reference_end("TFS_CoolingLoop");
    let expected = |name: &str| {
        reference
            .iter()
            .find(|(n, _)| n == name)
            .unwrap_or_else(|| panic!("TFS_CoolingLoop has {name}"))
            .1
    };
    let ambient = 293.15;
    for name in [
        "volume.T",
        "heater.T",
        "heaterWall.T",
        "pipe[1].T",
        "pipe[10].T",
    ] {
        let (value, reference) = (last(&result, name), expected(name));
        assert!(
            ((value - reference) / (reference - ambient)).abs() < 1e-4,
            "{name}: {value} vs {reference}"
        );
    }
    for name in ["volume.m_flow_in", "junction.mA"] {
        let (value, reference) = (last(&result, name), expected(name));
        assert!(
            ((value - reference) / reference).abs() < 1e-4,
            "{name}: {value} vs {reference}"
        );
    }
}

/// The radiator as a ConductionChannel with n ConductionCells on signals
/// (no r, L or m_flow chain through the cells) has the equations of the n
/// ConductionElements in series: at n = 10 it ends where the CoolingLoop's
/// reference (Radau of the published equations) ends, with the same one
/// balance.
#[test]
fn cooling_loop_channel_ends_at_the_cooling_loop_reference() {
    let lib = library(TFS);
    let model = "ThermoFluidStream.Examples.CoolingLoopChannel";
    let out = export(&lib, model, &[]);
    assert_eq!(n_balances(&out.system_resource), 1, "the splitter's own");
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("channel.fmu");
    package(&out, &path, &shared_cache());
    let names = [
        "volume.m_flow_in",
        "junction.mA",
        "volume.T",
        "heater.T",
        "heaterWall.T",
        "pipe[1].T",
        "pipe[10].T",
        "pump.dh",
    ];
    let options = mofmu::harness::SimOptions {
        stop_time: Some(600.0),
        relative_tolerance: Some(1e-8),
        output: names.iter().map(|s| s.to_string()).collect(),
        ..mofmu::harness::SimOptions::default()
    };
    let result = mofmu::harness::simulate(&path, &options).expect("simulates");
    let reference = reference_end("TFS_CoolingLoop");
    for name in names {
        let expected = reference
            .iter()
            .find(|(n, _)| n == name)
            .unwrap_or_else(|| panic!("TFS_CoolingLoop has {name}"))
            .1;
        let value = last(&result, name);
        assert!(
            ((value - expected) / expected).abs() < 1e-6,
            "{name}: {value} vs {expected}"
        );
    }
}

/// Issue 22's scale row: the cooling loop with n = 10^4 radiator cells
/// compiles no class code after n = 10 (the cells are instances of one
/// ConductionElement kernel; n lives in the system resource) and ships the
/// same shared library; its 1x1 linear system stays 1x1.
#[test]
fn cooling_loop_at_ten_thousand_cells_compiles_nothing_new() {
    use super::export::{export_interpreted, zip_entry};
    let lib = library(TFS);
    let dir = tempfile::tempdir().expect("temp dir");
    let cache = mofmu::package::ObjectCache::new(dir.path().join("cache"));
    let small = dir.path().join("loop10.fmu");
    let large = dir.path().join("loop10000.fmu");
    let set_n = |n: f64| {
        vec![SetValue {
            path: "n".to_string(),
            value: n.into(),
        }]
    };
    // Interpreted: at n = 10 the loop's shorter arrays are too short to
    // roll up, so its compiled schedule has another shape than at 10^4
    // (one more unit to compile); the kernels and system file are the same.
    let first = package(
        &export_interpreted(&lib, COOLING_LOOP, &set_n(10.0)),
        &small,
        &cache,
    );
    assert!(first.objects_compiled > 0, "the first export compiles");
    let out = export_interpreted(&lib, COOLING_LOOP, &set_n(10_000.0));
    assert_eq!(n_balances(&out.system_resource), 1);
    let report = package(&out, &large, &cache);
    assert_eq!(
        (report.objects_compiled, report.library_from_cache),
        (0, true),
        "the loop at n = 10^4 compiled something"
    );
    let so = "binaries/linux64/ThermoFluidStream_Examples_CoolingLoop.so";
    assert!(
        zip_entry(&small, so) == zip_entry(&large, so),
        "the library differs between n = 10 and n = 10^4"
    );
    let fmu = mofmu::harness::Fmu::load(&large).expect("loads");
    // The cells' enthalpies and the six states of the rest of the loop.
    assert_eq!(fmu.model_description().derivatives.len(), 10_006);
}

/// In initialization the loop's acceleration depends on the inertance
/// parameter of every cell (the path sums them), so at n = 1500 the
/// derivative of the loop's flow depends on more knowns than the model
/// description lists (1000): it is left unlisted ("depends on all"), while
/// a cell's enthalpy derivative keeps its short list. The analysis
/// saturates such sets instead of growing them along the path, which keeps
/// the export linear in n (it was quadratic: 19 s of CPU at n = 10^4).
#[test]
fn cooling_loop_lists_short_initial_dependencies_and_saturates_long_ones() {
    let lib = library(TFS);
    let out = export(
        &lib,
        COOLING_LOOP,
        &[SetValue {
            path: "n".to_string(),
            value: 1500.0.into(),
        }],
    );
    let table = &out.table;
    let derivative_of = |state: &str| {
        let s = table
            .variables
            .iter()
            .position(|v| v.name == state)
            .unwrap_or_else(|| panic!("{state}"));
        table
            .derivatives
            .iter()
            .copied()
            .find(|&d| table.variables[d].name == format!("der({state})"))
            .unwrap_or_else(|| panic!("der of {state} (#{s})"))
    };
    let loop_flow = derivative_of("volume.m_flow_in");
    assert!(table.initial_unknowns.contains(&loop_flow));
    assert!(
        !table.initial_dependencies.contains_key(&loop_flow),
        "the loop's acceleration lists its dependencies"
    );
    let cell = derivative_of("pipe[7].h");
    let listed = table
        .initial_dependencies
        .get(&cell)
        .expect("a cell's enthalpy derivative is listed");
    assert!(listed.knowns.len() < 100, "{}", listed.knowns.len());
}

/// The volume's optional heat port (a conditional connector, absent by
/// default as published). Examples.HeatedVolume has it and its wall when
/// `heated` is true; with `heated=false` the port, the wall and their
/// connect are gone: the description lists no `volume.heatPort`, no heat
/// enters the gas, and the volume's kernel is the same (its condition is
/// read from the instance's parameters, not compiled in). Both load back.
#[test]
fn the_volume_heat_port_is_present_or_absent_by_its_parameter() {
    let lib = library(TFS);
    let model = "ThermoFluidStream.Examples.HeatedVolume";
    let heated = export(&lib, model, &[]);
    let unheated = export(
        &lib,
        model,
        &[SetValue {
            path: "heated".into(),
            value: mofmu::instantiate::SetLiteral::Bool(false),
        }],
    );
    let lists = |out: &mofmu::export::ExportOutput, name: &str| {
        out.table.variables.iter().any(|v| v.name == name)
    };
    assert!(lists(&heated, "volume.heatPort.T"));
    assert!(lists(&heated, "volume.heatPort.Q_flow"));
    assert!(lists(&heated, "wall.port.T"));
    assert!(!lists(&unheated, "volume.heatPort.T"));
    assert!(!lists(&unheated, "volume.heatPort.Q_flow"));
    assert!(!lists(&unheated, "wall.port.T"));
    assert_eq!(
        heated.n_instances,
        unheated.n_instances + 1,
        "the wall is gone"
    );
    let volume_kernel = |out: &mofmu::export::ExportOutput| {
        out.kernels
            .iter()
            .find(|k| k.file_name.contains("Volume"))
            .map(|k| k.file_name.clone())
            .expect("the volume's kernel")
    };
    assert_eq!(volume_kernel(&heated), volume_kernel(&unheated));
    let dir = tempfile::tempdir().expect("temp dir");
    let simulate = |out: &mofmu::export::ExportOutput, name: &str| {
        let path = dir.path().join(name);
        package(out, &path, &shared_cache());
        let options = mofmu::harness::SimOptions {
            stop_time: Some(1.0),
            relative_tolerance: Some(1e-8),
            output: vec!["volume.Q_flow".into(), "volume.T".into()],
            ..mofmu::harness::SimOptions::default()
        };
        mofmu::harness::simulate(&path, &options).expect("simulates")
    };
    let present = simulate(&heated, "heated.fmu");
    let absent = simulate(&unheated, "unheated.fmu");
    assert!(
        last(&present, "volume.Q_flow") > 1e4,
        "the 500 K wall heats the gas"
    );
    assert_eq!(last(&absent, "volume.Q_flow"), 0.0);
    assert!(last(&absent, "volume.T") < last(&present, "volume.T"));
}
