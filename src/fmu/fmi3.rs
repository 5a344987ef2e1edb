//! Renders `modelDescription.xml` in the FMI 3.0 schema from the same
//! [`ModelTable`] as the FMI 2.0 description (`mofmu export --fmi-version 3`).
//!
//! The table's variables become `<Float64>`, `<Int32>`, `<Boolean>` and
//! `<Enumeration>` elements with the same names, causalities, variabilities
//! and start values. FMI 3.0 numbers all variables in one value-reference
//! space where FMI 2.0 numbers each type apart, so Integer (and
//! enumeration) and Boolean references are moved past the Reals by the
//! bases below; `templates/mofmu_fmi3.c` takes them off again. The event
//! indicators, which FMI 3.0 declares as variables, are one Float64 array
//! (`<Dimension>`) at [`INDICATORS`]. `ModelStructure` names variables by
//! value reference.

use std::fmt::Write as _;
use std::io::Write;

use super::model_description::{
    causality_name, dependency_kind_name, enumeration_types, format_real, initial_name,
    variability_name, write_log_categories_and_experiment, write_unit_definitions, XmlOut,
    NO_ATTRS,
};
use super::table::{ModelTable, ModelVariable, VariableType};

/// FMI 3 value reference of Integer (and enumeration) `k`: `INTEGER_BASE + k`.
pub const INTEGER_BASE: u32 = 0x4000_0000;
/// FMI 3 value reference of Boolean `k`: `BOOLEAN_BASE + k`.
pub const BOOLEAN_BASE: u32 = 0x6000_0000;
/// FMI 3 value reference of the event indicators' array.
pub const INDICATORS: u32 = 0x7fff_ff00;

/// The variable's FMI 3 value reference.
pub fn value_reference(v: &ModelVariable) -> u32 {
    match v.ty {
        VariableType::Real { .. } => v.value_reference,
        VariableType::Integer { .. } | VariableType::Enumeration { .. } => {
            INTEGER_BASE + v.value_reference
        }
        VariableType::Boolean { .. } => BOOLEAN_BASE + v.value_reference,
    }
}

/// Writes the table (checked by `check_table`) as an FMI 3.0 description.
pub fn write_model_description<W: Write>(table: &ModelTable, out: W) -> std::io::Result<W> {
    let mut xml = XmlOut::new(out);
    xml.decl();
    let mut root = vec![
        ("fmiVersion", "3.0".to_string()),
        ("modelName", table.model_name.clone()),
        ("instantiationToken", table.guid.clone()),
    ];
    if let Some(d) = &table.description {
        root.push(("description", d.clone()));
    }
    root.push(("generationTool", table.generation_tool.clone()));
    root.push(("variableNamingConvention", "structured".to_string()));
    xml.open("fmiModelDescription", &root);
    write_interfaces(&mut xml, table);
    write_unit_definitions(&mut xml, table);
    write_type_definitions(&mut xml, table);
    write_log_categories_and_experiment(&mut xml, table);

    xml.open("ModelVariables", NO_ATTRS);
    for v in &table.variables {
        write_variable(&mut xml, table, v);
    }
    let indicators = indicators_name(table);
    if table.number_of_event_indicators > 0 {
        xml.open(
            "Float64",
            &[
                ("name", indicators.as_str()),
                ("valueReference", &INDICATORS.to_string()),
                (
                    "description",
                    "the event indicators (fmi3GetEventIndicators)",
                ),
                ("causality", "local"),
                ("variability", "continuous"),
            ],
        );
        xml.empty(
            "Dimension",
            &[("start", table.number_of_event_indicators.to_string())],
        );
        xml.close("Float64");
    }
    xml.close("ModelVariables");
    write_model_structure(&mut xml, table);
    xml.close("fmiModelDescription");
    xml.finish()
}

/// The name of the event indicators' array: `_eventIndicators`, with more
/// underscores while a model variable has that name.
fn indicators_name(table: &ModelTable) -> String {
    let mut name = "_eventIndicators".to_string();
    while table.variables.iter().any(|v| v.name == name) {
        name.insert(0, '_');
    }
    name
}

fn write_interfaces<W: Write>(xml: &mut XmlOut<W>, table: &ModelTable) {
    if table.interfaces.model_exchange {
        xml.empty(
            "ModelExchange",
            &[
                ("modelIdentifier", table.model_identifier.as_str()),
                ("needsCompletedIntegratorStep", "false"),
                ("canGetAndSetFMUState", "true"),
                ("canSerializeFMUState", "true"),
                ("providesDirectionalDerivatives", "true"),
            ],
        );
    }
    if table.interfaces.co_simulation {
        xml.empty(
            "CoSimulation",
            &[
                ("modelIdentifier", table.model_identifier.as_str()),
                ("canGetAndSetFMUState", "true"),
                ("canSerializeFMUState", "true"),
                ("providesDirectionalDerivatives", "true"),
                ("canHandleVariableCommunicationStepSize", "true"),
                ("maxOutputDerivativeOrder", "1"),
                ("hasEventMode", "false"),
            ],
        );
    }
}

