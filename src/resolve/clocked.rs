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
//! discrete variables and saves them with its state.
//!
//! Clock inference inside the class is here too, because it decides which
//! partitions exist: an equation that samples is on its clock's partition,
//! `subSample(u, f)`/`superSample(u, f)` of a clocked value is on the
//! partition `f` times slower/faster than `u`'s, and an equation that reads
//! a clocked variable is on that variable's; every variable a clocked
//! equation reads outside `sample` is clocked on its partition. An equation
//! that names no clock (`n = previous(n) + 1`, `dt = interval()`) is on the
//! class's partition when the class has exactly one. Whether what was
//! inferred keeps the rules of the local form (one partition per equation
//! among them) is the causaliser's.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::expr::{Equation, Expr, ExprKind, Referent, Subscript};
use super::model::{
    Attributes, ClassCausality, ClassModel, ClassVariability, Clocking, Partition, Special, Var,
};
use super::tree::Builtin;
use crate::operator::{BinOp, UnOp};

/// A clock expression taken apart: the base `Clock(...)` call and the
/// sub- and super-sampling factors around it.
pub type ClockKey = (Expr, Vec<Expr>, Vec<Expr>);

/// `Clock(...)`, `subSample(c, f)` or `superSample(c, f)` of a clock `c`,
/// its factors cancelled ([`normalise`]); `None` for anything else.
pub fn clock_key(e: &Expr) -> Option<ClockKey> {
    raw_key(e).map(normalise)
}

fn raw_key(e: &Expr) -> Option<ClockKey> {
    let ExprKind::Call { func, args, .. } = &e.kind else {
        return None;
    };
    match (func.as_str(), args.as_slice()) {
        ("Clock", [_] | [_, _]) => Some((e.clone(), Vec::new(), Vec::new())),
        ("subSample", [c, f]) => raw_key(c).map(|(b, mut sub, sup)| {
            sub.push(f.clone());
            (b, sub, sup)
        }),
        ("superSample", [c, f]) => raw_key(c).map(|(b, sub, mut sup)| {
            sup.push(f.clone());
            (b, sub, sup)
        }),
        _ => None,
    }
}

/// `k` without the factors it both sub- and super-samples by: a clock
/// `f` times slower, then `f` times faster, ticks as it did (the first
/// ticks coincide), so `superSample(subSample(c, f), f)` is `c`.
pub fn normalise(k: ClockKey) -> ClockKey {
    let (base, mut sub, mut sup) = k;
    let mut i = 0;
    while i < sub.len() {
        match sup.iter().position(|y| same(&sub[i], y)) {
            Some(j) => {
                sub.remove(i);
                sup.remove(j);
            }
            None => i += 1,
        }
    }
    (base, sub, sup)
}

/// Whether partition `p` is the one clock expression `k` names.
pub fn has_key(p: &Partition, k: &ClockKey) -> bool {
    same_key(&key_of(p), k)
}

/// The clock expression of partition `p`, taken apart.
pub fn key_of(p: &Partition) -> ClockKey {
    (p.base.clone(), p.sub.clone(), p.sup.clone())
}

/// Whether two keys name one clock: the same base, sub- and super-sampled
/// by the same factors in any order.
fn same_key(a: &ClockKey, b: &ClockKey) -> bool {
    same(&a.0, &b.0) && same_bag(&a.1, &b.1) && same_bag(&a.2, &b.2)
}

/// Whether `a` and `b` hold expressions written alike, in any order.
fn same_bag(a: &[Expr], b: &[Expr]) -> bool {
    let mut left: Vec<&Expr> = b.iter().collect();
    a.len() == b.len()
        && a.iter()
            .all(|x| match left.iter().position(|y| same(x, y)) {
                Some(i) => {
                    left.swap_remove(i);
                    true
                }
                None => false,
            })
}

/// The clock of `subSample(u, f)` (`sub`) or `superSample(u, f)` of a
/// value `u` on the clock `key`.
pub fn converted(key: &ClockKey, sub: bool, f: &Expr) -> ClockKey {
    let (base, mut down, mut up) = key.clone();
    if sub {
        down.push(f.clone());
    } else {
        up.push(f.clone());
    }
    normalise((base, down, up))
}

