//! The FMI 2.0 rules a [`ModelTable`] must satisfy before it is rendered.
//!
//! The table is filled by the compiler, so a violation here is a compiler
//! bug, not a user error; but it is reported as a value (never a panic) so
//! the CLI can say which variable broke which rule. The rules are the ones
//! of the FMI 2.0 standard that checkers such as `fmpy validate` enforce;
//! `docs/fmi-rules.md` explains them for whoever fills the table.

use std::collections::{HashMap, HashSet};
use std::fmt::Display;

use crate::fmu::description::table::{
    Causality, Initial, ModelTable, ModelVariable, Variability, VariableType,
};

/// One broken rule. Variables are named by their flat name.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TableError {
    #[error("the model has no variables; FMI 2.0 requires at least one ScalarVariable")]
    NoVariables,
    #[error("model identifier `{0}` is not a C identifier")]
    BadModelIdentifier(String),
    #[error("the GUID is empty")]
    EmptyGuid,
    #[error("{what} contains the character U+{code:04X}, which XML 1.0 cannot represent")]
    BadXmlChar { what: String, code: u32 },
    #[error("variable name `{0}` does not follow FMI's structured naming convention")]
    BadName(String),
    #[error("variable name `{0}` is used twice")]
    DuplicateName(String),
    #[error("{what} of {owner} is {value}, but only finite numbers can be written")]
    NotFinite {
        owner: String,
        what: &'static str,
        value: f64,
    },
    #[error("variable `{name}`: {reason}")]
    BadVariable { name: String, reason: String },
    #[error("variable `{name}`: causality {causality:?} with variability {variability:?} and initial {initial:?} is not allowed")]
    IllegalCombination {
        name: String,
        causality: Causality,
        variability: Variability,
        initial: Option<Initial>,
    },
    #[error("{list} refers to variable index {index}, but there are only {count} variables")]
    IndexOutOfRange {
        list: &'static str,
        index: usize,
        count: usize,
    },
    #[error("{list} must be strictly increasing (index {index} comes after {previous})")]
    NotIncreasing {
        list: &'static str,
        index: usize,
        previous: usize,
    },
    #[error("ModelStructure/Outputs must list exactly the variables with causality output; {0}")]
    OutputsMismatch(String),
    #[error("ModelStructure/Derivatives: {0}")]
    BadDerivative(String),
    #[error(
        "ModelStructure/InitialUnknowns must list exactly {{{expected}}} but lists {{{actual}}}"
    )]
    InitialUnknownsMismatch { expected: String, actual: String },
    #[error("unit `{0}` is defined twice")]
    DuplicateUnit(String),
    #[error("unit `{unit}` defines display unit `{display_unit}` twice")]
    DuplicateDisplayUnit { unit: String, display_unit: String },
    #[error("variable `{name}` uses unit `{unit}`, which is not in UnitDefinitions")]
    UndefinedUnit { name: String, unit: String },
    #[error(
        "variable `{name}` uses display unit `{display_unit}`, which unit `{unit}` does not define"
    )]
    UndefinedDisplayUnit {
        name: String,
        unit: String,
        display_unit: String,
    },
    #[error("default experiment: {0}")]
    BadExperiment(String),
    #[error("ModelStructure dependencies of `{unknown}`: {reason}")]
    BadDependencies { unknown: String, reason: String },
}

/// The `initial` that applies when the attribute is left out, per the FMI
/// 2.0 table of defaults; `None` for combinations that have no `initial`
/// (inputs and the independent variable) or that are illegal.
pub fn default_initial(causality: Causality, variability: Variability) -> Option<Initial> {
    use Causality as C;
    use Variability as V;
    match (causality, variability) {
        (C::Output | C::Local, V::Constant) => Some(Initial::Exact),
        (C::Parameter, V::Fixed | V::Tunable) => Some(Initial::Exact),
        (C::CalculatedParameter | C::Local, V::Fixed | V::Tunable) => Some(Initial::Calculated),
        (C::Output | C::Local, V::Discrete | V::Continuous) => Some(Initial::Calculated),
        _ => None,
    }
}

/// The `initial` a variable effectively has: its own, or the default.
pub fn effective_initial(v: &ModelVariable) -> Option<Initial> {
    v.initial
        .or_else(|| default_initial(v.causality, v.variability))
}