/// One `<EnumerationType>` per enumeration type a variable declares.
fn write_type_definitions<W: Write>(xml: &mut XmlOut<W>, table: &ModelTable) {
    let types = enumeration_types(table);
    if types.is_empty() {
        return;
    }
    xml.open("TypeDefinitions", NO_ATTRS);
    for t in types {
        xml.open("EnumerationType", &[("name", t.name.clone())]);
        for (k, (name, description)) in t.literals.iter().enumerate() {
            let mut attrs = vec![("name", name.clone()), ("value", (k + 1).to_string())];
            if let Some(d) = description {
                attrs.push(("description", d.clone()));
            }
            xml.empty("Item", &attrs);
        }
        xml.close("EnumerationType");
    }
    xml.close("TypeDefinitions");
}

fn write_variable<W: Write>(xml: &mut XmlOut<W>, table: &ModelTable, v: &ModelVariable) {
    let mut attrs: Vec<(&str, String)> = Vec::with_capacity(12);
    attrs.push(("name", v.name.clone()));
    attrs.push(("valueReference", value_reference(v).to_string()));
    if let Some(d) = &v.description {
        attrs.push(("description", d.to_string()));
    }
    attrs.push(("causality", causality_name(v.causality).to_string()));
    attrs.push(("variability", variability_name(v.variability).to_string()));
    if let Some(initial) = v.initial {
        attrs.push(("initial", initial_name(initial).to_string()));
    }
    let element = match &v.ty {
        VariableType::Real { start } => {
            for (name, value) in [
                ("quantity", &v.quantity),
                ("unit", &v.unit),
                ("displayUnit", &v.display_unit),
            ] {
                if let Some(value) = value {
                    attrs.push((name, value.to_string()));
                }
            }
            for (name, value) in [
                ("min", v.min),
                ("max", v.max),
                ("nominal", v.nominal),
                ("start", *start),
            ] {
                if let Some(value) = value {
                    attrs.push((name, format_real(value)));
                }
            }
            if let Some(state) = v.derivative_of {
                let state = value_reference(&table.variables[state]);
                attrs.push(("derivative", state.to_string()));
            }
            "Float64"
        }
        VariableType::Integer { start } => {
            if let Some(s) = start {
                attrs.push(("start", s.to_string()));
            }
            "Int32"
        }
        VariableType::Enumeration { start, declared } => {
            attrs.push(("declaredType", declared.name.clone()));
            if let Some(s) = start {
                attrs.push(("start", s.to_string()));
            }
            "Enumeration"
        }
        VariableType::Boolean { start } => {
            if let Some(s) = start {
                attrs.push(("start", s.to_string()));
            }
            "Boolean"
        }
    };
    xml.empty(element, &attrs);
}

fn write_model_structure<W: Write>(xml: &mut XmlOut<W>, table: &ModelTable) {
    xml.open("ModelStructure", NO_ATTRS);
    let (mut knowns, mut kinds) = (String::new(), String::new());
    for (element, indices, dependencies) in [
        ("Output", &table.outputs, &table.dependencies),
        (
            "ContinuousStateDerivative",
            &table.derivatives,
            &table.dependencies,
        ),
        (
            "InitialUnknown",
            &table.initial_unknowns,
            &table.initial_dependencies,
        ),
    ] {
        for &i in indices {
            let vr = value_reference(&table.variables[i]).to_string();
            match dependencies.get(&i) {
                Some(d) => {
                    knowns.clear();
                    kinds.clear();
                    for (j, (&k, kind)) in d.knowns.iter().zip(&d.kinds).enumerate() {
                        if j > 0 {
                            knowns.push(' ');
                            kinds.push(' ');
                        }
                        let _ = write!(knowns, "{}", value_reference(&table.variables[k]));
                        kinds.push_str(dependency_kind_name(*kind));
                    }
                    xml.empty(
                        element,
                        &[
                            ("valueReference", vr.as_str()),
                            ("dependencies", &knowns),
                            ("dependenciesKind", &kinds),
                        ],
                    );
                }
                None => xml.empty(element, &[("valueReference", vr.as_str())]),
            }
        }
    }
    if table.number_of_event_indicators > 0 {
        xml.empty(
            "EventIndicator",
            &[("valueReference", INDICATORS.to_string())],
        );
    }
    xml.close("ModelStructure");
}
