//! `end` in subscripts (issue 21): `x[end]` is the declared size of the
//! dimension it indexes, for literal and parameter sizes, in equations,
//! bindings, `for` loop bodies and connects (`test_data/language/AccEnd.mo`).
//! Simulated through the harness and compared with closed forms; the
//! refusals that stay are the MC036 fixtures.

use std::path::{Path, PathBuf};

use mofmu::harness::{simulate, SimOptions, SimResult};
use mofmu::instantiate::SetValue;
use mofmu::library::Library;

use crate::export::{export, library, package, repo, set, shared_cache, zip_entry};

const ACC_END: &[&str] = &[
    "examples/Base.mo",
    "examples/Thermal",
    "test_data/language/AccEnd.mo",
];

/// The bundled `paths` and one more file, `name` with `text`; the library
/// must check clean.
fn library_with(paths: &[&str], name: &str, text: &str) -> Library {
    let paths: Vec<PathBuf> = paths.iter().map(|p| repo().join(p)).collect();
    let mut files = mofmu::loader::load_paths(&paths).expect("the bundled examples load");
    files.push((name.to_string(), text.to_string()));
    let lib = mofmu::library::load_library(files);
    let diagnostics = mofmu::library::check_library(&lib);
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
    lib
}

/// Exports `model` with `sets` to `fmu` and simulates it through the
/// harness to `stop`, a row every `interval`, at relative tolerance 1e-10,
/// recording `output`.
fn export_and_simulate(
    lib: &Library,
    model: &str,
    sets: &[SetValue],
    fmu: &Path,
    stop: f64,
    interval: f64,
    output: Vec<String>,
) -> SimResult {
    package(&export(lib, model, sets), fmu, &shared_cache());
    let options = SimOptions {
        stop_time: Some(stop),
        output_interval: Some(interval),
        relative_tolerance: Some(1e-10),
        output,
        ..SimOptions::default()
    };
    simulate(fmu, &options).expect("simulates")
}

/// The regularised lower incomplete gamma function P(i, z) for an integer
/// i: 1 - e^(-z) (1 + z + ... + z^(i-1)/(i-1)!).
fn gamma_p(i: usize, z: f64) -> f64 {
    let mut term = 1.0;
    let mut sum = 0.0;
    for k in 0..i {
        if k > 0 {
            term *= z / k as f64;
        }
        sum += term;
    }
    1.0 - (-z).exp() * sum
}

/// `AccEnd.Cascade`: der(x_1) = a(1 - x_1), der(x_i) = a(x_(i-1) - x_i),
/// the last tank written `x[end]`, from zero. The step response of a chain
/// of first-order lags is x_i(t) = P(i, a t). The binding `last = x[end]`,
/// the loop body `gap[i] = x[i] - x[end]` and the literal-size
/// `ends[end] = x[end - 1] - x[end]` follow from it. The same library
/// serves n = 4 and n = 6 (`end` is read from the instance's n).
#[test]
fn end_is_the_declared_size_in_equations_bindings_and_loops() {
    let lib = library(ACC_END);
    let diagnostics = mofmu::library::check_library(&lib);
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
    let dir = tempfile::tempdir().expect("temp dir");
    let mut libraries = Vec::new();
    for (n, a) in [(4usize, 2.0), (6, 1.5)] {
        let path = dir.path().join(format!("cascade{n}.fmu"));
        let mut output: Vec<String> = (1..=n).map(|i| format!("x[{i}]")).collect();
        output.extend((1..n).map(|i| format!("gap[{i}]")));
        output.extend(["last".into(), "ends[1]".into(), "ends[2]".into()]);
        let sets = [set("n", n as f64), set("a", a)];
        let result = export_and_simulate(&lib, "AccEnd.Cascade", &sets, &path, 2.0, 0.25, output);
        libraries.push(zip_entry(&path, "binaries/linux64/AccEnd_Cascade.so"));
        let time = result.column("time").expect("time").to_vec();
        assert_eq!(time.len(), 9, "{time:?}");
        let close = |name: &str, row: usize, expected: f64| {
            let got = result.column(name).expect("recorded")[row];
            assert!(
                (got - expected).abs() <= 1e-8,
                "n = {n} {name} at t = {}: {got} vs {expected}",
                time[row]
            );
        };
        for (row, &t) in time.iter().enumerate() {
            let x = |i: usize| gamma_p(i, a * t);
            for i in 1..=n {
                close(&format!("x[{i}]"), row, x(i));
            }
            for i in 1..n {
                close(&format!("gap[{i}]"), row, x(i) - x(n));
            }
            close("last", row, x(n));
            close("ends[1]", row, x(1));
            close("ends[2]", row, x(n - 1) - x(n));
        }
    }
    assert!(
        libraries[0] == libraries[1],
        "the library differs between n = 4 and n = 6"
    );
}

