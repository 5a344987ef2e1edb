//! Boolean and Integer variables (not parameters): the acceptance snippet
//! `AccDiscrete` checks clean, exports its discrete variables as FMI
//! `<Boolean>`/`<Integer>` with variability "discrete", and, loaded back
//! through the harness (which reads them with fmi2GetBoolean and
//! fmi2GetInteger), matches the closed-form reference of
//! `make_references.py` on every row, the switches at the two state events
//! included. Misuses are the compliance fixtures MC136–MC138.

use mofmu::fmu::description::model_description::model_description_text;
use mofmu::fmu::description::table::{Variability, VariableType};
use mofmu::harness::{simulate, SimOptions};

use crate::export::{export, library, package, repo, shared_cache};

const ACC_DISCRETE: &[&str] = &[
    "examples/Base.mo",
    "examples/Thermal",
    "test_data/language/AccDiscrete.mo",
];

/// The committed reference: its column names and rows.
fn reference(name: &str) -> (Vec<String>, Vec<Vec<f64>>) {
    let text = std::fs::read_to_string(repo().join("fmu-tests/references").join(name))
        .expect("the reference is committed");
    let mut lines = text.lines();
    let header = lines
        .next()
        .expect("a header")
        .split(',')
        .map(|h| h.trim_matches('"').to_string())
        .collect();
    let rows = lines
        .map(|l| l.split(',').map(|x| x.parse().expect("a number")).collect())
        .collect();
    (header, rows)
}

#[test]
fn acc_discrete_declares_fmi_types_and_matches_its_reference() {
    let lib = library(ACC_DISCRETE);
    let diagnostics = mofmu::library::check_library(&lib);
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
    let out = export(&lib, "AccDiscrete.CooledBody", &[]);
    let declared = |name: &str| {
        out.table
            .variables
            .iter()
            .find(|v| v.name == name)
            .unwrap_or_else(|| panic!("`{name}` is an FMI variable"))
    };
    for (name, boolean) in [
        ("fan.hot", true),
        ("fan.full", true),
        ("fan.idle", true),
        ("fan.stage", false),
    ] {
        let v = declared(name);
        assert_eq!(v.variability, Variability::Discrete, "{name}");
        match (&v.ty, boolean) {
            (VariableType::Boolean { start: None }, true)
            | (VariableType::Integer { start: None }, false) => {}
            (other, _) => panic!("{name} is declared as {other:?}"),
        }
    }
    // Two relations over the body temperature are state events; the
    // comparisons of discrete values (`stage == 2`) need none.
    assert_eq!(out.table.number_of_event_indicators, 2);
    let xml = model_description_text(&out.table);
    assert!(xml.contains("name=\"fan.stage\""), "{xml}");

    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("CooledBody.fmu");
    package(&out, &path, &shared_cache());
    let (header, rows) = reference("AccDiscrete_CooledBody.csv");
    let options = SimOptions {
        stop_time: Some(100.0),
        output_interval: Some(0.1),
        relative_tolerance: Some(1e-8),
        output: header[1..].to_vec(),
        ..SimOptions::default()
    };
    let result = simulate(&path, &options).expect("simulates");
    let time = result.column("time").expect("time");
    for (k, name) in header.iter().enumerate().skip(1) {
        let got = result.column(name).expect("recorded");
        // Every reference row is on the output grid, away from the two
        // events; an event adds rows to the result at its own instant.
        for row in &rows {
            let at = time
                .iter()
                .rposition(|t| (t - row[0]).abs() < 1e-9)
                .unwrap_or_else(|| panic!("{name}: no result row at t = {}", row[0]));
            let error = (got[at] - row[k]).abs();
            assert!(
                error <= 1e-7 + 1e-6 * row[k].abs(),
                "{name} at t = {}: {} vs {}",
                row[0],
                got[at],
                row[k]
            );
        }
    }
}

