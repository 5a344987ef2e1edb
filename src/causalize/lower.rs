//! Lowering of AST expressions of one class to [`Ex`], resolving names to
//! slots of the class.

use super::ir::{Arith, Ex, Func, RelKind, RelOp, Slot, SlotId, SlotKind};
use crate::diagnostic::Diagnostic;
use crate::resolve::elaborate::{Causality, ClassModel, Variability};
use crate::resolve::tree::Builtin;
use crate::resolve::Elaborator;
use crate::syntax::ast::{BinOp, ComponentRef, Expr, ExprKind, Subscript, UnOp};

/// Where an expression is evaluated, which decides how relations behave.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Context {
    /// A continuous-time equation: relations become events.
    Equation,
    /// Parameter bindings, start values, `for` loop bodies, `noEvent`:
    /// relations compare directly.
    Direct,
}

pub struct Lowerer<'m, 'e, 'a> {
    pub model: &'m ClassModel,
    pub elab: &'e mut Elaborator<'a>,
    pub slots: Vec<Slot>,
    /// Integer/Boolean parameters: (var index) in order.
    pub int_params: Vec<usize>,
    pub loop_vars: Vec<String>,
    pub n_relations: u32,
    pub n_indicators: u32,
}

impl<'m, 'e, 'a> Lowerer<'m, 'e, 'a> {
    pub fn new(model: &'m ClassModel, elab: &'e mut Elaborator<'a>) -> Self {
        let mut slots = Vec::new();
        let mut int_params = Vec::new();
        for (i, v) in model.vars.iter().enumerate() {
            if v.ty != Builtin::Real {
                if v.variability != Variability::Continuous {
                    int_params.push(i);
                }
                continue;
            }
            let known = v.variability != Variability::Continuous
                || v.special.state
                || v.causality == Causality::Input;
            slots.push(Slot {
                name: v.name.clone(),
                kind: SlotKind::Own(i),
                known,
                is_input: v.variability == Variability::Continuous
                    && v.causality == Causality::Input,
                is_array: !v.dims.is_empty(),
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
                });
            }
        }
        Lowerer {
            model,
            elab,
            slots,
            int_params,
            loop_vars: Vec::new(),
            n_relations: 0,
            n_indicators: 0,
        }
    }

    pub fn own_slot(&self, var: usize) -> Option<SlotId> {
        self.slots.iter().position(|s| s.kind == SlotKind::Own(var))
    }

    pub fn der_slot(&self, var: usize) -> Option<SlotId> {
        self.slots.iter().position(|s| s.kind == SlotKind::Der(var))
    }

    /// The slot of a sub-component variable, created on first use.
    pub fn sub_slot(&mut self, r: &ComponentRef) -> Result<Option<SlotId>, Diagnostic> {
        let first = &r.parts[0].name.name;
        let Some(sub) = self.model.subs.iter().find(|s| &s.name == first) else {
            return Ok(None);
        };
        let mut path = vec![sub.name.clone()];
        let mut class = sub.class;
        let mut rest = &r.parts[1..];
        // Descend through nested sub-components.
        loop {
            let cm = self.elab.class(class).map_err(|mut ds| ds.remove(0))?;
            let Some(next) = rest.first() else {
                return Err(Diagnostic::error(
                    "MC022",
                    r.span,
                    format!("`{}` is a component, not a variable", path.join(".")),
                )
                .with_label("a component, not a variable")
                .with_help("refer to one of its variables, e.g. `component.y`"));
            };
            if let Some(s) = cm.subs.iter().find(|s| s.name == next.name.name) {
                path.push(s.name.clone());
                class = s.class;
                rest = &rest[1..];
                continue;
            }
            let var_name: Vec<&str> = rest.iter().map(|p| p.name.name.as_str()).collect();
            let var_name = var_name.join(".");
            let Some(v) = cm.vars.iter().find(|v| v.name == var_name) else {
                return Err(Diagnostic::error(
                    "MC022",
                    r.span,
                    format!(
                        "component `{}` has no variable `{var_name}`",
                        path.join(".")
                    ),
                )
                .with_label("unknown variable")
                .with_help("check the component's class for the variable's name"));
            };
            if v.ty != Builtin::Real {
                return Err(Diagnostic::error(
                    "MC032",
                    r.span,
                    format!("`{}.{var_name}` is not a Real variable; only Real variables of components can be used in equations", path.join(".")),
                )
                .with_label("not a Real variable")
                .with_help("use the value through a Real parameter of this class"));
            }
            if !v.dims.is_empty() {
                return Err(Diagnostic::error(
                    "MC033",
                    r.span,
                    "array variables of sub-components cannot be used in equations yet",
                )
                .with_label("array of a sub-component")
                .with_help("connect the component instead, or expose a scalar output"));
            }
            let kind = SlotKind::Sub {
                path: path.clone(),
                var: var_name.clone(),
            };
            if let Some(i) = self.slots.iter().position(|s| s.kind == kind) {
                return Ok(Some(i));
            }
            let sub_input =
                v.causality == Causality::Input && v.variability == Variability::Continuous;
            self.slots.push(Slot {
                name: format!("{}.{var_name}", path.join(".")),
                kind,
                known: !sub_input,
                is_input: !sub_input && v.variability == Variability::Continuous,
                is_array: false,
            });
            return Ok(Some(self.slots.len() - 1));
        }
    }

    pub fn lower(&mut self, e: &Expr, ctx: Context) -> Result<Ex, Diagnostic> {
        Ok(match &e.kind {
            ExprKind::Integer(i) => Ex::Int(*i),
            ExprKind::Real(r) => Ex::Real(*r),
            ExprKind::Bool(b) => Ex::Bool(*b),
            ExprKind::String(_) => {
                return Err(Diagnostic::error(
                    "MC034",
                    e.span,
                    "strings cannot be used in equations",
                )
                .with_label("string value")
                .with_help("remove the string; only numbers and Booleans are values here"))
            }
            ExprKind::Ref(r) => self.reference(r)?,
            ExprKind::Unary(op, a) => {
                let a = self.lower(a, ctx)?;
                match op {
                    UnOp::Neg => Ex::Neg(Box::new(a)),
                    UnOp::Plus => a,
                    UnOp::Not => Ex::Not(Box::new(a)),
                }
            }
            ExprKind::Binary(op, a, b) => {
                let la = self.lower(a, ctx)?;
                let lb = self.lower(b, ctx)?;
                let arith = |o| Ex::Bin(o, Box::new(la.clone()), Box::new(lb.clone()));
                match op {
                    BinOp::Add | BinOp::ElemAdd => arith(Arith::Add),
                    BinOp::Sub | BinOp::ElemSub => arith(Arith::Sub),
                    BinOp::Mul | BinOp::ElemMul => arith(Arith::Mul),
                    BinOp::Div | BinOp::ElemDiv => arith(Arith::Div),
                    BinOp::Pow | BinOp::ElemPow => arith(Arith::Pow),
                    BinOp::And => arith(Arith::And),
                    BinOp::Or => arith(Arith::Or),
                    BinOp::Lt => self.relation(RelOp::Lt, la, lb, ctx),
                    BinOp::Le => self.relation(RelOp::Le, la, lb, ctx),
                    BinOp::Gt => self.relation(RelOp::Gt, la, lb, ctx),
                    BinOp::Ge => self.relation(RelOp::Ge, la, lb, ctx),
                    BinOp::Eq => self.relation(RelOp::Eq, la, lb, ctx),
                    BinOp::Ne => self.relation(RelOp::Ne, la, lb, ctx),
                }
            }
            ExprKind::If { branches, else_ } => {
                let mut out = Vec::new();
                for (c, v) in branches {
                    out.push((self.lower(c, ctx)?, self.lower(v, ctx)?));
                }
                Ex::If(out, Box::new(self.lower(else_, ctx)?))
            }
            ExprKind::Call { func, args, named } => {
                let fname = func.dotted();
                if !named.is_empty() {
                    return Err(Diagnostic::error(
                        "MC035",
                        e.span,
                        format!("`{fname}` takes no named arguments"),
                    )
                    .with_label("named argument")
                    .with_help("pass the arguments by position"));
                }
                match fname.as_str() {
                    "der" => {
                        if args.len() != 1 {
                            return Err(arity(e, "der", 1));
                        }
                        return self.derivative(&args[0]);
                    }
                    "noEvent" => {
                        if args.len() != 1 {
                            return Err(arity(e, "noEvent", 1));
                        }
                        return self.lower(&args[0], Context::Direct);
                    }
                    _ => {}
                }
                let Some((f, n)) = Func::from_name(&fname) else {
                    return Err(Diagnostic::error("MC023", func.span, format!("unknown function `{fname}`"))
                        .with_label("not a built-in function")
                        .with_help("use one of the built-in functions: sin cos tan asin acos atan atan2 sinh cosh tanh exp log log10 sqrt abs sign min max"));
                };
                if args.len() != n {
                    return Err(arity(e, &fname, n));
                }
                let mut la = Vec::new();
                for a in args {
                    la.push(self.lower(a, ctx)?);
                }
                Ex::Call(f, la)
            }
            ExprKind::Array(_) | ExprKind::Matrix(_) | ExprKind::Range { .. } => {
                return Err(Diagnostic::error(
                    "MC036",
                    e.span,
                    "array expressions are not supported in equations yet",
                )
                .with_label("array expression")
                .with_help("write one equation per element, or a `for` loop"))
            }
            ExprKind::End => {
                return Err(Diagnostic::error(
                    "MC036",
                    e.span,
                    "`end` in subscripts is not supported yet",
                )
                .with_label("`end` subscript")
                .with_help("write the size parameter instead of `end`"))
            }
        })
    }

    fn relation(&mut self, op: RelOp, a: Ex, b: Ex, ctx: Context) -> Ex {
        if ctx == Context::Direct || !self.loop_vars.is_empty() {
            return Ex::Rel(op, Box::new(a), Box::new(b), RelKind::Direct);
        }
        let fixed = |e: &Ex, me: &Self| -> bool {
            let mut ok = true;
            e.visit(&mut |x| match x {
                Ex::Time | Ex::LoopVar(_) => ok = false,
                Ex::Var(s, _) if !me.is_parameter_slot(*s) => ok = false,
                _ => {}
            });
            ok
        };
        let (op, a, b) = if b == Ex::Time && a != Ex::Time {
            (flip(op), b, a)
        } else {
            (op, a, b)
        };
        let slot = self.n_relations;
        self.n_relations += 1;
        if a == Ex::Time && fixed(&b, self) {
            return Ex::Rel(op, Box::new(a), Box::new(b), RelKind::Time { slot });
        }
        let indicator = self.n_indicators;
        self.n_indicators += 1;
        Ex::Rel(
            op,
            Box::new(a),
            Box::new(b),
            RelKind::State { slot, indicator },
        )
    }

    pub fn is_parameter_slot(&self, s: SlotId) -> bool {
        match &self.slots[s].kind {
            SlotKind::Own(i) => self.model.vars[*i].variability != Variability::Continuous,
            _ => false,
        }
    }

    fn derivative(&mut self, arg: &Expr) -> Result<Ex, Diagnostic> {
        let ExprKind::Ref(r) = &arg.kind else {
            return Err(
                Diagnostic::error("MC037", arg.span, "`der` takes a variable")
                    .with_label("not a variable")
                    .with_help("write der(x) for a variable x"),
            );
        };
        let base = self.reference(r)?;
        let Ex::Var(slot, index) = base else {
            if matches!(base, Ex::IntParam(_)) {
                return Ok(Ex::Int(0));
            }
            return Err(
                Diagnostic::error("MC037", arg.span, "`der` takes a variable")
                    .with_label("not a variable")
                    .with_help("write der(x) for a variable x"),
            );
        };
        match self.slots[slot].kind.clone() {
            SlotKind::Own(i) => {
                let v = &self.model.vars[i];
                if v.variability != Variability::Continuous {
                    return Ok(Ex::Real(0.0));
                }
                if v.special.state {
                    let d = self.der_slot(i).expect("every state has a derivative slot");
                    return Ok(Ex::Var(d, index));
                }
                Err(Diagnostic::error(
                    "MC038",
                    arg.span,
                    format!("the derivative of `{}` is not available: it is not a state and carries no derivative", v.name),
                )
                .with_label("derivative unknown")
                .with_help("declare the variable as ContinuousState, or use a RealWithDerivative connector variable"))
            }
            _ => Err(Diagnostic::error(
                "MC038",
                arg.span,
                "derivatives of sub-component variables are not available",
            )
            .with_label("derivative unknown")
            .with_help("compute the derivative inside the component that owns the variable")),
        }
    }

    pub fn reference(&mut self, r: &ComponentRef) -> Result<Ex, Diagnostic> {
        if r.parts.len() == 1 && r.parts[0].subscripts.is_empty() {
            let n = &r.parts[0].name.name;
            if n == "time" {
                return Ok(Ex::Time);
            }
            if let Some(d) = self.loop_vars.iter().rposition(|v| v == n) {
                return Ok(Ex::LoopVar(d));
            }
        }
        for p in &r.parts[..r.parts.len() - 1] {
            if !p.subscripts.is_empty() {
                return Err(Diagnostic::error(
                    "MC036",
                    p.name.span,
                    "subscripts are only supported on the last part of a name",
                )
                .with_label("subscript on an inner part")
                .with_help("index the variable itself, e.g. `port.T[1]`"));
            }
        }
        let names: Vec<&str> = r.parts.iter().map(|p| p.name.name.as_str()).collect();
        let joined = names.join(".");
        let subs = &r.parts.last().expect("a reference has parts").subscripts;
        if let Some(vi) = self.model.var(&joined) {
            let v = &self.model.vars[vi];
            if v.ty != Builtin::Real {
                if !subs.is_empty() {
                    return Err(Diagnostic::error(
                        "MC036",
                        r.span,
                        "Integer arrays are not supported",
                    )
                    .with_label("Integer array")
                    .with_help("use scalar Integer parameters"));
                }
                let Some(k) = self.int_params.iter().position(|p| *p == vi) else {
                    return Err(Diagnostic::error(
                        "MC039",
                        r.span,
                        format!("`{joined}` is an Integer or Boolean variable; only parameters of these types are supported"),
                    )
                    .with_label("not a parameter")
                    .with_help("declare it as a parameter, or make it Real"));
                };
                return Ok(Ex::IntParam(k));
            }
            let slot = self.own_slot(vi).expect("every Real variable has a slot");
            let index = self.subscript(r, subs, !v.dims.is_empty())?;
            return Ok(Ex::Var(slot, index));
        }
        if let Some(s) = self.sub_slot(r)? {
            if !subs.is_empty() {
                return Err(Diagnostic::error(
                    "MC033",
                    r.span,
                    "array variables of sub-components cannot be used in equations yet",
                )
                .with_label("array of a sub-component")
                .with_help("connect the component instead"));
            }
            return Ok(Ex::Var(s, None));
        }
        Err(
            Diagnostic::error("MC022", r.span, format!("unknown variable `{joined}`"))
                .with_label("not declared in this class")
                .with_help("declare the variable in this class before the equation section"),
        )
    }

    fn subscript(
        &mut self,
        r: &ComponentRef,
        subs: &[Subscript],
        is_array: bool,
    ) -> Result<Option<Box<Ex>>, Diagnostic> {
        if !is_array {
            if !subs.is_empty() {
                return Err(Diagnostic::error(
                    "MC040",
                    r.span,
                    "a scalar variable cannot be indexed",
                )
                .with_label("scalar variable")
                .with_help("remove the subscript"));
            }
            return Ok(None);
        }
        match subs {
            [] => Err(Diagnostic::error(
                "MC036",
                r.span,
                "whole-array expressions are not supported in equations yet",
            )
            .with_label("whole array")
            .with_help("index the array, e.g. inside a `for` loop: `x[i]`")),
            [Subscript::Expr(e)] => Ok(Some(Box::new(self.lower(e, Context::Direct)?))),
            _ => Err(Diagnostic::error(
                "MC036",
                r.span,
                "only one-dimensional arrays with one index are supported yet",
            )
            .with_label("more than one index")
            .with_help("use one subscript")),
        }
    }
}

fn arity(e: &Expr, f: &str, n: usize) -> Diagnostic {
    Diagnostic::error("MC035", e.span, format!("`{f}` takes {n} argument(s)"))
        .with_label("wrong number of arguments")
        .with_help(format!("call `{f}` with exactly {n} argument(s)"))
}

fn flip(op: RelOp) -> RelOp {
    match op {
        RelOp::Lt => RelOp::Gt,
        RelOp::Le => RelOp::Ge,
        RelOp::Gt => RelOp::Lt,
        RelOp::Ge => RelOp::Le,
        o => o,
    }
}
