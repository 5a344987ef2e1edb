//! Per-class causalisation: the equations of one class, read in source
//! order, each determine one unknown; the result is ordered assignments
//! split into blocks by the inputs they depend on.

mod bindings;
mod builtins;
mod declared;
mod derivatives;
pub mod diff;
pub mod discrete;
mod if_equation;
mod lower;
mod matching;
mod sized;
pub mod solve;
pub mod structure;

use std::collections::{BTreeSet, HashMap};

use crate::diagnostic::Diagnostic;
use crate::ir::{
    self, Affine, Block, CausalClass, Ex, IntParam, Reduction, SlotId, SlotKind, Stmt,
};
use crate::resolve::connect::Port;
use crate::resolve::expr::{Equation, Expr, ExprKind, Referent};
use crate::resolve::model::{ClassModel, ClassVariability, MemberRef};
use crate::resolve::modifier::Attribute;
use crate::resolve::tree::Builtin;
use crate::source::Span;
use lower::{Context, Lowerer, Value};
use solve::Target;
use structure::Structure;

/// A modifier on a sub-component written in this class:
/// `rod(n = 5, T0 = Tstart)`.
#[derive(Debug, Clone, PartialEq)]
pub struct SubModifier {
    /// The modified variable, below one of this class's components.
    pub target: MemberRef,
    /// `start` attribute instead of the binding.
    pub start: bool,
    /// The value in terms of this class: one element, or one per element
    /// of an array.
    pub value: Vec<Ex>,
    /// The shape of the value as written (`[2, 3]` for `[1, 2, 3; 4, 5,
    /// 6]`, empty for a scalar): a value with one part per element of an
    /// array of components must lead with the array's sizes.
    pub shape: Vec<usize>,
    pub span: Span,
}

/// What causalisation produces for one class, with what the instantiation
/// step needs to evaluate bindings.
#[derive(Debug, Clone, PartialEq)]
pub struct Causalized {
    pub causal: CausalClass,
    /// Binding of each Integer/Boolean parameter (by int-param number).
    pub int_bindings: Vec<Option<Ex>>,
    /// Own Real parameter bindings and state starts: (var index, the value
    /// of each element; one value for all elements of an array when given
    /// with `each`).
    pub bindings: Vec<(usize, Vec<Ex>)>,
    pub starts: Vec<(usize, Vec<Ex>)>,
    pub sub_modifiers: Vec<SubModifier>,
    /// Component array sizes, conditions and connect loops, evaluated per
    /// instance.
    pub structure: Structure,
}

enum Determined {
    Scalar(Span),
    Ranges(Vec<(Affine, Affine, Span)>),
}

