//! Matching: each equation, read in source order, determines one unknown
//! (solved for it when it is linear there); `for` equations determine index
//! ranges that must tile their arrays, and every unknown must end up
//! determined exactly once.

use std::collections::BTreeSet;

use super::affine::{affine, affine_to_ex, loop_shift, tiles};
use super::causalizer::{Causalizer, Determined};
use super::discrete;
use super::lowerer::Context;
use super::rewrite::replace_var;
use super::solve::{self, Target};
use super::value::{shape_text, Value};
use crate::diagnostic::Diagnostic;
use crate::ir::{Affine, Ex, Reduction, SlotKind, Stmt};
use crate::resolve::connect::Port;
use crate::resolve::expr::{Equation, Expr, ExprKind};
use crate::source::Span;

impl Causalizer<'_> {
    /// The unknown variables of an equation, each once.
    pub fn candidates(&self, l: &Ex, r: &Ex) -> Vec<Target> {
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

    pub fn equation(&mut self, eq: &Equation, dims: &[Vec<Affine>]) -> Vec<Stmt> {
        match eq {
            Equation::Simple { lhs, rhs, span } => match self.simple(lhs, rhs, *span, dims) {
                Ok(s) => s,
                Err(d) => {
                    self.diags.push(d);
                    Vec::new()
                }
            },
            Equation::For { range, body, .. } => {
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
                let depth = self.low.loop_depth;
                self.low.loop_depth += 1;
                self.low.loop_ranges.push((lo.clone(), hi.clone()));
                let mut out = Vec::new();
                for e in body {
                    out.extend(self.equation(e, dims));
                }
                self.low.loop_depth -= 1;
                self.low.loop_ranges.pop();
                vec![Stmt::For {
                    depth,
                    lo: affine_to_ex(&lo),
                    hi: affine_to_ex(&hi),
                    body: out,
                }]
            }
            Equation::ConnectInLoop { span } => {
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
            Equation::If {
                branches,
                else_,
                span,
            } => self.if_equation(branches, else_, *span, dims),
            Equation::Assert { .. } => Vec::new(),
            Equation::When { branches, span } => self.when_equation(branches, *span, dims),
            // Outside a `when` the check phase refused them (MC162).
            Equation::Reinit { .. } | Equation::Terminate { .. } => {
                self.skipped_equation = true;
                Vec::new()
            }
            // `when` and other call equations are rejected by the check
            // phase (MC116, MC105, MC043), which `load_library`
            // always runs; reporting them here again would name the same
            // line twice.
            Equation::Rejected { .. } => {
                self.skipped_equation = true;
                Vec::new()
            }
        }
    }

    pub fn simple(
        &mut self,
        lhs: &Expr,
        rhs: &Expr,
        span: Span,
        dims: &[Vec<Affine>],
    ) -> Result<Vec<Stmt>, Diagnostic> {
        // A clocked partition has no state events: its relations compare
        // directly, at the ticks.
        let ctx = if self.low.clock.is_some() {
            Context::Direct
        } else {
            Context::Equation
        };
        let l = self.low.value_any(lhs, ctx)?;
        let r = self.low.value_any(rhs, ctx)?;
        if matches!(l, Value::Sized(_)) || matches!(r, Value::Sized(_)) {
            return self.whole_array(l, r, span, dims);
        }
        if l.shape() != r.shape() {
            return Err(Diagnostic::error(
                "MC063",
                span,
                format!(
                    "the two sides of this equation have different sizes: {} and {}",
                    shape_text(&l.shape()),
                    shape_text(&r.shape())
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

    /// A whole-array equation over parameter-sized arrays (`der(x) = A*x`):
    /// a loop over the size whose body determines element `i`, so it
    /// determines the whole array, as a `for` loop over `1:n` would.
    fn whole_array(
        &mut self,
        l: Value,
        r: Value,
        span: Span,
        dims: &[Vec<Affine>],
    ) -> Result<Vec<Stmt>, Diagnostic> {
        let (Value::Sized(l), Value::Sized(r)) = (l, r) else {
            return Err(Diagnostic::error(
                "MC132",
                span,
                "one side of this equation is a parameter-sized array and the other is not",
            )
            .with_label("sizes differ")
            .with_help("make both sides arrays of the same parameter size, or index both"));
        };
        if l.dims.len() != r.dims.len()
            || !l
                .dims
                .iter()
                .zip(&r.dims)
                .all(|(a, b)| self.low.same_size(a, b))
        {
            return Err(Diagnostic::error(
                "MC132",
                span,
                format!(
                    "the two sides of this equation have sizes {} and {}",
                    self.low.dims_text(&l.dims),
                    self.low.dims_text(&r.dims)
                ),
            )
            .with_label("sizes differ")
            .with_help("size both sides by the same parameter expression"));
        }
        let hi = match l.dims.as_slice() {
            [n] => affine(n, 0),
            _ => None,
        };
        let Some(hi) = hi else {
            return Err(Diagnostic::error(
                "MC135",
                span,
                "a whole-array equation over a parameter-sized matrix is not supported",
            )
            .with_label("matrix equation")
            .with_help(
                "only parameters may be parameter-sized matrices; write the unknowns as vectors",
            ));
        };
        let depth = self.low.loop_depth;
        self.low.loop_depth += 1;
        self.low.loop_ranges.push((Affine::constant(1), hi.clone()));
        let i = Ex::LoopVar(depth);
        let stmt = self.scalar_equation(l.at(std::slice::from_ref(&i)), r.at(&[i]), span, dims);
        self.low.loop_depth -= 1;
        self.low.loop_ranges.pop();
        Ok(vec![Stmt::For {
            depth,
            lo: Ex::Int(1),
            hi: affine_to_ex(&hi),
            body: vec![stmt?],
        }])
    }

    /// MC133 when a reduction in `e` reads an element no earlier equation
    /// determines: a reduction reads its whole array and determines none
    /// of it.
    fn reduction_reads_unknown(&self, e: &Ex, span: Span) -> Result<(), Diagnostic> {
        let mut unknown = None;
        e.visit(&mut |x| {
            if let Ex::Reduce(op, _, _, _, body) = x {
                body.visit(&mut |y| {
                    if let Ex::Var(s, i) = y {
                        if unknown.is_none() && !self.is_known_at(*s, i.as_deref()) {
                            unknown = Some((*op, *s));
                        }
                    }
                });
            }
        });
        let Some((op, s)) = unknown else {
            return Ok(());
        };
        let what = match op {
            Reduction::Sum => "a sum",
            Reduction::Product => "a product",
            Reduction::Min | Reduction::ArgMin => "a minimum",
            Reduction::Max | Reduction::ArgMax => "a maximum",
        };
        Err(Diagnostic::error(
            "MC133",
            span,
            format!(
                "{what} over `{}` is read here before every element of it is determined; a reduction determines nothing",
                self.low.slots[s].name
            ),
        )
        .with_label("reduction over an undetermined array")
        .with_help("determine every element in earlier equations (a `for` loop or a whole-array equation), then reduce it; one scalar equation cannot determine a whole array"))
    }

    pub fn scalar_equation(
        &mut self,
        l: Ex,
        r: Ex,
        span: Span,
        dims: &[Vec<Affine>],
    ) -> Result<Stmt, Diagnostic> {
        let (target, value) = self.solve_scalar(l, r, span)?;
        self.assign(target, value, span, dims)
    }

    /// The assignment `target := value`, recorded as what determines `target` (and,
    /// outside loops, as its definition for later substitution).
    pub fn assign(
        &mut self,
        target: Target,
        value: Ex,
        span: Span,
        dims: &[Vec<Affine>],
    ) -> Result<Stmt, Diagnostic> {
        self.record(&target, span, dims)?;
        if self.low.loop_ranges.is_empty() {
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

    /// The one unknown a scalar equation determines, and its value solved
    /// from the equation; nothing is recorded as determined yet.
    pub fn solve_scalar(&mut self, l: Ex, r: Ex, span: Span) -> Result<(Target, Ex), Diagnostic> {
        let mut l = self.expand_der(&l, span)?;
        let mut r = self.expand_der(&r, span)?;
        self.reduction_reads_unknown(&l, span)?;
        self.reduction_reads_unknown(&r, span)?;
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
        if let SlotKind::Own(v) = self.low.slots[target.slot].kind {
            let var = &self.model.vars[v];
            if var.special.discrete && var.ty == crate::resolve::tree::Builtin::Real {
                // Meant for this variable: taken as determined, so its uses
                // do not cascade (MC020).
                self.determined
                    .insert(target.slot, Determined::Scalar(span));
                return Err(Diagnostic::error(
                    "MC173",
                    span,
                    format!("`{}` is a `discrete Real`: only a `when` determines it", var.name),
                )
                .with_label("discrete variable determined in continuous time")
                .with_help(format!(
                    "determine `{0}` in a `when` (`when c then {0} = ...; end when;`), or drop `discrete` for a value that changes continuously",
                    var.name
                )));
            }
        }
        if let Some(ty) = self.low.slot_discrete(target.slot) {
            let alone = Ex::Var(target.slot, target.index.clone().map(Box::new));
            let value = if l == alone {
                Ok(r)
            } else if r == alone {
                Ok(l)
            } else {
                Err(discrete::not_alone(
                    &self.low.slots[target.slot].name,
                    ty,
                    span,
                ))
            };
            // At the ticks of a clocked partition a discrete variable may
            // take any value of its type.
            let clocked = self.low.clock.is_some();
            let checked = value.and_then(|value| {
                if clocked {
                    return Ok(value);
                }
                self.low
                    .check_discrete_value(target.slot, ty, &value, span)
                    .map(|()| value)
            });
            return match checked {
                Ok(value) => Ok((target, value)),
                Err(d) => {
                    // The equation was meant for this variable: taking it as
                    // determined keeps its uses from cascading (MC020).
                    self.determined
                        .insert(target.slot, Determined::Scalar(span));
                    Err(d)
                }
            };
        }
        let value = solve::solve(&l, &r, &target).map_err(|why| {
            // The equation was meant for its unknown: taking it as
            // determined keeps its uses from cascading (MC020), one root
            // cause, one error.
            self.determined
                .insert(target.slot, Determined::Scalar(span));
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
        Ok((target, value))
    }

    /// Marks the target as determined (a range of an array when indexed).
    pub fn record(
        &mut self,
        t: &Target,
        span: Span,
        _dims: &[Vec<Affine>],
    ) -> Result<(), Diagnostic> {
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
            if !self.low.loop_ranges.is_empty() {
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
        let depth = self.low.loop_ranges.len();
        let (lo, hi) = if depth > 0 {
            // Coefficient of the innermost loop variable must be 1.
            let a = affine(index, depth).ok_or_else(bad)?;
            let (shift, coeff) = loop_shift(index, depth - 1).ok_or_else(bad)?;
            let _ = a;
            if coeff != 1 {
                return Err(bad());
            }
            let (llo, lhi) = &self.low.loop_ranges[depth - 1];
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

    /// The class's own ports that a connect names.
    pub fn connected_ports(&self) -> BTreeSet<Port> {
        self.model
            .connects
            .iter()
            .flat_map(|c| [&c.a, &c.b])
            .filter(|side| side.sub.is_none())
            .map(|side| side.port)
            .collect()
    }

    /// Where a connection may determine `var`: the variable whose carried
    /// derivative it is (itself when it carries none), and the port, a
    /// connector member or a top-level signal, that a connect names.
    pub fn connection_port(&self, var: usize) -> (usize, Port) {
        let mut root = var;
        while let Some(b) = self.model.vars[root].carried_of {
            root = b;
        }
        let port = match self.model.vars[var].connector {
            Some(c) => Port::Connector(c),
            None => Port::Signal(root),
        };
        (root, port)
    }

    pub fn check_complete(&mut self, dims: &[Vec<Affine>]) {
        let connected = self.connected_ports();
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
            // `RealOutput y` (with the derivatives it carries), may be
            // determined by a connection instead.
            let (_, port) = self.connection_port(var);
            if connected.contains(&port) {
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
}
