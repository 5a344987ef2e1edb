//! Renders `modelDescription.xml` (FMI 2.0) from the [`ModelTable`], and
//! derives the model's GUID from content hashes.
//!
//! The output is deterministic: no dates, elements in table order, numbers
//! written in the shortest form that reads back as the same `f64`.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::io::Write;

use sha2::{Digest, Sha256};

use crate::fmu::description::fmi_rules::{check_table, TableError};
use crate::fmu::description::table::{
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
    Ok(model_description_text(table))
}

/// [`write_model_description`] into a string, for a table that has passed
/// [`check_table`].
pub fn model_description_text(table: &ModelTable) -> String {
    let bytes = write_model_description(table, Vec::new()).expect("writing into memory");
    // Every piece written is a &str or escaped from one.
    String::from_utf8(bytes).expect("the XML writer produced invalid UTF-8")
}

/// The attributes of `<fmiModelDescription>` that FMI 2.0 and 3.0 share,
/// in their order: the standard's `version`, the model's name, its GUID
/// under the version's name for it (`token`: `guid`, `instantiationToken`),
/// its description, the tool and the naming convention.
pub fn root_attributes(
    table: &ModelTable,
    version: &str,
    token: &'static str,
) -> Vec<(&'static str, String)> {
    let mut root = vec![
        ("fmiVersion", version.to_string()),
        ("modelName", table.model_name.clone()),
        (token, table.guid.clone()),
    ];
    if let Some(d) = &table.description {
        root.push(("description", d.clone()));
    }
    root.push(("generationTool", table.generation_tool.clone()));
    root.push(("variableNamingConvention", "structured".to_string()));
    root
}

/// Writes the table as `modelDescription.xml` into `out` (a large model's
/// description goes straight into the archive instead of into memory).
/// The table must have passed [`check_table`]; only `out` can fail.
pub fn write_model_description<W: Write>(table: &ModelTable, out: W) -> std::io::Result<W> {
    let mut xml = XmlOut::new(out);
    xml.decl();

    let mut root = root_attributes(table, "2.0", "guid");
    root.push((
        "numberOfEventIndicators",
        table.number_of_event_indicators.to_string(),
    ));
    xml.open("fmiModelDescription", &root);

    // Both elements carry the same <SourceFiles>: one set of sources builds
    // the one binary that serves both interfaces.
    let element = |xml: &mut XmlOut<W>, name: &str, attributes: &[(&str, String)]| {
        if table.source_files.is_empty() {
            xml.empty(name, attributes);
        } else {
            xml.open(name, attributes);
            write_source_files(xml, &table.source_files);
            xml.close(name);
        }
    };
    if table.interfaces.model_exchange {
        element(
            &mut xml,
            "ModelExchange",
            &[
                ("modelIdentifier", table.model_identifier.clone()),
                // With event indicators the FMU may ask for a step event
                // (a relation left its frozen value without a crossing).
                (
                    "completedIntegratorStepNotNeeded",
                    (table.number_of_event_indicators == 0).to_string(),
                ),
                ("canGetAndSetFMUstate", "true".to_string()),
                ("canSerializeFMUstate", "true".to_string()),
                ("providesDirectionalDerivative", "true".to_string()),
                ("canNotUseMemoryManagementFunctions", "true".to_string()),
            ],
        );
    }
    if table.interfaces.co_simulation {
        // Each flag is exercised by a test: variable steps and the step at
        // an event inside a step by tests/it/cosim.rs and the round trip,
        // FMU state round trips and input derivatives by the misuse suite.
        element(
            &mut xml,
            "CoSimulation",
            &[
                ("modelIdentifier", table.model_identifier.clone()),
                ("canHandleVariableCommunicationStepSize", "true".to_string()),
                ("canInterpolateInputs", "true".to_string()),
                ("maxOutputDerivativeOrder", "1".to_string()),
                ("canGetAndSetFMUstate", "true".to_string()),
                ("canSerializeFMUstate", "true".to_string()),
                ("providesDirectionalDerivative", "true".to_string()),
                ("canNotUseMemoryManagementFunctions", "true".to_string()),
            ],
        );
    }

    write_unit_definitions(&mut xml, table);

    write_type_definitions(&mut xml, table);

    write_log_categories_and_experiment(&mut xml, table);

    xml.open("ModelVariables", NO_ATTRS);
    for v in &table.variables {
        render_variable(&mut xml, v);
    }
    xml.close("ModelVariables");

    xml.open("ModelStructure", NO_ATTRS);
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
        xml.open(list, NO_ATTRS);
        let (mut knowns, mut kinds) = (String::new(), String::new());
        for &i in indices {
            let index = (i + 1).to_string();
            match dependencies.get(&i) {
                Some(d) => {
                    knowns.clear();
                    kinds.clear();
                    for (j, (k, kind)) in d.knowns.iter().zip(&d.kinds).enumerate() {
                        if j > 0 {
                            knowns.push(' ');
                            kinds.push(' ');
                        }
                        let _ = write!(knowns, "{}", k + 1);
                        kinds.push_str(dependency_kind_name(*kind));
                    }
                    xml.empty(
                        "Unknown",
                        &[
                            ("index", index.as_str()),
                            ("dependencies", &knowns),
                            ("dependenciesKind", &kinds),
                        ],
                    );
                }
                None => xml.empty("Unknown", &[("index", index.as_str())]),
            }
        }
        xml.close(list);
    }
    xml.close("ModelStructure");

    xml.close("fmiModelDescription");
    xml.finish()
}

