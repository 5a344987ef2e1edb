//! If-equations: every branch determines the same unknowns in the same
//! order, so the k-th equation of each branch is solved for the same
//! unknown and the solutions are joined into one if-expression. The
//! conditions are lowered once and shared by every joined expression, so a
//! relation in a condition is one event indicator, and every unknown of
//! the equation switches at the same event. A condition on Boolean or
//! Integer parameters reads them from the instance's Integer table: the
//! kernel does not depend on their values.

use super::causalizer::Causalizer;
use super::lowerer::Context;
use super::solve::Target;
use super::value::shape_text;
use crate::diagnostic::Diagnostic;
use crate::ir::{Affine, Ex, SlotKind, Stmt};
use crate::resolve::expr::{Equation, Expr};
use crate::source::Span;

/// The scalar equations of one branch, as lowered: (lhs, rhs, line).
type Lowered = Vec<(Ex, Ex, Span)>;

impl Causalizer<'_> {
    pub fn if_equation(
        &mut self,
        branches: &[(Expr, Vec<Equation>)],
        else_: &[Equation],
        span: Span,
        dims: &[Vec<Affine>],
    ) -> Vec<Stmt> {
        match self.join_branches(branches, else_, span, dims) {
            Ok(stmts) => stmts,
            Err(d) => {
                self.diags.push(d);
                Vec::new()
            }
        }
    }

    fn join_branches(
        &mut self,
        branches: &[(Expr, Vec<Equation>)],
        else_: &[Equation],
        span: Span,
        dims: &[Vec<Affine>],
    ) -> Result<Vec<Stmt>, Diagnostic> {
        let ctx = Context::Equation;
        let mut conds = Vec::new();
        for (c, _) in branches {
            let x = self.low.lower(c, ctx)?;
            self.condition_is_known(&x, c.span)?;
            conds.push(x);
        }
        let mut bodies: Vec<Lowered> = Vec::new();
        for body in branches.iter().map(|(_, b)| b.as_slice()).chain([else_]) {
            bodies.push(self.lower_branch(body)?);
        }
        if self.model.connectors.iter().all(|c| c.condition.is_none()) {
            equal_lengths(branches, &bodies, span)?;
        }
        // Equations of a branch that determine a member of a conditional
        // connector guarded by that branch's condition stand only there:
        // where the connector is absent the member is zero (nothing reads
        // it, it is not in the FMU). The other equations are joined, the
        // k-th of each branch with the k-th of the others.
        let mut next = vec![0; bodies.len()];
        let mut out = Vec::new();
        let mut k = 0;
        loop {
            for b in 0..branches.len() {
                while let Some((l, r, at)) = bodies[b].get(next[b]).cloned() {
                    let (t, v) = self.solve_scalar(l, r, at)?;
                    if !self.guarded_member(&t, &branches[b].0) {
                        break;
                    }
                    next[b] += 1;
                    out.push(self.padded_member(t, v, b, &conds, at, dims)?);
                }
            }
            let left: Vec<bool> = (0..bodies.len())
                .map(|b| next[b] < bodies[b].len())
                .collect();
            if left.iter().all(|l| !l) {
                break;
            }
            if let Some(b) = (0..bodies.len()).find(|&b| left[b] != left[0]) {
                let at = branch_span(branches, b, &bodies, span);
                let (more, fewer) = if left[0] { (0, b) } else { (b, 0) };
                return Err(Diagnostic::error(
                    "MC090",
                    at,
                    format!(
                        "the {} of this if-equation determines {k} unknown{} that the {} does not",
                        branch_name(more, branches.len()),
                        if k == 1 { " before one" } else { "s before one" },
                        branch_name(fewer, branches.len()),
                    ),
                )
                .with_label("different number of equations")
                .with_help(
                    "every branch (including `else`) must determine the same unknowns, in the same order (members of a conditional connector only in the branch of its condition)",
                ));
            }
            let mut solved: Vec<(Target, Ex)> = Vec::new();
            for (b, body) in bodies.iter().enumerate() {
                let (l, r, at) = body[next[b]].clone();
                let (t, v) = self.solve_scalar(l, r, at)?;
                if let Some((first, _)) = solved.first() {
                    if *first != t {
                        return Err(Diagnostic::error(
                            "MC091",
                            at,
                            format!(
                                "in the {} of this if-equation, equation {} determines `{}`, but in the first branch it determines `{}`",
                                branch_name(b, branches.len()),
                                k + 1,
                                self.low.slots[t.slot].name,
                                self.low.slots[first.slot].name
                            ),
                        )
                        .with_label("determines a different unknown")
                        .with_help(
                            "every branch must determine the same unknowns in the same order: reorder the equations of this branch",
                        ));
                    }
                }
                solved.push((t, v));
            }
            let (target, _) = solved[0].clone();
            let at = bodies[0][next[0]].2;
            for n in &mut next {
                *n += 1;
            }
            k += 1;
            let mut values: Vec<Ex> = solved.into_iter().map(|(_, v)| v).collect();
            let other = values.pop().expect("an if-equation has an else part");
            let value = Ex::If(conds.iter().cloned().zip(values).collect(), Box::new(other));
            out.push(self.assign(target, value, at, dims)?);
        }
        Ok(out)
    }

    /// Whether `t` is a member of a conditional connector of the class
    /// whose condition is `condition`.
    fn guarded_member(&self, t: &Target, condition: &Expr) -> bool {
        let SlotKind::Own(v) = self.low.slots[t.slot].kind else {
            return false;
        };
        let Some(c) = self.model.vars[v].connector else {
            return false;
        };
        self.model.connectors[c]
            .condition
            .as_ref()
            .is_some_and(|own| crate::resolve::conditional::same_condition(own, condition))
    }

    /// A member of a conditional connector determined in branch `b`: its
    /// value there, zero in every other branch (where the connector is
    /// absent).
    fn padded_member(
        &mut self,
        target: Target,
        value: Ex,
        b: usize,
        conds: &[Ex],
        at: Span,
        dims: &[Vec<Affine>],
    ) -> Result<Stmt, Diagnostic> {
        let arms = conds
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let v = if i == b { value.clone() } else { Ex::Real(0.0) };
                (c.clone(), v)
            })
            .collect();
        let value = Ex::If(arms, Box::new(Ex::Real(0.0)));
        self.assign(target, value, at, dims)
    }

    /// A condition reads only what is known where the if-equation stands.
    fn condition_is_known(&self, c: &Ex, span: Span) -> Result<(), Diagnostic> {
        let unknown = self.candidates(c, &Ex::Real(0.0));
        match unknown.first() {
            None => Ok(()),
            Some(t) => Err(Diagnostic::error(
                "MC094",
                span,
                format!(
                    "this condition reads `{}`, which no earlier equation determines",
                    self.low.slots[t.slot].name
                ),
            )
            .with_label("condition on an unknown")
            .with_help("determine the variable in an equation before the if-equation")),
        }
    }

    /// The scalar equations of a branch: only simple equations (arrays are
    /// split into their elements).
    fn lower_branch(&mut self, body: &[Equation]) -> Result<Lowered, Diagnostic> {
        let mut out = Vec::new();
        for eq in body {
            let Equation::Simple { lhs, rhs, span } = eq else {
                let at = eq.span();
                if matches!(eq, Equation::Assert { .. }) {
                    continue;
                }
                return Err(Diagnostic::error(
                    "MC095",
                    at,
                    "only simple equations `a = b` can stand in the branch of an if-equation",
                )
                .with_label("not a simple equation")
                .with_help("move loops and nested if-equations out of the branch, or write them as if-expressions"));
            };
            let ctx = Context::Equation;
            let l = self.low.value(lhs, ctx)?;
            let r = self.low.value(rhs, ctx)?;
            if l.shape() != r.shape() {
                return Err(Diagnostic::error(
                    "MC063",
                    *span,
                    format!(
                        "the two sides of this equation have different sizes: {} and {}",
                        shape_text(&l.shape()),
                        shape_text(&r.shape())
                    ),
                )
                .with_label("sizes differ")
                .with_help("make both sides scalars, or arrays of the same size"));
            }
            for k in 0..l.len() {
                out.push((l.element(k), r.element(k), *span));
            }
        }
        Ok(out)
    }
}

