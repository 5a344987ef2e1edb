//! Resolution of what a class writes, once every element of the class is
//! known: expressions (bindings, attributes, sizes, equations) become
//! [`expr`](super::expr) expressions, modifiers of components resolve
//! against the components' classes, and connects to ports.

use std::sync::Arc;

use super::conditional;
use super::connect::{self, Connect};
use super::constants::{self, Constant};
use super::elaborator::Elaborator;
use super::expr::{Equation, Expr, ExprKind, Reference, Referent, Subscript};
use super::initial;
use super::model::{ClassModel, MemberError, MemberRef};
use super::modifier::{self, Modifier};
use super::package_constants::Found;
use super::pending::{Pending, Value};
use super::scope::Scope;
use crate::diagnostic::Diagnostic;
use crate::syntax::ast;

impl Elaborator<'_> {
    /// The model of the class of sub-component `k` of `model`; a class
    /// that cannot be elaborated gives its first diagnostic (its own check
    /// reports them all).
    pub(crate) fn sub_model(
        &mut self,
        model: &ClassModel,
        k: usize,
    ) -> Result<Arc<ClassModel>, Diagnostic> {
        self.class(model.subs[k].class)
            .map_err(|mut ds| ds.remove(0))
    }

    /// Resolves a variable of component `sub` of `model`, or of one of the
    /// components nested in it: `parts` is the path below `sub`
    /// (`["port", "T"]`, `["integrator", "x"]`). At each level a variable
    /// of the whole remaining path comes before a component of its first
    /// name (a connector member's name has a dot in it).
    pub fn member(
        &mut self,
        model: &ClassModel,
        sub: usize,
        parts: &[String],
    ) -> Result<MemberRef, MemberError> {
        let mut path = vec![sub];
        let mut names = vec![model.subs[sub].name.as_str()];
        let mut class = self.sub_model(model, sub).map_err(MemberError::Class)?;
        let mut rest = parts;
        loop {
            if rest.is_empty() {
                return Err(MemberError::Component {
                    component: names.join("."),
                });
            }
            let joined = rest.join(".");
            if let Some(v) = class.var_or_connector_array_member(&joined) {
                let var = &class.vars[v];
                return Ok(MemberRef {
                    path,
                    var: v,
                    component: names.join("."),
                    name: var.name.clone(),
                    ty: var.ty,
                    variability: var.variability,
                    causality: var.causality,
                    literal_dims: var.dims.iter().map(|d| d.integer()).collect(),
                });
            }
            let Some(k) = class.subs.iter().position(|s| s.name == rest[0]) else {
                return Err(MemberError::NoElement {
                    class: class.qualified.clone(),
                    component: names.join("."),
                    rest: joined,
                });
            };
            path.push(k);
            names.push(&rest[0]);
            let next = self.sub_model(&class, k).map_err(MemberError::Class)?;
            class = next;
            rest = &rest[1..];
        }
    }

    /// Resolves what the class wrote into `model`, whose elements are all
    /// known.
    pub(crate) fn resolve(&mut self, model: &mut ClassModel, pending: Pending) {
        // Conditions of conditional connectors first: connect sides and the
        // guard of their members' names read them.
        let connector_conditions: Vec<(usize, Expr)> = {
            let mut scope = Scope::of(model);
            pending
                .connector_conditions
                .iter()
                .map(|(k, c)| (*k, self.resolve_expr(&mut scope, c)))
                .collect()
        };
        for (k, c) in connector_conditions {
            model.connectors[k].condition = Some(c);
        }
        let body = self.resolve_body(model, &pending);
        write_body(model, body);
    }

    /// Everything `pending` holds resolved against `model`, in the order
    /// written: sizes and conditions of components, sizes and values of
    /// variables, modifiers of components, equations, initial equations and
    /// connects.
    fn resolve_body(&mut self, model: &ClassModel, pending: &Pending) -> ResolvedBody {
        let mut scope = Scope::of(model);
        scope.clocks = pending
            .clocks
            .iter()
            .map(|(name, e)| (name.to_string(), (*e).clone()))
            .collect();
        scope
            .structural
            .extend(pending.sub_dims.iter().map(|(k, _)| *k));
        scope
            .structural
            .extend(pending.sub_conditions.iter().map(|(k, _)| *k));
        let sub_dims = self.resolve_sizes(&mut scope, &pending.sub_dims);
        let sub_conditions: Vec<(usize, Expr)> = pending
            .sub_conditions
            .iter()
            .map(|(k, c)| (*k, self.resolve_expr(&mut scope, c)))
            .collect();
        let dims = self.resolve_sizes(&mut scope, &pending.dims);
        scope.dims = dims.iter().cloned().collect();
        let mut values: Vec<(usize, Value, Expr)> = pending
            .values
            .iter()
            .map(|(v, which, e)| (*v, *which, self.resolve_expr(&mut scope, e)))
            .collect();
        let mut faults = Vec::new();
        self.resolve_record_bindings(&mut scope, pending, &mut values, &mut faults);
        let modifiers = self.resolve_sub_modifiers(&mut scope, pending, &mut faults);
        let mut equations = self.resolve_equations(&mut scope, pending.equations.iter().copied());
        conditional::guard_members(scope.model, &mut equations);
        for (v, _, e) in &mut values {
            if scope.model.vars[*v].connector.is_none() {
                conditional::guard_expr(scope.model, e, &[]);
            } else if let Some(d) = conditional::dynamic_modifier(scope.model, *v, e) {
                faults.push(d);
            }
        }
        let initial_equations =
            self.resolve_equations(&mut scope, pending.initial_equations.iter().copied());
        let connects = self.resolve_connects(&mut scope, pending, &sub_dims, &mut faults);
        ResolvedBody {
            sub_dims,
            sub_conditions,
            dims,
            values,
            modifiers,
            equations,
            initial_equations,
            connects,
            faults,
        }
    }

    /// Array sizes as written, by the index of the variable or component
    /// they size, resolved in the order written.
    fn resolve_sizes(
        &mut self,
        scope: &mut Scope,
        sizes: &[(usize, Vec<&ast::Expr>)],
    ) -> Vec<(usize, Vec<Expr>)> {
        sizes
            .iter()
            .map(|(k, ds)| (*k, ds.iter().map(|d| self.resolve_expr(scope, d)).collect()))
            .collect()
    }

    /// The bindings of record components (`State s = f(p, T);`), each field
    /// variable's value added to `values`.
    fn resolve_record_bindings(
        &mut self,
        scope: &mut Scope,
        pending: &Pending,
        values: &mut Vec<(usize, Value, Expr)>,
        faults: &mut Vec<Diagnostic>,
    ) {
        for b in &pending.record_bindings {
            match self.record_value(scope, &b.fields, b.value) {
                Ok(parts) => values.extend(
                    b.vars
                        .iter()
                        .zip(parts)
                        .map(|(v, e)| (*v, Value::Binding, e)),
                ),
                Err(d) => faults.push(d),
            }
        }
    }

    /// The modifiers of components, flattened to one value per variable
    /// and attribute and resolved against the components' classes.
    fn resolve_sub_modifiers(
        &mut self,
        scope: &mut Scope,
        pending: &Pending,
        faults: &mut Vec<Diagnostic>,
    ) -> Vec<(usize, Modifier)> {
        let mut modifiers: Vec<(usize, Modifier)> = Vec::new();
        for (k, args) in &pending.sub_modifiers {
            let mut flat = Vec::new();
            modifier::flatten(args, &[], &mut flat);
            for w in flat {
                match self.member(scope.model, *k, &w.target) {
                    Ok(target) => {
                        if let Some(attribute) = w.attribute {
                            let value = self.resolve_expr(scope, w.value);
                            modifiers.push((
                                *k,
                                Modifier {
                                    target,
                                    attribute,
                                    value,
                                    span: w.span,
                                },
                            ));
                        }
                    }
                    Err(e) => faults.push(e.not_modifiable(w.span)),
                }
            }
        }
        modifiers
    }

    /// The connects, plain ones first, then those inside `for` loops.
    fn resolve_connects(
        &mut self,
        scope: &mut Scope,
        pending: &Pending,
        sub_dims: &[(usize, Vec<Expr>)],
        faults: &mut Vec<Diagnostic>,
    ) -> Vec<Connect> {
        let mut connects = Vec::new();
        let plain = pending
            .connects
            .iter()
            .map(|(a, b, span)| (&[][..], *a, *b, *span));
        let looped = pending
            .looped_connects
            .iter()
            .map(|c| (c.loops.as_slice(), c.a, c.b, c.span));
        for (loops, a, b, span) in plain.chain(looped) {
            let ranges: Vec<Expr> = loops
                .iter()
                .map(|(index, range)| {
                    let r = self.resolve_expr(scope, range);
                    scope.loops.push(index.to_string());
                    r
                })
                .collect();
            let a = self.connect_side(scope, sub_dims, a);
            let b = self.connect_side(scope, sub_dims, b);
            scope.loops.truncate(scope.loops.len() - loops.len());
            match (a, b) {
                (Ok(a), Ok(b)) => {
                    let c = Connect {
                        a,
                        b,
                        span,
                        loops: ranges,
                    };
                    connects.push(c)
                }
                (a, b) => {
                    faults.extend(a.err());
                    faults.extend(b.err());
                }
            }
        }
        connects
    }

    /// One side of a connect, with the index of the component array
    /// element it names (MC120 when the index is missing, or given to a
    /// component that is not an array).
    fn connect_side(
        &mut self,
        scope: &mut Scope,
        sub_dims: &[(usize, Vec<Expr>)],
        r: &ast::ComponentRef,
    ) -> Result<connect::Side, Diagnostic> {
        let mut sub_model = |k: usize| self.sub_model(scope.model, k);
        let mut side = connect::side(scope.model, r, &mut sub_model)?;
        self.connector_element(scope, r, &mut side)?;
        let Some(k) = side.sub else {
            return Ok(side);
        };
        let written = &r.parts[0].subscripts;
        let dims = sub_dims
            .iter()
            .find(|(j, _)| *j == k)
            .map_or(0, |(_, d)| d.len());
        let name = &scope.model.subs[k].name;
        if written.len() != dims {
            let (msg, help) = if dims == 0 {
                (
                    format!("`{name}` is one component, not an array"),
                    format!("write `{name}.{}`", side.name),
                )
            } else if dims > 1 {
                let indices: Vec<&str> = ["i", "j", "k", "l"]
                    .into_iter()
                    .cycle()
                    .take(dims)
                    .collect();
                (
                    format!(
                        "`{name}` is an array of components of {dims} dimensions: connect one element of it, with {dims} indices"
                    ),
                    format!(
                        "write `{name}[{}].{}`, e.g. in nested `for` loops",
                        indices.join(", "),
                        side.name
                    ),
                )
            } else {
                (
                    format!("`{name}` is an array of components: connect one element of it"),
                    format!(
                        "write `{name}[i].{}`, e.g. in `for i in 1:n loop`",
                        side.name
                    ),
                )
            };
            return Err(Diagnostic::error("MC120", r.span, msg)
                .with_label("index does not match the component")
                .with_help(help));
        }
        let sizes = sub_dims
            .iter()
            .find(|(j, _)| *j == k)
            .map(|(_, d)| d.clone())
            .unwrap_or_default();
        for (sub, size) in written.iter().zip(&sizes) {
            match sub {
                ast::Subscript::Expr(e) => {
                    let mut e = self.resolve_expr(scope, e);
                    replace_end(&mut e, size);
                    side.index.push(e);
                }
                ast::Subscript::Colon(span) => {
                    return Err(Diagnostic::error(
                        "MC120",
                        *span,
                        format!("`{name}[:]` names every element: connect one element at a time"),
                    )
                    .with_label("whole array")
                    .with_help(format!("connect `{name}[i]` in a `for` loop")))
                }
            }
        }
        Ok(side)
    }

    /// The element of an array of connectors a connect side names
    /// (`ports[i]`, `mixer.inlets[2]`): exactly one index, on an array of
    /// connectors only (MC127 otherwise).
    fn connector_element(
        &mut self,
        scope: &mut Scope,
        r: &ast::ComponentRef,
        side: &mut connect::Side,
    ) -> Result<(), Diagnostic> {
        let connect::Port::Connector(c) = side.port else {
            return Ok(());
        };
        // Whether the port is an array of connectors, and its size as
        // `end` in the index means it: the declared size for the class's
        // own array, a literal one for a component's (a parameter size is
        // the component's, which this class cannot name).
        let (array, size) = match side.sub {
            None => {
                let conn = &scope.model.connectors[c];
                let size = conn
                    .members
                    .first()
                    .and_then(|m| scope.dims_of(m.var).first().cloned());
                (conn.array, size)
            }
            Some(k) => {
                let model = self.sub_model(scope.model, k)?;
                let conn = &model.connectors[c];
                let size = conn
                    .members
                    .first()
                    .and_then(|m| model.vars[m.var].dims.first())
                    .filter(|d| matches!(d.kind, ExprKind::Integer(_)))
                    .cloned();
                (conn.array, size)
            }
        };
        let last = r.parts.last().expect("a connect side has parts");
        let written = &last.subscripts;
        let name = &last.name.name;
        if !array {
            // An index on a single connector (MC057) was refused before.
            return Ok(());
        }
        let fault = |span, msg: String, label: &str| {
            Err(Diagnostic::error("MC127", span, msg)
                .with_label(label.to_string())
                .with_help(format!(
                    "connect one element at a time: `{name}[i]`, e.g. in `for i in 1:n loop`"
                )))
        };
        match written.as_slice() {
            [] => fault(
                r.span,
                format!("`{name}` is an array of connectors: connect one element of it"),
                "whole array of connectors",
            ),
            [ast::Subscript::Expr(e)] => {
                let mut e = self.resolve_expr(scope, e);
                if let Some(size) = &size {
                    replace_end(&mut e, size);
                }
                side.element = Some(e);
                Ok(())
            }
            [ast::Subscript::Colon(span)] => fault(
                *span,
                format!("`{name}[:]` names every element of an array of connectors"),
                "whole array of connectors",
            ),
            _ => fault(
                r.span,
                format!("`{name}` has one dimension: give one index"),
                "more than one index",
            ),
        }
    }

    pub(crate) fn resolve_equation(&mut self, scope: &mut Scope, eq: &ast::Equation) -> Equation {
        match eq {
            ast::Equation::Simple { lhs, rhs, span } => Equation::Simple {
                lhs: self.resolve_expr(scope, lhs),
                rhs: self.resolve_expr(scope, rhs),
                span: *span,
            },
            ast::Equation::For {
                index,
                range,
                body,
                span,
            } => {
                let range = self.resolve_expr(scope, range);
                scope.loops.push(index.name.clone());
                let body = self.resolve_equations(scope, body);
                scope.loops.pop();
                Equation::For {
                    range,
                    body,
                    span: *span,
                }
            }
            ast::Equation::Connect { span, .. } => Equation::ConnectInLoop { span: *span },
            ast::Equation::Call { name, span, .. } if name.dotted() == "assert" => {
                Equation::Assert { span: *span }
            }
            ast::Equation::If {
                branches,
                else_,
                span,
            } => Equation::If {
                branches: branches
                    .iter()
                    .map(|(c, body)| {
                        let c = self.resolve_expr(scope, c);
                        let body = self.resolve_equations(scope, body);
                        (c, body)
                    })
                    .collect(),
                else_: self.resolve_equations(scope, else_),
                span: *span,
            },
            ast::Equation::When { branches, span } => Equation::When {
                branches: branches
                    .iter()
                    .map(|(c, body)| {
                        let c = self.resolve_expr(scope, c);
                        let body = body
                            .iter()
                            .map(|eq| self.resolve_when_equation(scope, eq))
                            .collect();
                        (c, body)
                    })
                    .collect(),
                span: *span,
            },
            ast::Equation::Call { span, .. } => Equation::Rejected { span: *span },
            ast::Equation::Outputs { span, .. } => {
                unreachable!("output lists are expanded by resolve_equations ({span:?})")
            }
        }
    }

    /// An equation inside a `when`: `reinit` and `terminate` as well as
    /// what may stand anywhere (the check phase refused the rest, MC161).
    fn resolve_when_equation(&mut self, scope: &mut Scope, eq: &ast::Equation) -> Equation {
        match eq {
            ast::Equation::Call { name, args, span } if name.dotted() == "reinit" => {
                match args.as_slice() {
                    [state, value] => Equation::Reinit {
                        state: self.resolve_expr(scope, state),
                        value: self.resolve_expr(scope, value),
                        span: *span,
                    },
                    // The check phase refused it (MC161).
                    _ => Equation::Rejected { span: *span },
                }
            }
            ast::Equation::Call { name, args, span } if name.dotted() == "terminate" => {
                match args.as_slice() {
                    [ast::Expr {
                        kind: ast::ExprKind::String(message),
                        ..
                    }] => Equation::Terminate {
                        message: message.clone(),
                        span: *span,
                    },
                    // The check phase refused it (MC161).
                    _ => Equation::Rejected { span: *span },
                }
            }
            _ => self.resolve_equation(scope, eq),
        }
    }

    /// Equations in order; an output list `(a, , b) = f(x)` is one
    /// equation per written place, `a = f(x)` reading its output.
    pub(crate) fn resolve_equations<'e>(
        &mut self,
        scope: &mut Scope,
        eqs: impl IntoIterator<Item = &'e ast::Equation>,
    ) -> Vec<Equation> {
        let mut out = Vec::new();
        for eq in eqs {
            let ast::Equation::Outputs {
                targets,
                value,
                span,
            } = eq
            else {
                out.push(self.resolve_equation(scope, eq));
                continue;
            };
            match self.output_list_call(scope, targets, value) {
                Ok((func, args, places)) => {
                    for (target, output) in places {
                        out.push(Equation::Simple {
                            lhs: self.resolve_expr(scope, target),
                            rhs: Expr {
                                kind: ExprKind::FunctionCall {
                                    func: func.clone(),
                                    args: args.clone(),
                                    output,
                                },
                                span: value.span,
                            },
                            span: *span,
                        });
                    }
                }
                Err(d) => out.push(Equation::Simple {
                    lhs: super::function::faulty(d, value.span),
                    rhs: Expr {
                        kind: ExprKind::Integer(0),
                        span: value.span,
                    },
                    span: *span,
                }),
            }
        }
        out
    }

    pub(crate) fn resolve_expr(&mut self, scope: &mut Scope, e: &ast::Expr) -> Expr {
        let kind = match &e.kind {
            ast::ExprKind::Integer(i) => ExprKind::Integer(*i),
            ast::ExprKind::Real(r) => ExprKind::Real(*r),
            ast::ExprKind::Bool(b) => ExprKind::Bool(*b),
            ast::ExprKind::String(s) => ExprKind::String(s.clone()),
            ast::ExprKind::Ref(r) => {
                // A declared clock's name is its clock expression.
                if let ([part], false) = (r.parts.as_slice(), r.global) {
                    if let Some(clock) = part
                        .subscripts
                        .is_empty()
                        .then(|| scope.clocks.remove(&part.name.name))
                        .flatten()
                    {
                        let resolved = self.resolve_expr(scope, &clock);
                        scope.clocks.insert(part.name.name.clone(), clock);
                        return resolved;
                    }
                }
                if let Some(kind) = self.named_constant(scope, r) {
                    return Expr { kind, span: e.span };
                }
                let reference = self.reference(scope, r);
                if !matches!(reference.target, Referent::Unknown(_)) {
                    ExprKind::Ref(reference)
                } else {
                    // Not a variable of the class: a constant of a package
                    // or an enclosing class, by the one lookup of
                    // `package_constants.rs`.
                    match self.constant(scope.class_id(), r) {
                        Some(Ok(Found::Value(c))) => {
                            let mut reference = Reference {
                                target: Referent::Constant(c.clone()),
                                ..reference
                            };
                            for (s, n) in reference.subscripts.iter_mut().zip(&c.shape) {
                                if let Subscript::Expr(x) = s {
                                    let size = Expr {
                                        kind: ExprKind::Integer(*n as i64),
                                        span: x.span,
                                    };
                                    replace_end(x, &size);
                                }
                            }
                            ExprKind::Ref(reference)
                        }
                        Some(Ok(Found::Record(super::constant::ConstValue::Number(x)))) => {
                            ExprKind::Real(x)
                        }
                        Some(Ok(Found::Record(super::constant::ConstValue::Record {
                            class,
                            ..
                        }))) => {
                            return super::function::faulty(
                                Diagnostic::error(
                                    "MC079",
                                    e.span,
                                    format!("a record `{class}` is not a number"),
                                )
                                .with_label("record where a number is expected")
                                .with_help("pass the record to a function input of its type, or use one of its fields"),
                                e.span,
                            )
                        }
                        Some(Err(d)) => ExprKind::Ref(Reference {
                            target: Referent::Unknown(Box::new(d)),
                            ..reference
                        }),
                        None => ExprKind::Ref(reference),
                    }
                }
            }
            ast::ExprKind::Binary(op, a, b) => ExprKind::Binary(
                *op,
                Box::new(self.resolve_expr(scope, a)),
                Box::new(self.resolve_expr(scope, b)),
            ),
            ast::ExprKind::Unary(op, a) => {
                ExprKind::Unary(*op, Box::new(self.resolve_expr(scope, a)))
            }
            ast::ExprKind::Call { func, args, named } => {
                if let Some(call) = self.user_call(scope, func, args, named, e.span) {
                    return call;
                }
                ExprKind::Call {
                    func: constants::builtin_function(self.tree, scope.model.id, func)
                        .unwrap_or_else(|| func.dotted()),
                    func_span: func.span,
                    args: args.iter().map(|a| self.resolve_expr(scope, a)).collect(),
                    named: !named.is_empty(),
                }
            }
            ast::ExprKind::If { branches, else_ } => ExprKind::If {
                branches: branches
                    .iter()
                    .map(|(c, v)| (self.resolve_expr(scope, c), self.resolve_expr(scope, v)))
                    .collect(),
                else_: Box::new(self.resolve_expr(scope, else_)),
            },
            ast::ExprKind::Array(items) => {
                ExprKind::Array(items.iter().map(|a| self.resolve_expr(scope, a)).collect())
            }
            ast::ExprKind::Matrix(rows) => ExprKind::Matrix(
                rows.iter()
                    .map(|row| row.iter().map(|a| self.resolve_expr(scope, a)).collect())
                    .collect(),
            ),
            ast::ExprKind::Range { start, step, stop } => ExprKind::Range {
                start: Box::new(self.resolve_expr(scope, start)),
                step: step.as_ref().map(|s| Box::new(self.resolve_expr(scope, s))),
                stop: Box::new(self.resolve_expr(scope, stop)),
            },
            ast::ExprKind::End => ExprKind::End,
        };
        Expr { kind, span: e.span }
    }

    /// An enumeration literal or a `Modelica.Constants` name, unless the
    /// name's first part is a variable or component of the class; a
    /// literal the type does not have is an unknown reference (reported
    /// where the expression is read).
    fn named_constant(&mut self, scope: &Scope, r: &ast::ComponentRef) -> Option<ExprKind> {
        let first = r.parts[0].name.name.as_str();
        if r.parts.len() < 2 || scope.vars.contains_key(first) || scope.subs.contains_key(first) {
            return None;
        }
        Some(match constants::constant(self.tree, scope.model.id, r)? {
            Ok(Constant::Literal(k)) => ExprKind::Integer(k),
            Ok(Constant::Real(v)) => ExprKind::Real(v),
            Err(d) => ExprKind::Ref(Reference {
                target: Referent::Unknown(Box::new(d)),
                subscripts: Vec::new(),
                inner_subscript: None,
            }),
        })
    }

    /// `time`, a loop index, a variable of the class, or else a variable of
    /// one of its components; the class's own names come first. `end` in
    /// the k-th subscript is the size of the target's k-th dimension, as
    /// written in its declaration (`T[end]` of `Real T[n]` is `T[n]`); an
    /// `end` whose size is not known stays, and lowering refuses it.
    fn reference(&mut self, scope: &mut Scope, r: &ast::ComponentRef) -> Reference {
        let mut reference = self.reference_as_written(scope, r);
        let dims: Vec<Expr> = match &reference.target {
            Referent::Var(v) => scope.dims_of(*v),
            Referent::Member(m) => m
                .literal_dims
                .iter()
                .map(|d| match d {
                    Some(n) => Expr {
                        kind: ExprKind::Integer(*n),
                        span: r.span,
                    },
                    None => Expr {
                        kind: ExprKind::End,
                        span: r.span,
                    },
                })
                .collect(),
            _ => Vec::new(),
        };
        for (s, size) in reference.subscripts.iter_mut().zip(&dims) {
            if let Subscript::Expr(e) = s {
                replace_end(e, size);
            }
        }
        reference
    }

    fn reference_as_written(&mut self, scope: &mut Scope, r: &ast::ComponentRef) -> Reference {
        let last = r.parts.last().expect("a reference has parts");
        let subscripts: Vec<Subscript> = last
            .subscripts
            .iter()
            .map(|s| match s {
                ast::Subscript::Colon(span) => Subscript::Colon(*span),
                ast::Subscript::Expr(e) => Subscript::Expr(self.resolve_expr(scope, e)),
            })
            .collect();
        let inner_subscript = r.parts[..r.parts.len() - 1]
            .iter()
            .find(|p| !p.subscripts.is_empty())
            .map(|p| p.name.span);
        if let Some(element) = self.connector_array_element(scope, r, &subscripts) {
            return element;
        }
        let reference = |target| Reference {
            target,
            subscripts,
            inner_subscript,
        };
        if r.parts.len() == 1 && last.subscripts.is_empty() {
            let n = &last.name.name;
            if n == "time" {
                return reference(Referent::Time);
            }
            if let Some(d) = scope.loops.iter().rposition(|v| v == n) {
                return reference(Referent::LoopVar(d));
            }
        }
        let names: Vec<String> = r.parts.iter().map(|p| p.name.name.clone()).collect();
        let joined = names.join(".");
        if let Some(&v) = scope.vars.get(joined.as_str()) {
            return reference(Referent::Var(v));
        }
        let Some(&sub) = scope.subs.get(names[0].as_str()) else {
            if names.len() > 1 && scope.is_record(&names[0]) {
                let field = r.parts[1..]
                    .iter()
                    .map(|p| p.name.name.as_str())
                    .collect::<Vec<_>>()
                    .join(".");
                return reference(Referent::Unknown(Box::new(super::constant::no_field(
                    &names[0],
                    &field,
                    r.parts[1].name.span,
                ))));
            }
            return reference(Referent::Unknown(Box::new(
                Diagnostic::error("MC022", r.span, format!("unknown variable `{joined}`"))
                    .with_label("not declared in this class")
                    .with_help("declare the variable in this class before the equation section"),
            )));
        };
        if scope.structural.contains(&sub) {
            return reference(Referent::Unknown(Box::new(
                Diagnostic::error(
                    "MC121",
                    r.span,
                    format!(
                        "`{}` is an array of components or a conditional component: equations cannot name its variables",
                        names[0]
                    ),
                )
                .with_label("variable of a component that may be absent or one of many")
                .with_help("connect to it instead (`connect`); connections to an absent component are dropped"),
            )));
        }
        let target = match self.member(scope.model, sub, &names[1..]) {
            Ok(m) => Referent::Member(m),
            Err(e) => Referent::Unknown(Box::new(match e {
                MemberError::Class(d) => d,
                MemberError::Component { component } => Diagnostic::error(
                    "MC022",
                    r.span,
                    format!("`{component}` is a component, not a variable"),
                )
                .with_label("a component, not a variable")
                .with_help("refer to one of its variables, e.g. `component.y`"),
                MemberError::NoElement {
                    component, rest, ..
                } => Diagnostic::error(
                    "MC022",
                    r.span,
                    format!("component `{component}` has no variable `{rest}`"),
                )
                .with_label("unknown variable")
                .with_help("check the component's class for the variable's name"),
            })),
        };
        reference(target)
    }
}