/// Checks every rule; returns the first violation found. Rules are checked
/// per variable first (in table order), then the model structure.
pub fn check_table(table: &ModelTable) -> Result<(), TableError> {
    check_header(table)?;
    let units = check_units(table)?;
    // The names' set (a cache miss or two per name: at 10^5 elements of the
    // transmission line, 1.9 million names) beside the rules of each
    // variable and of the structure on a second thread; the set stays on
    // this one, whose allocator heap it returns to. The error is the one a
    // single pass in table order finds first: variable `i`'s rules, then
    // whether its name came before, then variable `i + 1`'s; the structure
    // only after every variable.
    let (duplicate, rest) = std::thread::scope(|scope| {
        let rest = scope.spawn(|| {
            match table
                .variables
                .iter()
                .enumerate()
                .find_map(|(i, v)| check_variable(v, &units).err().map(|e| (i, e)))
            {
                Some(first) => Err(first),
                None => check_structure(table)
                    .and_then(|()| check_dependencies(table))
                    .map_err(|e| (usize::MAX, e)),
            }
        });
        let duplicate = first_duplicate_name(&table.variables);
        (
            duplicate,
            rest.join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
        )
    });
    match (duplicate, rest) {
        (Some(d), Err((i, e))) if i <= d => Err(e),
        (Some(d), _) => Err(TableError::DuplicateName(table.variables[d].name.clone())),
        (None, rest) => rest.map_err(|(_, e)| e),
    }
}

/// The index of the first variable whose name an earlier one has.
fn first_duplicate_name(vars: &[ModelVariable]) -> Option<usize> {
    let mut names: HashSet<&str, foldhash::fast::FixedState> =
        HashSet::with_capacity_and_hasher(vars.len(), Default::default());
    vars.iter().position(|v| !names.insert(v.name.as_str()))
}

fn check_dependency_map(
    vars: &[ModelVariable],
    unknowns: &[usize],
    dependencies: &std::collections::BTreeMap<usize, crate::fmu::description::table::Dependencies>,
    is_known: &dyn Fn(usize) -> bool,
) -> Result<(), TableError> {
    // A set, not a scan of the list per entry: a rod of a million volumes lists a
    // million unknowns.
    let mut listed = vec![false; vars.len()];
    for &u in unknowns {
        if let Some(slot) = listed.get_mut(u) {
            *slot = true;
        }
    }
    for (&u, d) in dependencies {
        let bad = |reason: String| TableError::BadDependencies {
            unknown: vars
                .get(u)
                .map_or_else(|| format!("#{u}"), |v| v.name.clone()),
            reason,
        };
        if !listed.get(u).copied().unwrap_or(false) {
            return Err(bad("it is not listed as an unknown there".into()));
        }
        if d.knowns.len() != d.kinds.len() {
            return Err(bad(format!(
                "{} knowns but {} kinds",
                d.knowns.len(),
                d.kinds.len()
            )));
        }
        if d.knowns.windows(2).any(|pair| pair[0] >= pair[1]) {
            return Err(bad("the indices are not strictly increasing".into()));
        }
        for &k in &d.knowns {
            if k >= vars.len() {
                return Err(bad(format!("index {k} is out of range")));
            }
            if !is_known(k) {
                return Err(bad(format!("`{}` is not a known", vars[k].name)));
            }
        }
    }
    Ok(())
}

/// Dependencies are given only for listed unknowns, as strictly increasing
/// indices of knowns with one kind each. In continuous-time and event mode
/// the knowns are inputs, continuous states and the independent variable;
/// in initialization they are inputs, the independent variable and every
/// variable whose start value is exact or approximate (parameters and
/// states with a start), constants excepted.
fn check_dependencies(table: &ModelTable) -> Result<(), TableError> {
    let vars = &table.variables;
    let mut is_state = vec![false; vars.len()];
    for s in vars.iter().filter_map(|v| v.derivative_of) {
        if let Some(slot) = is_state.get_mut(s) {
            *slot = true;
        }
    }
    let continuous_known = |k: usize| {
        matches!(vars[k].causality, Causality::Input | Causality::Independent)
            || is_state.get(k).copied().unwrap_or(false)
    };
    let initial_known = |k: usize| {
        let v = &vars[k];
        matches!(v.causality, Causality::Input | Causality::Independent)
            || (v.variability != Variability::Constant
                && matches!(effective_initial(v), Some(Initial::Exact | Initial::Approx)))
    };
    let listed: Vec<usize> = [table.outputs.as_slice(), table.derivatives.as_slice()].concat();
    check_dependency_map(vars, &listed, &table.dependencies, &continuous_known)?;
    check_dependency_map(
        vars,
        &table.initial_unknowns,
        &table.initial_dependencies,
        &initial_known,
    )?;
    Ok(())
}