/// Causalises one elaborated class.
pub fn causalize(model: &ClassModel) -> Result<Causalized, Vec<Diagnostic>> {
    let mut cx = Causalizer {
        low: Lowerer::new(model),
        model,
        determined: HashMap::new(),
        diags: Vec::new(),
        skipped_equation: false,
        defs: Vec::new(),
        var_dims: Vec::new(),
    };
    let dims = cx.dims();
    cx.var_dims = dims.clone();
    let structure = match structure::structure(&mut cx.low, model) {
        Ok(s) => s,
        Err(ds) => {
            cx.diags.extend(ds);
            Structure::default()
        }
    };
    let mut stmts = Vec::new();
    let mut bound = cx.bound_equations();
    stmts.extend(cx.read_bound(&mut bound, false, &dims));
    for eq in &model.equations {
        stmts.extend(cx.equation(eq, &dims));
        stmts.extend(cx.read_bound(&mut bound, false, &dims));
    }
    stmts.extend(cx.read_bound(&mut bound, true, &dims));
    if cx.diags.is_empty() && !cx.skipped_equation {
        // Derivatives that RealWithDerivative outputs carry and that no
        // equation gave explicitly are derived from their defining
        // equations, now that every equation has been read.
        stmts.extend(cx.carried_derivatives());
    }
    // An equation that could not be read might have determined any of the
    // unknowns left over, so "never determined" would be a guess.
    if cx.diags.is_empty() && !cx.skipped_equation {
        cx.check_complete(&dims);
    }
    let (int_bindings, bindings, starts, parameter_stmts, start_stmts) = cx.bindings(&dims);
    let sub_modifiers = cx.sub_modifiers();
    let mut parameter_stmts = parameter_stmts;
    for (k, m) in sub_modifiers.iter().enumerate() {
        if !m.value.iter().any(|e| e.is_dynamic()) {
            continue;
        }
        let sub = &model.subs[m.target.path[0]];
        if sub.structural() {
            cx.diags.push(
                Diagnostic::error(
                    "MC124",
                    m.span,
                    format!(
                        "`{}` is an array of components or a conditional component: its modifiers must be known at export",
                        sub.name
                    ),
                )
                .with_label("value computed at run time")
                .with_help("give a literal or an expression of Integer/Boolean parameters, or a parameter's value with --set"),
            );
            continue;
        }
        match cx.modifier_slot(m) {
            Ok(slot) => {
                let size = cx.low.slots[slot].size.unwrap_or(1);
                let is_array = cx.low.slots[slot].is_array;
                if m.value.len() != 1 && m.value.len() != size {
                    cx.diags.push(
                        Diagnostic::error(
                            "MC063",
                            m.span,
                            format!(
                                "`{}` has {size} element(s) but this value has {}",
                                cx.low.slots[slot].name,
                                m.value.len()
                            ),
                        )
                        .with_label("sizes differ")
                        .with_help("give a value of the variable's size"),
                    );
                    continue;
                }
                for e in 0..size {
                    let value = m.value[if m.value.len() == 1 { 0 } else { e }].clone();
                    parameter_stmts.push(Stmt::Assign {
                        target: slot,
                        index: if is_array {
                            Some(Ex::Int(e as i64 + 1))
                        } else {
                            None
                        },
                        value,
                        guard: Some(model.vars.len() + k),
                        span: m.span,
                    });
                }
            }
            Err(d) => cx.diags.push(d),
        }
    }
    if !cx.diags.is_empty() {
        return Err(cx.diags);
    }
    let blocks = split_blocks(&stmts, &cx.low.slots);
    let low = cx.low;
    let int_params = low
        .int_params
        .iter()
        .map(|v| IntParam {
            var: *v,
            name: model.vars[*v].name.clone(),
        })
        .collect();
    Ok(Causalized {
        causal: CausalClass {
            qualified: model.qualified.clone(),
            slots: low.slots,
            int_params,
            parameter_stmts,
            start_stmts,
            blocks,
            n_relations: low.n_relations,
            n_indicators: low.n_indicators,
            rel_groups: low.rel_groups,
            dims,
        },
        int_bindings,
        bindings,
        starts,
        sub_modifiers,
        structure,
    })
}

struct Causalizer<'m> {
    low: Lowerer<'m>,
    model: &'m ClassModel,
    determined: HashMap<SlotId, Determined>,
    diags: Vec<Diagnostic>,
    /// An equation the check phase already rejected was left out.
    skipped_equation: bool,
    /// The defining value of every unknown determined outside loops.
    defs: Vec<(Target, Ex)>,
    /// Every variable's array dimensions as affine forms ([`Self::dims`]).
    var_dims: Vec<Vec<Affine>>,
}

impl Causalizer<'_> {
    /// Array dimensions of every variable as affine forms.
    fn dims(&mut self) -> Vec<Vec<Affine>> {
        let mut out = Vec::new();
        for v in &self.model.vars {
            let mut ds = Vec::new();
            for d in &v.dims {
                match self.low.lower(d, Context::Direct).ok().and_then(|e| affine(&e, 0)) {
                    Some(a) => ds.push(a),
                    None => self.diags.push(
                        Diagnostic::error(
                            "MC041",
                            d.span,
                            "an array size must be an Integer literal or an Integer parameter expression",
                        )
                        .with_label("not a structural size")
                        .with_help("declare the size as `parameter Integer n` and use it here"),
                    ),
                }
            }
            // A parameter-sized matrix is admitted for Real parameters (and
            // constants): its elements are data the kernel reads in loops.
            // An unknown matrix would need equations that determine index
            // ranges of two dimensions.
            let parameter = v.variability != ClassVariability::Continuous && v.ty == Builtin::Real;
            if ds.len() > 1
                && ds.iter().any(|d| !d.terms.is_empty())
                && !(parameter && ds.len() == 2)
            {
                self.diags.push(
                    Diagnostic::error(
                        "MC135",
                        v.span,
                        format!(
                            "`{}` is a parameter-sized array of {} dimensions that is not a Real parameter",
                            v.name,
                            ds.len()
                        ),
                    )
                    .with_label("parameter-sized matrix of a variable")
                    .with_help("only Real parameters may be parameter-sized matrices (`parameter Real A[n, n]`); give a variable one dimension (`Real x[n]`), or literal sizes"),
                );
            }
            out.push(ds);
        }
        out
    }

    fn is_known(&self, s: SlotId) -> bool {
        if self.low.slots[s].known {
            return true;
        }
        match self.determined.get(&s) {
            Some(Determined::Scalar(_)) => true,
            Some(Determined::Ranges(r)) => {
                let v = self.slot_var(s);
                v.is_some_and(|v| self.var_dims.get(v).is_some_and(|d| tiles(r, d)))
            }
            None => false,
        }
    }

    /// Is element `index` of slot `s` known at this point?
    fn is_known_at(&self, s: SlotId, index: Option<&Ex>) -> bool {
        if self.is_known(s) {
            return true;
        }
        if let (Some(Ex::Int(k)), Some(Determined::Ranges(r))) = (index, self.determined.get(&s)) {
            return r.iter().any(|(lo, hi, _)| {
                lo.terms.is_empty() && hi.terms.is_empty() && lo.constant <= *k && *k <= hi.constant
            });
        }
        false
    }

    fn is_determined(&self, s: SlotId) -> bool {
        self.determined.contains_key(&s)
    }

    fn slot_var(&self, s: SlotId) -> Option<usize> {
        match self.low.slots[s].kind {
            SlotKind::Own(i) | SlotKind::Der(i) => Some(i),
            SlotKind::Sub { .. } => None,
        }
    }
}

