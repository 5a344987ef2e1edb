//! Bindings of variables that are not parameters (`Real y = 2*x;`): each
//! is the equation `y = 2*x`, taken in declaration order and read as soon
//! as everything but `y` in it is known (before the equation section when
//! it reads only parameters, states and inputs; otherwise right after the
//! equation that determines the last thing it reads). One left over when
//! every equation has been read is read then, and says what it lacks.

use super::causalizer::Causalizer;
use super::lowerer::Context;
use super::value::{shape_text, Value};
use crate::diagnostic::Diagnostic;
use crate::ir::{Affine, Stmt};
use crate::resolve::expr::{Expr, ExprKind, Reference, Referent};
use crate::resolve::model::ClassVariability;
use crate::resolve::tree::Builtin;
use crate::source::Span;

/// The equation a variable's binding stands for, lowered.
pub struct BoundEquation {
    var: usize,
    lhs: Value,
    rhs: Value,
    span: Span,
}

/// Whether the binding of `v` is an equation (not a parameter value, and
/// not a state's or an input's, which stay MC047).
pub fn binding_is_equation(v: &crate::resolve::model::Var) -> bool {
    v.variability == ClassVariability::Continuous
        && (v.ty == Builtin::Real || super::discrete::discrete_type(v).is_some())
        && !v.special.state
        && v.causality != crate::resolve::model::ClassCausality::Input
        && v.binding.is_some()
}

impl Causalizer<'_> {
    /// The equations of the class's variable bindings, in declaration order.
    pub fn bound_equations(&mut self) -> Vec<BoundEquation> {
        let mut out = Vec::new();
        for (vi, v) in self.model.vars.iter().enumerate() {
            if !binding_is_equation(v) {
                continue;
            }
            let b = v.binding.as_ref().expect("checked above");
            let lhs = Expr {
                kind: ExprKind::Ref(Reference {
                    target: Referent::Var(vi),
                    subscripts: Vec::new(),
                    inner_subscript: None,
                }),
                span: b.span,
            };
            let lowered = self
                .low
                .value(&lhs, Context::Equation)
                .and_then(|l| Ok((l, self.low.value(b, Context::Equation)?)));
            match lowered {
                Ok((lhs, rhs)) => out.push(BoundEquation {
                    var: vi,
                    lhs,
                    rhs,
                    span: b.span,
                }),
                Err(d) => self.diags.push(d),
            }
        }
        out
    }

    /// Reads the pending binding equations that are ready (all of them when
    /// `all`), in declaration order, until none is.
    pub fn read_bound(
        &mut self,
        pending: &mut Vec<BoundEquation>,
        all: bool,
        dims: &[Vec<Affine>],
    ) -> Vec<Stmt> {
        let mut out = Vec::new();
        while let Some(k) = pending.iter().position(|b| all || self.is_ready(b)) {
            let b = pending.remove(k);
            if b.lhs.shape() != b.rhs.shape() {
                self.diags.push(
                    Diagnostic::error(
                        "MC063",
                        b.span,
                        format!(
                            "`{}` has size {} but its binding has size {}",
                            self.model.vars[b.var].name,
                            shape_text(&b.lhs.shape()),
                            shape_text(&b.rhs.shape())
                        ),
                    )
                    .with_label("sizes differ")
                    .with_help("bind the variable to a value of its size"),
                );
                continue;
            }
            for e in 0..b.lhs.len() {
                match self.scalar_equation(b.lhs.element(e), b.rhs.element(e), b.span, dims) {
                    Ok(s) => out.push(s),
                    Err(d) => {
                        self.diags.push(d);
                        break;
                    }
                }
            }
        }
        out
    }

    /// Everything the binding reads, other than its variable, is known.
    fn is_ready(&self, b: &BoundEquation) -> bool {
        let own = self.low.own_slot(b.var);
        (0..b.lhs.len()).all(|e| {
            self.candidates(&b.lhs.element(e), &b.rhs.element(e))
                .iter()
                .all(|t| Some(t.slot) == own)
        })
    }
}
