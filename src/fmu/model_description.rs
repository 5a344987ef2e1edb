//! Renders `modelDescription.xml` (FMI 2.0) from the [`ModelTable`], and
//! derives the model's GUID from content hashes.
//!
//! The output is deterministic: no dates, elements in table order, numbers
//! written in the shortest form that reads back as the same `f64`.

use std::borrow::Cow;

use quick_xml::events::attributes::Attribute;
use quick_xml::events::{BytesDecl, BytesEnd, BytesStart, Event};
use quick_xml::name::QName;
use quick_xml::Writer;
use sha2::{Digest, Sha256};

use crate::fmu::fmi_rules::{check_table, TableError};
use crate::fmu::table::{
    Causality, DependencyKind, Initial, ModelTable, ModelVariable, Variability, VariableType,
};

/// Renders the table as FMI 2.0 `modelDescription.xml` text.
///
/// The table is checked against the FMI rules first (see
/// [`check_table`]); a table that breaks one (a non-finite start value, a
/// wrong `InitialUnknowns` list, ...) is returned as an error rather than
/// rendered into an FMU that importers would reject.
pub fn render_model_description(table: &ModelTable) -> Result<String, TableError> {
    check_table(table)?;
    let mut xml = XmlOut::new();
    xml.decl();

    let mut root = vec![
        ("fmiVersion", "2.0".to_string()),
        ("modelName", table.model_name.clone()),
        ("guid", table.guid.clone()),
    ];
    if let Some(d) = &table.description {
        root.push(("description", d.clone()));
    }
    root.push(("generationTool", table.generation_tool.clone()));
    root.push(("variableNamingConvention", "structured".to_string()));
    root.push((
        "numberOfEventIndicators",
        table.number_of_event_indicators.to_string(),
    ));
    xml.open("fmiModelDescription", &root);

    let model_exchange = [
        ("modelIdentifier", table.model_identifier.clone()),
        ("completedIntegratorStepNotNeeded", "true".to_string()),
        ("canGetAndSetFMUstate", "true".to_string()),
        ("canSerializeFMUstate", "true".to_string()),
        ("providesDirectionalDerivative", "true".to_string()),
        ("canNotUseMemoryManagementFunctions", "true".to_string()),
    ];
    if table.source_files.is_empty() {
        xml.empty("ModelExchange", &model_exchange);
    } else {
        xml.open("ModelExchange", &model_exchange);
        write_source_files(&mut xml, &table.source_files);
        xml.close("ModelExchange");
    }

    if !table.unit_definitions.is_empty() {
        xml.open("UnitDefinitions", &[]);
        for unit in &table.unit_definitions {
            xml.open("Unit", &[("name", unit.name.clone())]);
            let exponents = [
                ("kg", unit.kg),
                ("m", unit.m),
                ("s", unit.s),
                ("A", unit.a),
                ("K", unit.k),
                ("mol", unit.mol),
                ("cd", unit.cd),
                ("rad", unit.rad),
            ];
            let mut base: Vec<(&str, String)> = exponents
                .iter()
                .filter(|(_, e)| *e != 0)
                .map(|(name, e)| (*name, e.to_string()))
                .collect();
            push_factor_offset(&mut base, unit.factor, unit.offset);
            xml.empty("BaseUnit", &base);
            for display in &unit.display_units {
                let mut attrs = vec![("name", display.name.clone())];
                push_factor_offset(&mut attrs, display.factor, display.offset);
                xml.empty("DisplayUnit", &attrs);
            }
            xml.close("Unit");
        }
        xml.close("UnitDefinitions");
    }

    if !table.log_categories.is_empty() {
        xml.open("LogCategories", &[]);
        for (name, description) in &table.log_categories {
            xml.empty(
                "Category",
                &[("name", name.clone()), ("description", description.clone())],
            );
        }
        xml.close("LogCategories");
    }

    let e = &table.default_experiment;
    let mut experiment = vec![
        ("startTime", format_real(e.start_time)),
        ("stopTime", format_real(e.stop_time)),
        ("tolerance", format_real(e.tolerance)),
    ];
    if let Some(h) = e.step_size {
        experiment.push(("stepSize", format_real(h)));
    }
    xml.empty("DefaultExperiment", &experiment);

    xml.open("ModelVariables", &[]);
    for v in &table.variables {
        render_variable(&mut xml, v);
    }
    xml.close("ModelVariables");

    xml.open("ModelStructure", &[]);
    for (list, indices, dependencies) in [
        ("Outputs", &table.outputs, &table.dependencies),
        ("Derivatives", &table.derivatives, &table.dependencies),
        (
            "InitialUnknowns",
            &table.initial_unknowns,
            &table.initial_dependencies,
        ),
    ] {
        if indices.is_empty() {
            continue;
        }
        xml.open(list, &[]);
        for &i in indices {
            let mut attrs = vec![("index", (i + 1).to_string())];
            if let Some(d) = dependencies.get(&i) {
                let knowns: Vec<String> = d.knowns.iter().map(|k| (k + 1).to_string()).collect();
                let kinds: Vec<&str> = d.kinds.iter().map(|k| dependency_kind_name(*k)).collect();
                attrs.push(("dependencies", knowns.join(" ")));
                attrs.push(("dependenciesKind", kinds.join(" ")));
            }
            xml.empty("Unknown", &attrs);
        }
        xml.close(list);
    }
    xml.close("ModelStructure");

    xml.close("fmiModelDescription");
    Ok(xml.finish())
}

