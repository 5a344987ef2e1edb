//! Per-class causalisation: the equations of one class, read in source
//! order, each determine one unknown; the result is ordered assignments
//! split into blocks by the inputs they depend on.

pub mod diff;
// The IR lives below every phase (`crate::ir`); `causalize::ir` names it too.
pub use crate::ir;
mod lower;
pub mod solve;

use std::collections::{BTreeSet, HashMap};

use crate::diagnostic::Diagnostic;
use crate::resolve::elaborate::{ClassModel, Variability};
use crate::resolve::tree::Builtin;
use crate::resolve::Elaborator;
use crate::source::Span;
use crate::syntax::ast::{Argument, Equation, Expr, ExprKind};
use ir::{Affine, Block, CausalClass, Ex, IntParam, SlotId, SlotKind, Stmt};
use lower::{Context, Lowerer, Value};
use solve::Target;

/// A modifier on a sub-component written in this class:
/// `rod(n = 5, T0 = Tstart)`.
#[derive(Debug, Clone, PartialEq)]
pub struct SubModifier {
    /// Path of the modified component below this class: ["rod"].
    pub path: Vec<String>,
    /// Variable inside that component: "T0", "port.T".
    pub var: String,
    /// `start` attribute instead of the binding.
    pub start: bool,
    /// The value in terms of this class: one element, or one per element
    /// of an array.
    pub value: Vec<Ex>,
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
}

enum Determined {
    Scalar(Span),
    Ranges(Vec<(Affine, Affine, Span)>),
}

/// Causalises one elaborated class.
pub fn causalize(model: &ClassModel, elab: &mut Elaborator) -> Result<Causalized, Vec<Diagnostic>> {
    let mut cx = Causalizer {
        low: Lowerer::new(model, elab),
        model,
        determined: HashMap::new(),
        diags: Vec::new(),
        loop_ranges: Vec::new(),
        skipped_equation: false,
        defs: Vec::new(),
    };
    let dims = cx.dims();
    let mut stmts = Vec::new();
    for eq in &model.equations {
        stmts.extend(cx.equation(eq, &dims));
    }
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
            dims,
        },
        int_bindings,
        bindings,
        starts,
        sub_modifiers,
    })
}

struct Causalizer<'m, 'e, 'a> {
    low: Lowerer<'m, 'e, 'a>,
    model: &'m ClassModel,
    determined: HashMap<SlotId, Determined>,
    diags: Vec<Diagnostic>,
    /// (lo, hi) of the enclosing `for` loops.
    loop_ranges: Vec<(Affine, Affine)>,
    /// An equation the check phase already rejected was left out.
    skipped_equation: bool,
    /// The defining value of every unknown determined outside loops.
    defs: Vec<(Target, Ex)>,
}