fn check_header(table: &ModelTable) -> Result<(), TableError> {
    if table.variables.is_empty() {
        return Err(TableError::NoVariables);
    }
    if !is_c_identifier(&table.model_identifier) {
        return Err(TableError::BadModelIdentifier(
            table.model_identifier.clone(),
        ));
    }
    if table.guid.trim().is_empty() {
        return Err(TableError::EmptyGuid);
    }
    xml_text("the model name", &table.model_name)?;
    xml_text("the GUID", &table.guid)?;
    xml_text("the generation tool", &table.generation_tool)?;
    if let Some(d) = &table.description {
        xml_text("the model description", d)?;
    }
    for (name, description) in &table.log_categories {
        xml_text("a log category name", name)?;
        xml_text("a log category description", description)?;
    }
    let e = &table.default_experiment;
    let owner = "the default experiment";
    finite(owner, "startTime", e.start_time)?;
    finite(owner, "stopTime", e.stop_time)?;
    finite(owner, "tolerance", e.tolerance)?;
    if let Some(h) = e.step_size {
        finite(owner, "stepSize", h)?;
        if h <= 0.0 {
            return Err(TableError::BadExperiment(format!(
                "stepSize {h} is not positive"
            )));
        }
    }
    if e.stop_time < e.start_time {
        return Err(TableError::BadExperiment(format!(
            "stopTime {} is before startTime {}",
            e.stop_time, e.start_time
        )));
    }
    if e.tolerance <= 0.0 {
        return Err(TableError::BadExperiment(format!(
            "tolerance {} is not positive",
            e.tolerance
        )));
    }
    Ok(())
}

/// Returns, for each unit name, the set of its display unit names.
/// The defined units with their display units, looked up once per
/// variable (hence the fast hash).
type Units<'a> = HashMap<&'a str, HashSet<&'a str>, foldhash::fast::FixedState>;

fn check_units(table: &ModelTable) -> Result<Units<'_>, TableError> {
    let mut units = Units::default();
    for u in &table.unit_definitions {
        xml_text("a unit name", &u.name)?;
        let owner = format!("unit `{}`", u.name);
        finite(&owner, "factor", u.factor)?;
        finite(&owner, "offset", u.offset)?;
        let mut displays = HashSet::new();
        for d in &u.display_units {
            xml_text("a display unit name", &d.name)?;
            let owner = format!("display unit `{}` of unit `{}`", d.name, u.name);
            finite(&owner, "factor", d.factor)?;
            finite(&owner, "offset", d.offset)?;
            if !displays.insert(d.name.as_str()) {
                return Err(TableError::DuplicateDisplayUnit {
                    unit: u.name.clone(),
                    display_unit: d.name.clone(),
                });
            }
        }
        if units.insert(u.name.as_str(), displays).is_some() {
            return Err(TableError::DuplicateUnit(u.name.clone()));
        }
    }
    Ok(units)
}

fn check_variable(v: &ModelVariable, units: &Units) -> Result<(), TableError> {
    use Causality as C;
    use Variability as V;
    let bad = |reason: &str| TableError::BadVariable {
        name: v.name.clone(),
        reason: reason.to_string(),
    };
    xml_text(
        Lazy(|| format!("the name of variable `{}`", v.name)),
        &v.name,
    )?;
    if !is_structured_name(&v.name) {
        return Err(TableError::BadName(v.name.clone()));
    }
    if let Some(d) = &v.description {
        xml_text(Lazy(|| format!("the description of `{}`", v.name)), d)?;
    }

    // Causality, variability and initial.
    let legal_pair = matches!(
        (v.causality, v.variability),
        (C::Parameter | C::CalculatedParameter, V::Fixed | V::Tunable)
            | (C::Input, V::Discrete | V::Continuous)
            | (C::Output, V::Constant | V::Discrete | V::Continuous)
            | (C::Local, _)
            | (C::Independent, V::Continuous)
    );
    let initial = effective_initial(v);
    let legal_initial = match (v.causality, v.variability) {
        (C::Input | C::Independent, _) => v.initial.is_none(),
        (_, V::Constant) | (C::Parameter, _) => initial == Some(Initial::Exact),
        (C::CalculatedParameter, _) | (C::Local, V::Fixed | V::Tunable) => {
            matches!(initial, Some(Initial::Calculated | Initial::Approx))
        }
        _ => initial.is_some(),
    };
    if !legal_pair || !legal_initial {
        return Err(TableError::IllegalCombination {
            name: v.name.clone(),
            causality: v.causality,
            variability: v.variability,
            initial: v.initial,
        });
    }

    let is_real = matches!(v.ty, VariableType::Real { .. });
    if !is_real && v.variability == V::Continuous {
        return Err(bad("only Real variables may have variability continuous"));
    }
    if v.causality == C::Independent && !is_real {
        return Err(bad("the independent variable must be Real"));
    }

    check_start(v, initial)?;
    check_real_attributes(v, is_real, units)
}

