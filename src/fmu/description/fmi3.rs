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

use super::fmi3_arrays::{arrays, ArrayGroup, Arrays};
use super::model_description::{
    causality_name, dependency_kind_name, enumeration_types, format_real, initial_name,
    root_attributes, variability_name, write_items, write_log_categories_and_experiment,
    write_unit_definitions, XmlOut, NO_ATTRS,
};
use super::table::{DependencyKind, ModelTable, ModelVariable, VariableType};

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
    let root = root_attributes(table, "3.0", "instantiationToken");
    xml.open("fmiModelDescription", &root);
    write_interfaces(&mut xml, table);
    write_unit_definitions(&mut xml, table);
    write_type_definitions(&mut xml, table);
    write_log_categories_and_experiment(&mut xml, table);

    let arrays = arrays(table);
    xml.open("ModelVariables", NO_ATTRS);
    // The structural parameter comes first: importers read the description
    // in document order, and an array's `<Dimension valueReference>` must
    // name a variable they already know (fmusim 0.0.39 crashes otherwise).
    let structural = table.structural.as_ref().map(|s| s.variable);
    if let Some(s) = structural {
        write_variable(&mut xml, table, &arrays, &table.variables[s], None);
    }
    for (i, v) in table.variables.iter().enumerate() {
        if Some(i) == structural {
            continue;
        }
        match arrays.group_of(i) {
            None => write_variable(&mut xml, table, &arrays, v, None),
            Some(g) if arrays.groups[g].first == i => {
                write_variable(&mut xml, table, &arrays, v, Some(&arrays.groups[g]))
            }
            // Declared with its array's first element.
            Some(_) => {}
        }
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
    write_model_structure(&mut xml, table, &arrays);
    xml.close("fmiModelDescription");
    xml.finish()
}

/// `sources/buildDescription.xml`: one build configuration that compiles
/// `units` (the C units in `sources/`, in compile order; the headers and the
/// runtime, which `mofmu_fmi3.c` includes, are found beside them) as C99
/// into the library `model_identifier`, linked with the C math library. The
/// flags mofmu itself compiles with are named in the description, not in
/// `compilerOptions`, which an importer would pass to a compiler it does
/// not know: any C99 compiler builds the units, and `-ffp-contract=off`
/// (GCC, Clang) keeps the results bit-identical to the shipped binary's.
pub fn build_description(model_identifier: &str, units: &[&str]) -> String {
    let mut xml = XmlOut::new(Vec::new());
    xml.decl();
    xml.open("fmiBuildDescription", &[("fmiVersion", "3.0")]);
    xml.open(
        "BuildConfiguration",
        &[
            ("modelIdentifier", model_identifier),
            (
                "description",
                "The FMU's C units, compiled as mofmu compiles them: \
                 -std=c99 -O2 -fPIC -fvisibility=hidden -ffp-contract=off; linked with -lm",
            ),
        ],
    );
    xml.open("SourceFileSet", &[("language", "C99")]);
    for unit in units {
        xml.empty("SourceFile", &[("name", *unit)]);
    }
    xml.close("SourceFileSet");
    xml.empty(
        "Library",
        &[
            ("name", "m"),
            ("external", "true"),
            ("description", "the C math library (libm)"),
        ],
    );
    xml.close("BuildConfiguration");
    xml.close("fmiBuildDescription");
    let bytes = xml.finish().expect("writing into memory");
    String::from_utf8(bytes).expect("the XML writer produced invalid UTF-8")
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
                // With event indicators the FMU may ask for a step event
                // (a relation left its frozen value without a crossing).
                (
                    "needsCompletedIntegratorStep",
                    if table.number_of_event_indicators > 0 {
                        "true"
                    } else {
                        "false"
                    },
                ),
                ("canGetAndSetFMUState", "true"),
                ("canSerializeFMUState", "true"),
                ("providesDirectionalDerivatives", "true"),
                ("providesAdjointDerivatives", "true"),
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
                ("providesAdjointDerivatives", "true"),
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
        write_items(xml, t);
        xml.close("EnumerationType");
    }
    xml.close("TypeDefinitions");
}