impl Causalizer<'_, '_, '_> {
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
            if ds.len() > 1 && ds.iter().any(|d| !d.terms.is_empty()) {
                self.diags.push(
                    Diagnostic::error(
                        "MC036",
                        v.span,
                        "arrays of more than one dimension need literal sizes",
                    )
                    .with_label("parameter-sized matrix")
                    .with_help("give every dimension of a matrix as an Integer literal"),
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
                v.is_some_and(|v| tiles(r, &self.var_dims(v)))
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

    /// The unknown variables of an equation, each once.
    fn candidates(&self, l: &Ex, r: &Ex) -> Vec<Target> {
        let mut out: Vec<Target> = Vec::new();
        for e in [l, r] {
            e.visit(&mut |x| {
                if let Ex::Var(s, i) = x {
                    if !self.is_known_at(*s, i.as_deref()) {
                        let t = Target {
                            slot: *s,
                            index: i.as_deref().cloned(),
                        };
                        if !out.contains(&t) {
                            out.push(t);
                        }
                    }
                }
            });
        }
        out
    }

    /// For the slot of a carried derivative: the slot of the variable
    /// that carries it.
    fn carried_base(&self, slot: SlotId) -> Option<SlotId> {
        match self.low.slots[slot].kind {
            SlotKind::Own(v) => self.model.vars[v]
                .carried_of
                .and_then(|b| self.low.own_slot(b)),
            _ => None,
        }
    }

    fn derive_carried(&mut self, t: &Target, span: Span) -> Result<Ex, Diagnostic> {
        let base = self
            .carried_base(t.slot)
            .expect("a carried derivative has a base");
        self.derive_def(base, t.index.as_ref(), span, 0)
    }

    /// The time derivative of an unknown determined earlier, from its
    /// defining value.
    fn derive_def(
        &mut self,
        slot: SlotId,
        index: Option<&Ex>,
        span: Span,
        depth: usize,
    ) -> Result<Ex, Diagnostic> {
        let name = self.low.slots[slot].name.clone();
        let def = self
            .defs
            .iter()
            .find(|(t, _)| t.slot == slot && t.index.as_ref() == index)
            .map(|(_, v)| v.clone());
        let Some(def) = def else {
            return Err(Diagnostic::error(
                "MC038",
                span,
                format!("the derivative of `{name}` is needed here, but `{name}` is not determined by an earlier equation outside a loop"),
            )
            .with_label("derivative unknown")
            .with_help("determine the variable before this equation, or give its derivative explicitly"));
        };
        if depth > 64 {
            return Err(Diagnostic::error(
                "MC038",
                span,
                format!("the derivative of `{name}` is nested too deeply"),
            )
            .with_label("derivative unknown")
            .with_help("give the derivative explicitly"));
        }
        diff::diff(&def, &mut |x| self.time_leaf(x, span, depth + 1))
    }

    /// Derivative of one variable (or of time) for `derive_def`.
    fn time_leaf(&mut self, x: &Ex, span: Span, depth: usize) -> Result<Ex, Diagnostic> {
        let (slot, index) = match x {
            Ex::Time => return Ok(Ex::Real(1.0)),
            Ex::Var(s, i) => (*s, i.as_deref().cloned()),
            _ => {
                return Err(Diagnostic::error(
                    "MC038",
                    span,
                    "second derivatives are not available here",
                )
                .with_label("derivative unknown")
                .with_help(
                    "use a RealWith2Derivatives variable, or give the derivative explicitly",
                ))
            }
        };
        let name = self.low.slots[slot].name.clone();
        let unavailable = |why: String| {
            Diagnostic::error("MC038", span, why)
                .with_label("derivative unknown")
                .with_help(
                    "determine that derivative in an earlier equation, or give this one explicitly",
                )
        };
        match self.low.slots[slot].kind.clone() {
            SlotKind::Own(v) => {
                let var = &self.model.vars[v];
                if var.variability != Variability::Continuous {
                    return Ok(Ex::Real(0.0));
                }
                if var.special.state {
                    let d = self.low.der_slot(v).expect("states have derivative slots");
                    if self.is_known_at(d, index.as_ref()) {
                        return Ok(Ex::Var(d, index.map(Box::new)));
                    }
                    return Err(unavailable(format!(
                        "der({name}) is needed here but is determined only by a later equation"
                    )));
                }
                if let Some(c) = self.low.carried_slot(v) {
                    if self.is_known_at(c, index.as_ref()) {
                        return Ok(Ex::Var(c, index.map(Box::new)));
                    }
                }
                if self.low.slots[slot].known {
                    return Err(unavailable(format!(
                        "the derivative of `{name}` is needed here, but nobody carries it"
                    )));
                }
                self.derive_def(slot, index.as_ref(), span, depth)
            }
            _ => Err(unavailable(format!(
                "the derivative of `{name}` is not available in this class"
            ))),
        }
    }

    /// Replaces `DerOf` nodes by the derivative of their defining values.
    fn expand_der(&mut self, e: &Ex, span: Span) -> Result<Ex, Diagnostic> {
        let mut found = false;
        e.visit(&mut |x| {
            if matches!(x, Ex::DerOf(..)) {
                found = true;
            }
        });
        if !found {
            return Ok(e.clone());
        }
        rewrite(e, &mut |x| match x {
            Ex::DerOf(s, i) => Some(self.derive_def(*s, i.as_deref(), span, 0)),
            _ => None,
        })
    }

    /// Assignments for the carried derivatives of RealWithDerivative
    /// variables the class determines and gives no explicit equation for.
    fn carried_derivatives(&mut self) -> Vec<Stmt> {
        let mut out = Vec::new();
        for (v, var) in self.model.vars.iter().enumerate() {
            let Some(base) = var.carried_of else { continue };
            let (Some(slot), Some(base_slot)) = (self.low.own_slot(v), self.low.own_slot(base))
            else {
                continue;
            };
            if self.low.slots[slot].known || self.is_known(slot) {
                continue;
            }
            let indices: Vec<Option<Ex>> = match &self.low.shapes[v] {
                Some(shape) if !shape.is_empty() => (1..=shape.iter().product::<usize>())
                    .map(|k| Some(Ex::Int(k as i64)))
                    .collect(),
                Some(_) => vec![None],
                None => {
                    self.diags.push(
                        Diagnostic::error(
                            "MC065",
                            var.span,
                            format!("`{}` of a parameter-sized array must be given by an explicit equation", var.name),
                        )
                        .with_label("derivative never determined")
                        .with_help(format!("add `{} = ...;` after the equations that determine the array", var.name)),
                    );
                    continue;
                }
            };
            let _ = base_slot;
            for idx in indices {
                if self.is_known_at(slot, idx.as_ref()) {
                    continue;
                }
                let t = Target {
                    slot,
                    index: idx.clone(),
                };
                match self.derive_carried(&t, var.span) {
                    Ok(value) => {
                        let entry = self.determined.entry(slot).or_insert_with(|| match &idx {
                            None => Determined::Scalar(var.span),
                            Some(_) => Determined::Ranges(Vec::new()),
                        });
                        if let (Determined::Ranges(r), Some(Ex::Int(k))) = (entry, &idx) {
                            r.push((Affine::constant(*k), Affine::constant(*k), var.span));
                        }
                        self.defs.push((t, value.clone()));
                        out.push(Stmt::Assign {
                            target: slot,
                            index: idx,
                            value,
                            guard: None,
                            span: var.span,
                        });
                    }
                    Err(mut d) => {
                        d.code = "MC065";
                        d.message = format!("`{}` is never determined: {}", var.name, d.message);
                        d.span = var.span;
                        self.diags.push(d);
                        break;
                    }
                }
            }
        }
        out
    }

    fn slot_var(&self, s: SlotId) -> Option<usize> {
        match self.low.slots[s].kind {
            SlotKind::Own(i) | SlotKind::Der(i) => Some(i),
            SlotKind::Sub { .. } => None,
        }
    }

    fn var_dims(&self, v: usize) -> Vec<Affine> {
        let mut out = Vec::new();
        for d in &self.model.vars[v].dims {
            // Sizes were checked in `dims`; lowering again is cheap and pure.
            if let ExprKind::Integer(i) = d.kind {
                out.push(Affine::constant(i));
            } else if let ExprKind::Ref(r) = &d.kind {
                let name = r
                    .parts
                    .iter()
                    .map(|p| p.name.name.as_str())
                    .collect::<Vec<_>>()
                    .join(".");
                if let Some(vi) = self.model.var(&name) {
                    if let Some(k) = self.low.int_params.iter().position(|p| *p == vi) {
                        out.push(Affine::param(k));
                    }
                }
            }
        }
        out
    }

    fn equation(&mut self, eq: &Equation, dims: &[Vec<Affine>]) -> Vec<Stmt> {
        match eq {
            Equation::Simple { lhs, rhs, span } => match self.simple(lhs, rhs, *span, dims) {
                Ok(s) => s,
                Err(d) => {
                    self.diags.push(d);
                    Vec::new()
                }
            },
            Equation::For {
                index,
                range,
                body,
                span,
            } => {
                let (lo, hi) = match &range.kind {
                    ExprKind::Range {
                        start,
                        step: None,
                        stop,
                    } => {
                        let lo = self
                            .low
                            .lower(start, Context::Direct)
                            .ok()
                            .and_then(|e| affine(&e, 0));
                        let hi = self
                            .low
                            .lower(stop, Context::Direct)
                            .ok()
                            .and_then(|e| affine(&e, 0));
                        match (lo, hi) {
                            (Some(lo), Some(hi)) => (lo, hi),
                            _ => {
                                self.diags.push(
                                    Diagnostic::error(
                                        "MC042",
                                        range.span,
                                        "loop bounds must be Integer parameter expressions",
                                    )
                                    .with_label("bounds are not Integer parameter expressions")
                                    .with_help(
                                        "write `for i in 1:n loop` with n an Integer parameter",
                                    ),
                                );
                                return Vec::new();
                            }
                        }
                    }
                    _ => {
                        self.diags.push(
                            Diagnostic::error(
                                "MC042",
                                range.span,
                                "a `for` loop needs a range `a:b`",
                            )
                            .with_label("not a range")
                            .with_help("write `for i in 1:n loop`"),
                        );
                        return Vec::new();
                    }
                };
                let _ = span;
                let depth = self.low.loop_vars.len();
                self.low.loop_vars.push(index.name.clone());
                self.loop_ranges.push((lo.clone(), hi.clone()));
                let mut out = Vec::new();
                for e in body {
                    out.extend(self.equation(e, dims));
                }
                self.low.loop_vars.pop();
                self.loop_ranges.pop();
                vec![Stmt::For {
                    depth,
                    lo: affine_to_ex(&lo),
                    hi: affine_to_ex(&hi),
                    body: out,
                }]
            }
            // Elaboration takes the connect equations of the class body
            // out; one left here stands inside a `for` loop.
            Equation::Connect { span, .. } => {
                self.diags.push(
                    Diagnostic::error(
                        "MC043",
                        *span,
                        "`connect` inside a `for` loop is not supported",
                    )
                    .with_label("connect in a loop")
                    .with_help("write the connections one by one, outside the loop"),
                );
                Vec::new()
            }
            Equation::Call { name, .. } if name.dotted() == "assert" => Vec::new(),
            // `if`, `when` and other call equations are rejected by the
            // check phase (MC119, MC116, MC105, MC043), which `load_library`
            // always runs; reporting them here again would name the same
            // line twice.
            _ => {
                self.skipped_equation = true;
                Vec::new()
            }
        }
    }

    fn simple(
        &mut self,
        lhs: &Expr,
        rhs: &Expr,
        span: Span,
        dims: &[Vec<Affine>],
    ) -> Result<Vec<Stmt>, Diagnostic> {
        let l = self.low.value(lhs, Context::Equation)?;
        let r = self.low.value(rhs, Context::Equation)?;
        if l.shape() != r.shape() {
            return Err(Diagnostic::error(
                "MC063",
                span,
                format!(
                    "the two sides of this equation have different sizes: {} and {}",
                    lower::shape_text(&l.shape()),
                    lower::shape_text(&r.shape())
                ),
            )
            .with_label("sizes differ")
            .with_help("make both sides scalars, or arrays of the same size"));
        }
        let mut out = Vec::new();
        for k in 0..l.len() {
            out.push(self.scalar_equation(l.element(k), r.element(k), span, dims)?);
        }
        Ok(out)
    }

    fn scalar_equation(
        &mut self,
        l: Ex,
        r: Ex,
        span: Span,
        dims: &[Vec<Affine>],
    ) -> Result<Stmt, Diagnostic> {
        let mut l = self.expand_der(&l, span)?;
        let mut r = self.expand_der(&r, span)?;
        let mut candidates = self.candidates(&l, &r);
        if candidates.len() > 1 {
            // A derivative carried by a variable determined earlier can be
            // derived here instead of waiting for its own equation.
            let derivable: Vec<Target> = candidates
                .iter()
                .filter(|t| {
                    self.carried_base(t.slot)
                        .is_some_and(|b| self.is_determined(b))
                })
                .cloned()
                .collect();
            if !derivable.is_empty() && derivable.len() < candidates.len() {
                for t in &derivable {
                    let d = self.derive_carried(t, span)?;
                    l = replace_var(&l, t, &d);
                    r = replace_var(&r, t, &d);
                }
                candidates = self.candidates(&l, &r);
            }
        }
        let mut mentioned = Vec::new();
        for e in [&l, &r] {
            e.visit(&mut |x| {
                if let Ex::Var(s, _) = x {
                    mentioned.push(*s);
                }
            });
        }

        if candidates.is_empty() {
            let mut d = Diagnostic::error(
                "MC021",
                span,
                "this equation determines no unknown: every variable in it is already known",
            )
            .with_label("nothing left to determine")
            .with_help(
                "remove the equation, or make one of its variables an unknown of this class",
            );
            for s in mentioned {
                if let Some(Determined::Scalar(first)) = self.determined.get(&s) {
                    d.message = format!("`{}` is determined twice", self.low.slots[s].name);
                    d = d.with_note(*first, "first determined here");
                    break;
                }
            }
            return Err(d);
        }
        if candidates.len() > 1 {
            let names: Vec<String> = candidates
                .iter()
                .map(|t| self.low.slots[t.slot].name.clone())
                .collect();
            return Err(Diagnostic::error(
                "MC020",
                span,
                format!(
                    "this equation has {} undetermined unknowns ({}); it must determine exactly one",
                    candidates.len(),
                    names.join(", ")
                ),
            )
            .with_label("more than one unknown")
            .with_help("determine all but one of them in earlier equations (partially ordered form)"));
        }
        let target = candidates.remove(0);
        let value = solve::solve(&l, &r, &target).map_err(|why| {
            Diagnostic::error(
                "MC024",
                span,
                format!(
                    "cannot solve this equation for `{}`: {why}",
                    self.low.slots[target.slot].name
                ),
            )
            .with_label("not solvable for its unknown")
            .with_help(
                "write the unknown alone on one side, or linearly with a nonzero coefficient",
            )
        })?;
        self.record(&target, span, dims)?;
        if self.loop_ranges.is_empty() {
            self.defs.push((target.clone(), value.clone()));
        }
        Ok(Stmt::Assign {
            target: target.slot,
            index: target.index,
            value,
            guard: None,
            span,
        })
    }

    /// Marks the target as determined (a range of an array when indexed).
    fn record(&mut self, t: &Target, span: Span, _dims: &[Vec<Affine>]) -> Result<(), Diagnostic> {
        let Some(index) = &t.index else {
            if self.low.slots[t.slot].is_array {
                return Err(Diagnostic::error(
                    "MC036",
                    span,
                    "whole-array equations are not supported yet",
                )
                .with_label("whole array")
                .with_help("determine the elements one by one or in a `for` loop"));
            }
            if !self.loop_ranges.is_empty() {
                return Err(Diagnostic::error(
                    "MC044",
                    span,
                    format!(
                        "`{}` is determined in every iteration of the loop",
                        self.low.slots[t.slot].name
                    ),
                )
                .with_label("scalar determined inside a loop")
                .with_help("determine scalars outside `for` loops"));
            }
            self.determined.insert(t.slot, Determined::Scalar(span));
            return Ok(());
        };
        let bad = || {
            Diagnostic::error(
                "MC045",
                span,
                "the index of the determined element must be `i + c` (i the loop variable) or a parameter expression",
            )
            .with_label("index not affine")
            .with_help("write e.g. x[i], x[i+1] or x[n]")
        };
        let depth = self.loop_ranges.len();
        let (lo, hi) = if depth > 0 {
            // Coefficient of the innermost loop variable must be 1.
            let a = affine(index, depth).ok_or_else(bad)?;
            let (shift, coeff) = loop_shift(index, depth - 1).ok_or_else(bad)?;
            let _ = a;
            if coeff != 1 {
                return Err(bad());
            }
            let (llo, lhi) = &self.loop_ranges[depth - 1];
            (llo.add(&shift, 1), lhi.add(&shift, 1))
        } else {
            let a = affine(index, 0).ok_or_else(bad)?;
            (a.clone(), a)
        };
        let entry = self
            .determined
            .entry(t.slot)
            .or_insert_with(|| Determined::Ranges(Vec::new()));
        if let Determined::Ranges(r) = entry {
            r.push((lo, hi, span));
        }
        Ok(())
    }

    fn check_complete(&mut self, dims: &[Vec<Affine>]) {
        let connected: BTreeSet<String> = self
            .model
            .connects
            .iter()
            .flat_map(|c| [&c.a, &c.b])
            .map(|r| r.parts[0].name.name.clone())
            .collect();
        for s in 0..self.low.slots.len() {
            let slot = &self.low.slots[s];
            if slot.known {
                continue;
            }
            let var = match slot.kind {
                SlotKind::Own(i) | SlotKind::Der(i) => i,
                SlotKind::Sub { .. } => continue,
            };
            let v = &self.model.vars[var];
            // A variable with a binding is reported as MC047 at its line.
            if v.binding.is_some() {
                continue;
            }
            // A connector member, or a top-level signal such as
            // `RealOutput y`, may be determined by a connection instead.
            let connector = v.connector.as_deref().unwrap_or(&v.name);
            if connected.contains(connector) {
                continue;
            }
            match self.determined.get(&s) {
                None => self.diags.push(
                    Diagnostic::error(
                        "MC029",
                        v.span,
                        format!("`{}` is never determined", slot.name),
                    )
                    .with_label("no equation determines this")
                    .with_help(format!("add an equation that determines `{}`", slot.name)),
                ),
                Some(Determined::Ranges(r)) => {
                    if !tiles(r, &dims[var]) {
                        self.diags.push(
                            Diagnostic::error(
                                "MC046",
                                v.span,
                                format!("the elements of `{}` are not determined exactly once each", slot.name),
                            )
                            .with_label("ranges do not tile the array")
                            .with_help("the index ranges of the equations must cover 1..size without gaps or overlaps"),
                        );
                    }
                }
                Some(Determined::Scalar(_)) => {}
            }
        }
    }

    #[allow(clippy::type_complexity)]
    fn bindings(
        &mut self,
        dims: &[Vec<Affine>],
    ) -> (
        Vec<Option<Ex>>,
        Vec<(usize, Vec<Ex>)>,
        Vec<(usize, Vec<Ex>)>,
        Vec<Stmt>,
        Vec<Stmt>,
    ) {
        let mut int_bindings = vec![None; self.low.int_params.len()];
        let mut bindings = Vec::new();
        let mut starts = Vec::new();
        let mut pstmts = Vec::new();
        let mut sstmts = Vec::new();
        for (vi, v) in self.model.vars.iter().enumerate() {
            let is_param = v.variability != Variability::Continuous;
            if let Some(b) = &v.binding {
                if !is_param {
                    self.diags.push(
                        Diagnostic::error(
                            "MC047",
                            b.span,
                            format!("`{}` has a binding but is not a parameter", v.name),
                        )
                        .with_label("binding on a variable")
                        .with_help("write the binding as an equation instead"),
                    );
                    continue;
                }
                let Ok(value) = self
                    .low
                    .value(b, Context::Direct)
                    .map_err(|d| self.diags.push(d))
                else {
                    continue;
                };
                if v.ty != Builtin::Real {
                    let Ok(e) = self
                        .low
                        .lower(b, Context::Direct)
                        .map_err(|d| self.diags.push(d))
                    else {
                        continue;
                    };
                    if !self.only_earlier_parameters(&e, vi, b.span) {
                        continue;
                    }
                    if let Some(k) = self.low.int_params.iter().position(|p| *p == vi) {
                        int_bindings[k] = Some(e);
                    }
                    continue;
                }
                let Some(elements) = self.fit_shape(vi, value, b.span, false) else {
                    continue;
                };
                if !elements
                    .iter()
                    .all(|e| self.only_earlier_parameters(e, vi, b.span))
                {
                    continue;
                }
                let slot = self.low.own_slot(vi).expect("Real variables have slots");
                for (k, e) in elements.iter().enumerate() {
                    pstmts.push(Stmt::Assign {
                        target: slot,
                        index: if v.dims.is_empty() {
                            None
                        } else {
                            Some(Ex::Int(k as i64 + 1))
                        },
                        value: e.clone(),
                        guard: Some(vi),
                        span: b.span,
                    });
                }
                bindings.push((vi, elements));
            }
            if v.special.state {
                if let Some(st) = &v.attrs.start {
                    let Ok(value) = self
                        .low
                        .value(st, Context::Direct)
                        .map_err(|d| self.diags.push(d))
                    else {
                        continue;
                    };
                    let Some(elements) = self.fit_shape(vi, value, st.span, true) else {
                        continue;
                    };
                    if !elements
                        .iter()
                        .all(|e| self.only_earlier_parameters(e, usize::MAX, st.span))
                    {
                        continue;
                    }
                    let slot = self.low.own_slot(vi).expect("Real variables have slots");
                    if v.dims.is_empty() {
                        sstmts.push(Stmt::Assign {
                            target: slot,
                            index: None,
                            value: elements[0].clone(),
                            guard: Some(vi),
                            span: st.span,
                        });
                    } else if elements.len() == 1 {
                        // One value for every element (`each start = x`).
                        let Some(size) = total_size(&dims[vi]) else {
                            continue;
                        };
                        sstmts.push(Stmt::For {
                            depth: 0,
                            lo: Ex::Int(1),
                            hi: affine_to_ex(&size),
                            body: vec![Stmt::Assign {
                                target: slot,
                                index: Some(Ex::LoopVar(0)),
                                value: elements[0].clone(),
                                guard: Some(vi),
                                span: st.span,
                            }],
                        });
                    } else {
                        for (k, e) in elements.iter().enumerate() {
                            sstmts.push(Stmt::Assign {
                                target: slot,
                                index: Some(Ex::Int(k as i64 + 1)),
                                value: e.clone(),
                                guard: Some(vi),
                                span: st.span,
                            });
                        }
                    }
                    starts.push((vi, elements));
                }
            }
        }
        (int_bindings, bindings, starts, pstmts, sstmts)
    }

    /// The elements of a binding or start value for variable `vi`: one
    /// element for a scalar (or, when `broadcast`, for every element of an
    /// array), or one per element of a literal-shape array.
    fn fit_shape(
        &mut self,
        vi: usize,
        value: Value,
        span: Span,
        broadcast: bool,
    ) -> Option<Vec<Ex>> {
        let v = &self.model.vars[vi];
        let want = self.low.shapes[vi].clone();
        match (&value, &want) {
            (Value::Scalar(_), _) if v.dims.is_empty() || broadcast => Some(value.elements()),
            (Value::Array(shape, _), Some(w)) if shape == w => Some(value.elements()),
            _ => {
                self.diags.push(
                    Diagnostic::error(
                        "MC063",
                        span,
                        format!(
                            "`{}` has size {} but its value has size {}",
                            v.name,
                            want.map(|w| lower::shape_text(&w))
                                .unwrap_or_else(|| "[n]".into()),
                            lower::shape_text(&value.shape())
                        ),
                    )
                    .with_label("sizes differ")
                    .with_help(
                        "give a value of the variable's size, e.g. {0, 0} for a vector of 2",
                    ),
                );
                None
            }
        }
    }

    /// A binding may use only parameters and constants declared before the
    /// variable it binds (`before == usize::MAX`: any parameter).
    fn only_earlier_parameters(&mut self, e: &Ex, before: usize, span: Span) -> bool {
        let mut bad: Option<String> = None;
        let mut later: Option<String> = None;
        e.visit(&mut |x| match x {
            Ex::Var(s, _) => match self.low.slots[*s].kind {
                SlotKind::Own(i) if self.model.vars[i].variability != Variability::Continuous => {
                    if i >= before {
                        later.get_or_insert(self.model.vars[i].name.clone());
                    }
                }
                _ => {
                    bad.get_or_insert(self.low.slots[*s].name.clone());
                }
            },
            Ex::IntParam(k) => {
                let i = self.low.int_params[*k];
                if i >= before {
                    later.get_or_insert(self.model.vars[i].name.clone());
                }
            }
            Ex::Time => {
                bad.get_or_insert("time".into());
            }
            _ => {}
        });
        if let Some(n) = bad {
            self.diags.push(
                Diagnostic::error(
                    "MC049",
                    span,
                    format!("a parameter value cannot depend on `{n}`"),
                )
                .with_label("not a parameter")
                .with_help("use only parameters and constants in bindings and start values"),
            );
            return false;
        }
        if let Some(n) = later {
            self.diags.push(
                Diagnostic::error(
                    "MC001",
                    span,
                    format!("`{n}` is used before it is declared (look-ahead)"),
                )
                .with_label("declared later")
                .with_help("declare the parameter before the one whose binding uses it"),
            );
            return false;
        }
        true
    }

    /// The slot a modifier computed at run time writes to.
    fn modifier_slot(&mut self, m: &SubModifier) -> Result<SlotId, Diagnostic> {
        use crate::syntax::ast::{ComponentRef, Ident, RefPart};
        let parts = m
            .path
            .iter()
            .map(String::as_str)
            .chain(m.var.split('.'))
            .map(|n| RefPart {
                name: Ident {
                    name: n.to_string(),
                    span: m.span,
                },
                subscripts: Vec::new(),
            })
            .collect();
        let r = ComponentRef {
            global: false,
            parts,
            span: m.span,
        };
        self.low.sub_slot(&r)?.ok_or_else(|| {
            Diagnostic::error(
                "MC019",
                m.span,
                format!("no component `{}` to modify", m.path.join(".")),
            )
            .with_label("no such component")
            .with_help("modify only declared components")
        })
    }

    fn sub_modifiers(&mut self) -> Vec<SubModifier> {
        let mut out = Vec::new();
        for sub in &self.model.subs {
            let path = vec![sub.name.clone()];
            for arg in &sub.arguments {
                self.collect_modifier(&path, "", arg, &mut out);
            }
        }
        out
    }

    fn collect_modifier(
        &mut self,
        path: &[String],
        prefix: &str,
        arg: &Argument,
        out: &mut Vec<SubModifier>,
    ) {
        let Argument::Modify {
            name,
            modification: Some(m),
            span,
            ..
        } = arg
        else {
            // The check phase reports every `redeclare` as MC111.
            return;
        };
        let full = if prefix.is_empty() {
            name.dotted()
        } else {
            format!("{prefix}.{}", name.dotted())
        };
        let attrs = [
            "unit",
            "displayUnit",
            "quantity",
            "min",
            "max",
            "nominal",
            "fixed",
            "start",
        ];
        if let Some(b) = &m.binding {
            let last = name.last().name.as_str();
            let (var, start) = if !prefix.is_empty() && attrs.contains(&last) {
                (prefix.to_string(), last == "start")
            } else {
                (full.clone(), false)
            };
            if !prefix.is_empty() && attrs.contains(&last) && last != "start" {
                // Attributes other than start are static; the component's
                // class already records them.
            } else {
                match self.low.value(b, Context::Direct) {
                    Ok(v) => {
                        let elements = v.elements();
                        if elements
                            .iter()
                            .all(|e| self.only_earlier_parameters(e, usize::MAX, b.span))
                        {
                            out.push(SubModifier {
                                path: path.to_vec(),
                                var,
                                start,
                                value: elements,
                                span: *span,
                            });
                        }
                    }
                    Err(d) => self.diags.push(d),
                }
            }
        }
        for a in &m.arguments {
            self.collect_modifier(path, &full, a, out);
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
        Ex::If(branches, other) => {
            let mut out = Vec::new();
            for (c, v) in branches {
                out.push((rewrite(c, f)?, rewrite(v, f)?));
            }
            Ex::If(out, b(rewrite(other, f)?))
        }
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
