//! Bindings: the class's own parameter bindings and state starts, in
//! declaration order (each may use only earlier parameters), and the
//! modifiers it writes on its sub-components, lowered to the IR.

use super::affine::{affine_to_ex, total_size};
use super::causalized::SubModifier;
use super::causalizer::Causalizer;
use super::declared;
use super::lowerer::Context;
use super::value::{self, shape_text, Value};
use crate::diagnostic::Diagnostic;
use crate::ir::{Affine, Arith, Ex, SlotId, SlotKind, Stmt};
use crate::resolve::expr::Expr;
use crate::resolve::model::ClassVariability;
use crate::resolve::modifier::Attribute;
use crate::resolve::tree::Builtin;
use crate::source::Span;

impl Causalizer<'_> {
    #[allow(clippy::type_complexity)]
    pub fn bindings(
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
            if let Some(b) = &v.binding {
                // Only a Real parameter's binding given element by element
                // goes on to the start value.
                if !self.binding(vi, b, dims, &mut int_bindings, &mut bindings, &mut pstmts) {
                    continue;
                }
            }
            if v.special.state {
                if let Some(st) = &v.attrs.start {
                    self.start(vi, st, dims, &mut starts, &mut sstmts);
                }
            }
        }
        (int_bindings, bindings, starts, pstmts, sstmts)
    }

    /// The binding `b` of variable `vi`: an Integer/Boolean parameter's
    /// binding, or the assignments of a Real parameter's elements. False
    /// when the binding was left out (an equation, or refused).
    fn binding(
        &mut self,
        vi: usize,
        b: &Expr,
        dims: &[Vec<Affine>],
        int_bindings: &mut [Option<Ex>],
        bindings: &mut Vec<(usize, Vec<Ex>)>,
        pstmts: &mut Vec<Stmt>,
    ) -> bool {
        let v = &self.model.vars[vi];
        let is_param = v.variability != ClassVariability::Continuous;
        if declared::binding_is_equation(v) {
            return false;
        }
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
            return false;
        }
        let Ok(value) = self
            .low
            .value_any(b, Context::Direct)
            .map_err(|d| self.diags.push(d))
        else {
            return false;
        };
        if let (Value::Sized(sized), Builtin::Real) = (&value, v.ty) {
            if let Some(stmts) = self.sized_binding(vi, sized, b.span, dims, vi) {
                pstmts.extend(stmts);
                bindings.push((vi, vec![sized.element.clone()]));
            }
            return false;
        }
        if v.ty != Builtin::Real {
            let Ok(e) = self
                .low
                .lower(b, Context::Direct)
                .map_err(|d| self.diags.push(d))
            else {
                return false;
            };
            if !self.only_earlier_parameters(&e, vi, b.span) {
                return false;
            }
            if let Some(k) = self.low.int_params.iter().position(|p| *p == vi) {
                int_bindings[k] = Some(e);
            }
            return false;
        }
        let Some(elements) = self.fit_shape(vi, value, b.span, false) else {
            return false;
        };
        if !elements
            .iter()
            .all(|e| self.only_earlier_parameters(e, vi, b.span))
        {
            return false;
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
        true
    }

    /// The start value `st` of state `vi`: the assignments of its elements.
    fn start(
        &mut self,
        vi: usize,
        st: &Expr,
        dims: &[Vec<Affine>],
        starts: &mut Vec<(usize, Vec<Ex>)>,
        sstmts: &mut Vec<Stmt>,
    ) {
        let v = &self.model.vars[vi];
        let Ok(value) = self
            .low
            .value_any(st, Context::Direct)
            .map_err(|d| self.diags.push(d))
        else {
            return;
        };
        if let Value::Sized(sized) = &value {
            if let Some(stmts) = self.sized_binding(vi, sized, st.span, dims, usize::MAX) {
                sstmts.extend(stmts);
                starts.push((vi, vec![sized.element.clone()]));
            }
            return;
        }
        let Some(elements) = self.fit_shape(vi, value, st.span, true) else {
            return;
        };
        if !elements
            .iter()
            .all(|e| self.only_earlier_parameters(e, usize::MAX, st.span))
        {
            return;
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
                return;
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

    /// A binding or start value of parameter-sized array `vi` that is a
    /// whole parameter-sized array (`fill(2, n)`, `x0`): loops over the
    /// run-time size that assign each element, so the kernel is the same for
    /// every size. The value must have the variable's sizes (MC132) and
    /// read only parameters declared before `before`. For instantiation the binding is its
    /// one element expression: a number at export when it reads no index
    /// and no Real parameter (`fill(2, n)`), else computed by these loops.
    fn sized_binding(
        &mut self,
        vi: usize,
        value: &value::Sized,
        span: Span,
        dims: &[Vec<Affine>],
        before: usize,
    ) -> Option<Vec<Stmt>> {
        let v = &self.model.vars[vi];
        let want: Vec<Ex> = dims[vi].iter().map(affine_to_ex).collect();
        let fits = want.len() == value.dims.len()
            && want
                .iter()
                .zip(&value.dims)
                .all(|(a, b)| self.low.same_size(a, b));
        if !fits {
            self.diags.push(
                Diagnostic::error(
                    "MC132",
                    span,
                    format!(
                        "`{}` has size {} but its value has size {}",
                        v.name,
                        self.low.dims_text(&want),
                        self.low.dims_text(&value.dims)
                    ),
                )
                .with_label("sizes differ")
                .with_help("size the value by the same parameter expression as the variable"),
            );
            return None;
        }
        if !self.only_earlier_parameters(&value.element, before, span) {
            return None;
        }
        let slot = self.low.own_slot(vi).expect("Real variables have slots");
        let loops: Vec<Ex> = (0..want.len()).map(Ex::LoopVar).collect();
        // Row-major position, 1-based: ((i1 - 1)*n2 + i2 - 1)*n3 + i3 ...
        let index = loops
            .iter()
            .zip(&want)
            .skip(1)
            .fold(loops[0].clone(), |at, (i, n)| {
                let before = Ex::Bin(Arith::Sub, Box::new(at), Box::new(Ex::Int(1)));
                let scaled = Ex::Bin(Arith::Mul, Box::new(before), Box::new(n.clone()));
                Ex::Bin(Arith::Add, Box::new(scaled), Box::new(i.clone()))
            });
        let mut body = vec![Stmt::Assign {
            target: slot,
            index: Some(index),
            value: value.at(&loops),
            guard: Some(vi),
            span,
        }];
        for (depth, n) in want.iter().enumerate().rev() {
            body = vec![Stmt::For {
                depth,
                lo: Ex::Int(1),
                hi: n.clone(),
                body,
            }];
        }
        Some(body)
    }

    /// The elements of a binding or start value for variable `vi`: one
    /// element for a scalar (or, when `broadcast`, for every element of an
    /// array), or one per element of a literal-shape array.
    pub fn fit_shape(
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
            // A parameter-sized array bound to a literal array of its
            // number of dimensions: the sizes are compared at export, when
            // they are known (MX034).
            (Value::Array(shape, _), None)
                if shape.len() == v.dims.len() && v.dims.iter().any(|d| d.integer().is_none()) =>
            {
                Some(value.elements())
            }
            _ => {
                self.diags.push(
                    Diagnostic::error(
                        "MC063",
                        span,
                        format!(
                            "`{}` has size {} but its value has size {}",
                            v.name,
                            want.map(|w| shape_text(&w)).unwrap_or_else(|| "[n]".into()),
                            shape_text(&value.shape())
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
    pub fn only_earlier_parameters(&mut self, e: &Ex, before: usize, span: Span) -> bool {
        let mut bad: Option<String> = None;
        let mut later: Option<String> = None;
        e.visit(&mut |x| match x {
            Ex::Var(s, _) => match self.low.slots[*s].kind {
                SlotKind::Own(i)
                    if self.model.vars[i].variability != ClassVariability::Continuous =>
                {
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
    pub fn modifier_slot(&mut self, m: &SubModifier) -> Result<SlotId, Diagnostic> {
        self.low.member_slot(&m.target, m.span)
    }

    /// The values and start values this class gives its components'
    /// variables, lowered in its own terms (unit modifiers are the unit
    /// checker's).
    /// `e` with every scalar constant of the class replaced by its
    /// binding, itself folded (a constant bound to other constants), so
    /// that an expression of constants and Integer parameters is static.
    /// A constant without a scalar binding stays as it is.
    pub fn fold_constants(&mut self, e: &Ex) -> Ex {
        self.fold_constants_to_depth(e, 0)
    }

    fn fold_constants_to_depth(&mut self, e: &Ex, depth: usize) -> Ex {
        let mut constants: Vec<(usize, Ex)> = Vec::new();
        e.visit(&mut |x| {
            if let Ex::Var(s, None) = x {
                if let SlotKind::Own(i) = self.low.slots[*s].kind {
                    let var = &self.model.vars[i];
                    if var.variability == ClassVariability::Constant && var.binding.is_some() {
                        constants.push((*s, Ex::Var(*s, None)));
                    }
                }
            }
        });
        if constants.is_empty() || depth > 16 {
            return e.clone();
        }
        for (slot, value) in &mut constants {
            let SlotKind::Own(i) = self.low.slots[*slot].kind else {
                continue;
            };
            let Some(binding) = self.model.vars[i].binding.clone() else {
                continue;
            };
            let lowered = match self.low.value(&binding, Context::Direct) {
                Ok(v) => v.elements(),
                Err(_) => continue,
            };
            if let [one] = lowered.as_slice() {
                *value = self.fold_constants_to_depth(one, depth + 1);
            } else {
                *value = Ex::Var(*slot, None);
            }
        }
        e.replace(&mut |x| match x {
            Ex::Var(s, None) => constants
                .iter()
                .find(|(c, _)| c == s)
                .map(|(_, v)| v.clone()),
            _ => None,
        })
    }

    pub fn sub_modifiers(&mut self) -> Vec<SubModifier> {
        let mut out = Vec::new();
        for sub in &self.model.subs {
            for m in &sub.modifiers {
                if m.attribute == Attribute::Unit {
                    continue;
                }
                match self.low.value(&m.value, Context::Direct) {
                    Ok(v) => {
                        let shape = v.shape();
                        let elements = v.elements();
                        if elements
                            .iter()
                            .all(|e| self.only_earlier_parameters(e, usize::MAX, m.value.span))
                        {
                            out.push(SubModifier {
                                target: m.target.clone(),
                                start: m.attribute == Attribute::Start,
                                value: elements,
                                shape,
                                span: m.span,
                            });
                        }
                    }
                    Err(d) => self.diags.push(d),
                }
            }
        }
        out
    }
}
