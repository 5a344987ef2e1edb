//! The value a `--set` gives, checked against the type of the parameter it
//! names: numbers for Real and Integer parameters, `true`/`false` for
//! Boolean ones, a literal of the type for enumeration ones.

use super::builder::{element_position, Builder, Incoming};
use super::system::RealKind;
use crate::classdb::ClassDb;
use crate::diagnostic::Diagnostic;
use crate::ir::Ex;
use crate::resolve::constants::enumeration_type;
use crate::resolve::tree::Builtin;
use crate::resolve::ClassId;
use crate::source::Span;

/// `--set path=value` from the command line.
#[derive(Debug, Clone, PartialEq)]
pub struct SetValue {
    pub path: String,
    pub value: SetLiteral,
}

/// The value of a `--set`: a number, `true`/`false`, or the name of an
/// enumeration literal (checked against the parameter's type when the
/// model is instantiated).
#[derive(Debug, Clone, PartialEq)]
pub enum SetLiteral {
    Number(f64),
    Bool(bool),
    Literal(String),
}

impl From<f64> for SetLiteral {
    fn from(v: f64) -> SetLiteral {
        SetLiteral::Number(v)
    }
}

impl SetLiteral {
    /// Reads the text after `=`: a finite number, `true`, `false`, or an
    /// identifier.
    pub fn parse(text: &str) -> Result<SetLiteral, String> {
        let t = text.trim();
        match t {
            "true" => return Ok(SetLiteral::Bool(true)),
            "false" => return Ok(SetLiteral::Bool(false)),
            _ => {}
        }
        if let Ok(v) = t.parse::<f64>() {
            if !v.is_finite() {
                return Err("the value must be finite".into());
            }
            return Ok(SetLiteral::Number(v));
        }
        let ident = t
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && t.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if ident {
            Ok(SetLiteral::Literal(t.to_string()))
        } else {
            Err(format!(
                "`{t}` is not a number, `true`/`false` or an enumeration literal"
            ))
        }
    }
}

/// What a `--set` path names below the exported model.
pub(crate) struct Target {
    /// Components by index into each class's `subs`, outermost first.
    pub subs: Vec<usize>,
    /// The element of each array of components on the way (`cap[2].C`,
    /// `plate[2,3].C`), 1-based as written, one index per dimension;
    /// parallel to `subs`.
    pub picks: Vec<Option<Vec<i64>>>,
    /// The variable's index in the last component's class.
    pub var: usize,
    /// The indices of one element of an array variable (`A[1,2]`).
    pub index: Option<Vec<i64>>,
}

/// The variable a `--set` path names below `class`: components by name,
/// each with an optional element index, then a variable (whose own name may
/// have a dot: `port.T`) with an optional element index. `None` when the
/// path names nothing (MX001).
pub(crate) fn target(db: &ClassDb, class: ClassId, path: &str) -> Option<Target> {
    let parts: Vec<&str> = path.split('.').map(str::trim).collect();
    let (mut subs, mut picks) = (Vec::new(), Vec::new());
    let mut model = db.elaborated_model(class)?;
    let mut rest = parts.as_slice();
    while let Some((last, before)) = rest.split_last() {
        let (last_name, index) = indexed(last)?;
        let mut name: Vec<&str> = before.to_vec();
        name.push(last_name);
        if let Some(var) = model.var(&name.join(".")) {
            return Some(Target {
                subs,
                picks,
                var,
                index,
            });
        }
        let (first, pick) = indexed(rest[0])?;
        let k = model.subs.iter().position(|s| s.name == first)?;
        subs.push(k);
        picks.push(pick);
        model = db.elaborated_model(model.subs[k].class)?;
        rest = &rest[1..];
    }
    None
}

/// A name with an optional index suffix: `A` or `A[1, 2]`. `None` when
/// the suffix is not a list of whole numbers.
fn indexed(part: &str) -> Option<(&str, Option<Vec<i64>>)> {
    let Some((name, rest)) = part.split_once('[') else {
        return Some((part, None));
    };
    let inside = rest.strip_suffix(']')?;
    let index = inside
        .split(',')
        .map(|i| i.trim().parse::<i64>().ok())
        .collect::<Option<Vec<i64>>>()?;
    Some((name.trim_end(), Some(index)))
}