/// `<SourceFiles>` of an interface element (`ModelExchange`, and
/// `CoSimulation` the same way): every C unit in `sources/`, so that an
/// importer can rebuild the binary for its own platform.
fn write_source_files(xml: &mut XmlOut, files: &[String]) {
    xml.open("SourceFiles", &[]);
    for file in files {
        xml.empty("File", &[("name", file.clone())]);
    }
    xml.close("SourceFiles");
}

/// A deterministic GUID-shaped string `{xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx}`
/// from the SHA-256 of `parts`. Each part is hashed with its length in
/// front, so `["ab", "c"]` and `["a", "bc"]` give different GUIDs. The
/// version and variant bits are set as for an RFC 9562 version-8 (custom)
/// UUID, so tools that parse GUIDs accept it.
pub fn guid_from(parts: &[&[u8]]) -> String {
    let mut hasher = Sha256::new();
    hasher.update(b"mofmu-guid\0");
    for part in parts {
        hasher.update((part.len() as u64).to_le_bytes());
        hasher.update(part);
    }
    let digest = hasher.finalize();
    let mut b = [0u8; 16];
    b.copy_from_slice(&digest[..16]);
    b[6] = (b[6] & 0x0f) | 0x80;
    b[8] = (b[8] & 0x3f) | 0x80;
    let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
    format!(
        "{{{}-{}-{}-{}-{}}}",
        &hex[0..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..32]
    )
}

/// Formats a finite `f64` as `xs:double` text that parses back to the same
/// value: Rust's shortest round-trip digits, in plain notation for
/// magnitudes in [1e-4, 1e15) and exponent notation (`1e300`, `1.5e-7`)
/// outside it, so neither tiny nor huge values turn into long digit runs.
/// Zero keeps its sign (`0`, `-0`).
pub fn format_real(x: f64) -> String {
    debug_assert!(x.is_finite(), "non-finite value {x} reached the XML writer");
    let magnitude = x.abs();
    if magnitude == 0.0 || (1e-4..1e15).contains(&magnitude) {
        format!("{x}")
    } else {
        format!("{x:e}")
    }
}

fn render_variable(xml: &mut XmlOut, v: &ModelVariable) {
    let mut attrs = vec![
        ("name", v.name.clone()),
        ("valueReference", v.value_reference.to_string()),
    ];
    if let Some(d) = &v.description {
        attrs.push(("description", d.clone()));
    }
    attrs.push(("causality", causality_name(v.causality).to_string()));
    attrs.push(("variability", variability_name(v.variability).to_string()));
    if let Some(initial) = v.initial {
        attrs.push(("initial", initial_name(initial).to_string()));
    }
    xml.open("ScalarVariable", &attrs);

    let mut ty = Vec::new();
    let element = match v.ty {
        VariableType::Real { start } => {
            let texts = [
                ("quantity", &v.quantity),
                ("unit", &v.unit),
                ("displayUnit", &v.display_unit),
            ];
            for (name, value) in texts {
                if let Some(value) = value {
                    ty.push((name, value.clone()));
                }
            }
            let numbers = [
                ("min", v.min),
                ("max", v.max),
                ("nominal", v.nominal),
                ("start", start),
            ];
            for (name, value) in numbers {
                if let Some(value) = value {
                    ty.push((name, format_real(value)));
                }
            }
            if let Some(state) = v.derivative_of {
                ty.push(("derivative", (state + 1).to_string()));
            }
            "Real"
        }
        VariableType::Integer { start } => {
            if let Some(s) = start {
                ty.push(("start", s.to_string()));
            }
            "Integer"
        }
        VariableType::Boolean { start } => {
            if let Some(s) = start {
                ty.push(("start", s.to_string()));
            }
            "Boolean"
        }
    };
    xml.empty(element, &ty);
    xml.close("ScalarVariable");
}

