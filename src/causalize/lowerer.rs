//! The state of the lowering of one class's expressions: its slots, its
//! Integer parameters and the loops and relations formed so far. The
//! lowering itself is `lower.rs` (references, operators, calls), with
//! `builtins.rs`, `sized.rs` and `discrete.rs` above this file.

use crate::diagnostic::Diagnostic;
use crate::ir::{Affine, RelGroup, Slot, SlotId, SlotKind};
use crate::resolve::expr::Expr;
use crate::resolve::model::{ClassCausality, ClassModel, ClassVariability, MemberRef};
use crate::resolve::tree::Builtin;
use crate::source::Span;

/// Where an expression is evaluated, which decides how relations behave.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Context {
    /// A continuous-time equation: relations become events.
    Equation,
    /// Parameter bindings, start values, `for` loop bodies, `noEvent`:
    /// relations compare directly.
    Direct,
}

pub struct Lowerer<'m> {
    pub model: &'m ClassModel,
    pub slots: Vec<Slot>,
    /// Integer/Boolean parameters: (var index) in order.
    pub int_params: Vec<usize>,
    /// How many `for` loops the expression being lowered is in.
    pub loop_depth: usize,
    /// Per variable: its shape when every dimension is a literal.
    pub shapes: Vec<Option<Vec<usize>>>,
    /// Shapes of sub-component variable slots.
    pub sub_shapes: std::collections::HashMap<SlotId, Vec<usize>>,
    pub n_relations: u32,
    pub n_indicators: u32,
    /// Reductions formed so far: each takes its own loop depth.
    pub n_reductions: usize,
    /// (lo, hi) of the enclosing `for` loops, outermost first.
    pub loop_ranges: Vec<(Affine, Affine)>,
    /// Relations in `for` loops: a state event per iteration.
    pub rel_groups: Vec<RelGroup>,
    /// The partition of the clocked equation being lowered, if it is one.
    pub clock: Option<usize>,
    /// The clocked variables of the class and their partitions.
    pub clock_of_var: std::collections::HashMap<usize, usize>,
    /// The discrete type of each sub-component's Boolean or Integer
    /// variable the class reads (an output of a component, DESIGN §2.2c).
    pub sub_discrete: std::collections::HashMap<SlotId, crate::ir::Discrete>,
}

impl<'m> Lowerer<'m> {
    pub fn new(model: &'m ClassModel) -> Self {
        let mut slots = Vec::new();
        let mut int_params = Vec::new();
        for (i, v) in model.vars.iter().enumerate() {
            // A discrete variable (a scalar Boolean or Integer that is not a
            // parameter) is stored like a Real one.
            if v.ty != Builtin::Real && v.discrete().is_none() {
                if v.variability != ClassVariability::Continuous {
                    int_params.push(i);
                }
                continue;
            }
            // The variables of clocked partitions (their tick counts, the
            // values `previous` reads) are kept by their ticks.
            // So are the left limits of a class's events (`pre`), which
            // the runtime moves after each evaluation at an event.
            let synthetic = model
                .clocking
                .as_ref()
                .is_some_and(|c| i >= c.synthetic_from)
                || model
                    .events
                    .as_ref()
                    .is_some_and(|e| e.pre.iter().any(|(_, p)| *p == i));
            let known = v.variability != ClassVariability::Continuous
                || v.special.state
                || v.causality == ClassCausality::Input
                || synthetic;
            slots.push(Slot {
                name: v.name.clone(),
                kind: SlotKind::Own(i),
                known,
                is_input: v.variability == ClassVariability::Continuous
                    && v.causality == ClassCausality::Input,
                is_array: !v.dims.is_empty(),
                size: None,
            });
        }
        for (i, v) in model.vars.iter().enumerate() {
            if v.special.state && v.ty == Builtin::Real {
                slots.push(Slot {
                    name: format!("der({})", v.name),
                    kind: SlotKind::Der(i),
                    known: false,
                    is_input: false,
                    is_array: !v.dims.is_empty(),
                    size: None,
                });
            }
        }
        let shapes = model
            .vars
            .iter()
            .map(|v| literal_shape(&v.dims.iter().map(Expr::integer).collect::<Vec<_>>()))
            .collect();
        Lowerer {
            model,
            slots,
            int_params,
            loop_depth: 0,
            shapes,
            sub_shapes: std::collections::HashMap::new(),
            n_relations: 0,
            n_indicators: 0,
            n_reductions: 0,
            loop_ranges: Vec::new(),
            rel_groups: Vec::new(),
            clock: None,
            clock_of_var: std::collections::HashMap::new(),
            sub_discrete: std::collections::HashMap::new(),
        }
    }