/// `AccEnd.Row`: `connect(heater.port, cap[end].port)` heats the last of
/// n capacitors (C = 5, T0 = 300, links G = 2, Q = 10). For n = 2 the mean
/// rises as T0 + Q t/(2C) and the difference d = T_2 - T_1 follows
/// C d' = Q - 2 G d, so d = Q/(2G) (1 - e^(-2 G t/C)); for n = 3 the
/// energy balance sum C T_i = 3 C T0 + Q t holds, and the heated end is
/// the warmest.
#[test]
fn end_in_a_connect_names_the_last_component() {
    let lib = library(ACC_END);
    let dir = tempfile::tempdir().expect("temp dir");
    let (q, c, g, t0) = (10.0, 5.0, 2.0, 300.0);
    for n in [2usize, 3] {
        let path = dir.path().join(format!("row{n}.fmu"));
        let output = (1..=n).map(|i| format!("cap[{i}].T")).collect();
        let sets = [set("n", n as f64)];
        let result = export_and_simulate(&lib, "AccEnd.Row", &sets, &path, 2.0, 0.5, output);
        let time = result.column("time").expect("time").to_vec();
        let temperature =
            |i: usize, row: usize| result.column(&format!("cap[{i}].T")).unwrap()[row];
        for (row, &t) in time.iter().enumerate() {
            let energy: f64 = (1..=n).map(|i| c * temperature(i, row)).sum();
            let expected = n as f64 * c * t0 + q * t;
            assert!(
                (energy - expected).abs() <= 1e-6,
                "n = {n} energy at t = {t}: {energy} vs {expected}"
            );
            if n == 2 {
                let d = q / (2.0 * g) * (1.0 - (-2.0 * g * t / c).exp());
                let mean = t0 + q * t / (2.0 * c);
                for (i, expected) in [(1, mean - d / 2.0), (2, mean + d / 2.0)] {
                    let got = temperature(i, row);
                    assert!(
                        (got - expected).abs() <= 1e-7,
                        "cap[{i}].T at t = {t}: {got} vs {expected}"
                    );
                }
            } else if t > 0.0 {
                assert!(temperature(n, row) > temperature(1, row), "t = {t}");
            }
        }
    }
}