/// Discrete outputs of the exported model are FMI outputs of their type,
/// listed in `<Outputs>` with the state they depend on through relations.
#[test]
fn discrete_outputs_of_the_model_are_fmi_outputs() {
    let base = std::fs::read_to_string(repo().join("examples/Base.mo")).expect("Base.mo");
    let text = r#"
encapsulated package Out
  import B = Base;
  model M
    B.ContinuousState x(start = 0);
    output Boolean high;
    output Integer level = if x > 0.5 then 2 else 1;
  equation
    der(x) = 1;
    high = x > 0.3 and level == 1;
  end M;
end Out;
"#;
    let lib = mofmu::library::load_library(vec![
        ("Base.mo".to_string(), base),
        ("Out.mo".to_string(), text.to_string()),
    ]);
    assert!(mofmu::library::check_library(&lib).is_empty());
    let out = export(&lib, "Out.M", &[]);
    let index = |name: &str| {
        out.table
            .variables
            .iter()
            .position(|v| v.name == name)
            .unwrap_or_else(|| panic!("`{name}` is an FMI variable"))
    };
    for name in ["high", "level"] {
        let v = &out.table.variables[index(name)];
        assert_eq!(
            v.causality,
            mofmu::fmu::description::table::Causality::Output,
            "{name}"
        );
        assert_eq!(v.variability, Variability::Discrete, "{name}");
        assert!(out.table.outputs.contains(&index(name)), "{name}");
    }
    // Two relations over x are events; `level == 1` compares discrete
    // values and needs none.
    assert_eq!(out.table.number_of_event_indicators, 2);
}

/// Arrays of Boolean and Integer variables over a parameter size
/// (`AccDiscreteArrays.Gates`): `open[i] = x[i] > h` in a `for` loop is a
/// state event per element, so the FMU declares n event indicators and
/// `--set n=5` ships the same library as n = 3 (the indicators are laid
/// out per instance from n). Closed form: x_i rises at i*r until h, at
/// t_i = h/(i r), then at q; open[i] and stage[i] switch at t_i.
#[test]
fn discrete_arrays_have_an_event_per_element_at_every_size() {
    use crate::export::{set, zip_entry};
    let lib = library(&[
        "examples/Base.mo",
        "test_data/language/AccDiscreteArrays.mo",
    ]);
    let diagnostics = mofmu::library::check_library(&lib);
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
    let dir = tempfile::tempdir().expect("temp dir");
    let cache = shared_cache();
    let (q, h) = (0.1, 0.5);
    let mut libraries = Vec::new();
    for (n, r) in [(3usize, 1.0), (5, 0.8)] {
        let out = export(
            &lib,
            "AccDiscreteArrays.Gates",
            &[set("n", n as f64), set("r", r)],
        );
        assert_eq!(out.table.number_of_event_indicators, n, "n = {n}");
        for i in 1..=n {
            let declared = |name: String| {
                out.table
                    .variables
                    .iter()
                    .find(|v| v.name == name)
                    .unwrap_or_else(|| panic!("`{name}` is an FMI variable"))
                    .ty
                    .clone()
            };
            assert!(matches!(
                declared(format!("open[{i}]")),
                VariableType::Boolean { start: None }
            ));
            assert!(matches!(
                declared(format!("stage[{i}]")),
                VariableType::Integer { start: None }
            ));
        }
        let path = dir.path().join(format!("gates{n}.fmu"));
        package(&out, &path, &cache);
        libraries.push(zip_entry(
            &path,
            "binaries/linux64/AccDiscreteArrays_Gates.so",
        ));
        let mut output = Vec::new();
        for i in 1..=n {
            output.extend([
                format!("x[{i}]"),
                format!("open[{i}]"),
                format!("stage[{i}]"),
            ]);
        }
        let stop = 1.2;
        let options = SimOptions {
            stop_time: Some(stop),
            relative_tolerance: Some(1e-8),
            output,
            ..SimOptions::default()
        };
        let result = simulate(&path, &options).expect("simulates");
        let last = |name: String| {
            *result
                .column(&name)
                .expect("recorded")
                .last()
                .expect("rows")
        };
        for i in 1..=n {
            // Every tank has passed h by the stop time (t_i <= 0.625).
            let t_i = h / (i as f64 * r);
            let x = h + q * (stop - t_i);
            let got = last(format!("x[{i}]"));
            assert!((got - x).abs() <= 1e-6 * x, "n = {n} x[{i}]: {got} vs {x}");
            assert_eq!(last(format!("open[{i}]")), 1.0, "n = {n} open[{i}]");
            assert_eq!(last(format!("stage[{i}]")), 2.0, "n = {n} stage[{i}]");
            // Before its event the tank fills at i*r with the gate shut.
            let time = result.column("time").expect("time");
            let before = time
                .iter()
                .rposition(|t| *t < t_i - 1e-3)
                .expect("a row before the event");
            let x_before = i as f64 * r * time[before];
            let got = result.column(&format!("x[{i}]")).expect("recorded")[before];
            assert!(
                (got - x_before).abs() <= 1e-9 + 1e-6 * x_before,
                "n = {n} x[{i}] at t = {}: {got} vs {x_before}",
                time[before]
            );
            assert_eq!(
                result.column(&format!("open[{i}]")).expect("recorded")[before],
                0.0
            );
        }
    }
    assert!(
        libraries[0] == libraries[1],
        "the library differs between n = 3 and n = 5"
    );
}