impl Elaborator<'_> {
    /// A member of an array of connectors, of the class (`inlets[i].m_flow`,
    /// or the whole array `inlets.m_flow`) or of a component
    /// (`mixer.ports[2].T`): the array variable `inlets[].m_flow`, indexed
    /// first by the connector's index, then by the member's own.
    fn connector_array_element(
        &mut self,
        scope: &mut Scope,
        r: &ast::ComponentRef,
        last: &[Subscript],
    ) -> Option<Reference> {
        let names: Vec<&str> = r.parts.iter().map(|p| p.name.name.as_str()).collect();
        // The part that names the array of connectors: the first for the
        // class's own, the second for a component's.
        let (at, target) = match names.as_slice() {
            [c, rest @ ..] if !rest.is_empty() => {
                let key = format!("{c}[].{}", rest.join("."));
                if let Some(&v) = scope.vars.get(key.as_str()) {
                    (0, Referent::Var(v))
                } else {
                    let &sub = scope.subs.get(c)?;
                    if rest.len() < 2 || scope.structural.contains(&sub) {
                        return None;
                    }
                    let parts: Vec<String> = rest.iter().map(|x| x.to_string()).collect();
                    let m = self.member(scope.model, sub, &parts).ok()?;
                    if !m.name.contains("[].") {
                        return None;
                    }
                    (1, Referent::Member(m))
                }
            }
            _ => return None,
        };
        let mut subscripts: Vec<Subscript> = r.parts[at]
            .subscripts
            .iter()
            .map(|s| match s {
                ast::Subscript::Colon(span) => Subscript::Colon(*span),
                ast::Subscript::Expr(e) => Subscript::Expr(self.resolve_expr(scope, e)),
            })
            .collect();
        subscripts.extend(last.iter().cloned());
        let inner_subscript = r.parts[..r.parts.len() - 1]
            .iter()
            .enumerate()
            .find(|(k, p)| *k != at && !p.subscripts.is_empty())
            .map(|(_, p)| p.name.span);
        Some(Reference {
            target,
            subscripts,
            inner_subscript,
        })
    }
}