/// `end` in every place of a two-dimensional index: `R[1, end]`,
/// `R[end, end - 2]` of a literal `R[2, 3]`, `c[end]` of a package
/// constant, and `cap[end, end]` of a two-dimensional array of components
/// in a connect. Closed forms: der(x) = R[1, 3] + R[2, 1] = 7, so x(t) = 7t;
/// y = c[3] = 3, z = R[2, 1] = 4; only cap[2, 3] is heated (Q = 10, C = 5,
/// T0 = 300), so its temperature is 300 + 2t and every other stays at 300.
#[test]
fn end_in_two_dimensional_indices_constants_and_connects() {
    let text = r#"
encapsulated package Ends
  import B = Base;
  import Thermal.Components;
  constant Real c[3] = {1, 2, 3};
  model M
    parameter Real R[2, 3] = [1, 2, 3; 4, 5, 6];
    B.ContinuousState x(start = 0);
    Real y;
    Real z;
  equation
    der(x) = R[1, end] + R[end, end - 2];
    y = c[end];
    z = R[end, 1];
  end M;
  model Grid
    Components.FixedHeatFlow hot(Q_flow = 10);
    Components.FixedHeatFlow none[2, 3](each Q_flow = 0);
    Components.HeatCapacitor cap[2, 3](each C = 5, each T0 = 300);
  equation
    connect(hot.port, cap[end, end].port);
    for i in 1:2 loop
      for j in 1:3 loop
        connect(none[i, j].port, cap[i, j].port);
      end for;
    end for;
  end Grid;
end Ends;
"#;
    let lib = library_with(&["examples/Base.mo", "examples/Thermal"], "Ends.mo", text);
    let dir = tempfile::tempdir().expect("temp dir");
    let run = |model: &str, output: Vec<String>| {
        let path = dir.path().join(format!("{model}.fmu"));
        export_and_simulate(&lib, model, &[], &path, 1.0, 0.5, output)
    };
    let m = run("Ends.M", vec!["x".into(), "y".into(), "z".into()]);
    let time = m.column("time").expect("time").to_vec();
    for (row, t) in time.iter().enumerate() {
        let at = |name: &str| m.column(name).expect("recorded")[row];
        assert!((at("x") - 7.0 * t).abs() <= 1e-9, "x at {t}: {}", at("x"));
        assert_eq!(at("y"), 3.0);
        assert_eq!(at("z"), 4.0);
    }
    let names: Vec<String> = (1..=2)
        .flat_map(|i| (1..=3).map(move |j| format!("cap[{i},{j}].T")))
        .collect();
    let g = run("Ends.Grid", names.clone());
    let time = g.column("time").expect("time").to_vec();
    for (row, t) in time.iter().enumerate() {
        for name in &names {
            let expected = if name == "cap[2,3].T" {
                300.0 + 2.0 * t
            } else {
                300.0
            };
            let got = g.column(name).expect("recorded")[row];
            assert!((got - expected).abs() <= 1e-9, "{name} at {t}: {got}");
        }
    }
}

/// One element of a parameter-sized array that a `for` loop determined,
/// read outside the loop, when the array's size is an expression of the
/// parameter (`Real gap[n - 1]` over `for i in 1:n - 1`): the last cell of a
/// pipe whose cells are variables. It was MC029 ("must determine `gap`"),
/// because the loop's ranges were compared with a size read as a literal or
/// a bare parameter only. With x_i(t) = e^(-k i t) from 1, the closed form
/// is gap_i = x_i - x_(i+1); `last = gap[n - 1]`, `first = gap[1]`.
#[test]
fn an_element_of_an_array_sized_by_an_expression_is_read_outside_its_loop() {
    let text = r#"
encapsulated package Cells
  import B = Base;
  model M
    parameter Integer n = 4;
    parameter Real k(unit = "s-1") = 1;
    B.ContinuousState x[n](each start = 1);
    Real gap[n - 1];
    Real last;
    Real first;
  equation
    for i in 1:n loop
      der(x[i]) = -k*i*x[i];
    end for;
    for i in 1:n - 1 loop
      gap[i] = x[i] - x[i + 1];
    end for;
    last = gap[n - 1];
    first = gap[1];
  end M;
end Cells;
"#;
    let lib = library_with(&["examples/Base.mo"], "Cells.mo", text);
    let dir = tempfile::tempdir().expect("temp dir");
    let mut libraries = Vec::new();
    for (n, k) in [(4usize, 1.0), (7, 0.5)] {
        let path = dir.path().join(format!("cells{n}.fmu"));
        let output = vec!["last".into(), "first".into()];
        let sets = [set("n", n as f64), set("k", k)];
        let result = export_and_simulate(&lib, "Cells.M", &sets, &path, 1.0, 0.25, output);
        libraries.push(zip_entry(&path, "binaries/linux64/Cells_M.so"));
        let time = result.column("time").expect("time").to_vec();
        assert_eq!(time.len(), 5, "{time:?}");
        for (row, &t) in time.iter().enumerate() {
            let x = |i: usize| (-k * i as f64 * t).exp();
            for (name, expected) in [("last", x(n - 1) - x(n)), ("first", x(1) - x(2))] {
                let got = result.column(name).expect("recorded")[row];
                assert!(
                    (got - expected).abs() <= 1e-8,
                    "n = {n} {name} at t = {t}: {got} vs {expected}"
                );
            }
        }
    }
    assert_eq!(libraries[0], libraries[1], "one library serves every n");
}