    pub fn own_slot(&self, var: usize) -> Option<SlotId> {
        self.slots.iter().position(|s| s.kind == SlotKind::Own(var))
    }

    pub fn der_slot(&self, var: usize) -> Option<SlotId> {
        self.slots.iter().position(|s| s.kind == SlotKind::Der(var))
    }

    /// The slot of a variable of a sub-component, created on first use:
    /// only Real variables of literal shape, and Boolean and Integer ones
    /// that are not parameters, can be used in equations.
    pub fn member_slot(&mut self, m: &MemberRef, span: Span) -> Result<SlotId, Diagnostic> {
        let discrete = match m.ty {
            Builtin::Boolean if m.variability == ClassVariability::Continuous => {
                Some(crate::ir::Discrete::Boolean)
            }
            Builtin::Integer if m.variability == ClassVariability::Continuous => {
                Some(crate::ir::Discrete::Integer)
            }
            _ => None,
        };
        if m.ty != Builtin::Real && discrete.is_none() {
            return Err(Diagnostic::error(
                "MC032",
                span,
                format!("`{}` is a Boolean, Integer or enumeration parameter or an enumeration variable of a component; only its Real variables and its Boolean and Integer variables can be used in equations", m.dotted()),
            )
            .with_label("not a variable this class can read")
            .with_help("use the value through a Real parameter of this class"));
        }
        let Some(shape) = literal_shape(&m.literal_dims) else {
            return Err(Diagnostic::error(
                "MC033",
                span,
                "parameter-sized arrays of sub-components cannot be used in equations",
            )
            .with_label("array of a sub-component")
            .with_help("connect the component instead, or expose a scalar output"));
        };
        let kind = SlotKind::Sub {
            path: m.path.clone(),
            var: m.var,
        };
        if let Some(i) = self.slots.iter().position(|s| s.kind == kind) {
            self.sub_shapes.insert(i, shape);
            return Ok(i);
        }
        let sub_input =
            m.causality == ClassCausality::Input && m.variability == ClassVariability::Continuous;
        self.slots.push(Slot {
            name: m.dotted(),
            kind,
            known: !sub_input,
            is_input: !sub_input && m.variability == ClassVariability::Continuous,
            is_array: !shape.is_empty(),
            size: Some(shape.iter().product()),
        });
        let i = self.slots.len() - 1;
        self.sub_shapes.insert(i, shape);
        if let Some(d) = discrete {
            self.sub_discrete.insert(i, d);
        }
        Ok(i)
    }

    pub fn is_parameter_slot(&self, s: SlotId) -> bool {
        match &self.slots[s].kind {
            SlotKind::Own(i) => self.model.vars[*i].variability != ClassVariability::Continuous,
            _ => false,
        }
    }

    /// The slot that carries the derivative of a RealWithDerivative variable.
    pub fn carried_slot(&self, var: usize) -> Option<SlotId> {
        let c = self
            .model
            .vars
            .iter()
            .position(|v| v.carried_of == Some(var))?;
        self.own_slot(c)
    }
}

/// The largest array whose elements are handled one by one.
pub const MAX_SCALARISED: usize = 4096;

/// The shape of an array whose dimensions are Integer literals (of these
/// sizes) and which is small enough to handle element by element; `Some([])`
/// for a scalar. A larger one is handled like a parameter-sized array.
fn literal_shape(dims: &[Option<i64>]) -> Option<Vec<usize>> {
    dims.iter()
        .map(|d| match *d {
            Some(i) if i >= 1 => Some(i as usize),
            _ => None,
        })
        .collect::<Option<Vec<usize>>>()
        .filter(|shape| {
            shape
                .iter()
                .try_fold(1usize, |n, d| n.checked_mul(*d))
                .is_some_and(|n| n <= MAX_SCALARISED)
        })
}