/// Relations in `for` loops beside scalar ones: a scalar state event, a
/// loop of time events `time > i` (a relation slot each, no indicator) and
/// a loop of state events `x[i] > 0.5*i` (an indicator each). The kernel
/// places each iteration after the scalar relations and the groups before
/// it, so every relation keeps its own frozen value: with n = 2 and n = 4
/// the indicators are 1 + n, and each element switches at its own instant
/// (closed form: x[i] = min(t, 0.5 i), late[i] = t > i, any = t > 0.3).
#[test]
fn time_and_state_events_in_loops_keep_their_own_slots() {
    let base = std::fs::read_to_string(repo().join("examples/Base.mo")).expect("Base.mo");
    let text = r#"
encapsulated package Mix
  import B = Base;
  model M
    parameter Integer n = 2;
    B.ContinuousState x[n](each start = 0);
    Boolean late[n];
    Boolean full[n];
    Boolean any;
    Real y[n];
  equation
    any = x[1] > 0.3;
    for i in 1:n loop
      late[i] = time > i;
      y[i] = if late[i] then 1 else 0;
    end for;
    for i in 1:n loop
      full[i] = x[i] > 0.5*i;
      der(x[i]) = if full[i] then 0 else 1;
    end for;
  end M;
end Mix;
"#;
    let lib = mofmu::library::load_library(vec![
        ("Base.mo".to_string(), base),
        ("Mix.mo".to_string(), text.to_string()),
    ]);
    assert!(mofmu::library::check_library(&lib).is_empty());
    let dir = tempfile::tempdir().expect("temp dir");
    for n in [2usize, 4] {
        let out = export(&lib, "Mix.M", &[crate::export::set("n", n as f64)]);
        assert_eq!(out.table.number_of_event_indicators, 1 + n, "n = {n}");
        let path = dir.path().join(format!("mix{n}.fmu"));
        package(&out, &path, &shared_cache());
        let mut output = vec!["any".to_string()];
        for i in 1..=n {
            output.extend([
                format!("x[{i}]"),
                format!("late[{i}]"),
                format!("full[{i}]"),
                format!("y[{i}]"),
            ]);
        }
        let stop = n as f64 + 0.5;
        let options = SimOptions {
            stop_time: Some(stop),
            output_interval: Some(0.25),
            relative_tolerance: Some(1e-8),
            output,
            ..SimOptions::default()
        };
        let result = simulate(&path, &options).expect("simulates");
        let time = result.column("time").expect("time").to_vec();
        // Grid rows away from every event (events at 0.3, 0.5 i and i).
        for (row, &t) in time.iter().enumerate() {
            if ((t * 4.0).round() - t * 4.0).abs() > 1e-9 || (t * 2.0).fract() == 0.0 {
                continue;
            }
            let at = |name: String| result.column(&name).expect("recorded")[row];
            assert_eq!(at("any".into()), f64::from(u8::from(t > 0.3)), "any at {t}");
            for i in 1..=n {
                let fi = i as f64;
                let x = t.min(0.5 * fi);
                let got = at(format!("x[{i}]"));
                assert!(
                    (got - x).abs() <= 1e-9 + 1e-6 * x,
                    "n = {n} x[{i}] at {t}: {got} vs {x}"
                );
                let late = f64::from(u8::from(t > fi));
                assert_eq!(at(format!("late[{i}]")), late, "n = {n} late[{i}] at {t}");
                assert_eq!(at(format!("y[{i}]")), late, "n = {n} y[{i}] at {t}");
                let full = f64::from(u8::from(t > 0.5 * fi));
                assert_eq!(at(format!("full[{i}]")), full, "n = {n} full[{i}] at {t}");
            }
        }
    }
}

