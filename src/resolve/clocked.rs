//! Clocked partitions (DESIGN §2.2b) as elaboration sees them: the clocks
//! a class's equations name, and the variables whose `previous` values they
//! read.
//!
//! Each partition (the class's base clock, or a `subSample`/`superSample`
//! of it) gets three variables of its own in the instance record: its tick
//! count, the time of its first tick, and whether it ticks in the current
//! evaluation. Each variable read by `previous` gets one for that value.
//! They follow the class's own variables, named with quoted identifiers
//! (no Modelica name can clash with them), so an FMU lists them as
//! discrete variables and saves them with its state. Which equations are
//! clocked, and the rules of the local form, are the causaliser's.

use std::sync::Arc;

use super::expr::{Equation, Expr, ExprKind, Referent};
use super::model::{
    Attributes, ClassCausality, ClassModel, ClassVariability, Clocking, Partition, Special, Var,
};
use super::tree::Builtin;

/// A clock expression taken apart: the base `Clock(...)` call and the
/// sub- and super-sampling factors around it.
pub type ClockKey = (Expr, Vec<Expr>, Vec<Expr>);

/// `Clock(...)`, `subSample(c, f)` or `superSample(c, f)` of a clock `c`;
/// `None` for anything else.
pub fn clock_key(e: &Expr) -> Option<ClockKey> {
    let ExprKind::Call { func, args, .. } = &e.kind else {
        return None;
    };
    match (func.as_str(), args.as_slice()) {
        ("Clock", [_] | [_, _]) => Some((e.clone(), Vec::new(), Vec::new())),
        ("subSample", [c, f]) => clock_key(c).map(|(b, mut sub, sup)| {
            sub.push(f.clone());
            (b, sub, sup)
        }),
        ("superSample", [c, f]) => clock_key(c).map(|(b, sub, mut sup)| {
            sup.push(f.clone());
            (b, sub, sup)
        }),
        _ => None,
    }
}

/// Whether partition `p` is the one clock expression `k` names.
pub fn has_key(p: &Partition, k: &ClockKey) -> bool {
    same(&p.base, &k.0) && same_all(&p.sub, &k.1) && same_all(&p.sup, &k.2)
}

fn same_all(a: &[Expr], b: &[Expr]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same(x, y))
}

/// Whether two expressions are written alike, wherever they are written.
pub fn same(a: &Expr, b: &Expr) -> bool {
    use ExprKind as K;
    match (&a.kind, &b.kind) {
        (K::Integer(x), K::Integer(y)) => x == y,
        (K::Real(x), K::Real(y)) => x.to_bits() == y.to_bits(),
        (K::Bool(x), K::Bool(y)) => x == y,
        (K::Ref(x), K::Ref(y)) => {
            x.subscripts.is_empty()
                && y.subscripts.is_empty()
                && !matches!(x.target, Referent::Unknown(_))
                && x.target == y.target
        }
        (K::Binary(o, x1, y1), K::Binary(p, x2, y2)) => o == p && same(x1, x2) && same(y1, y2),
        (K::Unary(o, x1), K::Unary(p, x2)) => o == p && same(x1, x2),
        (
            K::Call {
                func: f, args: x, ..
            },
            K::Call {
                func: g, args: y, ..
            },
        ) => f == g && same_all(x, y),
        _ => false,
    }
}

/// Calls `f` on every expression of `eq`, nested ones included.
pub fn equation_exprs(eq: &Equation, f: &mut dyn FnMut(&Expr)) {
    match eq {
        Equation::Simple { lhs, rhs, .. } => {
            walk(lhs, f);
            walk(rhs, f);
        }
        Equation::For { range, body, .. } => {
            walk(range, f);
            body.iter().for_each(|b| equation_exprs(b, f));
        }
        Equation::If {
            branches, else_, ..
        } => {
            for (c, b) in branches {
                walk(c, f);
                b.iter().for_each(|e| equation_exprs(e, f));
            }
            else_.iter().for_each(|e| equation_exprs(e, f));
        }
        Equation::When { branches, .. } => {
            for (c, b) in branches {
                walk(c, f);
                b.iter().for_each(|e| equation_exprs(e, f));
            }
        }
        Equation::Reinit { state, value, .. } => {
            walk(state, f);
            walk(value, f);
        }
        Equation::ConnectInLoop { .. }
        | Equation::Assert { .. }
        | Equation::Terminate { .. }
        | Equation::Rejected { .. } => {}
    }
}