/// The value of `set` for the variable `target` names below `model`; a
/// value of the wrong kind, or an index of a scalar, is an error at the
/// parameter's declaration.
pub(crate) fn value_of(
    db: &ClassDb,
    model: ClassId,
    target: &Target,
    set: &SetValue,
) -> Result<Ex, Diagnostic> {
    let mut class = db
        .elaborated_model(model)
        .expect("a --set target was found in an elaborated model");
    for k in &target.subs {
        class = db
            .elaborated_model(class.subs[*k].class)
            .expect("a --set target was found in an elaborated model");
    }
    let var = &class.vars[target.var];
    let (ty, span) = (var.ty, var.span);
    if target.index.is_some() && var.dims.is_empty() {
        let name = set.path.rsplit_once('[').map_or(&set.path[..], |(n, _)| n);
        return Err(Diagnostic::error(
            "MX037",
            span,
            format!(
                "--set {}: `{}` is a scalar; it has no elements to index",
                set.path, var.name
            ),
        )
        .with_label("a scalar parameter")
        .with_help(format!("set it without an index: --set {name}=VALUE")));
    }
    let wrong = |code: &'static str, expected: &str| {
        Diagnostic::error(
            code,
            span,
            format!("--set {}: `{}` is {expected}", set.path, set.path),
        )
        .with_label("the parameter set")
    };
    match (ty, &set.value) {
        (Builtin::Enumeration(c), value) => {
            let e = enumeration_type(db.tree(), c).expect("an enumeration type's class");
            let allowed: Vec<&str> = e.literals.iter().map(|(n, _)| n.as_str()).collect();
            let found = match value {
                SetLiteral::Literal(name) => allowed.iter().position(|n| n == name),
                _ => None,
            };
            match found {
                Some(k) => Ok(Ex::Int(k as i64 + 1)),
                None => Err(wrong(
                    "MX020",
                    &format!(
                        "of enumeration type `{}`; {} is none of its literals",
                        e.name,
                        shown(&set.value)
                    ),
                )
                .with_help(format!("give one of: {}", allowed.join(", ")))),
            }
        }
        (Builtin::Boolean, SetLiteral::Bool(b)) => Ok(Ex::Bool(*b)),
        (Builtin::Boolean, other) => Err(wrong(
            "MX021",
            &format!("a Boolean parameter; {} is not a Boolean", shown(other)),
        )
        .with_help(format!(
            "write --set {}=true or --set {}=false",
            set.path, set.path
        ))),
        (_, SetLiteral::Number(v)) => Ok(Ex::Real(*v)),
        (_, other) => Err(wrong(
            "MX022",
            &format!(
                "a {} parameter; {} is not a number",
                type_name(ty),
                shown(other)
            ),
        )
        .with_help(format!("write a number, e.g. --set {}=1", set.path))),
    }
}

impl Builder<'_, '_> {
    /// The `--set`s of one element of an array variable among the
    /// modifiers arriving at an instance (they reach it here).
    pub(crate) fn arrived_element_sets(&mut self, incoming: &[Incoming]) -> Vec<Incoming> {
        let arrived: Vec<Incoming> = incoming
            .iter()
            .filter(|inc| inc.subs.is_empty() && inc.index.is_some())
            .cloned()
            .collect();
        for inc in &arrived {
            if let Some(si) = inc.set_index {
                self.sets_used[si] = true;
            }
        }
        arrived
    }

    /// MX038 for a `--set cap[k].x` whose `cap` is not an array of
    /// components (`shape` is `None`) or has no element `k` (a wrong number
    /// of indices, or one outside its dimension); such a set is dropped
    /// (with its pick) so it reaches no instance.
    pub(crate) fn check_picks(
        &mut self,
        incoming: &mut Vec<Incoming>,
        picks: &mut Vec<Option<Vec<i64>>>,
        component: &str,
        shape: Option<&[usize]>,
        span: Span,
    ) {
        let mut k = 0;
        while k < picks.len() {
            let Some(p) = &picks[k] else {
                k += 1;
                continue;
            };
            let size = shape
                .unwrap_or_default()
                .iter()
                .map(|n| n.to_string())
                .collect::<Vec<_>>()
                .join(", ");
            let problem = match shape {
                None => Some(format!("`{component}` is one component, not an array")),
                Some(s) if element_position(s, p).is_none() => {
                    let written: Vec<String> = p.iter().map(|i| i.to_string()).collect();
                    let has = if s.len() == 1 {
                        format!("has {size} element(s)")
                    } else {
                        format!("has size [{size}]")
                    };
                    let element = if p.len() == 1 {
                        written.join(",")
                    } else {
                        format!("[{}]", written.join(","))
                    };
                    Some(format!(
                        "`{component}` {has}; there is no element {element}"
                    ))
                }
                _ => None,
            };
            let Some(problem) = problem else {
                k += 1;
                continue;
            };
            if let Some(si) = incoming[k].set_index {
                self.sets_used[si] = true;
                let path = &self.set_paths[si];
                let (label, help) = match shape {
                    Some([n]) => (
                        format!("{n} element(s)"),
                        format!("index `{component}` from 1 to {n}"),
                    ),
                    Some(s) => (
                        format!("size [{size}]"),
                        format!(
                            "give {} indices, each from 1 to its dimension's size ({size})",
                            s.len()
                        ),
                    ),
                    None => (
                        "not an array of components".to_string(),
                        format!("name its parameter without an index: `{component}.…`"),
                    ),
                };
                self.diags.push(
                    Diagnostic::error("MX038", span, format!("--set {path}: {problem}"))
                        .with_label(label)
                        .with_help(help),
                );
            }
            incoming.remove(k);
            picks.remove(k);
        }
    }

