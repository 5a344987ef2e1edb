//! Conditional connectors (`TI.HeatPortIn heatPort if useHeatPort;`): the
//! rules that keep a class with one analysable on its own. For each value
//! of the condition the class is a plain class with or without the port,
//! so what the class writes about the port must stand where the condition
//! holds: its members are named only in the branches of if-equations with
//! the same condition (MC144), its modifiers are known at export (MC145),
//! and a connect inside the class does not leave a component's input
//! without a value when the port is absent (MC146).

use super::connection::{Connect, Port};
use super::expr::{Equation, Expr, ExprKind, Referent};
use super::model::{ClassModel, ClassVariability};
use crate::diagnostic::Diagnostic;
use crate::source::Span;

/// Whether two conditions are the same expression, wherever written.
pub fn same_condition(a: &Expr, b: &Expr) -> bool {
    normalised(a) == normalised(b)
}

/// The expression with every span cleared, so that two writings of one
/// condition compare equal.
fn normalised(e: &Expr) -> Expr {
    let mut e = e.clone();
    e.walk_mut(&mut |x| {
        x.span = Span::default();
        if let ExprKind::Call { func_span, .. } = &mut x.kind {
            *func_span = Span::default();
        }
        if let ExprKind::Ref(r) = &mut x.kind {
            r.inner_subscript = None;
        }
    });
    e
}

/// The conditional connector a variable of `model` belongs to, with its
/// name and condition.
fn conditional_member(model: &ClassModel, v: usize) -> Option<(&str, &Expr)> {
    let c = &model.connectors[model.vars.get(v)?.connector?];
    Some((c.name.as_str(), c.condition.as_ref()?))
}

/// MC144: turns every reference to a member of a conditional connector
/// that does not stand in a branch guarded by the connector's condition
/// into the diagnostic that says so (reported where the causaliser reads
/// it, like every name that names nothing it may name).
pub fn guard_members(model: &ClassModel, equations: &mut [Equation]) {
    for eq in equations {
        guard_equation(model, eq, &mut Vec::new());
    }
}

fn guard_equation(model: &ClassModel, eq: &mut Equation, guards: &mut Vec<Expr>) {
    match eq {
        Equation::Simple { lhs, rhs, .. } => {
            guard_expr(model, lhs, guards);
            guard_expr(model, rhs, guards);
        }
        Equation::For { range, body, .. } => {
            guard_expr(model, range, guards);
            for eq in body {
                guard_equation(model, eq, guards);
            }
        }
        Equation::If {
            branches, else_, ..
        } => {
            for (c, body) in branches {
                guard_expr(model, c, guards);
                guards.push(c.clone());
                for eq in body {
                    guard_equation(model, eq, guards);
                }
                guards.pop();
            }
            for eq in else_ {
                guard_equation(model, eq, guards);
            }
        }
        Equation::When { branches, .. } => {
            for (c, body) in branches {
                guard_expr(model, c, guards);
                for eq in body {
                    guard_equation(model, eq, guards);
                }
            }
        }
        Equation::Reinit { state, value, .. } => {
            guard_expr(model, state, guards);
            guard_expr(model, value, guards);
        }
        Equation::ConnectInLoop { .. }
        | Equation::Assert { .. }
        | Equation::Terminate { .. }
        | Equation::Rejected { .. } => {}
    }
}

/// Also used for bindings of the class's variables (no guard at all).
pub fn guard_expr(model: &ClassModel, e: &mut Expr, guards: &[Expr]) {
    e.walk_mut(&mut |x| {
        let span = x.span;
        let ExprKind::Ref(r) = &mut x.kind else {
            return;
        };
        let Referent::Var(v) = r.target else {
            return;
        };
        let Some((name, condition)) = conditional_member(model, v) else {
            return;
        };
        if guards.iter().any(|g| same_condition(g, condition)) {
            return;
        }
        r.target = Referent::Unknown(Box::new(
            Diagnostic::error(
                "MC144",
                span,
                format!(
                    "`{}` is a member of the conditional connector `{name}`, named outside a branch guarded by its condition",
                    model.vars[v].name
                ),
            )
            .with_label("the connector may be absent here")
            .with_help(format!(
                "name it only inside `if <the condition of {name}> then ... else ... end if;`, with the same condition as its declaration"
            )),
        ));
    });
}

/// MC145: a modifier of a member of a conditional connector that reads
/// a variable: known only at run time, so the port's presence could not
/// be decided from parameters alone.
pub fn dynamic_modifier(model: &ClassModel, v: usize, value: &Expr) -> Option<Diagnostic> {
    let (name, _) = conditional_member(model, v)?;
    let mut at = None;
    let mut value = value.clone();
    value.walk_mut(&mut |x| {
        if let ExprKind::Ref(r) = &x.kind {
            let dynamic = match &r.target {
                Referent::Var(w) => model
                    .vars
                    .get(*w)
                    .is_some_and(|w| w.variability == ClassVariability::Continuous),
                Referent::Member(_) | Referent::Time => true,
                _ => false,
            };
            if dynamic && at.is_none() {
                at = Some(x.span);
            }
        }
    });
    let at = at?;
    Some(
        Diagnostic::error(
            "MC145",
            at,
            format!("a modifier of the conditional connector `{name}` reads a variable"),
        )
        .with_label("value known only at run time")
        .with_help("give a literal or a parameter expression; write equations for the port's members inside `if <its condition> then`"),
    )
}

/// MC146: a connect inside the class that declares a conditional
/// connector, between that connector and a component's port that needs a
/// value from it (an input on the component's side), while the component
/// is present whatever the condition: when the connector is absent the
/// connect is dropped and the component's input is left without a value.
pub fn unguarded_connect(model: &ClassModel, c: &Connect) -> Option<Diagnostic> {
    for (own, other) in [(&c.a, &c.b), (&c.b, &c.a)] {
        let (None, Port::Connector(i), Some(k)) = (own.sub, own.port, other.sub) else {
            continue;
        };
        let Some(condition) = &model.connectors[i].condition else {
            continue;
        };
        let sub = &model.subs[k];
        if sub
            .condition
            .as_ref()
            .is_some_and(|s| same_condition(s, condition))
        {
            continue;
        }
        let Some(needs) = other
            .members
            .iter()
            .find(|m| m.copied && m.causality == super::model::ClassCausality::Input)
        else {
            continue;
        };
        return Some(
            Diagnostic::error(
                "MC146",
                c.span,
                format!(
                    "`{}` may be absent, but `{}.{}` needs `{}` from it",
                    own.name, sub.name, other.name, needs.key
                ),
            )
            .with_label("connect of a conditional connector to a component that is always present")
            .with_help(format!(
                "make `{}` conditional with the same condition as `{}`, or connect the component to a port that is always there",
                sub.name, own.name
            )),
        );
    }
    None
}
