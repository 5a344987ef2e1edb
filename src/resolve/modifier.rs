//! Modifiers. Those a class writes on its own variables, on a connector's
//! and on what it inherits (`x(start = 1)`, `port(T(start = 300))`,
//! `extends Base(k = 2)`) apply as the class is elaborated. Those it writes
//! on its components (`rod(n = 5, T0 = Tstart)`) are flattened to one value
//! per variable and attribute and resolved against the component's class,
//! so that the phases after resolve read each once, as data.

pub use super::model::{Attribute, Modifier};
use super::model::{ClassModel, Var};
use super::pending::{Pending, Value};
use crate::diagnostic::Diagnostic;
use crate::source::Span;
use crate::syntax::ast::{self, Argument, Modification};

/// The attributes a modifier may give a variable. Only `start` and `unit`
/// mean anything to a component's user; the others are the class's own
/// business and are checked there.
const ATTRIBUTES: [&str; 8] = [
    "unit",
    "displayUnit",
    "quantity",
    "min",
    "max",
    "nominal",
    "fixed",
    "start",
];

/// A modifier as written, its target still a dotted path below the
/// component (`port.T`), for the elaborator to resolve.
pub struct Flattened<'a> {
    pub target: Vec<String>,
    /// `None` for an attribute no later phase reads (`min`, `nominal`, …):
    /// its target is still resolved, so a misspelt one is reported.
    pub attribute: Option<Attribute>,
    pub value: &'a ast::Expr,
    pub span: Span,
}

/// Flattens the arguments of a component's modification in the order
/// written: each value before the modifications nested in it. An argument
/// without a value (`x(start = 1)` itself) only prefixes what it holds.
pub fn flatten<'a>(args: &'a [Argument], prefix: &[String], out: &mut Vec<Flattened<'a>>) {
    for arg in args {
        let Argument::Modify {
            name,
            modification: Some(m),
            span,
            ..
        } = arg
        else {
            // The check phase reports every `redeclare` as MC111.
            continue;
        };
        let mut full = prefix.to_vec();
        full.extend(name.parts.iter().map(|p| p.name.clone()));
        if let Some(value) = &m.binding {
            let last = name.last().name.as_str();
            let (target, attribute) = if !prefix.is_empty() && ATTRIBUTES.contains(&last) {
                let attribute = match last {
                    "start" => Some(Attribute::Start),
                    "unit" => Some(Attribute::Unit),
                    _ => None,
                };
                (prefix.to_vec(), attribute)
            } else {
                (full.clone(), Some(Attribute::Value))
            };
            out.push(Flattened {
                target,
                attribute,
                value,
                span: *span,
            });
        }
        flatten(&m.arguments, &full, out);
    }
}

/// Applies one modifier argument (`unit = "K"`, `start = T0`, `each start = 1`)
/// to variable `vi`: units are set at once, values are written down to be
/// resolved with the class's equations.
pub(crate) fn apply_attribute<'a>(
    var: &mut Var,
    vi: usize,
    arg: &'a Argument,
    pending: &mut Pending<'a>,
) -> Result<(), Diagnostic> {
    let (name, modification, span) = match arg {
        Argument::Modify {
            name,
            modification,
            span,
            ..
        } => (name, modification, *span),
        // The check phase reports a redeclared component as MC111; a
        // redeclared class makes a specialisation (`specialise`).
        Argument::Redeclare { .. } | Argument::RedeclareClass(_) => return Ok(()),
    };
    let Some(m) = modification else { return Ok(()) };
    let value = m.binding.as_ref();
    let attr = name.dotted();
    let missing = || {
        Diagnostic::error("MC016", span, format!("modifier `{attr}` needs a value"))
            .with_label("value missing")
            .with_help("write `name = value`")
    };
    let mut write = |slot: Value| -> Result<(), Diagnostic> {
        pending.values.push((vi, slot, value.ok_or_else(missing)?));
        Ok(())
    };
    match attr.as_str() {
        "unit" | "displayUnit" | "quantity" => {
            let v = value.ok_or_else(missing)?;
            let s = string_value(v).ok_or_else(|| {
                Diagnostic::error(
                    "MC017",
                    v.span,
                    format!("`{attr}` must be a string literal"),
                )
                .with_label("not a string")
                .with_help("write the unit as a string, e.g. unit = \"m/s\"")
            })?;
            match attr.as_str() {
                "unit" => var.attrs.unit = Some(s),
                "displayUnit" => var.attrs.display_unit = Some(s),
                _ => var.attrs.quantity = Some(s),
            }
        }
        "start" => write(Value::Start)?,
        "min" => write(Value::Min)?,
        "max" => write(Value::Max)?,
        "nominal" => write(Value::Nominal)?,
        "fixed" | "stateSelect" => {}
        other => {
            return Err(Diagnostic::error(
                "MC018",
                span,
                format!("`{other}` is not an attribute of variable `{}`", var.name),
            )
            .with_label("unknown attribute")
            .with_help("use one of unit, displayUnit, quantity, start, min, max, nominal"))
        }
    }
    Ok(())
}