/// The one conversion that reads a value of partition `from` on partition
/// `to`: `Some((true, f))` for `subSample(u, f)`, `Some((false, f))` for
/// `superSample(u, f)`; `None` when no single factor does.
pub fn conversion(from: &Partition, to: &Partition) -> Option<(bool, Expr)> {
    if !same(&from.base, &to.base) {
        return None;
    }
    let (_, down, up) = normalise((
        to.base.clone(),
        [to.sub.as_slice(), &from.sup].concat(),
        [to.sup.as_slice(), &from.sub].concat(),
    ));
    match (down.as_slice(), up.as_slice()) {
        ([f], []) => Some((true, f.clone())),
        ([], [f]) => Some((false, f.clone())),
        _ => None,
    }
}

/// Partition `p`'s clock as Modelica text, for diagnostics and the FMU's
/// messages: `subSample(Clock(Ts), f)`.
pub fn partition_text(model: &ClassModel, p: &Partition) -> String {
    key_text(model, &key_of(p))
}

/// A clock expression taken apart, as Modelica text.
pub fn key_text(model: &ClassModel, (base, sub, sup): &ClockKey) -> String {
    let mut out = text(model, base);
    for f in sub {
        out = format!("subSample({out}, {})", text(model, f));
    }
    for f in sup {
        out = format!("superSample({out}, {})", text(model, f));
    }
    out
}

/// An expression of a clock (parameters, literals, arithmetic, calls) as
/// Modelica text.
pub fn text(model: &ClassModel, e: &Expr) -> String {
    let child = |x: &Expr, parent: BinOp| {
        let t = text(model, x);
        let loose = matches!(x.kind, ExprKind::Binary(BinOp::Add | BinOp::Sub, ..))
            && !matches!(parent, BinOp::Add | BinOp::Sub);
        if loose {
            format!("({t})")
        } else {
            t
        }
    };
    match &e.kind {
        ExprKind::Integer(i) => i.to_string(),
        ExprKind::Real(x) => format!("{x}"),
        ExprKind::Bool(b) => b.to_string(),
        ExprKind::Ref(r) => {
            let name = match &r.target {
                Referent::Var(v) => model.vars[*v].name.clone(),
                Referent::Member(m) => m.dotted(),
                Referent::Constant(c) => c.qualified.clone(),
                Referent::Time => "time".to_string(),
                Referent::LoopVar(_) | Referent::Unknown(_) => "?".to_string(),
            };
            if r.subscripts.is_empty() {
                name
            } else {
                let subs: Vec<String> = r
                    .subscripts
                    .iter()
                    .map(|s| match s {
                        Subscript::Expr(x) => text(model, x),
                        Subscript::Colon(_) => ":".to_string(),
                    })
                    .collect();
                format!("{name}[{}]", subs.join(", "))
            }
        }
        ExprKind::Binary(op, a, b) => {
            let sym = match op {
                BinOp::Add => "+",
                BinOp::Sub => "-",
                BinOp::Mul => "*",
                BinOp::Div => "/",
                BinOp::Pow => "^",
                _ => "?",
            };
            format!("{}{sym}{}", child(a, *op), child(b, *op))
        }
        ExprKind::Unary(UnOp::Neg, a) => format!("-{}", text(model, a)),
        ExprKind::Unary(_, a) => text(model, a),
        ExprKind::Call { func, args, .. } => {
            let args: Vec<String> = args.iter().map(|a| text(model, a)).collect();
            format!("{func}({})", args.join(", "))
        }
        _ => "...".to_string(),
    }
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
                        if !keys.iter().any(|(x, _)| same_key(x, &k)) {
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
    let reads: Vec<Reads> = model
        .equations
        .iter()
        .map(|eq| {
            let mut r = Reads::default();
            equation_reads(eq, &mut r);
            r
        })
        .collect();
    let mut inference = Inference {
        model,
        keys,
        vars: BTreeMap::new(),
    };
    let equation = inference.run(&reads);
    let (keys, vars) = (inference.keys, inference.vars);
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
        equation,
        vars: vars.into_iter().collect(),
    }));
}

