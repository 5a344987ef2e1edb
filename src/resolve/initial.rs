//! Initial equations: only `state = expression of parameters`, which is
//! the state's start value (a calculated one when it reads parameters), so
//! the class computes its initial state alone. Anything else is refused at
//! its line with the reason.

use super::expr::{Equation, Expr, ExprKind, Referent};
use super::model::{ClassModel, ClassVariability};
use crate::diagnostic::Diagnostic;
use crate::source::Span;

/// Makes the initial equation `eq` the start value of the state it sets.
pub(crate) fn start_value(model: &mut ClassModel, eq: Equation) -> Result<(), Diagnostic> {
    let (lhs, rhs, span) = match eq {
        Equation::Simple { lhs, rhs, span } => (lhs, rhs, span),
        other => {
            return Err(not_admitted(
                other.span(),
                "only equations `state = expression of parameters` can be initial equations",
            ))
        }
    };
    if let Some(at) = derivative(&lhs).or_else(|| derivative(&rhs)) {
        return Err(Diagnostic::error(
            "MC096",
            at,
            "a steady-state initial equation is not supported: the initial state would be the solution of the whole system, not something the class computes alone",
        )
        .with_label("derivative in an initial equation")
        .with_help("give the state its initial value: `x = expression of parameters`, or `start = ...`"));
    }
    let state = match &lhs.kind {
        ExprKind::Ref(r) if r.subscripts.is_empty() && r.inner_subscript.is_none() => {
            match r.target {
                Referent::Var(v) if model.vars[v].special.state => Some(v),
                _ => None,
            }
        }
        _ => None,
    };
    let Some(v) = state else {
        return Err(not_admitted(
            lhs.span,
            "the left side of an initial equation must be a (scalar) ContinuousState of this class",
        ));
    };
    if let Some(at) = variable_read(model, &rhs) {
        return Err(not_admitted(
            at,
            "an initial value may read only parameters and constants, not variables or `time`",
        ));
    }
    let var = &mut model.vars[v];
    if var.attrs.start.is_some() {
        return Err(Diagnostic::error(
            "MC097",
            span,
            format!(
                "`{}` already has a start value; an initial equation would give it a second one",
                var.name
            ),
        )
        .with_label("second initial value")
        .with_help("keep either the `start` modifier or the initial equation"));
    }
    var.attrs.start = Some(rhs);
    Ok(())
}

fn not_admitted(span: Span, why: &str) -> Diagnostic {
    Diagnostic::error(
        "MC115",
        span,
        format!("initial equation not admitted: {why}"),
    )
    .with_label("not `state = expression of parameters`")
    .with_help("write `x = expression of parameters` for a state x, or give x a `start` value")
}

/// Where `e` calls `der`.
fn derivative(e: &Expr) -> Option<Span> {
    let mut at = None;
    let mut e = e.clone();
    e.walk_mut(&mut |x| {
        if let ExprKind::Call { func, .. } = &x.kind {
            if func == "der" && at.is_none() {
                at = Some(x.span);
            }
        }
    });
    at
}

/// Where `e` reads something that is not a parameter or constant of the
/// class.
fn variable_read(model: &ClassModel, e: &Expr) -> Option<Span> {
    let mut at = None;
    let mut e = e.clone();
    e.walk_mut(&mut |x| {
        if let ExprKind::Ref(r) = &x.kind {
            let fixed = match &r.target {
                Referent::Var(v) => model.vars[*v].variability != ClassVariability::Continuous,
                Referent::Member(m) => m.variability != ClassVariability::Continuous,
                Referent::LoopVar(_) | Referent::Unknown(_) | Referent::Constant(_) => true,
                Referent::Time => false,
            };
            if !fixed && at.is_none() {
                at = Some(x.span);
            }
        }
    });
    at
}