/// Exports `model` of `text` (after Base), which has `n = 3` switches in
/// a `for` loop, and checks that each is an event of its own: `n`
/// indicators, a result row at the closed-form switching time `switch(i)`,
/// and `variable[i](1)` equal to `at_one(switch(i))` to rounding.
fn check_switches_in_a_loop(
    text: &str,
    file: &str,
    model: &str,
    variable: &str,
    switch: impl Fn(f64) -> f64,
    at_one: impl Fn(f64) -> f64,
) {
    let base = std::fs::read_to_string(repo().join("examples/Base.mo")).expect("Base.mo");
    let lib = mofmu::library::load_library(vec![
        ("Base.mo".to_string(), base),
        (file.to_string(), text.to_string()),
    ]);
    assert!(mofmu::library::check_library(&lib).is_empty());
    let dir = tempfile::tempdir().expect("temp dir");
    let n = 3usize;
    let out = export(&lib, model, &[]);
    assert_eq!(out.table.number_of_event_indicators, n);
    let path = dir.path().join("switches.fmu");
    package(&out, &path, &shared_cache());
    let options = SimOptions {
        stop_time: Some(1.0),
        output_interval: Some(0.5),
        relative_tolerance: Some(1e-8),
        output: (1..=n).map(|i| format!("{variable}[{i}]")).collect(),
        ..SimOptions::default()
    };
    let result = simulate(&path, &options).expect("simulates");
    let time = result.column("time").expect("time").to_vec();
    for i in 1..=n {
        let t_i = switch(i as f64);
        assert!(
            time.iter().any(|&t| (t - t_i).abs() <= 1e-12),
            "a row at the switch t_{i} = {t_i}: {time:?}"
        );
        let column = result
            .column(&format!("{variable}[{i}]"))
            .expect("recorded");
        let last = column[column.len() - 1];
        let expected = at_one(t_i);
        assert!(
            (last - expected).abs() <= 1e-12,
            "{variable}[{i}](1) = {last}, closed form {expected}"
        );
    }
}

/// `time` against a continuous value inside a `for` loop is a state event
/// per iteration, as it is outside loops: `der(y[i]) = if time > x[i] +
/// 0.25 then 1 else 0` with `x[i] = 0.1 i t` switches at
/// `t_i = 0.25/(1 - 0.1 i)`, each located (a result row at t_i) and
/// `y[i](1) = 1 - t_i` to rounding. Compared directly, as such a relation
/// once was, it had no indicator and the switches were stepped over.
#[test]
fn time_against_a_continuous_value_in_a_loop_is_a_state_event_per_iteration() {
    let text = r#"
encapsulated package TL
  import B = Base;
  model M
    parameter Integer n = 3;
    B.ContinuousState x[n](each start = 0);
    B.ContinuousState y[n](each start = 0);
  equation
    for i in 1:n loop
      der(x[i]) = 0.1*i;
      der(y[i]) = if time > x[i] + 0.25 then 1 else 0;
    end for;
  end M;
end TL;
"#;
    check_switches_in_a_loop(
        text,
        "TL.mo",
        "TL.M",
        "y",
        |i| 0.25 / (1.0 - 0.1 * i),
        |t_i| 1.0 - t_i,
    );
}

/// The condition of an if-equation inside a `for` loop is a state event per
/// iteration: `v[i] = 0.5` once `x[i] > 0.1 i`, else 1, with `der(x[i]) =
/// v[i]` from 0, switches at `t_i = 0.1 i` (a result row there) and ends at
/// `x[i](1) = t_i + 0.5 (1 - t_i)`. Compared directly, as such conditions
/// once were, the switches had no indicator.
#[test]
fn if_equation_conditions_in_a_loop_are_state_events_per_iteration() {
    let text = r#"
encapsulated package IL
  import B = Base;
  model M
    parameter Integer n = 3;
    B.ContinuousState x[n](each start = 0);
    Real v[n];
  equation
    for i in 1:n loop
      if x[i] > 0.1*i then
        v[i] = 0.5;
      else
        v[i] = 1;
      end if;
      der(x[i]) = v[i];
    end for;
  end M;
end IL;
"#;
    check_switches_in_a_loop(
        text,
        "IL.mo",
        "IL.M",
        "x",
        |i| 0.1 * i,
        |t_i| t_i + 0.5 * (1.0 - t_i),
    );
}