    /// Applies the `--set`s of single elements of Real variable `vi` of
    /// instance `me` (of the given `shape`) to the start values laid out
    /// for it: MX037 for an index that does not fit the shape, MX039 when
    /// the variable's value is not a number fixed at export (a parameter
    /// computed from others, or not a parameter or state at all).
    pub(crate) fn apply_element_sets(
        &mut self,
        me: usize,
        var: &crate::resolve::model::Var,
        vi: usize,
        shape: &[usize],
        kind: RealKind,
        starts: &mut [Option<f64>],
    ) {
        let sets: Vec<Incoming> = self
            .element_sets
            .iter()
            .filter(|inc| inc.var == vi)
            .cloned()
            .collect();
        for inc in sets {
            let (Some(index), Some(si)) = (&inc.index, inc.set_index) else {
                continue;
            };
            let path = self.set_paths[si].clone();
            let name = self.dotted(me, &var.name);
            let at = self.sys.instances[me].decl_span.unwrap_or(var.span);
            let size: Vec<String> = shape.iter().map(|n| n.to_string()).collect();
            let size = size.join(", ");
            let Some(e) = flat_index(index, shape) else {
                self.diags.push(
                    Diagnostic::error(
                        "MX037",
                        at,
                        format!(
                            "--set {path}: `{name}` has size [{size}]; [{}] is not one of its elements",
                            index.iter().map(|i| i.to_string()).collect::<Vec<_>>().join(", ")
                        ),
                    )
                    .with_label(format!("size [{size}]"))
                    .with_help(format!(
                        "give {} index(es), each from 1 to its dimension's size",
                        shape.len()
                    )),
                );
                continue;
            };
            let value = inc.value.first().and_then(|v| v.fold(&[]));
            match (kind, value) {
                (RealKind::Parameter | RealKind::State, Some(x)) if starts[e].is_some() => {
                    let decl_span = self.sys.instances[me].decl_span;
                    self.check_bounds(var, &name, &[x], Some((None, Some(si))), decl_span);
                    starts[e] = Some(x);
                }
                _ => self.diags.push(
                    Diagnostic::error(
                        "MX039",
                        at,
                        format!(
                            "--set {path}: `{name}` is not an array of numbers fixed at export; one element of it cannot be set"
                        ),
                    )
                    .with_label("computed, not set")
                    .with_help(format!(
                        "set the parameters `{name}` is computed from, or the whole array: --set {}=VALUE",
                        path.rsplit_once('[').map_or(&path[..], |(n, _)| n)
                    )),
                ),
            }
        }
    }
}

/// The position in row-major order of the element at 1-based `index` of
/// an array of `shape`; `None` when the index does not fit.
fn flat_index(index: &[i64], shape: &[usize]) -> Option<usize> {
    if index.len() != shape.len() {
        return None;
    }
    index.iter().zip(shape).try_fold(0usize, |flat, (&i, &n)| {
        (1..=n as i64)
            .contains(&i)
            .then(|| flat * n + (i - 1) as usize)
    })
}

fn shown(v: &SetLiteral) -> String {
    match v {
        SetLiteral::Number(x) => format!("`{x}`"),
        SetLiteral::Bool(b) => format!("`{b}`"),
        SetLiteral::Literal(n) => format!("`{n}`"),
    }
}

fn type_name(ty: Builtin) -> &'static str {
    match ty {
        Builtin::Real => "Real",
        Builtin::Integer => "Integer",
        Builtin::Boolean => "Boolean",
        Builtin::String => "String",
        Builtin::Enumeration(_) => "enumeration",
    }
}