/// `<LogCategories>` (when the model declares any) and `<DefaultExperiment>`: the same
/// elements in FMI 2.0 and FMI 3.0 descriptions.
pub(super) fn write_log_categories_and_experiment<W: Write>(
    xml: &mut XmlOut<W>,
    table: &ModelTable,
) {
    if !table.log_categories.is_empty() {
        xml.open("LogCategories", NO_ATTRS);
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
}

/// `<UnitDefinitions>`: the same element in FMI 2.0 and 3.0.
pub(super) fn write_unit_definitions<W: Write>(xml: &mut XmlOut<W>, table: &ModelTable) {
    if !table.unit_definitions.is_empty() {
        xml.open("UnitDefinitions", NO_ATTRS);
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
}

/// One `<SimpleType>` per enumeration type a variable declares, by name.
fn write_type_definitions<W: Write>(xml: &mut XmlOut<W>, table: &ModelTable) {
    let types = enumeration_types(table);
    if types.is_empty() {
        return;
    }
    xml.open("TypeDefinitions", NO_ATTRS);
    for t in types {
        xml.open("SimpleType", &[("name", t.name.clone())]);
        xml.open("Enumeration", NO_ATTRS);
        write_items(xml, t);
        xml.close("Enumeration");
        xml.close("SimpleType");
    }
    xml.close("TypeDefinitions");
}

/// The `<Item>`s of an enumeration type, valued 1, 2, … in order (FMI 2.0
/// and 3.0 write them alike).
pub(super) fn write_items<W: Write>(xml: &mut XmlOut<W>, t: &crate::ir::EnumerationType) {
    for (k, (name, description)) in t.literals.iter().enumerate() {
        let mut attrs = vec![("name", name.clone()), ("value", (k + 1).to_string())];
        if let Some(d) = description {
            attrs.push(("description", d.clone()));
        }
        xml.empty("Item", &attrs);
    }
}

/// The enumeration types the variables declare, each once, in order: the type
/// definitions of FMI 2.0 and 3.0 descriptions alike.
pub(super) fn enumeration_types(table: &ModelTable) -> Vec<&crate::ir::EnumerationType> {
    let mut types: Vec<&crate::ir::EnumerationType> = table
        .variables
        .iter()
        .filter_map(|v| match &v.ty {
            VariableType::Enumeration { declared, .. } => Some(&**declared),
            _ => None,
        })
        .collect();
    types.sort();
    types.dedup();
    types
}

/// `<SourceFiles>` of an interface element (`ModelExchange`, and
/// `CoSimulation` the same way): every C unit in `sources/`, so that an
/// importer can rebuild the binary for its own platform.
fn write_source_files<W: Write>(xml: &mut XmlOut<W>, files: &[String]) {
    xml.open("SourceFiles", NO_ATTRS);
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

fn render_variable<W: Write>(xml: &mut XmlOut<W>, v: &ModelVariable) {
    let value_reference = v.value_reference.to_string();
    let mut attrs: Vec<(&str, &str)> = Vec::with_capacity(6);
    attrs.push(("name", &v.name));
    attrs.push(("valueReference", &value_reference));
    if let Some(d) = &v.description {
        attrs.push(("description", d));
    }
    attrs.push(("causality", causality_name(v.causality)));
    attrs.push(("variability", variability_name(v.variability)));
    if let Some(initial) = v.initial {
        attrs.push(("initial", initial_name(initial)));
    }
    xml.open("ScalarVariable", &attrs);

    let mut ty: Vec<(&str, Cow<'_, str>)> = Vec::with_capacity(8);
    let element = match &v.ty {
        VariableType::Real { start } => {
            let start = *start;
            let texts = [
                ("quantity", &v.quantity),
                ("unit", &v.unit),
                ("displayUnit", &v.display_unit),
            ];
            for (name, value) in texts {
                if let Some(value) = value {
                    ty.push((name, Cow::Borrowed(value)));
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
                    ty.push((name, Cow::Owned(format_real(value))));
                }
            }
            if let Some(state) = v.derivative_of {
                ty.push(("derivative", Cow::Owned((state + 1).to_string())));
            }
            "Real"
        }
        VariableType::Integer { start } => {
            if let Some(s) = start {
                ty.push(("start", Cow::Owned(s.to_string())));
            }
            "Integer"
        }
        VariableType::Enumeration { start, declared } => {
            ty.push(("declaredType", Cow::Owned(declared.name.clone())));
            if let Some(s) = start {
                ty.push(("start", Cow::Owned(s.to_string())));
            }
            "Enumeration"
        }
        VariableType::Boolean { start } => {
            if let Some(s) = start {
                ty.push(("start", Cow::Owned(s.to_string())));
            }
            "Boolean"
        }
    };
    xml.empty(element, &ty);
    xml.close("ScalarVariable");
}

pub(super) fn push_factor_offset(
    attrs: &mut Vec<(&'static str, String)>,
    factor: f64,
    offset: f64,
) {
    if factor != 1.0 {
        attrs.push(("factor", format_real(factor)));
    }
    if offset != 0.0 {
        attrs.push(("offset", format_real(offset)));
    }
}

pub(super) fn causality_name(c: Causality) -> &'static str {
    match c {
        Causality::Parameter => "parameter",
        Causality::CalculatedParameter => "calculatedParameter",
        Causality::Input => "input",
        Causality::Output => "output",
        Causality::Local => "local",
        Causality::Independent => "independent",
    }
}

pub(super) fn variability_name(v: Variability) -> &'static str {
    match v {
        Variability::Constant => "constant",
        Variability::Fixed => "fixed",
        Variability::Tunable => "tunable",
        Variability::Discrete => "discrete",
        Variability::Continuous => "continuous",
    }
}

pub(super) fn dependency_kind_name(k: DependencyKind) -> &'static str {
    match k {
        DependencyKind::Dependent => "dependent",
        DependencyKind::Constant => "constant",
        DependencyKind::Fixed => "fixed",
        DependencyKind::Tunable => "tunable",
        DependencyKind::Discrete => "discrete",
    }
}

pub(super) fn initial_name(i: Initial) -> &'static str {
    match i {
        Initial::Exact => "exact",
        Initial::Approx => "approx",
        Initial::Calculated => "calculated",
    }
}

/// A thin layer over quick-xml's writer that escapes attribute values
/// itself, so that newlines and tabs in descriptions survive attribute
/// value normalisation (as `&#10;`, `&#9;`, `&#13;`).
/// A minimal XML writer: one element per line, indented by two spaces per
/// level, attribute values escaped. Written straight into `W` without an
/// allocation per attribute: at 10^6 volumes a rod's description is 750 MB.
pub(super) struct XmlOut<W: Write> {
    out: W,
    /// What is written but not yet handed to `out`: a description is
    /// millions of names, quotes and attributes, each otherwise one call
    /// of `out` (through `dyn Write` into the archive).
    buf: Vec<u8>,
    depth: usize,
    /// The first write error; later writes are skipped.
    failed: Option<std::io::Error>,
}

pub(super) const NO_ATTRS: &[(&str, &str)] = &[];

const INDENT: &[u8] = b"                                                                ";

/// How much [`XmlOut`] gathers before it writes into `out`.
const XML_BUFFER: usize = 1 << 16;

/// The bytes an attribute value escapes (`XmlOut::escaped`).
const NEEDS_ESCAPE: [bool; 256] = {
    let mut t = [false; 256];
    let mut k = 0;
    let special = *b"&<>\"\n\r\t";
    while k < special.len() {
        t[special[k] as usize] = true;
        k += 1;
    }
    t
};

/// The length of the longest prefix of `bytes`, rounded down to whole
/// chunks of eight, in which no byte needs escaping: a byte below 0x20 (the
/// whitespace controls) or one of `"`, `&`, `<`, `>` ends it. Each test is
/// exact: a chunk passes only when none of its bytes is one of those.
fn clean_prefix(bytes: &[u8]) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // Nonzero exactly when some byte of `x` is below `n` (n ≤ 0x80).
    let below = |x: u64, n: u8| x.wrapping_sub(ONES * u64::from(n)) & !x & HIGH;
    let has = |x: u64, c: u8| below(x ^ (ONES * u64::from(c)), 1);
    let mut at = 0;
    for chunk in bytes.chunks_exact(8) {
        let x = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
        if below(x, 0x20) | has(x, b'"') | has(x, b'&') | has(x, b'<') | has(x, b'>') != 0 {
            break;
        }
        at += 8;
    }
    at
}

