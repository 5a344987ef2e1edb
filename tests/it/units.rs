//! Golden tests for unit checking: every `test_data/units/*.mo` is checked
//! (all diagnostics in short form), then each class gets its verdict and
//! the unit of each of its variables (declared, inferred or unknown).
//! `UPDATE_EXPECT=1` rewrites the expected files; review the diff.
//!
//! The consistent circuit is also exported, and its model description must
//! declare the units inferred for the two sources.

use mofmu::export::{export_model, model_units, unit_verdicts};
use mofmu::library::{check_library, load_library};
use mofmu::source::SourceFile;
use std::path::{Path, PathBuf};

fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/units")
}

fn fixtures() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(fixture_dir())
        .expect("test_data/units exists")
        .map(|entry| entry.expect("readable directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "mo"))
        .collect();
    files.sort();
    files
}

fn render(name: &str, text: &str) -> String {
    let lib = load_library(vec![(name.to_string(), text.to_string())]);
    let file = SourceFile::new(name, text);
    let mut out = String::new();
    for d in check_library(&lib) {
        assert!(!d.help.is_empty() && !d.label.is_empty(), "{d:?}");
        let (line, col) = file.line_col(d.span.start);
        out.push_str(&format!("{line}:{col}: error[{}]: {}\n", d.code, d.message));
    }
    let (verdicts, _) = unit_verdicts(&lib);
    for v in verdicts {
        out.push_str(&format!("== {}: {}\n", v.class, v.verdict.describe()));
        let (units, _) = model_units(&lib, &v.class).expect("a checked class has units");
        for v in units.variables {
            out.push_str(&format!(
                "  {} {} {}\n",
                v.name,
                v.unit.as_deref().or(v.open_form.as_deref()).unwrap_or("?"),
                v.origin.as_str()
            ));
        }
    }
    out
}

#[test]
fn unit_fixtures() {
    let mut failures = Vec::new();
    for path in fixtures() {
        let text = std::fs::read_to_string(&path).expect("fixture is readable UTF-8");
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let actual = render(&name, &text);
        let expected_path = path.with_extension("expected");
        if std::env::var_os("UPDATE_EXPECT").is_some() {
            std::fs::write(&expected_path, &actual).expect("write expected file");
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if expected != actual {
            failures.push(format!(
                "{}:\n--- expected\n{expected}--- actual\n{actual}",
                path.display()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn consistent_circuit_fmu_declares_inferred_units() {
    let path = fixture_dir().join("circuit_consistent.mo");
    let text = std::fs::read_to_string(&path).expect("fixture");
    let lib = load_library(vec![("circuit_consistent.mo".into(), text)]);
    let out = export_model(&lib, "Circuits.ConsistentCircuit", &[], 1.0)
        .unwrap_or_else(|e| panic!("export failed: {e:?}"));
    let xml = &out.model_description();
    for (var, unit) in [
        ("clock1.y", "Ohm"),
        ("clock2.y", "S"),
        ("clock1.offset", "Ohm"),
        ("clock1.slope", "Ohm/s"),
        ("clock2.slope", "S/s"),
        ("R1.R", "Ohm"),
    ] {
        let v = out
            .table
            .variables
            .iter()
            .find(|v| v.name == var)
            .unwrap_or_else(|| panic!("no variable {var}"));
        assert_eq!(v.unit.as_deref(), Some(unit), "{var}");
        assert!(
            xml.contains(&format!("<Unit name=\"{unit}\"")),
            "{unit} defined"
        );
    }
    // Every Real variable has a unit in this complete model.
    for v in &out.table.variables {
        assert!(v.unit.is_some(), "{} has no unit", v.name);
    }
    let s = out
        .table
        .unit_definitions
        .iter()
        .find(|u| u.name == "S")
        .expect("S is defined");
    assert_eq!((s.kg, s.m, s.s, s.a), (-1, -2, 3, 2));
}

#[test]
fn inconsistent_circuit_is_not_exported() {
    let path = fixture_dir().join("circuit_inconsistent.mo");
    let text = std::fs::read_to_string(&path).expect("fixture");
    let lib = load_library(vec![("circuit_inconsistent.mo".into(), text)]);
    match export_model(&lib, "Circuits.InconsistentCircuit", &[], 1.0) {
        Err(mofmu::export::ExportError::Diagnostics(d)) => {
            assert_eq!(d.len(), 1);
            assert_eq!(d[0].code, "UC003");
        }
        other => panic!(
            "expected a unit diagnostic, got {:?}",
            other.map(|o| o.model_identifier)
        ),
    }
}

#[test]
fn display_units_are_declared_under_their_unit() {
    let path = fixture_dir().join("UC007.mo");
    let text = std::fs::read_to_string(&path).expect("fixture");
    // Export refuses a library with any diagnostic, so the faulty twin is
    // left out of the library the good one is exported from.
    let start = text.find("  block Bad").expect("Bad block");
    let end = text.find("  block Good").expect("Good block");
    let text = format!("{}{}", &text[..start], &text[end..]);
    let lib = load_library(vec![("UC007.mo".into(), text)]);
    let out = export_model(&lib, "UC007.Good", &[], 1.0)
        .unwrap_or_else(|e| panic!("export failed: {e:?}"));
    let t = out
        .table
        .variables
        .iter()
        .find(|v| v.name == "T")
        .expect("T");
    assert_eq!(t.display_unit.as_deref(), Some("degC"));
    let k = out
        .table
        .unit_definitions
        .iter()
        .find(|u| u.name == "K")
        .expect("K is defined");
    assert_eq!(k.display_units.len(), 1);
    assert_eq!(k.display_units[0].name, "degC");
    assert_eq!(k.display_units[0].factor, 1.0);
    assert!((k.display_units[0].offset + 273.15).abs() < 1e-12);
    assert!(out
        .model_description()
        .contains("<DisplayUnit name=\"degC\" offset=\"-273.15\""));
}