/// Start values: required for inputs and for exact/approx, forbidden for
/// calculated variables and the independent variable.
fn check_start(v: &ModelVariable, initial: Option<Initial>) -> Result<(), TableError> {
    use Causality as C;
    let bad = |reason: &str| TableError::BadVariable {
        name: v.name.clone(),
        reason: reason.to_string(),
    };
    let has_start = match &v.ty {
        VariableType::Real { start } => {
            if let Some(s) = *start {
                finite(Lazy(|| format!("variable `{}`", v.name)), "start", s)?;
            }
            start.is_some()
        }
        VariableType::Enumeration { start, declared } => {
            if let Some(s) = *start {
                if s < 1 || s as usize > declared.literals.len() {
                    return Err(bad(
                        "enumeration start is not the value of one of its items",
                    ));
                }
            }
            start.is_some()
        }
        VariableType::Integer { start } => {
            if let Some(s) = *start {
                if i32::try_from(s).is_err() {
                    return Err(bad(
                        "Integer start is outside the 32-bit range of fmi2Integer",
                    ));
                }
            }
            start.is_some()
        }
        VariableType::Boolean { start } => start.is_some(),
    };
    let start_required =
        v.causality == C::Input || matches!(initial, Some(Initial::Exact | Initial::Approx));
    let start_forbidden = v.causality == C::Independent || initial == Some(Initial::Calculated);
    if start_required && !has_start {
        return Err(bad(
            "a start value is required (input, or initial exact/approx)",
        ));
    }
    if start_forbidden && has_start {
        return Err(bad(
            "a start value is not allowed (initial calculated, or independent)",
        ));
    }
    Ok(())
}

/// The attributes only a Real has, and its unit and display unit (which
/// `units` must define).
fn check_real_attributes(
    v: &ModelVariable,
    is_real: bool,
    units: &Units,
) -> Result<(), TableError> {
    let bad = |reason: &str| TableError::BadVariable {
        name: v.name.clone(),
        reason: reason.to_string(),
    };
    // Real-only attributes.
    // Formatted only for an error (not once per variable of a large table).
    let owner = Lazy(|| format!("variable `{}`", v.name));
    let real_only = v.unit.is_some()
        || v.display_unit.is_some()
        || v.quantity.is_some()
        || v.min.is_some()
        || v.max.is_some()
        || v.nominal.is_some()
        || v.derivative_of.is_some();
    if !is_real && real_only {
        return Err(bad(
            "unit, displayUnit, quantity, min, max, nominal and derivative are only written for Real variables",
        ));
    }
    for (what, value) in [("min", v.min), ("max", v.max), ("nominal", v.nominal)] {
        if let Some(x) = value {
            finite(&owner, what, x)?;
        }
    }
    if let Some(n) = v.nominal {
        if n <= 0.0 {
            return Err(bad("nominal must be positive"));
        }
    }
    if let (Some(lo), Some(hi)) = (v.min, v.max) {
        if lo > hi {
            return Err(bad("min is greater than max"));
        }
    }
    if let VariableType::Real { start: Some(s) } = v.ty {
        if v.min.is_some_and(|lo| s < lo) || v.max.is_some_and(|hi| s > hi) {
            return Err(bad("start lies outside [min, max]"));
        }
    }
    if let Some(q) = &v.quantity {
        xml_text(Lazy(|| format!("the quantity of `{}`", v.name)), q)?;
    }

    // Units.
    match (&v.unit, &v.display_unit) {
        (None, Some(_)) => return Err(bad("displayUnit is given without unit")),
        (Some(unit), display) => {
            let Some(displays) = units.get(&**unit) else {
                return Err(TableError::UndefinedUnit {
                    name: v.name.clone(),
                    unit: unit.to_string(),
                });
            };
            if let Some(d) = display {
                if !displays.contains(&**d) {
                    return Err(TableError::UndefinedDisplayUnit {
                        name: v.name.clone(),
                        unit: unit.to_string(),
                        display_unit: d.to_string(),
                    });
                }
            }
        }
        (None, None) => {}
    }
    Ok(())
}

