//! Boolean and Integer variables (not parameters): the acceptance snippet
//! `AccDiscrete` checks clean, exports its discrete variables as FMI
//! `<Boolean>`/`<Integer>` with variability "discrete", and, loaded back
//! through the harness (which reads them with fmi2GetBoolean and
//! fmi2GetInteger), matches the closed-form reference of
//! `make_references.py` on every row, the switches at the two state events
//! included. Misuses are the compliance fixtures MC136–MC138.

use mofmu::fmu::model_description::model_description_text;
use mofmu::fmu::table::{Variability, VariableType};
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
        assert_eq!(v.causality, mofmu::fmu::table::Causality::Output, "{name}");
        assert_eq!(v.variability, Variability::Discrete, "{name}");
        assert!(out.table.outputs.contains(&index(name)), "{name}");
    }
    // Two relations over x are events; `level == 1` compares discrete
    // values and needs none.
    assert_eq!(out.table.number_of_event_indicators, 2);
}