/// MC090 when the branches have different numbers of equations.
fn equal_lengths(
    branches: &[(Expr, Vec<Equation>)],
    bodies: &[Lowered],
    span: Span,
) -> Result<(), Diagnostic> {
    let n = bodies[0].len();
    for (b, body) in bodies.iter().enumerate().skip(1) {
        if body.len() != n {
            let at = branch_span(branches, b, bodies, span);
            return Err(Diagnostic::error(
                "MC090",
                at,
                format!(
                    "the {} of this if-equation has {} equation{} but the first branch has {n}",
                    branch_name(b, branches.len()),
                    body.len(),
                    if body.len() == 1 { "" } else { "s" }
                ),
            )
            .with_label("different number of equations")
            .with_help(
                "every branch (including `else`) must determine the same unknowns, in the same order",
            ));
        }
    }
    Ok(())
}

/// `then` branch number `b` (0-based, the else part last) in words.
fn branch_name(b: usize, n_conditions: usize) -> String {
    match b {
        _ if b == n_conditions => "`else` branch".to_string(),
        0 => "`if` branch".to_string(),
        _ => format!("`elseif` branch {b}"),
    }
}

/// Where to report branch `b`: its condition, or for the `else` part its
/// first equation (the if-equation when it has none).
fn branch_span(
    branches: &[(Expr, Vec<Equation>)],
    b: usize,
    bodies: &[Lowered],
    whole: Span,
) -> Span {
    if b < branches.len() {
        return branches[b].0.span;
    }
    bodies[b].first().map(|(_, _, s)| *s).unwrap_or(whole)
}