/// What one equation reads, as clock inference needs it.
#[derive(Default)]
struct Reads {
    /// The clocks it samples on, in order.
    clocks: Vec<(ClockKey, crate::source::Span)>,
    /// Variables of the class it reads outside `sample`, `hold` and
    /// conversions (the arguments of `previous`, `interval` and
    /// `firstTick` among them).
    vars: Vec<usize>,
    /// `subSample(u, f)` (true) and `superSample(u, f)` of values, with
    /// what `u` reads and where the call is.
    conversions: Vec<(bool, Expr, Reads, crate::source::Span)>,
    /// `der` or `hold`: a continuous-time equation.
    continuous: bool,
    /// `previous`, `interval` or `firstTick`: clocked, whether or not it
    /// names a clock.
    builtin: bool,
}

fn equation_reads(eq: &Equation, r: &mut Reads) {
    match eq {
        Equation::Simple { lhs, rhs, .. } => {
            read(lhs, r);
            read(rhs, r);
        }
        Equation::For { body, .. } => body.iter().for_each(|b| equation_reads(b, r)),
        Equation::If {
            branches, else_, ..
        } => {
            for (c, b) in branches {
                read(c, r);
                b.iter().for_each(|e| equation_reads(e, r));
            }
            else_.iter().for_each(|e| equation_reads(e, r));
        }
        // A `when` acts at events in continuous time (DESIGN §2.2c), never
        // at a clock's ticks.
        Equation::When { branches, .. } => {
            r.continuous = true;
            for (c, b) in branches {
                read(c, r);
                b.iter().for_each(|e| equation_reads(e, r));
            }
        }
        Equation::Reinit { state, value, .. } => {
            r.continuous = true;
            read(state, r);
            read(value, r);
        }
        Equation::Terminate { .. } => r.continuous = true,
        Equation::ConnectInLoop { .. } | Equation::Assert { .. } | Equation::Rejected { .. } => {}
    }
}

fn read(e: &Expr, r: &mut Reads) {
    match &e.kind {
        ExprKind::Ref(x) => {
            if let Referent::Var(i) = x.target {
                r.vars.push(i);
            }
            for s in &x.subscripts {
                if let Subscript::Expr(ix) = s {
                    read(ix, r);
                }
            }
        }
        ExprKind::Call { func, args, .. } => match (func.as_str(), args.as_slice()) {
            // What `sample` reads is continuous-time.
            ("sample", [_, c]) => {
                if let Some(k) = clock_key(c) {
                    r.clocks.push((k, c.span));
                }
            }
            ("hold" | "der", _) => r.continuous = true,
            ("previous" | "interval" | "firstTick", _) => {
                r.builtin = true;
                args.iter().for_each(|a| read(a, r));
            }
            ("subSample" | "superSample", [u, f]) if clock_key(u).is_none() => {
                let mut inner = Reads::default();
                read(u, &mut inner);
                r.continuous |= inner.continuous;
                r.builtin |= inner.builtin;
                r.conversions
                    .push((func == "subSample", f.clone(), inner, e.span));
            }
            _ => args.iter().for_each(|a| read(a, r)),
        },
        _ => {
            let mut children = Vec::new();
            direct_children(e, &mut children);
            children.into_iter().for_each(|x| read(x, r));
        }
    }
}

/// The expressions directly inside `e` (not `e` itself).
pub fn direct_children<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
    match &e.kind {
        ExprKind::Binary(_, a, b) => out.extend([&**a, &**b]),
        ExprKind::Unary(_, a) => out.push(a),
        ExprKind::FunctionCall { args, .. } | ExprKind::Call { args, .. } => out.extend(args),
        ExprKind::If { branches, else_ } => {
            for (c, v) in branches {
                out.extend([c, v]);
            }
            out.push(else_);
        }
        ExprKind::Array(items) => out.extend(items),
        ExprKind::Matrix(rows) => out.extend(rows.iter().flatten()),
        ExprKind::Range { start, step, stop } => {
            out.push(start);
            if let Some(s) = step {
                out.push(s);
            }
            out.push(stop);
        }
        _ => {}
    }
}