/// A modifier on a connector component: `port(T(start = 300))`. The
/// members will be variables `shift..` of the class.
pub(crate) fn apply_to_member<'a>(
    members: &mut [Var],
    shift: usize,
    comp: &str,
    arg: &'a Argument,
    pending: &mut Pending<'a>,
) -> Result<(), Diagnostic> {
    if let Argument::Modify {
        name,
        modification: Some(m),
        span,
        ..
    } = arg
    {
        let full = format!("{comp}.{}", name.dotted());
        let Some(k) = members.iter().position(|v| v.name == full) else {
            return Err(Diagnostic::error(
                "MC019",
                *span,
                format!("connector `{comp}` has no variable `{}`", name.dotted()),
            )
            .with_label("no such connector variable")
            .with_help("check the connector's declaration"));
        };
        apply_modification(&mut members[k], shift + k, m, pending)
    } else {
        Ok(())
    }
}

fn apply_modification<'a>(
    var: &mut Var,
    vi: usize,
    m: &'a Modification,
    pending: &mut Pending<'a>,
) -> Result<(), Diagnostic> {
    for a in &m.arguments {
        apply_attribute(var, vi, a, pending)?;
    }
    if let Some(b) = &m.binding {
        pending.values.push((vi, Value::Binding, b));
    }
    Ok(())
}

/// `extends Base(k = 2, x(start = 1))`: modifies inherited variables (the
/// base's, inherited from index `vars` on). A modifier of an inherited
/// component (`extends Base(sub(k = 2))`) is given back, with the
/// component's index in the base class, to be resolved with the
/// component's own.
pub(crate) fn modify_inherited<'a>(
    model: &mut ClassModel,
    base: &ClassModel,
    vars: usize,
    arg: &'a Argument,
    pending: &mut Pending<'a>,
) -> Result<Option<(usize, &'a [Argument])>, Diagnostic> {
    match arg {
        Argument::Modify {
            name,
            modification: Some(m),
            span,
            ..
        } => {
            let target = name.dotted();
            if let Some(k) = base.vars.iter().position(|v| v.name == target) {
                return apply_modification(&mut model.vars[vars + k], vars + k, m, pending)
                    .map(|()| None);
            }
            if let Some(k) = base.subs.iter().position(|s| s.name == target) {
                return Ok(Some((k, m.arguments.as_slice())));
            }
            Err(Diagnostic::error(
                "MC019",
                *span,
                format!("the base class has no element `{target}`"),
            )
            .with_label("no such element in the base class")
            .with_help("modify only elements the base class declares"))
        }
        // The check phase reports a redeclared component as MC111; a
        // redeclared class makes a specialisation (`specialise`).
        Argument::Modify { .. } | Argument::Redeclare { .. } | Argument::RedeclareClass(_) => {
            Ok(None)
        }
    }
}

fn string_value(e: &ast::Expr) -> Option<String> {
    match &e.kind {
        ast::ExprKind::String(s) => Some(s.clone()),
        _ => None,
    }
}