/// Does a list of ranges cover `1..=dim` exactly once?
fn tiles(ranges: &[(Affine, Affine, Span)], dims: &[Affine]) -> bool {
    if dims.is_empty() {
        return false;
    }
    let Some(dim) = total_size(dims) else {
        return false;
    };
    let mut sorted: Vec<&(Affine, Affine, Span)> = ranges.iter().collect();
    sorted.sort_by_key(|r| r.0.generic_value());
    let mut next = Affine::constant(1);
    for (lo, hi, _) in sorted {
        if *lo != next {
            return false;
        }
        next = hi.add(&Affine::constant(1), 1);
    }
    next == dim.add(&Affine::constant(1), 1)
}

/// An integer expression as an affine form in Integer parameters; loop
/// variables are not allowed below `loops` (0 = none allowed).
fn affine(e: &Ex, loops: usize) -> Option<Affine> {
    match e {
        Ex::Int(i) => Some(Affine::constant(*i)),
        Ex::IntParam(k) => Some(Affine::param(*k)),
        Ex::LoopVar(d) if *d < loops => Some(Affine::default()),
        Ex::Neg(a) => Some(affine(a, loops)?.scale(-1)),
        Ex::Bin(ir::Arith::Add, a, b) => Some(affine(a, loops)?.add(&affine(b, loops)?, 1)),
        Ex::Bin(ir::Arith::Sub, a, b) => Some(affine(a, loops)?.add(&affine(b, loops)?, -1)),
        Ex::Bin(ir::Arith::Mul, a, b) => {
            let (x, y) = (affine(a, loops)?, affine(b, loops)?);
            if x.terms.is_empty() && !contains_loop(a) {
                Some(y.scale(x.constant))
            } else if y.terms.is_empty() && !contains_loop(b) {
                Some(x.scale(y.constant))
            } else {
                None
            }
        }
        _ => None,
    }
}

fn contains_loop(e: &Ex) -> bool {
    let mut found = false;
    e.visit(&mut |x| {
        if matches!(x, Ex::LoopVar(_)) {
            found = true
        }
    });
    found
}

/// For an index `i + c` with `i` the loop variable at `depth`: (c, 1).
fn loop_shift(e: &Ex, depth: usize) -> Option<(Affine, i64)> {
    match e {
        Ex::LoopVar(d) if *d == depth => Some((Affine::default(), 1)),
        Ex::Bin(ir::Arith::Add, a, b) => {
            if let Some((s, c)) = loop_shift(a, depth) {
                Some((s.add(&affine(b, 0)?, 1), c))
            } else {
                let (s, c) = loop_shift(b, depth)?;
                Some((s.add(&affine(a, 0)?, 1), c))
            }
        }
        Ex::Bin(ir::Arith::Sub, a, b) => {
            let (s, c) = loop_shift(a, depth)?;
            Some((s.add(&affine(b, 0)?, -1), c))
        }
        _ => None,
    }
}

pub fn affine_to_ex(a: &Affine) -> Ex {
    let mut e = Ex::Int(a.constant);
    for (k, c) in &a.terms {
        let term = if *c == 1 {
            Ex::IntParam(*k)
        } else {
            Ex::Bin(
                ir::Arith::Mul,
                Box::new(Ex::Int(*c)),
                Box::new(Ex::IntParam(*k)),
            )
        };
        e = if solve::is_zero(&e) {
            term
        } else {
            Ex::Bin(ir::Arith::Add, Box::new(e), Box::new(term))
        };
    }
    e
}