/// Replaces `end` in a subscript expression by `size` (the declared size
/// of the dimension it indexes), at the span of the `end`. Subscripts of
/// references inside it are their own targets' business, resolved before.
pub(crate) fn replace_end(e: &mut Expr, size: &Expr) {
    match &mut e.kind {
        ExprKind::End => {
            let span = e.span;
            *e = size.clone();
            e.walk_mut(&mut |x| x.span = span);
        }
        ExprKind::Binary(_, a, b) => {
            replace_end(a, size);
            replace_end(b, size);
        }
        ExprKind::Unary(_, a) => replace_end(a, size),
        ExprKind::Call { args, .. } | ExprKind::FunctionCall { args, .. } => {
            args.iter_mut().for_each(|a| replace_end(a, size))
        }
        ExprKind::If { branches, else_ } => {
            for (c, v) in branches {
                replace_end(c, size);
                replace_end(v, size);
            }
            replace_end(else_, size);
        }
        ExprKind::Array(items) => items.iter_mut().for_each(|a| replace_end(a, size)),
        ExprKind::Matrix(rows) => rows.iter_mut().flatten().for_each(|a| replace_end(a, size)),
        ExprKind::Range { start, step, stop } => {
            replace_end(start, size);
            if let Some(s) = step {
                replace_end(s, size);
            }
            replace_end(stop, size);
        }
        ExprKind::Integer(_)
        | ExprKind::Real(_)
        | ExprKind::Bool(_)
        | ExprKind::String(_)
        | ExprKind::Ref(_) => {}
    }
}

