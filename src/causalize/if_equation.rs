//! If-equations: every branch determines the same unknowns in the same
//! order, so the k-th equation of each branch is solved for the same
//! unknown and the solutions are joined into one if-expression. The
//! conditions are lowered once and shared by every joined expression, so a
//! relation in a condition is one event indicator, and every unknown of
//! the equation switches at the same event. A condition on Boolean or
//! Integer parameters reads them from the instance's Integer table: the
//! kernel does not depend on their values.

use super::*;

/// The scalar equations of one branch, as lowered: (lhs, rhs, line).
type Lowered = Vec<(Ex, Ex, Span)>;

impl Causalizer<'_> {
    pub(super) fn if_equation(
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
        let ctx = if self.low.loop_depth > 0 {
            Context::Direct
        } else {
            Context::Equation
        };
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
        let n = bodies[0].len();
        for (b, body) in bodies.iter().enumerate().skip(1) {
            if body.len() != n {
                let at = branch_span(branches, b, &bodies, span);
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
        let mut out = Vec::new();
        for k in 0..n {
            let mut solved: Vec<(Target, Ex)> = Vec::new();
            for (b, body) in bodies.iter().enumerate() {
                let (l, r, at) = body[k].clone();
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
            let at = bodies[0][k].2;
            let mut values: Vec<Ex> = solved.into_iter().map(|(_, v)| v).collect();
            let other = values.pop().expect("an if-equation has an else part");
            let value = Ex::If(conds.iter().cloned().zip(values).collect(), Box::new(other));
            self.record(&target, at, dims)?;
            if self.loop_ranges.is_empty() {
                self.defs.push((target.clone(), value.clone()));
            }
            out.push(Stmt::Assign {
                target: target.slot,
                index: target.index,
                value,
                guard: None,
                span: at,
            });
        }
        Ok(out)
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
                let at = match eq {
                    Equation::For { span, .. }
                    | Equation::If { span, .. }
                    | Equation::ConnectInLoop { span }
                    | Equation::Assert { span }
                    | Equation::Rejected { span } => *span,
                    Equation::Simple { .. } => unreachable!("matched above"),
                };
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
            let ctx = if self.low.loop_depth > 0 {
                Context::Direct
            } else {
                Context::Equation
            };
            let l = self.low.value(lhs, ctx)?;
            let r = self.low.value(rhs, ctx)?;
            if l.shape() != r.shape() {
                return Err(Diagnostic::error(
                    "MC063",
                    *span,
                    format!(
                        "the two sides of this equation have different sizes: {} and {}",
                        lower::shape_text(&l.shape()),
                        lower::shape_text(&r.shape())
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