impl<W: Write> XmlOut<W> {
    pub(super) fn new(out: W) -> Self {
        XmlOut {
            out,
            buf: Vec::with_capacity(XML_BUFFER),
            depth: 0,
            failed: None,
        }
    }

    fn raw(&mut self, bytes: &[u8]) {
        self.buf.extend_from_slice(bytes);
        if self.buf.len() >= XML_BUFFER {
            self.flush();
        }
    }

    /// Hands what is gathered to `out`.
    fn flush(&mut self) {
        if self.failed.is_none() {
            if let Err(e) = self.out.write_all(&self.buf) {
                self.failed = Some(e);
            }
        }
        self.buf.clear();
    }

    pub(super) fn decl(&mut self) {
        self.raw(br#"<?xml version="1.0" encoding="UTF-8"?>"#);
    }

    fn line(&mut self) {
        self.raw(b"\n");
        let mut left = self.depth * 2;
        while left > 0 {
            let n = left.min(INDENT.len());
            self.raw(&INDENT[..n]);
            left -= n;
        }
    }

    fn tag<S: AsRef<str>>(&mut self, name: &str, attrs: &[(&str, S)], empty: bool) {
        self.line();
        self.raw(b"<");
        self.raw(name.as_bytes());
        for (key, value) in attrs {
            self.raw(b" ");
            self.raw(key.as_bytes());
            self.raw(b"=\"");
            self.escaped(value.as_ref());
            self.raw(b"\"");
        }
        self.raw(if empty { b"/>" } else { b">" });
    }

    pub(super) fn open<S: AsRef<str>>(&mut self, name: &str, attrs: &[(&str, S)]) {
        self.tag(name, attrs, false);
        self.depth += 1;
    }

    pub(super) fn empty<S: AsRef<str>>(&mut self, name: &str, attrs: &[(&str, S)]) {
        self.tag(name, attrs, true);
    }

    pub(super) fn close(&mut self, name: &str) {
        self.depth -= 1;
        self.line();
        self.raw(b"</");
        self.raw(name.as_bytes());
        self.raw(b">");
    }

    /// An attribute value with `&`, `<`, `>`, `"` and the whitespace
    /// controls escaped; runs without them are written as they are.
    fn escaped(&mut self, value: &str) {
        let bytes = value.as_bytes();
        // Names, units and descriptions seldom hold a byte to escape:
        // eight bytes at a time find the first chunk that may, and only
        // from there on is each byte looked up.
        let clean = clean_prefix(bytes);
        if clean == bytes.len() {
            self.raw(bytes);
            return;
        }
        let mut from = 0;
        for (i, &b) in bytes.iter().enumerate().skip(clean) {
            if !NEEDS_ESCAPE[b as usize] {
                continue;
            }
            let escape: &[u8] = match b {
                b'&' => b"&amp;",
                b'<' => b"&lt;",
                b'>' => b"&gt;",
                b'"' => b"&quot;",
                b'\n' => b"&#10;",
                b'\r' => b"&#13;",
                _ => b"&#9;",
            };
            self.raw(&bytes[from..i]);
            self.raw(escape);
            from = i + 1;
        }
        self.raw(&bytes[from..]);
    }

    pub(super) fn finish(mut self) -> std::io::Result<W> {
        self.raw(b"\n");
        self.flush();
        match self.failed {
            Some(e) => Err(e),
            None => Ok(self.out),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every byte escaped one at a time, as the standard's rules read.
    fn escaped_byte_by_byte(value: &str) -> String {
        let mut out = String::new();
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

    #[test]
    fn attribute_values_escape_every_special_byte_wherever_it_stands() {
        // Each special byte (and harmless neighbours: the bytes just above
        // and below them, non-ASCII text) at every position of strings
        // longer than a chunk of eight.
        let specials = [
            '&', '<', '>', '"', '\n', '\r', '\t', ' ', '!', '#', '%', '\'', ';', '=', '?', 'é',
            '\u{1f}', '\u{7f}',
        ];
        let base = "resistor[12].p.v and more text";
        for special in specials {
            for at in 0..=base.len() {
                let mut value = base.to_string();
                value.insert(at, special);
                let mut xml = XmlOut::new(Vec::new());
                xml.escaped(&value);
                let written = String::from_utf8(xml.finish().unwrap()).unwrap();
                let mut want = escaped_byte_by_byte(&value);
                want.push('\n');
                assert_eq!(written, want, "{value:?}");
            }
        }
    }

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