/// One variable, or with `array` the whole array `v` is the first element
/// of: its name, the start values as one list, and a `<Dimension>`.
fn write_variable<W: Write>(
    xml: &mut XmlOut<W>,
    table: &ModelTable,
    arrays: &Arrays,
    v: &ModelVariable,
    array: Option<&ArrayGroup>,
) {
    let mut attrs: Vec<(&str, String)> = Vec::with_capacity(12);
    attrs.push((
        "name",
        array.map_or_else(|| v.name.clone(), |a| a.name.clone()),
    ));
    attrs.push(("valueReference", value_reference(v).to_string()));
    if let Some(d) = &v.description {
        attrs.push(("description", d.to_string()));
    }
    let structural = table
        .structural
        .as_ref()
        .filter(|s| std::ptr::eq(v, &table.variables[s.variable]));
    attrs.push((
        "causality",
        match structural {
            // Settable in configuration mode only: `fixed` (see docs/fmu.md).
            Some(_) => "structuralParameter",
            None => causality_name(v.causality),
        }
        .to_string(),
    ));
    attrs.push((
        "variability",
        match structural {
            Some(_) => "fixed",
            None => variability_name(v.variability),
        }
        .to_string(),
    ));
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
            for (name, value) in [("min", v.min), ("max", v.max), ("nominal", v.nominal)] {
                if let Some(value) = value {
                    attrs.push((name, format_real(value)));
                }
            }
            if let Some(start) = start {
                // An array sized by the structural parameter has one start
                // for all its elements (the template admits no other).
                let text = match array {
                    Some(a) if sized_by_parameter(table, a).is_some() => format_real(*start),
                    _ => start_values(table, *start, array),
                };
                attrs.push(("start", text));
            }
            if let Some(state) = v.derivative_of {
                let state = value_reference(&table.variables[arrays.representative(state)]);
                attrs.push(("derivative", state.to_string()));
            }
            "Float64"
        }
        VariableType::Integer { start } => {
            if let Some(s) = start {
                attrs.push(("start", s.to_string()));
            }
            // FMI 3.0, "Variable Attributes": a structural parameter that a
            // `<Dimension>` refers to must be a `<UInt64>`.
            match structural {
                Some(_) => "UInt64",
                None => "Int32",
            }
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
    match array {
        None => xml.empty(element, &attrs),
        Some(a) => {
            xml.open(element, &attrs);
            match sized_by_parameter(table, a) {
                Some(vr) => xml.empty("Dimension", &[("valueReference", vr.to_string())]),
                None => xml.empty("Dimension", &[("start", a.len.to_string())]),
            }
            xml.close(element);
        }
    }
}

/// The value reference of the structural parameter that sizes array `a`,
/// if one does.
fn sized_by_parameter(table: &ModelTable, a: &ArrayGroup) -> Option<u32> {
    let s = table.structural.as_ref()?;
    let first = table.variables[a.first].value_reference;
    s.varying
        .contains(&first)
        .then(|| value_reference(&table.variables[s.variable]))
}

/// The start attribute: one value, or an array's values in element order.
fn start_values(table: &ModelTable, first: f64, array: Option<&ArrayGroup>) -> String {
    let Some(a) = array else {
        return format_real(first);
    };
    let mut text = String::new();
    for v in a.elements().map(|i| &table.variables[i]) {
        if let VariableType::Real { start: Some(s) } = v.ty {
            if !text.is_empty() {
                text.push(' ');
            }
            text.push_str(&format_real(s));
        }
    }
    text
}

fn write_model_structure<W: Write>(xml: &mut XmlOut<W>, table: &ModelTable, arrays: &Arrays) {
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
            // An array is listed once, by its first element, with what any
            // of its elements depends on (arrays.rs keeps roles whole).
            let elements: Vec<usize> = match arrays.group_of(i) {
                None => vec![i],
                Some(g) if arrays.groups[g].first == i => arrays.groups[g].elements().collect(),
                Some(_) => continue,
            };
            let vr = value_reference(&table.variables[i]).to_string();
            match merged_dependencies(arrays, dependencies, elements) {
                Some(d) => {
                    knowns.clear();
                    kinds.clear();
                    for (j, (k, kind)) in d.into_iter().enumerate() {
                        if j > 0 {
                            knowns.push(' ');
                            kinds.push(' ');
                        }
                        let _ = write!(knowns, "{}", value_reference(&table.variables[k]));
                        kinds.push_str(dependency_kind_name(kind));
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

/// What the unknowns `elements` (one variable, or an array's elements)
/// depend on, each known by its representative (an array by its first
/// element), in increasing order: `None` when one of them may depend on
/// every known. A known that enters two elements in different ways is
/// `dependent`.
fn merged_dependencies(
    arrays: &Arrays,
    dependencies: &std::collections::BTreeMap<usize, super::table::Dependencies>,
    elements: Vec<usize>,
) -> Option<Vec<(usize, DependencyKind)>> {
    let mut merged: std::collections::BTreeMap<usize, DependencyKind> = Default::default();
    for e in elements {
        let d = dependencies.get(&e)?;
        for (&k, &kind) in d.knowns.iter().zip(&d.kinds) {
            merged
                .entry(arrays.representative(k))
                .and_modify(|old| {
                    if *old != kind {
                        *old = DependencyKind::Dependent;
                    }
                })
                .or_insert(kind);
        }
    }
    Some(merged.into_iter().collect())
}