/// Clock inference over a class's equations: the partitions (the sampled
/// clocks first, in the order the equations name them, then those that
/// conversions make) and the clocked variables.
struct Inference<'m> {
    model: &'m ClassModel,
    keys: Vec<(ClockKey, crate::source::Span)>,
    vars: BTreeMap<usize, usize>,
}

impl Inference<'_> {
    /// Each equation's partition. Repeated until nothing changes: an
    /// equation that reads a variable another equation clocked is on that
    /// variable's partition. Equations with `der` or `hold` stay
    /// continuous-time. Last, an equation that names no clock is on the
    /// class's partition when the class has exactly one.
    fn run(&mut self, reads: &[Reads]) -> Vec<Option<usize>> {
        let mut equation: Vec<Option<usize>> = vec![None; reads.len()];
        loop {
            let mut changed = false;
            for (k, r) in reads.iter().enumerate() {
                if r.continuous {
                    continue;
                }
                if equation[k].is_none() {
                    equation[k] = self.place(r);
                    changed |= equation[k].is_some();
                }
                if let Some(p) = equation[k] {
                    changed |= self.assign(r, p);
                }
            }
            if !changed && self.keys.len() == 1 {
                for (k, r) in reads.iter().enumerate() {
                    if !r.continuous && r.builtin && equation[k].is_none() {
                        equation[k] = Some(0);
                        changed = true;
                    }
                }
            }
            if !changed {
                return equation;
            }
        }
    }

    /// Parameters, states and inputs are never clocked (reading a state or
    /// an input without `sample` is MC157).
    fn clockable(&self, v: usize) -> bool {
        let var = &self.model.vars[v];
        var.variability == ClassVariability::Continuous
            && !var.special.state
            && var.causality != ClassCausality::Input
    }

    fn intern(&mut self, k: ClockKey, span: crate::source::Span) -> usize {
        match self.keys.iter().position(|(x, _)| same_key(x, &k)) {
            Some(p) => p,
            None => {
                self.keys.push((k, span));
                self.keys.len() - 1
            }
        }
    }

    /// The partition of what `r` reads: its first sampled clock, else its
    /// first conversion of a value whose partition is known, else the
    /// first clocked variable it reads.
    fn place(&mut self, r: &Reads) -> Option<usize> {
        if let Some((k, span)) = r.clocks.first() {
            return Some(self.intern(k.clone(), *span));
        }
        for (sub, f, inner, span) in &r.conversions {
            if let Some(q) = self.place(inner) {
                let k = converted(&self.keys[q].0, *sub, f);
                return Some(self.intern(k, *span));
            }
        }
        r.vars.iter().find_map(|v| self.vars.get(v).copied())
    }

    /// Puts the variables `r` reads on partition `p`, and those a
    /// conversion reads on the partition it converts from; whether any was
    /// new.
    fn assign(&mut self, r: &Reads, p: usize) -> bool {
        let mut changed = false;
        for &v in &r.vars {
            if self.clockable(v) && !self.vars.contains_key(&v) {
                self.vars.insert(v, p);
                changed = true;
            }
        }
        for (sub, f, inner, span) in &r.conversions {
            if self.unplaced(inner) {
                let k = converted(&self.keys[p].0, !*sub, f);
                let q = self.intern(k, *span);
                changed |= self.assign(inner, q);
            }
        }
        changed
    }

    /// Whether `r` reads a variable that is not clocked yet.
    fn unplaced(&self, r: &Reads) -> bool {
        r.vars
            .iter()
            .any(|v| self.clockable(*v) && !self.vars.contains_key(v))
            || r.conversions.iter().any(|c| self.unplaced(&c.2))
    }
}

/// A protected local the resolver adds to a class (memory the class keeps,
/// such as a clocked partition's or an event's left limits).
pub(super) fn synthetic(
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
