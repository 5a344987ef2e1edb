//! Hybrid events in local form (DESIGN §2.2c) as elaboration sees them: the
//! variables a class keeps for its `when` equations, `pre`, `edge`,
//! `change` and `reinit`.
//!
//! Memory lives in the instance record like every other value, so an FMU
//! saves it with its state and nothing in the runtime knows a class:
//! - `'pre(v)'` for every variable a `when` assigns (between its events it
//!   keeps `pre(v)`) and every variable `pre`, `edge` or `change` reads;
//! - `'when3'` for the condition of the third `when`/`elsewhen` branch of
//!   the class (a Boolean array for a vector of conditions), with its
//!   `'pre(when3)'`: a branch fires when a condition has become true;
//! - `'reinit(x)'` for every state `x` a `when` reinitialises: the value
//!   the runtime moves into `x` after an evaluation in event mode;
//! - `'terminate1'`, ... for each `terminate`: set while its branch fires.
//!
//! They follow the class's own variables, before the clocked partitions'
//! (`resolve::clocked`), named with quoted identifiers (no Modelica name
//! can clash with them). What each may be and how the causaliser lowers
//! them is `causalize::when`'s.

use std::sync::Arc;

use super::clocked::equation_exprs;
use super::expr::{Equation, Expr, ExprKind, Referent};
use super::model::{Attributes, ClassModel, Events, Var};
use super::tree::Builtin;
use crate::source::Span;

/// Appends the variables of the class's events, when it has any, and
/// records them in `model.events`.
pub fn synthesize(model: &mut ClassModel) {
    let mut pre: Vec<usize> = Vec::new();
    let add = |v: usize, pre: &mut Vec<usize>| {
        if !pre.contains(&v) {
            pre.push(v);
        }
    };
    // What `pre`, `edge` and `change` read, anywhere in the equations.
    for eq in &model.equations {
        equation_exprs(eq, &mut |e| {
            if let Some(v) = pre_argument(e) {
                add(v, &mut pre);
            }
        });
    }
    let mut conditions: Vec<(Vec<Expr>, Span)> = Vec::new();
    let mut reinit: Vec<usize> = Vec::new();
    let mut terminate: Vec<Span> = Vec::new();
    for eq in &model.equations {
        let Equation::When { branches, .. } = eq else {
            continue;
        };
        for (condition, body) in branches {
            let dims = match &condition.kind {
                ExprKind::Array(items) => vec![int(items.len(), condition.span)],
                _ => Vec::new(),
            };
            conditions.push((dims, condition.span));
            for b in body {
                match b {
                    Equation::Simple { lhs, .. } => {
                        if let Some(v) = own_var(lhs) {
                            add(v, &mut pre);
                        }
                    }
                    Equation::Reinit { state, .. } => {
                        if let Some(v) = own_var(state).filter(|v| !reinit.contains(v)) {
                            reinit.push(v);
                        }
                    }
                    Equation::Terminate { span, .. } => terminate.push(*span),
                    _ => {}
                }
            }
        }
    }
    if pre.is_empty() && conditions.is_empty() {
        return;
    }
    let synthetic_from = model.vars.len();
    let mut condition_vars = Vec::new();
    for (k, (dims, span)) in conditions.into_iter().enumerate() {
        model.vars.push(synthetic(
            format!("'when{}'", k + 1),
            Builtin::Boolean,
            dims,
            Attributes::default(),
            "Whether the condition of this `when` branch holds",
            span,
        ));
        condition_vars.push(model.vars.len() - 1);
    }
    let mut pairs = Vec::new();
    for v in pre.into_iter().chain(condition_vars.iter().copied()) {
        let of = &model.vars[v];
        // Before the first event the left limit is the start value, zero
        // (false) when there is none (MLS §8.6).
        let zero = match of.ty {
            Builtin::Boolean => ExprKind::Bool(false),
            Builtin::Real => ExprKind::Real(0.0),
            _ => ExprKind::Integer(0),
        };
        let attrs = Attributes {
            unit: of.attrs.unit.clone(),
            start: of.attrs.start.clone().or(Some(Expr {
                kind: zero,
                span: of.span,
            })),
            ..Attributes::default()
        };
        let var = synthetic(
            format!("'pre({})'", of.name.trim_matches('\'')),
            of.ty,
            of.dims.clone(),
            attrs,
            "The value before the current event (the left limit)",
            of.span,
        );
        model.vars.push(var);
        pairs.push((v, model.vars.len() - 1));
    }
    let mut reinit_pairs = Vec::new();
    for x in reinit {
        let of = &model.vars[x];
        let attrs = Attributes {
            unit: of.attrs.unit.clone(),
            ..Attributes::default()
        };
        let mut var = synthetic(
            format!("'reinit({})'", of.name),
            Builtin::Real,
            Vec::new(),
            attrs,
            "The value the state takes after the event",
            of.span,
        );
        // It follows its state between events.
        var.special.discrete = false;
        model.vars.push(var);
        reinit_pairs.push((x, model.vars.len() - 1));
    }
    let many = terminate.len() > 1;
    let mut terminate_vars = Vec::new();
    for (k, span) in terminate.into_iter().enumerate() {
        let name = if many {
            format!("'terminate{}'", k + 1)
        } else {
            "'terminate'".to_string()
        };
        model.vars.push(synthetic(
            name,
            Builtin::Boolean,
            Vec::new(),
            Attributes::default(),
            "Whether this `terminate` ends the simulation",
            span,
        ));
        terminate_vars.push(model.vars.len() - 1);
    }
    model.events = Some(Arc::new(Events {
        pre: pairs,
        conditions: condition_vars,
        reinit: reinit_pairs,
        terminate: terminate_vars,
        synthetic_from,
    }));
}

/// The variable of the class `pre(v)`, `edge(v)` or `change(v)` reads in
/// `e` (the whole variable, also for `pre(v[2])`).
pub fn pre_argument(e: &Expr) -> Option<usize> {
    let ExprKind::Call { func, args, .. } = &e.kind else {
        return None;
    };
    match (func.as_str(), args.as_slice()) {
        ("pre" | "edge" | "change", [a]) => own_var(a),
        _ => None,
    }
}

/// The variable of the class a reference names (also with subscripts).
fn own_var(e: &Expr) -> Option<usize> {
    match &e.kind {
        ExprKind::Ref(r) if r.inner_subscript.is_none() => match r.target {
            Referent::Var(v) => Some(v),
            _ => None,
        },
        _ => None,
    }
}

fn int(n: usize, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Integer(n as i64),
        span,
    }
}

fn synthetic(
    name: String,
    ty: Builtin,
    dims: Vec<Expr>,
    attrs: Attributes,
    description: &str,
    span: Span,
) -> Var {
    // As the clocked partitions' memory, and discrete: it changes only at events.
    let mut var = super::clocked::synthetic(name, ty, dims, attrs, description, span);
    var.special.discrete = true;
    var
}