/// What a class body writes, resolved, before it is written into the
/// class model.
struct ResolvedBody {
    sub_dims: Vec<(usize, Vec<Expr>)>,
    sub_conditions: Vec<(usize, Expr)>,
    dims: Vec<(usize, Vec<Expr>)>,
    values: Vec<(usize, Value, Expr)>,
    modifiers: Vec<(usize, Modifier)>,
    equations: Vec<Equation>,
    initial_equations: Vec<Equation>,
    connects: Vec<Connect>,
    faults: Vec<Diagnostic>,
}

/// Writes a resolved class body into `model`: the initial equations become
/// start values, and the connects form the connection sets.
fn write_body(model: &mut ClassModel, body: ResolvedBody) {
    let ResolvedBody {
        sub_dims,
        sub_conditions,
        dims,
        values,
        modifiers,
        equations,
        initial_equations,
        connects,
        mut faults,
    } = body;
    for (v, ds) in dims {
        model.vars[v].dims = ds;
    }
    for (v, which, e) in values {
        let var = &mut model.vars[v];
        let slot = match which {
            Value::Binding => &mut var.binding,
            Value::Start => &mut var.attrs.start,
            Value::Min => &mut var.attrs.min,
            Value::Max => &mut var.attrs.max,
            Value::Nominal => &mut var.attrs.nominal,
        };
        *slot = Some(e);
    }
    for (k, m) in modifiers {
        model.subs[k].modifiers.push(m);
    }
    for eq in initial_equations {
        if let Err(d) = initial::start_value(model, eq) {
            faults.push(d);
        }
    }
    model.equations.extend(equations);
    let own_connects = model.connects.len();
    model.connects.extend(connects);
    model.faults.extend(faults);
    for (k, ds) in sub_dims {
        model.subs[k].dims = ds;
    }
    for (k, c) in sub_conditions {
        model.subs[k].condition = Some(c);
    }
    let unguarded: Vec<Diagnostic> = model.connects[own_connects..]
        .iter()
        .filter_map(|c| conditional::unguarded_connect(model, c))
        .collect();
    model.faults.extend(unguarded);
    model.transfers = if model.connections_per_instance() {
        connect::compatible(&model.connects)
    } else {
        connect::connection_sets(&model.connects, &model.subs)
    };
}
