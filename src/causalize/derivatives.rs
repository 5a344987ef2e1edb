//! Carried derivatives: the time derivatives a class determines for its
//! RealWithDerivative outputs and the `der(...)` of variables it
//! determines, expanded by the chain rule down to states and inputs.

use super::causalizer::{Causalizer, Determined};
use super::diff;
use super::rewrite::rewrite;
use super::solve::Target;
use crate::diagnostic::Diagnostic;
use crate::ir::{Affine, Ex, SlotId, SlotKind, Stmt};
use crate::resolve::model::ClassVariability;
use crate::source::Span;

impl Causalizer<'_> {
    /// For the slot of a carried derivative: the slot of the variable
    /// that carries it.
    pub fn carried_base(&self, slot: SlotId) -> Option<SlotId> {
        match self.low.slots[slot].kind {
            SlotKind::Own(v) => self.model.vars[v]
                .carried_of
                .and_then(|b| self.low.own_slot(b)),
            _ => None,
        }
    }

    pub fn derive_carried(&mut self, t: &Target, span: Span) -> Result<Ex, Diagnostic> {
        let base = self
            .carried_base(t.slot)
            .expect("a carried derivative has a base");
        self.derive_def(base, t.index.as_ref(), span, 0)
    }

    /// The time derivative of an unknown determined earlier, from its
    /// defining value.
    pub fn derive_def(
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
    pub fn time_leaf(&mut self, x: &Ex, span: Span, depth: usize) -> Result<Ex, Diagnostic> {
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
                if var.variability != ClassVariability::Continuous {
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
    pub fn expand_der(&mut self, e: &Ex, span: Span) -> Result<Ex, Diagnostic> {
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
    pub fn carried_derivatives(&mut self) -> Vec<Stmt> {
        let mut out = Vec::new();
        let connected = self.connected_ports();
        for (v, var) in self.model.vars.iter().enumerate() {
            let Some(base) = var.carried_of else { continue };
            let (Some(slot), Some(base_slot)) = (self.low.own_slot(v), self.low.own_slot(base))
            else {
                continue;
            };
            if self.low.slots[slot].known || self.is_known(slot) {
                continue;
            }
            // A member of a port that a connect names and that no equation
            // of the class determines (a wrapper's `inletA.m_flow`, summed
            // from a component's port) comes with its carried derivatives
            // through the same connection.
            let (root, port) = self.connection_port(v);
            let root_slot = self.low.own_slot(root);
            if connected.contains(&port)
                && !self.defs.iter().any(|(t, _)| Some(t.slot) == root_slot)
            {
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
}
