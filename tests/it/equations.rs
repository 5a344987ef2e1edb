//! If-equations, initial equations, Boolean/Integer/enumeration parameters,
//! the array built-ins and variable bindings, through the whole pipeline:
//! the acceptance snippets Acc3 and Acc6 check clean, export (their values
//! are checked against references by the round trip of every case in
//! `fmu-tests/cases.toml`), declare their FMI types, and keep kernels that
//! do not depend on structural values; and small models of each feature
//! check and export as the language reference says.

use mofmu::export::{export_model, ExportError, ExportOutput};
use mofmu::fmu::description::model_description::model_description_text;
use mofmu::instantiate::{SetLiteral, SetValue};
use mofmu::library::{check_library, load_library};

use crate::export::library;

const ACC3: &[&str] = &[
    "examples/Base.mo",
    "examples/Thermal",
    "test_data/language/Acc3.mo",
];
const ACC6: &[&str] = &[
    "examples/Base.mo",
    "examples/Thermal",
    "test_data/language/Acc6.mo",
];

fn sets(items: &[&str]) -> Vec<SetValue> {
    items
        .iter()
        .map(|s| {
            let (path, value) = s.split_once('=').expect("PATH=VALUE");
            SetValue {
                path: path.to_string(),
                value: SetLiteral::parse(value).expect("a --set value"),
            }
        })
        .collect()
}

fn export(paths: &[&str], model: &str, set: &[&str]) -> ExportOutput {
    let lib = library(paths);
    let diagnostics = check_library(&lib);
    assert!(
        diagnostics.is_empty(),
        "{model} checks clean: {diagnostics:?}"
    );
    match export_model(&lib, model, &sets(set), 1.0) {
        Ok(out) => out,
        Err(e) => panic!("exporting {model} with {set:?} failed: {e:?}"),
    }
}

/// The kernels' C text, by class.
fn kernels(out: &ExportOutput) -> Vec<(String, String)> {
    out.kernels
        .iter()
        .map(|k| (k.qualified.clone(), k.text.clone()))
        .collect()
}

#[test]
fn acc3_if_equation_shares_one_event_indicator_and_a_boolean_is_data() {
    let clipped = export(ACC3, "Acc3.Clip", &[]);
    // `u < lower` is one relation shared by the two joined equations.
    assert_eq!(clipped.table.number_of_event_indicators, 1);
    let xml = model_description_text(&clipped.table);
    assert!(
        xml.contains("name=\"clip\"") && xml.contains("<Boolean start=\"true\""),
        "clip is declared as an FMI Boolean: {xml}"
    );
    let unclipped = export(ACC3, "Acc3.Clip", &["clip=false"]);
    assert!(model_description_text(&unclipped.table).contains("<Boolean start=\"false\""));
    assert_eq!(
        kernels(&clipped),
        kernels(&unclipped),
        "the class kernel does not depend on the Boolean's value"
    );
}

#[test]
fn acc6_enumeration_is_declared_with_its_type_definition() {
    let heat = export(ACC6, "Acc6.Room", &[]);
    let xml = model_description_text(&heat.table);
    for needle in [
        "<TypeDefinitions>",
        "<SimpleType name=\"Acc6.Mode\">",
        "<Item name=\"Off\" value=\"1\" description=\"No heating\"/>",
        "<Item name=\"Boost\" value=\"3\" description=\"Twice the rated power\"/>",
        "<Enumeration declaredType=\"Acc6.Mode\" start=\"2\"/>",
        // walls = size(G, 1), fixed at export.
        "<Integer start=\"3\"/>",
    ] {
        assert!(xml.contains(needle), "`{needle}` in {xml}");
    }
    let boost = export(ACC6, "Acc6.Room", &["mode=Boost"]);
    assert!(model_description_text(&boost.table)
        .contains("<Enumeration declaredType=\"Acc6.Mode\" start=\"3\"/>"));
    assert_eq!(
        kernels(&heat),
        kernels(&boost),
        "kernels do not depend on the mode"
    );
}

