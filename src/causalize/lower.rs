//! Lowering of the resolved expressions of one class to [`Ex`] over the
//! slots of the class.

use super::affine::affine_to_ex;
use super::lowerer::{Context, Lowerer};
use super::solve;
use super::value::{shape_text, Value, SIZED_ONLY};
use crate::diagnostic::Diagnostic;
use crate::ir::{Affine, Arith, Ex, Func, RelGroup, RelKind, RelOp, SlotId, SlotKind};
use crate::resolve::expr::{BinOp, Expr, ExprKind, Reference, Referent, Subscript, UnOp};
use crate::resolve::model::ClassVariability;
use crate::resolve::tree::Builtin;
use crate::source::Span;

impl Lowerer<'_> {
    /// Lowers an expression that must be scalar.
    pub fn lower(&mut self, e: &Expr, ctx: Context) -> Result<Ex, Diagnostic> {
        match self.value_any(e, ctx)? {
            Value::Sized(_) => Err(Diagnostic::error(
                "MC063",
                e.span,
                "a whole parameter-sized array is used where a scalar is expected",
            )
            .with_label("array value")
            .with_help("index the array, reduce it with `sum`, `product`, `min` or `max`, or use it in an array equation")),
            Value::Scalar(x) => Ok(x),
            Value::Array(shape, _) => Err(Diagnostic::error(
                "MC063",
                e.span,
                format!(
                    "an array of size {} is used where a scalar is expected",
                    shape_text(&shape)
                ),
            )
            .with_label("array value")
            .with_help("index the array, or use it in an array equation")),
        }
    }

    /// Lowers an expression to a scalar or to the elements of an array
    /// with a literal shape.
    pub fn value(&mut self, e: &Expr, ctx: Context) -> Result<Value, Diagnostic> {
        match self.value_any(e, ctx)? {
            Value::Sized(_) => Err(Diagnostic::error(
                "MC134",
                e.span,
                "a whole parameter-sized array cannot be used here",
            )
            .with_label("whole array of parameter size")
            .with_help("use it in a whole-array equation, a reduction (`sum`, `product`, `min`, `max`) or a matrix product, or index it inside a `for` loop: `x[i]`")),
            v => Ok(v),
        }
    }

    /// Lowers an expression to a scalar, the elements of an array with a
    /// literal shape, or a parameter-sized array ([`Value::Sized`]).
    pub fn value_any(&mut self, e: &Expr, ctx: Context) -> Result<Value, Diagnostic> {
        Ok(match &e.kind {
            ExprKind::Integer(i) => Value::Scalar(Ex::Int(*i)),
            ExprKind::Real(r) => Value::Scalar(Ex::Real(*r)),
            ExprKind::Bool(b) => Value::Scalar(Ex::Bool(*b)),
            ExprKind::String(_) => {
                return Err(Diagnostic::error(
                    "MC034",
                    e.span,
                    "strings cannot be used in equations",
                )
                .with_label("string value")
                .with_help("remove the string; only numbers and Booleans are values here"))
            }
            ExprKind::Ref(r) => self.reference_value(r, e.span)?,
            ExprKind::FunctionCall { func, args, output } => {
                let mut lowered = Vec::with_capacity(args.len());
                for a in args {
                    lowered.push(self.lower(a, ctx)?);
                }
                Value::Scalar(Ex::User(func.output_symbol(*output).into(), lowered, false))
            }
            ExprKind::Unary(op, a) => {
                let a = self.value_any(a, ctx)?;
                match op {
                    UnOp::Neg => a.map(|x| Ex::Neg(Box::new(x))),
                    UnOp::Plus => a,
                    UnOp::Not => Value::Scalar(Ex::Not(Box::new(self.scalar(a, e)?))),
                }
            }
            ExprKind::Binary(op, a, b) => self.binary_value(*op, a, b, e, ctx)?,
            ExprKind::If { branches, else_ } => self.if_value(branches, else_, e, ctx)?,
            ExprKind::Call {
                func,
                func_span,
                args,
                named,
            } => return self.call_value(func, *func_span, args, *named, e, ctx),
            ExprKind::Array(items) => self.array_value(items, e, ctx)?,
            ExprKind::Matrix(rows) => self.matrix_value(rows, e, ctx)?,
            ExprKind::Range { .. } => {
                return Err(Diagnostic::error(
                    "MC036",
                    e.span,
                    "ranges are only supported as the range of a `for` loop",
                )
                .with_label("range expression")
                .with_help("write `for i in a:b loop`, or an array constructor `{a, b}`"))
            }
            ExprKind::End => {
                return Err(Diagnostic::error(
                    "MC036",
                    e.span,
                    "`end` here names no dimension whose size the class knows",
                )
                .with_label("`end` of an unknown size")
                .with_help("`end` is the declared size of the dimension it indexes: write the size instead, or index an array of this class"))
            }
        })
    }

    /// A binary operation: elementwise, a matrix product, or a scalar
    /// operation or relation.
    fn binary_value(
        &mut self,
        op: BinOp,
        a: &Expr,
        b: &Expr,
        e: &Expr,
        ctx: Context,
    ) -> Result<Value, Diagnostic> {
        let la = self.value_any(a, ctx)?;
        let lb = self.value_any(b, ctx)?;
        let relation = matches!(
            op,
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne
        );
        if relation && (!matches!(la, Value::Scalar(_)) || !matches!(lb, Value::Scalar(_))) {
            return Err(array_relation(e));
        }
        if matches!(la, Value::Sized(_)) || matches!(lb, Value::Sized(_)) {
            return self.sized_binary(op, la, lb, e);
        }
        Ok(match op {
            BinOp::Add | BinOp::ElemAdd => {
                elementwise(Arith::Add, la, lb, e, op == BinOp::ElemAdd)?
            }
            BinOp::Sub | BinOp::ElemSub => {
                elementwise(Arith::Sub, la, lb, e, op == BinOp::ElemSub)?
            }
            BinOp::ElemMul => elementwise(Arith::Mul, la, lb, e, true)?,
            BinOp::ElemDiv => elementwise(Arith::Div, la, lb, e, true)?,
            BinOp::ElemPow => elementwise(Arith::Pow, la, lb, e, true)?,
            BinOp::Mul => product(la, lb, e)?,
            BinOp::Div => match lb {
                Value::Scalar(d) => {
                    la.map(|x| Ex::Bin(Arith::Div, Box::new(x), Box::new(d.clone())))
                }
                Value::Array(..) | Value::Sized(_) => {
                    return Err(shape_error(e, "an array cannot be a divisor"))
                }
            },
            BinOp::Pow => {
                let (x, y) = (self.scalar(la, e)?, self.scalar(lb, e)?);
                Value::Scalar(Ex::Bin(Arith::Pow, Box::new(x), Box::new(y)))
            }
            BinOp::And | BinOp::Or => {
                let (x, y) = (self.scalar(la, e)?, self.scalar(lb, e)?);
                let o = if op == BinOp::And {
                    Arith::And
                } else {
                    Arith::Or
                };
                Value::Scalar(Ex::Bin(o, Box::new(x), Box::new(y)))
            }
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne => {
                let (x, y) = (self.scalar(la, e)?, self.scalar(lb, e)?);
                let rel = match op {
                    BinOp::Lt => RelOp::Lt,
                    BinOp::Le => RelOp::Le,
                    BinOp::Gt => RelOp::Gt,
                    BinOp::Ge => RelOp::Ge,
                    BinOp::Eq => RelOp::Eq,
                    _ => RelOp::Ne,
                };
                Value::Scalar(self.relation(rel, x, y, ctx))
            }
        })
    }

    /// An if-expression, element by element over branches of one shape.
    fn if_value(
        &mut self,
        branches: &[(Expr, Expr)],
        else_: &Expr,
        e: &Expr,
        ctx: Context,
    ) -> Result<Value, Diagnostic> {
        let mut conds = Vec::new();
        let mut values = Vec::new();
        for (c, v) in branches {
            conds.push(self.lower(c, ctx)?);
            values.push(self.value(v, ctx)?);
        }
        let other = self.value(else_, ctx)?;
        let shape = other.shape();
        if values.iter().any(|v| v.shape() != shape) {
            return Err(shape_error(
                e,
                "the branches of this if-expression have different sizes",
            ));
        }
        let n = other.len();
        let mut out = Vec::with_capacity(n);
        for k in 0..n {
            let bs = conds
                .iter()
                .zip(&values)
                .map(|(c, v)| (c.clone(), v.element(k)))
                .collect();
            out.push(Ex::If(bs, Box::new(other.element(k))));
        }
        Ok(Value::from_elements(shape, out))
    }

    /// A call of a built-in: `der`, `noEvent`, `transpose`, the array
    /// built-ins, or a mathematical function (elementwise when it takes
    /// one argument).
    fn call_value(
        &mut self,
        func: &str,
        func_span: Span,
        args: &[Expr],
        named: bool,
        e: &Expr,
        ctx: Context,
    ) -> Result<Value, Diagnostic> {
        let fname = func.to_string();
        if named {
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
                let v = self.value_any(&args[0], ctx)?;
                if let Value::Sized(mut a) = v {
                    a.element = self.derivative(a.element, &args[0])?;
                    return Ok(Value::Sized(a));
                }
                let shape = v.shape();
                let mut out = Vec::new();
                for x in v.elements() {
                    out.push(self.derivative(x, &args[0])?);
                }
                return Ok(Value::from_elements(shape, out));
            }
            "noEvent" => {
                if args.len() != 1 {
                    return Err(arity(e, "noEvent", 1));
                }
                return self.value_any(&args[0], Context::Direct);
            }
            "transpose" => {
                if args.len() != 1 {
                    return Err(arity(e, "transpose", 1));
                }
                return match self.value_any(&args[0], ctx)? {
                    Value::Sized(a) if a.dims.len() == 2 => Ok(Value::Sized(a.transposed())),
                    Value::Array(shape, el) if shape.len() == 2 => {
                        let (m, n) = (shape[0], shape[1]);
                        let mut out = Vec::with_capacity(m * n);
                        for j in 0..n {
                            for i in 0..m {
                                out.push(el[i * n + j].clone());
                            }
                        }
                        Ok(Value::Array(vec![n, m], out))
                    }
                    _ => Err(shape_error(e, "transpose takes a matrix")),
                };
            }
            _ => {}
        }
        if let Some(v) = self.event_call(&fname, args, e) {
            return v;
        }
        if let Some(v) = self.clocked_call(&fname, args, e) {
            return v;
        }
        if let Some(v) = self.array_builtin(&fname, args, e, ctx) {
            return v;
        }
        let Some((f, n)) = Func::from_name(&fname) else {
            return Err(Diagnostic::error(
                "MC023",
                func_span,
                format!("unknown function `{fname}`"),
            )
            .with_label("not a built-in function")
            .with_help(format!(
                "use one of the built-in functions: {}",
                super::builtins::BUILTIN_NAMES
            )));
        };
        if args.len() != n {
            return Err(arity(e, &fname, n));
        }
        if n == 1 {
            // One-argument functions apply to each element.
            return Ok(self.value_any(&args[0], ctx)?.map(|x| Ex::Call(f, vec![x])));
        }
        let mut la = Vec::new();
        for a in args {
            la.push(self.lower(a, ctx)?);
        }
        Ok(Value::Scalar(Ex::Call(f, la)))
    }

    /// An array constructor `{a, b, c}` over elements of one shape.
    fn array_value(&mut self, items: &[Expr], e: &Expr, ctx: Context) -> Result<Value, Diagnostic> {
        let mut vals = Vec::new();
        for it in items {
            vals.push(self.value(it, ctx)?);
        }
        let inner = vals.first().map(|v| v.shape()).unwrap_or_default();
        if vals.iter().any(|v| v.shape() != inner) {
            return Err(shape_error(
                e,
                "the elements of this array have different sizes",
            ));
        }
        let mut shape = vec![vals.len()];
        shape.extend(inner);
        Ok(Value::Array(
            shape,
            vals.into_iter().flat_map(|v| v.elements()).collect(),
        ))
    }

    /// A matrix `[a, b; c, d]` of scalars, rows of one length.
    fn matrix_value(
        &mut self,
        rows: &[Vec<Expr>],
        e: &Expr,
        ctx: Context,
    ) -> Result<Value, Diagnostic> {
        let mut out = Vec::new();
        let cols = rows.first().map(|r| r.len()).unwrap_or(0);
        for row in rows {
            if row.len() != cols {
                return Err(shape_error(
                    e,
                    "the rows of this matrix have different lengths",
                ));
            }
            for x in row {
                out.push(self.lower(x, ctx)?);
            }
        }
        Ok(Value::Array(vec![rows.len(), cols], out))
    }

    fn scalar(&self, v: Value, e: &Expr) -> Result<Ex, Diagnostic> {
        match v {
            Value::Scalar(x) => Ok(x),
            Value::Array(..) | Value::Sized(_) => Err(shape_error(
                e,
                "an array is used where a scalar is expected",
            )),
        }
    }

    pub fn relation(&mut self, op: RelOp, a: Ex, b: Ex, ctx: Context) -> Ex {
        // A comparison of structural values (Integer, Boolean and
        // enumeration parameters, literals) never changes during a run:
        // it needs no event.
        let structural = !a.is_dynamic() && !b.is_dynamic();
        // So does one over discrete variables and parameters: it changes
        // only at the events that change them, and is re-evaluated there.
        let fixed_between_events = self.fixed_between_events(&a, &b);
        if ctx == Context::Direct || structural || fixed_between_events {
            return Ex::Rel(op, Box::new(a), Box::new(b), RelKind::Direct);
        }
        if self.loop_depth > 0 {
            return self.relation_in_loops(op, a, b);
        }
        let fixed = |e: &Ex, me: &Self| -> bool {
            let mut ok = true;
            e.visit(&mut |x| match x {
                Ex::Time | Ex::LoopVar(_) => ok = false,
                Ex::Var(s, _) if !me.is_parameter_slot(*s) && !me.event_fixed_slot(*s) => {
                    ok = false
                }
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

    /// A relation inside `for` loops. Between continuous values it is a
    /// state event per iteration: a group of relation slots and
    /// indicators as large as the loops' iteration count, which follows
    /// the Integer parameters that bound them, so the class code is the
    /// same for every size. `time` against a value fixed between events
    /// (parameters, discrete variables, the loop variables) is a time
    /// event per iteration; `time` against a continuous value is a state
    /// event per iteration, as it is outside loops.
    fn relation_in_loops(&mut self, op: RelOp, a: Ex, b: Ex) -> Ex {
        let (op, a, b) = if b == Ex::Time && a != Ex::Time {
            (flip(op), b, a)
        } else {
            (op, a, b)
        };
        let fixed = |e: &Ex, me: &Self| -> bool {
            let mut ok = true;
            e.visit(&mut |x| match x {
                Ex::Time => ok = false,
                Ex::LoopVar(d) if *d >= me.loop_depth => ok = false,
                Ex::Var(s, _) if !me.is_parameter_slot(*s) && !me.event_fixed_slot(*s) => {
                    ok = false
                }
                _ => {}
            });
            ok
        };
        let time_event = a == Ex::Time && fixed(&b, self);
        if self.loop_ranges.len() != self.loop_depth {
            return Ex::Rel(op, Box::new(a), Box::new(b), RelKind::Direct);
        }
        let int = |x: i64| Ex::Int(x);
        let bin = |o: Arith, x: Ex, y: Ex| Ex::Bin(o, Box::new(x), Box::new(y));
        let mut size = int(1);
        let mut index = int(0);
        for (d, (lo, hi)) in self.loop_ranges.iter().enumerate() {
            let trips = hi.add(lo, -1).add(&Affine::constant(1), 1);
            let trips = affine_to_ex(&trips);
            let at = bin(Arith::Sub, Ex::LoopVar(d), affine_to_ex(lo));
            // Row-major: the position so far times this loop's trip count,
            // plus this loop's 0-based iteration.
            index = if index == int(0) {
                at
            } else {
                bin(Arith::Add, bin(Arith::Mul, index, trips.clone()), at)
            };
            size = if size == int(1) {
                trips
            } else {
                bin(Arith::Mul, size, trips)
            };
        }
        let group = self.rel_groups.len() as u32;
        self.rel_groups.push(RelGroup {
            size,
            index,
            indicator: !time_event,
        });
        let kind = if time_event {
            RelKind::TimeIn { group }
        } else {
            RelKind::StateIn { group }
        };
        Ex::Rel(op, Box::new(a), Box::new(b), kind)
    }

    /// `der` of one lowered element.
    fn derivative(&mut self, base: Ex, arg: &Expr) -> Result<Ex, Diagnostic> {
        let Ex::Var(slot, index) = base else {
            if matches!(base, Ex::IntParam(_) | Ex::Int(_) | Ex::Real(_)) {
                return Ok(Ex::Real(0.0));
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
                if v.variability != ClassVariability::Continuous {
                    return Ok(Ex::Real(0.0));
                }
                if let Some(ty) = super::discrete::discrete_type(v) {
                    return Err(super::discrete::derivative_of_discrete(
                        &v.name, ty, arg.span,
                    ));
                }
                if v.special.state {
                    let d = self.der_slot(i).expect("every state has a derivative slot");
                    return Ok(Ex::Var(d, index));
                }
                if let Some(c) = self.carried_slot(i) {
                    return Ok(Ex::Var(c, index));
                }
                if self.slots[slot].known {
                    return Err(Diagnostic::error(
                        "MC038",
                        arg.span,
                        format!("the derivative of `{}` is not available: it is known here but nobody carries its derivative", v.name),
                    )
                    .with_label("derivative unknown")
                    .with_help("declare the variable as RealWithDerivative so that its derivative travels with it"));
                }
                // A variable this class determines: derived from its defining
                // equation by the causaliser.
                Ok(Ex::DerOf(slot, index))
            }
            SlotKind::Der(_) | SlotKind::Sub { .. } => Err(Diagnostic::error(
                "MC038",
                arg.span,
                "this derivative is not available here",
            )
            .with_label("derivative unknown")
            .with_help("compute the derivative inside the component that owns the variable")),
        }
    }

    /// The value of a reference at `span`: checked against what the
    /// variable is (Integer parameters only as scalars, Real arrays
    /// indexed as their shape allows).
    pub fn reference_value(&mut self, r: &Reference, span: Span) -> Result<Value, Diagnostic> {
        match &r.target {
            Referent::Time => return Ok(Value::Scalar(Ex::Time)),
            Referent::LoopVar(d) => return Ok(Value::Scalar(Ex::LoopVar(*d))),
            _ => {}
        }
        if let Some(at) = r.inner_subscript {
            return Err(Diagnostic::error(
                "MC036",
                at,
                "subscripts are only supported on the last part of a name",
            )
            .with_label("subscript on an inner part")
            .with_help("index the variable itself, e.g. `port.T[1]`"));
        }
        let subs = &r.subscripts;
        match &r.target {
            Referent::Var(vi) => self.own_value(*vi, span, subs),
            Referent::Member(m) => {
                let s = self.member_slot(m, span)?;
                let shape = self.sub_shapes.get(&s).cloned().unwrap_or_default();
                if shape.is_empty() {
                    return scalar_var(span, s, subs);
                }
                self.index_literal(span, s, &shape, subs)
            }
            Referent::Unknown(d) => Err(Diagnostic::clone(d)),
            Referent::Constant(c) => constant_value(c, span, subs),
            Referent::Time | Referent::LoopVar(_) => unreachable!("returned above"),
        }
    }

    /// The value of variable `vi` of the class itself.
    fn own_value(
        &mut self,
        vi: usize,
        span: Span,
        subs: &[Subscript],
    ) -> Result<Value, Diagnostic> {
        let v = &self.model.vars[vi];
        // A discrete variable has a slot like a Real one; a scalar one is
        // read as it is, an array of them like an array of Reals.
        if let Some(slot) = self
            .own_slot(vi)
            .filter(|_| v.ty != Builtin::Real && v.dims.is_empty())
        {
            return scalar_var(span, slot, subs);
        }
        if v.ty != Builtin::Real && self.own_slot(vi).is_none() {
            if !subs.is_empty() {
                return Err(
                    Diagnostic::error("MC036", span, "Integer arrays are not supported")
                        .with_label("Integer array")
                        .with_help("use scalar Integer parameters"),
                );
            }
            let Some(k) = self.int_params.iter().position(|p| *p == vi) else {
                return Err(Diagnostic::error(
                    "MC039",
                    span,
                    format!("`{}` is an enumeration variable; enumerations are supported as parameters, fixed at export", v.name),
                )
                .with_label("enumeration variable")
                .with_help("declare it as a parameter, or use an Integer variable for a value that changes at events"));
            };
            return Ok(Value::Scalar(Ex::IntParam(k)));
        }
        let slot = self.own_slot(vi).expect("every Real variable has a slot");
        if v.dims.is_empty() {
            return scalar_var(span, slot, subs);
        }
        match self.shapes[vi].clone() {
            Some(shape) => self.index_literal(span, slot, &shape, subs),
            None => self.index_sized(vi, slot, span, subs),
        }
    }

    /// Indexing of an array whose shape is literal: all elements, a slice
    /// by constant indices and `:`, or one element by any Integer indices.
    fn index_literal(
        &mut self,
        span: Span,
        slot: SlotId,
        shape: &[usize],
        subs: &[Subscript],
    ) -> Result<Value, Diagnostic> {
        if subs.len() > shape.len() {
            return Err(Diagnostic::error(
                "MC040",
                span,
                format!(
                    "`{}` has {} dimension(s) but {} indices",
                    self.slots[slot].name,
                    shape.len(),
                    subs.len()
                ),
            )
            .with_label("too many indices")
            .with_help("give at most one index per dimension"));
        }
        // One index expression (or all-colon) per dimension.
        let mut per_dim: Vec<Option<Ex>> = Vec::new();
        for k in 0..shape.len() {
            match subs.get(k) {
                None | Some(Subscript::Colon(_)) => per_dim.push(None),
                Some(Subscript::Expr(e)) => per_dim.push(Some(self.lower(e, Context::Direct)?)),
            }
        }
        let strides: Vec<usize> = (0..shape.len())
            .map(|k| shape[k + 1..].iter().product())
            .collect();
        if per_dim.iter().all(|d| d.is_some()) {
            // One element; the linear index may be symbolic.
            let mut idx = Ex::Int(1);
            for (k, d) in per_dim.into_iter().enumerate() {
                let d = d.expect("checked");
                if let Ex::Int(c) = d {
                    if c < 1 || c as usize > shape[k] {
                        return Err(Diagnostic::error(
                            "MC064",
                            span,
                            format!(
                                "index {c} is out of range 1..{} of `{}`",
                                shape[k], self.slots[slot].name
                            ),
                        )
                        .with_label("index out of range")
                        .with_help(format!("use an index between 1 and {}", shape[k])));
                    }
                }
                let term = solve::mul(solve::sub(d, Ex::Int(1)), Ex::Int(strides[k] as i64));
                idx = fold_int(solve::add(idx, term));
            }
            return Ok(Value::Scalar(Ex::Var(slot, Some(Box::new(idx)))));
        }
        // A slice: constant indices only.
        let mut ranges: Vec<Vec<usize>> = Vec::new();
        let mut out_shape = Vec::new();
        for (k, d) in per_dim.iter().enumerate() {
            match d {
                None => {
                    ranges.push((1..=shape[k]).collect());
                    out_shape.push(shape[k]);
                }
                Some(Ex::Int(c)) if *c >= 1 && (*c as usize) <= shape[k] => {
                    ranges.push(vec![*c as usize])
                }
                Some(_) => {
                    return Err(Diagnostic::error(
                        "MC036",
                        span,
                        "a slice of an array needs constant indices",
                    )
                    .with_label("non-constant slice")
                    .with_help("index single elements, or use constant indices with `:`"))
                }
            }
        }
        let mut elems = Vec::new();
        let mut idx = vec![0usize; ranges.len()];
        loop {
            let linear: usize = idx
                .iter()
                .enumerate()
                .map(|(k, i)| (ranges[k][*i] - 1) * strides[k])
                .sum::<usize>()
                + 1;
            elems.push(Ex::Var(slot, Some(Box::new(Ex::Int(linear as i64)))));
            let mut k = ranges.len();
            loop {
                if k == 0 {
                    return Ok(Value::from_elements(out_shape, elems));
                }
                k -= 1;
                idx[k] += 1;
                if idx[k] < ranges[k].len() {
                    break;
                }
                idx[k] = 0;
            }
        }
    }
}

/// The value of a package constant, indexed by literal subscripts.
fn constant_value(
    c: &crate::resolve::expr::Constant,
    span: Span,
    subs: &[Subscript],
) -> Result<Value, Diagnostic> {
    let element = |x: f64| match c.ty {
        Builtin::Integer => Ex::Int(x as i64),
        Builtin::Boolean => Ex::Bool(x != 0.0),
        _ => Ex::Real(x),
    };
    let mut offset = 0usize;
    let mut stride: usize = c.shape.iter().product();
    if subs.len() > c.shape.len() {
        return Err(Diagnostic::error(
            "MC036",
            span,
            format!(
                "constant `{}` has {} dimension(s)",
                c.qualified,
                c.shape.len()
            ),
        )
        .with_label("too many subscripts")
        .with_help("index the constant with one subscript per dimension"));
    }
    for (k, s) in subs.iter().enumerate() {
        let n = c.shape[k];
        let i = match s {
            Subscript::Expr(e) => e.integer(),
            Subscript::Colon(_) => None,
        };
        let Some(i) = i.filter(|i| *i >= 1 && *i as usize <= n) else {
            return Err(Diagnostic::error(
                "MC036",
                span,
                format!(
                    "a package constant array is indexed by Integer literals within its size ({n})"
                ),
            )
            .with_label("subscript not a literal in range")
            .with_help(
                "write the index as a literal, or copy the constant into a parameter array",
            ));
        };
        stride /= n;
        offset += (i as usize - 1) * stride;
    }
    let elements = c.elements[offset..offset + stride]
        .iter()
        .map(|x| element(*x))
        .collect();
    Ok(Value::from_elements(
        c.shape[subs.len()..].to_vec(),
        elements,
    ))
}

/// MC150: a relation with an array operand (`open = x > h;`). Modelica
/// defines relations on scalars only (MLS §3.5), so another tool would
/// refuse it too; the `for` loop is the Modelica form, and it gives each
/// element its own event.
fn array_relation(e: &Expr) -> Diagnostic {
    Diagnostic::error(
        "MC150",
        e.span,
        "a relation of arrays: Modelica defines `< <= > >= == <>` on scalars only",
    )
    .with_label("array operand of a relation")
    .with_help("compare element by element in a `for` loop: `for i in 1:n loop open[i] = x[i] > h; end for;` (each element is its own event)")
}

fn shape_error(e: &Expr, what: &str) -> Diagnostic {
    Diagnostic::error("MC063", e.span, what.to_string())
        .with_label("array sizes do not fit")
        .with_help("use arrays of matching sizes (vectors of the same length, matrix columns = vector length)")
}

fn fold_int(e: Ex) -> Ex {
    match e.fold(&[]) {
        Some(v) if !e.is_dynamic() && !has_symbols(&e) => Ex::Int(v as i64),
        _ => e,
    }
}

fn has_symbols(e: &Ex) -> bool {
    let mut s = false;
    e.visit(&mut |x| {
        if matches!(x, Ex::IntParam(_) | Ex::LoopVar(_)) {
            s = true
        }
    });
    s
}

fn bin(op: Arith, a: Ex, b: Ex) -> Ex {
    Ex::Bin(op, Box::new(a), Box::new(b))
}

/// `+ -` (arrays of equal shape) and the element-wise operators (which also
/// combine a scalar with an array).
fn elementwise(
    op: Arith,
    a: Value,
    b: Value,
    e: &Expr,
    scalar_ok: bool,
) -> Result<Value, Diagnostic> {
    match (a, b) {
        (Value::Scalar(x), Value::Scalar(y)) => Ok(Value::Scalar(bin(op, x, y))),
        (Value::Array(sa, ea), Value::Array(sb, eb)) => {
            if sa != sb {
                return Err(shape_error(
                    e,
                    &format!(
                        "arrays of sizes {} and {} cannot be combined",
                        shape_text(&sa),
                        shape_text(&sb)
                    ),
                ));
            }
            Ok(Value::Array(
                sa,
                ea.into_iter().zip(eb).map(|(x, y)| bin(op, x, y)).collect(),
            ))
        }
        (Value::Scalar(x), Value::Array(s, el)) if scalar_ok => Ok(Value::Array(
            s,
            el.into_iter().map(|y| bin(op, x.clone(), y)).collect(),
        )),
        (Value::Array(s, el), Value::Scalar(y)) if scalar_ok => Ok(Value::Array(
            s,
            el.into_iter().map(|x| bin(op, x, y.clone())).collect(),
        )),
        _ => Err(shape_error(
            e,
            "a scalar and an array cannot be added or subtracted",
        )),
    }
}

/// `*`: scalar times array, dot product, matrix-vector and matrix-matrix.
fn product(a: Value, b: Value, e: &Expr) -> Result<Value, Diagnostic> {
    let sum = |terms: Vec<Ex>| -> Ex {
        let mut it = terms.into_iter();
        let first = it.next().unwrap_or(Ex::Real(0.0));
        it.fold(first, |acc, t| bin(Arith::Add, acc, t))
    };
    match (a, b) {
        (Value::Sized(_), _) | (_, Value::Sized(_)) => unreachable!("{SIZED_ONLY}"),
        (Value::Scalar(x), Value::Scalar(y)) => Ok(Value::Scalar(bin(Arith::Mul, x, y))),
        (Value::Scalar(x), Value::Array(s, el)) => Ok(Value::Array(
            s,
            el.into_iter()
                .map(|y| bin(Arith::Mul, x.clone(), y))
                .collect(),
        )),
        (Value::Array(s, el), Value::Scalar(y)) => Ok(Value::Array(
            s,
            el.into_iter()
                .map(|x| bin(Arith::Mul, x, y.clone()))
                .collect(),
        )),
        (Value::Array(sa, ea), Value::Array(sb, eb)) => match (sa.as_slice(), sb.as_slice()) {
            ([n], [m]) if n == m => Ok(Value::Scalar(sum(ea
                .into_iter()
                .zip(eb)
                .map(|(x, y)| bin(Arith::Mul, x, y))
                .collect()))),
            ([m, n], [k]) if n == k => {
                let mut out = Vec::new();
                for i in 0..*m {
                    out.push(sum((0..*n)
                        .map(|j| bin(Arith::Mul, ea[i * n + j].clone(), eb[j].clone()))
                        .collect()));
                }
                Ok(Value::Array(vec![*m], out))
            }
            ([k], [n, p]) if k == n => {
                let mut out = Vec::new();
                for j in 0..*p {
                    out.push(sum((0..*n)
                        .map(|i| bin(Arith::Mul, ea[i].clone(), eb[i * p + j].clone()))
                        .collect()));
                }
                Ok(Value::Array(vec![*p], out))
            }
            ([m, n], [k, p]) if n == k => {
                let mut out = Vec::new();
                for i in 0..*m {
                    for j in 0..*p {
                        out.push(sum((0..*n)
                            .map(|l| bin(Arith::Mul, ea[i * n + l].clone(), eb[l * p + j].clone()))
                            .collect()));
                    }
                }
                Ok(Value::Array(vec![*m, *p], out))
            }
            _ => Err(shape_error(
                e,
                &format!(
                    "arrays of sizes {} and {} cannot be multiplied",
                    shape_text(&sa),
                    shape_text(&sb)
                ),
            )),
        },
    }
}

/// A reference to a scalar variable, which takes no subscript.
fn scalar_var(span: Span, slot: SlotId, subs: &[Subscript]) -> Result<Value, Diagnostic> {
    if !subs.is_empty() {
        return Err(
            Diagnostic::error("MC040", span, "a scalar variable cannot be indexed")
                .with_label("scalar variable")
                .with_help("remove the subscript"),
        );
    }
    Ok(Value::Scalar(Ex::Var(slot, None)))
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