fn push_factor_offset(attrs: &mut Vec<(&'static str, String)>, factor: f64, offset: f64) {
    if factor != 1.0 {
        attrs.push(("factor", format_real(factor)));
    }
    if offset != 0.0 {
        attrs.push(("offset", format_real(offset)));
    }
}

fn causality_name(c: Causality) -> &'static str {
    match c {
        Causality::Parameter => "parameter",
        Causality::CalculatedParameter => "calculatedParameter",
        Causality::Input => "input",
        Causality::Output => "output",
        Causality::Local => "local",
        Causality::Independent => "independent",
    }
}

fn variability_name(v: Variability) -> &'static str {
    match v {
        Variability::Constant => "constant",
        Variability::Fixed => "fixed",
        Variability::Tunable => "tunable",
        Variability::Discrete => "discrete",
        Variability::Continuous => "continuous",
    }
}

fn dependency_kind_name(k: DependencyKind) -> &'static str {
    match k {
        DependencyKind::Dependent => "dependent",
        DependencyKind::Constant => "constant",
        DependencyKind::Fixed => "fixed",
        DependencyKind::Tunable => "tunable",
        DependencyKind::Discrete => "discrete",
    }
}

fn initial_name(i: Initial) -> &'static str {
    match i {
        Initial::Exact => "exact",
        Initial::Approx => "approx",
        Initial::Calculated => "calculated",
    }
}

/// A thin layer over quick-xml's writer that escapes attribute values
/// itself, so that newlines and tabs in descriptions survive attribute
/// value normalisation (as `&#10;`, `&#9;`, `&#13;`).
struct XmlOut {
    writer: Writer<Vec<u8>>,
}

impl XmlOut {
    fn new() -> Self {
        XmlOut {
            writer: Writer::new_with_indent(Vec::new(), b' ', 2),
        }
    }

    fn decl(&mut self) {
        self.write(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)));
    }

    fn open(&mut self, name: &str, attrs: &[(&str, String)]) {
        let start = start_tag(name, attrs);
        self.write(Event::Start(start));
    }

    fn empty(&mut self, name: &str, attrs: &[(&str, String)]) {
        let start = start_tag(name, attrs);
        self.write(Event::Empty(start));
    }

    fn close(&mut self, name: &str) {
        self.write(Event::End(BytesEnd::new(name)));
    }

    fn write(&mut self, event: Event<'_>) {
        // Writing into a Vec<u8> cannot fail.
        self.writer
            .write_event(event)
            .expect("writing XML into memory failed");
    }

    fn finish(self) -> String {
        let mut bytes = self.writer.into_inner();
        bytes.push(b'\n');
        // Every piece written is a &str or escaped from one.
        String::from_utf8(bytes).expect("the XML writer produced invalid UTF-8")
    }
}

fn start_tag<'a>(name: &'a str, attrs: &[(&str, String)]) -> BytesStart<'a> {
    let mut start = BytesStart::new(name);
    for (key, value) in attrs {
        start.push_attribute(Attribute {
            key: QName(key.as_bytes()),
            value: Cow::Owned(escape_attribute(value).into_bytes()),
        });
    }
    start
}

fn escape_attribute(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            '\t' => out.push_str("&#9;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reals_round_trip_in_short_form() {
        let cases: &[(f64, &str)] = &[
            (2.0, "2"),
            (-0.0, "-0"),
            (0.0, "0"),
            (1e300, "1e300"),
            (1e-7, "1e-7"),
            (-1.5e-7, "-1.5e-7"),
            (0.1, "0.1"),
            (1e-4, "0.0001"),
            (123456789012345.0, "123456789012345"),
            (1e15, "1e15"),
            (f64::MAX, "1.7976931348623157e308"),
            (f64::MIN_POSITIVE, "2.2250738585072014e-308"),
            (5e-324, "5e-324"),
            (293.15, "293.15"),
            (1.0 / 3.0, "0.3333333333333333"),
        ];
        for &(x, text) in cases {
            let s = format_real(x);
            assert_eq!(s, text, "formatting {x:?}");
            let back: f64 = s.parse().unwrap();
            assert_eq!(back.to_bits(), x.to_bits(), "round trip of {x:?}");
        }
    }

    #[test]
    fn guid_is_deterministic_and_length_prefixed() {
        let a = guid_from(&[b"ab", b"c"]);
        assert_eq!(a, guid_from(&[b"ab", b"c"]));
        assert_ne!(a, guid_from(&[b"a", b"bc"]));
        assert_eq!(a.len(), 38);
        assert!(a.starts_with('{') && a.ends_with('}'));
        let groups: Vec<usize> = a[1..37].split('-').map(str::len).collect();
        assert_eq!(groups, [8, 4, 4, 4, 12]);
        assert_eq!(&a[15..16], "8");
    }
}