#[test]
fn a_wrong_enumeration_literal_lists_the_allowed_ones() {
    let lib = library(ACC6);
    let Err(ExportError::Diagnostics(ds)) =
        export_model(&lib, "Acc6.Room", &sets(&["mode=Warm"]), 1.0)
    else {
        panic!("--set mode=Warm is refused");
    };
    assert_eq!(ds.len(), 1, "{ds:?}");
    assert_eq!(ds[0].code, "MX020");
    assert!(ds[0].help.contains("Off, Heat, Boost"), "{:?}", ds[0].help);
}

#[test]
fn set_literals_are_numbers_booleans_or_names() {
    assert_eq!(SetLiteral::parse(" 2.5 "), Ok(SetLiteral::Number(2.5)));
    assert_eq!(SetLiteral::parse("false"), Ok(SetLiteral::Bool(false)));
    assert_eq!(
        SetLiteral::parse("Boost"),
        Ok(SetLiteral::Literal("Boost".into()))
    );
    assert!(SetLiteral::parse("inf").is_err());
    assert!(SetLiteral::parse("a b").is_err());
}

/// A library of one package after `examples/Base.mo`.
fn checked(text: &str) -> (mofmu::library::Library, Vec<mofmu::diagnostic::Diagnostic>) {
    let base = std::fs::read_to_string(crate::export::repo().join("examples/Base.mo"))
        .expect("examples/Base.mo");
    let lib = load_library(vec![
        ("Base.mo".to_string(), base),
        ("T.mo".to_string(), text.to_string()),
    ]);
    let ds = check_library(&lib);
    (lib, ds)
}

#[test]
fn builtins_and_msl_names_map_to_values() {
    let (lib, ds) = checked(
        r#"
encapsulated package T
  model M
    parameter Real v[3] = {1, 2, 3};
    parameter Integer n = size(v, 1);
    output Real s = sum(v) + product(v) + max(v) + min(v) + ndims(v);
    output Real c[3] = cross(v, {0, 0, 1});
    output Real k[3] = skew(v)*ones(3) + zeros(3) + fill(2, 3);
    output Real i = sum(identity(3)*v);
    output Real p = Modelica.Math.cos(Modelica.Constants.pi);
    output Real q = semiLinear(sin(time), 2, 3) + smooth(1, n);
  end M;
end T;
"#,
    );
    assert!(ds.is_empty(), "{ds:?}");
    let out = export_model(&lib, "T.M", &[], 1.0).expect("T.M exports");
    let n = out
        .table
        .variables
        .iter()
        .find(|v| v.name == "n")
        .expect("n is declared");
    assert!(matches!(
        n.ty,
        mofmu::fmu::description::table::VariableType::Integer { start: Some(3) }
    ));
}

#[test]
fn a_package_named_modelica_is_read_as_written() {
    let (_, ds) = checked(
        r#"
package Modelica
  package Constants
  end Constants;
end Modelica;
package T
  model M
    output Real p = Modelica.Constants.pi;
  end M;
end T;
"#,
    );
    assert_eq!(
        ds.iter().map(|d| d.code).collect::<Vec<_>>(),
        ["MC022"],
        "with a user package `Modelica`, `Modelica.Constants.pi` names nothing: {ds:?}"
    );
}

#[test]
fn a_variable_binding_is_an_equation_read_when_its_inputs_are_known() {
    let (lib, ds) = checked(
        r#"
encapsulated package T
  import B = Base;
  model M
    parameter Real k(unit = "1/s") = 0.5;
    Real y = 2*x "read before the equations: x is a state";
    Real w = 3*z "waits for the equation of z";
    Real z;
    B.ContinuousState x(start = 1);
  equation
    der(x) = -k*y;
    z = x + 1;
  end M;
end T;
"#,
    );
    assert!(ds.is_empty(), "{ds:?}");
    export_model(&lib, "T.M", &[], 1.0).expect("T.M exports");
}