/// Calls `f` on `e` and every expression inside it.
pub fn walk(e: &Expr, f: &mut dyn FnMut(&Expr)) {
    f(e);
    match &e.kind {
        ExprKind::Ref(r) => {
            for s in &r.subscripts {
                if let super::expr::Subscript::Expr(x) = s {
                    walk(x, f);
                }
            }
        }
        ExprKind::Binary(_, a, b) => {
            walk(a, f);
            walk(b, f);
        }
        ExprKind::Unary(_, a) => walk(a, f),
        ExprKind::Call { args, .. } | ExprKind::FunctionCall { args, .. } => {
            args.iter().for_each(|a| walk(a, f))
        }
        ExprKind::If { branches, else_ } => {
            for (c, v) in branches {
                walk(c, f);
                walk(v, f);
            }
            walk(else_, f);
        }
        ExprKind::Array(items) => items.iter().for_each(|a| walk(a, f)),
        ExprKind::Matrix(rows) => rows.iter().flatten().for_each(|a| walk(a, f)),
        ExprKind::Range { start, step, stop } => {
            walk(start, f);
            if let Some(s) = step {
                walk(s, f);
            }
            walk(stop, f);
        }
        _ => {}
    }
}

/// Appends the variables of the class's clocked partitions, when its
/// equations name a clock, and records them in `model.clocking`.
pub fn synthesize(model: &mut ClassModel) {
    let mut keys: Vec<(ClockKey, crate::source::Span)> = Vec::new();
    let mut previous: Vec<usize> = Vec::new();
    for eq in &model.equations {
        equation_exprs(eq, &mut |e| {
            let ExprKind::Call { func, args, .. } = &e.kind else {
                return;
            };
            match (func.as_str(), args.as_slice()) {
                ("sample", [_, c]) => {
                    if let Some(k) = clock_key(c) {
                        let known = keys.iter().any(|(x, _)| {
                            same(&x.0, &k.0) && same_all(&x.1, &k.1) && same_all(&x.2, &k.2)
                        });
                        if !known {
                            keys.push((k, c.span));
                        }
                    }
                }
                ("previous", [v]) => {
                    if let ExprKind::Ref(r) = &v.kind {
                        if let Referent::Var(i) = r.target {
                            if !previous.contains(&i) {
                                previous.push(i);
                            }
                        }
                    }
                }
                _ => {}
            }
        });
    }
    if keys.is_empty() && previous.is_empty() {
        return;
    }
    let synthetic_from = model.vars.len();
    let mut partitions = Vec::new();
    let many = keys.len() > 1;
    for (p, ((base, sub, sup), span)) in keys.into_iter().enumerate() {
        let name = if many {
            format!("clock{}", p + 1)
        } else {
            "clock".to_string()
        };
        let mut var = |what: &str, description: &str| {
            model.vars.push(synthetic(
                format!("'{name}.{what}'"),
                Builtin::Real,
                Vec::new(),
                Attributes::default(),
                description,
                span,
            ));
            model.vars.len() - 1
        };
        let ticks = var("ticks", "Ticks of the clocked partition so far");
        let first = var("first", "Time of the clocked partition's first tick");
        let fire = var(
            "fire",
            "Whether the clocked partition ticks in this evaluation",
        );
        partitions.push(Partition {
            base,
            sub,
            sup,
            ticks,
            first,
            fire,
        });
    }
    let mut pairs = Vec::new();
    for v in previous {
        let of = &model.vars[v];
        let attrs = Attributes {
            unit: of.attrs.unit.clone(),
            start: of.attrs.start.clone(),
            ..Attributes::default()
        };
        let var = synthetic(
            format!("'previous({})'", of.name),
            of.ty,
            of.dims.clone(),
            attrs,
            "The value at the previous tick",
            of.span,
        );
        model.vars.push(var);
        pairs.push((v, model.vars.len() - 1));
    }
    model.clocking = Some(Arc::new(Clocking {
        partitions,
        previous: pairs,
        synthetic_from,
    }));
}

fn synthetic(
    name: String,
    ty: Builtin,
    dims: Vec<Expr>,
    attrs: Attributes,
    description: &str,
    span: crate::source::Span,
) -> Var {
    Var {
        name,
        ty,
        variability: ClassVariability::Continuous,
        causality: ClassCausality::Local,
        flow: false,
        special: Special::default(),
        dims,
        attrs,
        binding: None,
        protected: true,
        connector: None,
        carried_of: None,
        tearing: None,
        description: Some(description.to_string()),
        span,
    }
}
