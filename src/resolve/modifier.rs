//! Modifiers a class writes on its components (`rod(n = 5, T0 = Tstart)`,
//! `port(T(start = 300))`), flattened to one value per variable and
//! attribute and resolved against the component's class, so that the
//! phases after resolve read each once, as data.

use super::expr::Expr;
use super::model::MemberRef;
use crate::source::Span;
use crate::syntax::ast::{self, Argument};

/// One value given to a variable of a component.
#[derive(Debug, Clone, PartialEq)]
pub struct Modifier {
    /// The modified variable (its path starts at the component).
    pub target: MemberRef,
    pub attribute: Attribute,
    /// The value, in terms of the class that writes the modifier.
    pub value: Expr,
    /// The modifier argument as written.
    pub span: Span,
}

/// What a modifier gives its variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Attribute {
    /// The binding: `k = 2`.
    Value,
    /// The start value: `x(start = 1)`.
    Start,
    /// The unit: `x(unit = "m")`.
    Unit,
}

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
pub struct Written<'a> {
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
pub fn flatten<'a>(args: &'a [Argument], prefix: &[String], out: &mut Vec<Written<'a>>) {
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
            out.push(Written {
                target,
                attribute,
                value,
                span: *span,
            });
        }
        flatten(&m.arguments, &full, out);
    }
}