fn check_structure(table: &ModelTable) -> Result<(), TableError> {
    let vars = &table.variables;
    let count = vars.len();
    let in_range = |list: &'static str, index: usize| {
        if index < count {
            Ok(())
        } else {
            Err(TableError::IndexOutOfRange { list, index, count })
        }
    };
    let increasing = |list: &'static str, indices: &[usize]| -> Result<(), TableError> {
        for &i in indices {
            in_range(list, i)?;
        }
        for pair in indices.windows(2) {
            if pair[1] <= pair[0] {
                return Err(TableError::NotIncreasing {
                    list,
                    index: pair[1],
                    previous: pair[0],
                });
            }
        }
        Ok(())
    };

    // derivative_of targets.
    for v in vars {
        if let Some(state) = v.derivative_of {
            in_range("a derivative attribute", state)?;
            if !matches!(vars[state].ty, VariableType::Real { .. }) {
                return Err(TableError::BadDerivative(format!(
                    "`{}` is the derivative of `{}`, which is not Real",
                    v.name, vars[state].name
                )));
            }
        }
    }

    // Outputs: exactly the output variables, in index order.
    increasing("ModelStructure/Outputs", &table.outputs)?;
    let expected_outputs: Vec<usize> = (0..count)
        .filter(|&i| vars[i].causality == Causality::Output)
        .collect();
    if expected_outputs != table.outputs {
        let missing: Vec<&str> = expected_outputs
            .iter()
            .filter(|i| !table.outputs.contains(i))
            .map(|&i| vars[i].name.as_str())
            .collect();
        let extra: Vec<&str> = table
            .outputs
            .iter()
            .filter(|i| !expected_outputs.contains(i))
            .map(|&i| vars[i].name.as_str())
            .collect();
        return Err(TableError::OutputsMismatch(format!(
            "missing {{{}}}, not outputs {{{}}}",
            missing.join(", "),
            extra.join(", ")
        )));
    }

    // Derivatives: the order is the state order, so it is kept as given;
    // each entry must carry a derivative attribute naming a distinct
    // continuous state.
    let mut is_listed_state = vec![false; count];
    for &d in &table.derivatives {
        in_range("ModelStructure/Derivatives", d)?;
        let der = &vars[d];
        let Some(state) = der.derivative_of else {
            return Err(TableError::BadDerivative(format!(
                "`{}` has no derivative attribute",
                der.name
            )));
        };
        let s = &vars[state];
        if der.variability != Variability::Continuous || s.variability != Variability::Continuous {
            return Err(TableError::BadDerivative(format!(
                "state `{}` and its derivative `{}` must both be continuous",
                s.name, der.name
            )));
        }
        if !matches!(s.causality, Causality::Local | Causality::Output) {
            return Err(TableError::BadDerivative(format!(
                "state `{}` must have causality local or output",
                s.name
            )));
        }
        if std::mem::replace(&mut is_listed_state[state], true) {
            return Err(TableError::BadDerivative(format!(
                "state `{}` is listed twice",
                s.name
            )));
        }
    }

    // InitialUnknowns: outputs and states/derivatives that are calculated or
    // approx, and every calculated parameter; in index order.
    increasing("ModelStructure/InitialUnknowns", &table.initial_unknowns)?;
    let not_exact = |i: usize| {
        matches!(
            effective_initial(&vars[i]),
            Some(Initial::Calculated | Initial::Approx)
        )
    };
    // Membership as flags over the variables: a rod of a million volumes
    // has a million initial unknowns, and a tree set of them took seconds.
    let mut is_expected = vec![false; count];
    for (i, v) in vars.iter().enumerate() {
        let output = v.causality == Causality::Output && not_exact(i);
        if output || v.causality == Causality::CalculatedParameter {
            is_expected[i] = true;
        }
    }
    for &d in &table.derivatives {
        for i in [d, vars[d].derivative_of.unwrap_or(d)] {
            if not_exact(i) {
                is_expected[i] = true;
            }
        }
    }
    let expected: Vec<usize> = (0..count).filter(|&i| is_expected[i]).collect();
    let mut actual = table.initial_unknowns.clone();
    actual.sort_unstable();
    actual.dedup();
    if expected != actual {
        let names = |set: &[usize]| {
            set.iter()
                .map(|&i| vars[i].name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        return Err(TableError::InitialUnknownsMismatch {
            expected: names(&expected),
            actual: names(&actual),
        });
    }
    Ok(())
}

/// A message made only when displayed: the checks name the variable in
/// their errors, and formatting that name for each of a million variables
/// that pass would cost more than the checks.
struct Lazy<F>(F);

impl<F: Fn() -> String> Display for Lazy<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&(self.0)())
    }
}

