//! Declared tearing end to end: a body sliding freely along a dialectic
//! prismatic joint whose force is a LinearResponse. The exported FMU is
//! simulated through the harness and compared with the closed form of the
//! textbook equations; a configuration that makes the tearing matrix
//! singular must fail with a message naming the LinearResponse.

use std::path::Path;

use mofmu::export::{export_model, ExportError};
use mofmu::harness::{simulate, SimOptions};
use mofmu::instantiate::SetValue;
use mofmu::library::load_library;
use mofmu::loader::load_paths;
use mofmu::package::{build_fmu, ObjectCache};

fn export_fall(sets: &[SetValue], name: &str) -> std::path::PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files = load_paths(&[root.join("test_data/tearing/Slide.mo")]).expect("fixture loads");
    let lib = load_library(files);
    let out = match export_model(&lib, "Slide.Fall", sets, 1.0) {
        Ok(o) => o,
        Err(ExportError::Diagnostics(d)) => panic!("export failed: {d:?}"),
        Err(e) => panic!("export failed: {e:?}"),
    };
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("tearing");
    let cache = ObjectCache::new(dir.join("cache"));
    let fmu = dir.join(format!("{name}.fmu"));
    build_fmu(&out.build_spec(), &fmu, Some(&cache)).expect("packaging works");
    fmu
}

#[test]
fn sliding_body_matches_the_closed_form() {
    let fmu = export_fall(&[], "fall");
    let opts = SimOptions {
        stop_time: Some(1.0),
        output_interval: Some(0.01),
        relative_tolerance: Some(1e-10),
        ..SimOptions::default()
    };
    let result = simulate(&fmu, &opts).expect("simulates");
    let t = result.column("time").expect("time");
    let s = result.column("slider.s").expect("slider.s");
    let v = result.column("slider.v").expect("slider.v");
    // m s'' = m g with the dialectic term: der(s) = v + z*TD, der(v) = z,
    // and z = g (the joint transmits no force): s = s0 + g t^2/2 + g TD t.
    let (g, td, s0) = (-9.81, 0.01, 1.0);
    let mut worst: f64 = 0.0;
    for k in 0..t.len() {
        let s_ref = s0 + g * t[k] * t[k] / 2.0 + g * td * t[k];
        let v_ref = g * t[k];
        worst = worst.max((s[k] - s_ref).abs()).max((v[k] - v_ref).abs());
    }
    assert!(
        worst < 1e-8,
        "worst deviation from the closed form: {worst:e}"
    );
    assert!((t[t.len() - 1] - 1.0).abs() < 1e-12);
}

#[test]
fn singular_tearing_names_the_linear_response() {
    // A massless body transmits no force whatever the acceleration: the
    // residual does not depend on the balance.
    let fmu = export_fall(
        &[SetValue {
            path: "body.m".into(),
            value: 0.0.into(),
        }],
        "fall_massless",
    );
    let err = simulate(&fmu, &SimOptions::default()).expect_err("a singular tearing must fail");
    let text = err.to_string();
    assert!(text.contains("singular"), "{text}");
    assert!(text.contains("slider.cut"), "{text}");
}

#[test]
fn carried_derivatives_travel_through_a_connection() {
    carried_derivatives_reach_the_receiver("Carried.mo", "W2.M", "carried.fmu");
}

/// A wrapper that only connects its own output to a component's passes the
/// carried derivatives on through that connection (before, MC065 asked the
/// wrapper for an equation it could not write).
#[test]
fn carried_derivatives_travel_through_a_wrapper() {
    carried_derivatives_reach_the_receiver("Wrapped.mo", "W3.M", "wrapped.fmu");
}

/// Exports `model` of `test_data/derivatives/<file>`, where a receiver reads
/// v = der(x) and a = der(der(x)) of x = 3 sin(2t), and checks both.
fn carried_derivatives_reach_the_receiver(file: &str, model: &str, fmu_name: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files =
        load_paths(&[root.join("test_data/derivatives").join(file)]).expect("fixture loads");
    let lib = load_library(files);
    let out =
        export_model(&lib, model, &[], 1.0).unwrap_or_else(|e| panic!("export failed: {e:?}"));
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("derivatives");
    let fmu = dir.join(fmu_name);
    build_fmu(
        &out.build_spec(),
        &fmu,
        Some(&ObjectCache::new(dir.join("cache"))),
    )
    .expect("packaging works");
    let opts = SimOptions {
        stop_time: Some(1.0),
        output_interval: Some(0.05),
        ..SimOptions::default()
    };
    let result = simulate(&fmu, &opts).expect("simulates");
    let t = result.column("time").expect("time");
    let v = result.column("v").expect("v");
    let a = result.column("a").expect("a");
    for k in 0..t.len() {
        // x = 3 sin(2t): x' = 6 cos(2t), x'' = -12 sin(2t).
        assert!(
            (v[k] - 6.0 * (2.0 * t[k]).cos()).abs() < 1e-12,
            "v at {}",
            t[k]
        );
        assert!(
            (a[k] + 12.0 * (2.0 * t[k]).sin()).abs() < 1e-12,
            "a at {}",
            t[k]
        );
    }
}

#[test]
fn rotational_spring_damper_matches_the_closed_form() {
    // Planar.Rotational: an inertia (a LinearResponse chooses its
    // acceleration) on a spring-damper to a fixed flange, with a constant
    // torque: J phi'' = -c phi - d phi' + tau, the textbook damped
    // oscillator about phi = tau/c.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files = load_paths(&[
        root.join("examples/Base.mo"),
        root.join("examples/Signals.mo"),
        root.join("examples/Planar"),
        root.join("test_data/tearing/Torsion.mo"),
    ])
    .expect("libraries load");
    let lib = load_library(files);
    let out =
        export_model(&lib, "Torsion", &[], 5.0).unwrap_or_else(|e| panic!("export failed: {e:?}"));
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("tearing");
    let fmu = dir.join("torsion.fmu");
    build_fmu(
        &out.build_spec(),
        &fmu,
        Some(&ObjectCache::new(dir.join("cache"))),
    )
    .expect("packaging works");
    let opts = SimOptions {
        stop_time: Some(5.0),
        output_interval: Some(0.01),
        relative_tolerance: Some(1e-10),
        ..SimOptions::default()
    };
    let result = simulate(&fmu, &opts).expect("simulates");
    let t = result.column("time").expect("time");
    let phi = result.column("inertia.phi").expect("inertia.phi");
    let w = result.column("inertia.w").expect("inertia.w");
    let (j, c, d, tau, phi0) = (1.0_f64, 4.0_f64, 0.4_f64, 2.0_f64, 1.0_f64);
    let omega0 = (c / j).sqrt();
    let zeta = d / (2.0 * (c * j).sqrt());
    let omega_d = omega0 * (1.0 - zeta * zeta).sqrt();
    let x0 = phi0 - tau / c;
    let mut worst: f64 = 0.0;
    for k in 0..t.len() {
        let decay = (-zeta * omega0 * t[k]).exp();
        let (s, co) = (omega_d * t[k]).sin_cos();
        let x = decay * x0 * (co + zeta * omega0 / omega_d * s);
        let x_dot = -decay * x0 * omega0 * omega0 / omega_d * s;
        worst = worst
            .max((phi[k] - (tau / c + x)).abs())
            .max((w[k] - x_dot).abs());
    }
    assert!(
        worst < 1e-7,
        "worst deviation from the closed form: {worst:e}"
    );
    assert!((t[t.len() - 1] - 5.0).abs() < 1e-12);
}