fn stmt_io(s: &Stmt, reads: &mut Vec<SlotId>, writes: &mut Vec<SlotId>) {
    match s {
        Stmt::Assign {
            target,
            index,
            value,
            ..
        } => {
            value.slots(reads);
            if let Some(i) = index {
                i.slots(reads);
            }
            writes.push(*target);
        }
        Stmt::For { lo, hi, body, .. } => {
            lo.slots(reads);
            hi.slots(reads);
            for b in body {
                stmt_io(b, reads, writes);
            }
        }
    }
}

/// Groups statements by the set of inputs they depend on. Groups are
/// ordered by the size of that set, which is a valid order because a
/// statement's set contains the sets of everything it reads.
fn split_blocks(stmts: &[Stmt], slots: &[ir::Slot]) -> Vec<Block> {
    let mut deps_of_slot: HashMap<SlotId, BTreeSet<SlotId>> = HashMap::new();
    let mut groups: Vec<(BTreeSet<SlotId>, usize, Block)> = Vec::new();
    for (k, s) in stmts.iter().enumerate() {
        let mut reads = Vec::new();
        let mut writes = Vec::new();
        stmt_io(s, &mut reads, &mut writes);
        let mut deps = BTreeSet::new();
        for r in &reads {
            if slots[*r].is_input {
                deps.insert(*r);
            }
            if let Some(d) = deps_of_slot.get(r) {
                deps.extend(d.iter().copied());
            }
        }
        for w in &writes {
            deps_of_slot
                .entry(*w)
                .or_default()
                .extend(deps.iter().copied());
        }
        match groups.iter_mut().find(|g| g.0 == deps) {
            Some(g) => {
                g.2.stmts.push(s.clone());
                g.2.reads.extend(reads);
                g.2.writes.extend(writes);
            }
            None => groups.push((
                deps.clone(),
                k,
                Block {
                    inputs: deps.iter().copied().collect(),
                    stmts: vec![s.clone()],
                    writes,
                    reads,
                },
            )),
        }
    }
    groups.sort_by_key(|g| (g.0.len(), g.1));
    groups
        .into_iter()
        .map(|(_, _, mut b)| {
            b.reads.sort_unstable();
            b.reads.dedup();
            b.writes.sort_unstable();
            b.writes.dedup();
            b
        })
        .collect()
}

/// Rebuilds an expression, replacing the nodes `f` answers for.
fn rewrite<E>(e: &Ex, f: &mut dyn FnMut(&Ex) -> Option<Result<Ex, E>>) -> Result<Ex, E> {
    if let Some(r) = f(e) {
        return r;
    }
    let b = |x: Ex| Box::new(x);
    Ok(match e {
        Ex::Neg(a) => Ex::Neg(b(rewrite(a, f)?)),
        Ex::Not(a) => Ex::Not(b(rewrite(a, f)?)),
        Ex::Bin(o, x, y) => Ex::Bin(*o, b(rewrite(x, f)?), b(rewrite(y, f)?)),
        Ex::Rel(o, x, y, k) => Ex::Rel(*o, b(rewrite(x, f)?), b(rewrite(y, f)?), *k),
        Ex::Call(func, args) => Ex::Call(
            *func,
            args.iter()
                .map(|a| rewrite(a, f))
                .collect::<Result<_, E>>()?,
        ),
        Ex::User(sym, args, tangent) => Ex::User(
            sym.clone(),
            args.iter()
                .map(|a| rewrite(a, f))
                .collect::<Result<_, E>>()?,
            *tangent,
        ),
        Ex::If(branches, other) => {
            let mut out = Vec::new();
            for (c, v) in branches {
                out.push((rewrite(c, f)?, rewrite(v, f)?));
            }
            Ex::If(out, b(rewrite(other, f)?))
        }
        Ex::Reduce(op, d, lo, hi, body) => Ex::Reduce(
            *op,
            *d,
            b(rewrite(lo, f)?),
            b(rewrite(hi, f)?),
            b(rewrite(body, f)?),
        ),
        other => other.clone(),
    })
}

/// Replaces every occurrence of the target variable by `value`.
fn replace_var(e: &Ex, t: &Target, value: &Ex) -> Ex {
    let r: Result<Ex, ()> = rewrite(e, &mut |x| match x {
        Ex::Var(s, i) if *s == t.slot && i.as_deref() == t.index.as_ref() => {
            Some(Ok(value.clone()))
        }
        _ => None,
    });
    r.unwrap_or_else(|_| e.clone())
}

/// The number of elements of an array with these dimensions.
fn total_size(dims: &[Affine]) -> Option<Affine> {
    match dims {
        [] => Some(Affine::constant(1)),
        [d] => Some(d.clone()),
        _ => {
            let mut n = 1i64;
            for d in dims {
                if !d.terms.is_empty() {
                    return None;
                }
                n *= d.constant;
            }
            Some(Affine::constant(n))
        }
    }
}
