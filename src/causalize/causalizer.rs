//! The state of the causalisation of one class: the lowerer, what each
//! equation read so far determined, and the diagnostics. Its equations are
//! read by the files above it (`matching.rs`, `if_equation.rs`,
//! `declared.rs`, `derivatives.rs`, `bindings.rs`).

use std::collections::HashMap;

use super::affine::{affine, tiles};
use super::lowerer::{Context, Lowerer};
use super::solve::Target;
use crate::diagnostic::Diagnostic;
use crate::ir::{Affine, Ex, SlotId, SlotKind};
use crate::resolve::model::{ClassModel, ClassVariability};
use crate::resolve::tree::Builtin;
use crate::source::Span;

pub enum Determined {
    Scalar(Span),
    Ranges(Vec<(Affine, Affine, Span)>),
}

pub struct Causalizer<'m> {
    pub low: Lowerer<'m>,
    pub model: &'m ClassModel,
    pub determined: HashMap<SlotId, Determined>,
    pub diags: Vec<Diagnostic>,
    /// An equation the check phase already rejected was left out.
    pub skipped_equation: bool,
    /// The defining value of every unknown determined outside loops.
    pub defs: Vec<(Target, Ex)>,
    /// Every variable's array dimensions as affine forms ([`Self::dims`]).
    pub var_dims: Vec<Vec<Affine>>,
    /// The `when` branches read so far (their conditions are numbered in
    /// the class, `resolve::events`).
    pub when_branches: usize,
    /// The `terminate` equations read so far: each flag's slot and message.
    pub terminates: Vec<(SlotId, String)>,
}

impl Causalizer<'_> {
    /// Array dimensions of every variable as affine forms.
    pub fn dims(&mut self) -> Vec<Vec<Affine>> {
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

    pub fn is_known(&self, s: SlotId) -> bool {
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
    pub fn is_known_at(&self, s: SlotId, index: Option<&Ex>) -> bool {
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

    pub fn is_determined(&self, s: SlotId) -> bool {
        self.determined.contains_key(&s)
    }

    pub fn slot_var(&self, s: SlotId) -> Option<usize> {
        match self.low.slots[s].kind {
            SlotKind::Own(i) | SlotKind::Der(i) => Some(i),
            SlotKind::Sub { .. } => None,
        }
    }
}