fn finite(owner: impl Display, what: &'static str, value: f64) -> Result<(), TableError> {
    if value.is_finite() {
        Ok(())
    } else {
        Err(TableError::NotFinite {
            owner: owner.to_string(),
            what,
            value,
        })
    }
}

/// XML 1.0 can carry tab, newline and carriage return among the control
/// characters, and nothing else below U+0020 (not even as `&#1;`).
fn xml_text(what: impl Display, text: &str) -> Result<(), TableError> {
    match text.chars().find(|&c| {
        (c < ' ' && !matches!(c, '\t' | '\n' | '\r')) || matches!(c, '\u{FFFE}' | '\u{FFFF}')
    }) {
        Some(c) => Err(TableError::BadXmlChar {
            what: what.to_string(),
            code: c as u32,
        }),
        None => Ok(()),
    }
}

fn is_c_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c == '_' || c.is_ascii_alphabetic())
        && chars.all(|c| c == '_' || c.is_ascii_alphanumeric())
}

/// FMI 2.0's structured naming convention, without whitespace:
/// `name := identifier | "der(" identifier ["," unsigned] ")"`,
/// `identifier := bname [indices] {"." bname [indices]}`,
/// `bname := nondigit {nondigit | digit} | "'" qchar {qchar} "'"`,
/// `indices := "[" unsigned {"," unsigned} "]"`.
pub fn is_structured_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    if let Some(inner) = name.strip_prefix("der(").and_then(|s| s.strip_suffix(')')) {
        let (ident, order) = match inner.rfind(',') {
            // A comma inside brackets or quotes belongs to the identifier.
            Some(at) if identifier_len(inner.as_bytes()) == Some(at) => {
                (&inner[..at], Some(&inner[at + 1..]))
            }
            _ => (inner, None),
        };
        return identifier_len(ident.as_bytes()) == Some(ident.len())
            && order.map_or(true, |o| {
                !o.is_empty() && o.bytes().all(|b| b.is_ascii_digit())
            });
    }
    identifier_len(bytes) == Some(bytes.len())
}

/// Length of the longest prefix of `s` that is an `identifier`, if any.
fn identifier_len(s: &[u8]) -> Option<usize> {
    let mut at = 0;
    loop {
        at += bname_len(&s[at..])?;
        if s.get(at) == Some(&b'[') {
            at += 1;
            loop {
                let digits = s[at..].iter().take_while(|b| b.is_ascii_digit()).count();
                if digits == 0 {
                    return None;
                }
                at += digits;
                match s.get(at) {
                    Some(b',') => at += 1,
                    Some(b']') => {
                        at += 1;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        if s.get(at) == Some(&b'.') && at + 1 < s.len() {
            at += 1;
        } else {
            return Some(at);
        }
    }
}

fn bname_len(s: &[u8]) -> Option<usize> {
    match s.first() {
        Some(b'\'') => {
            let mut at = 1;
            loop {
                match s.get(at)? {
                    b'\'' if at > 1 => return Some(at + 1),
                    b'\\' => {
                        let escaped = s.get(at + 1)?;
                        if !b"'\"?\\abfnrtv".contains(escaped) {
                            return None;
                        }
                        at += 2;
                    }
                    c if c.is_ascii_alphanumeric()
                        || b"_!#$%&()*+,-./:;<>=?@[]^{}|~ ".contains(c) =>
                    {
                        at += 1
                    }
                    _ => return None,
                }
            }
        }
        Some(c) if c.is_ascii_alphabetic() || *c == b'_' => Some(
            s.iter()
                .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
                .count(),
        ),
        _ => None,
    }
}
