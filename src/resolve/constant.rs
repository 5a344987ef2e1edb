//! Constants declared in enclosing classes and packages (`constant Real
//! cp = 4184;`, `constant LinearLiquid water = LinearLiquid(cp = 4184,
//! T_ref = 273.15);`), evaluated when a class refers to them: a number, or a
//! record of numbers (a record constant is its field constants). Only what
//! is declared before the use is visible (no look-ahead).

use super::constructor::ConstructorFields;
use super::elaborator::Elaborator;
use super::expr::{Expr, ExprKind};
use super::tree::{before, Builtin, ClassId, Resolved};
use crate::diagnostic::Diagnostic;
use crate::source::Span;
use crate::syntax::ast::{self, ClassBody, ClassKind, Element};

/// The value of a constant.
#[derive(Debug, Clone, PartialEq)]
pub enum ConstValue {
    Number(f64),
    /// Field names and values in the record's declaration order.
    Record {
        class: String,
        fields: Vec<(String, ConstValue)>,
    },
}

/// Constants refer to constants; a chain this long is a cycle.
const MAX_DEPTH: usize = 32;

fn error(code: &'static str, span: Span, message: String, label: &str, help: &str) -> Diagnostic {
    Diagnostic::error(code, span, message)
        .with_label(label)
        .with_help(help)
}

pub(crate) fn no_field(class: &str, field: &str, span: Span) -> Diagnostic {
    error(
        "MC074",
        span,
        format!("record `{class}` has no field `{field}`"),
        "no such field",
        "check the record's declaration for the field's name",
    )
}

impl ConstValue {
    /// A field path (`cp`, `state.T`) into the value.
    fn field(self, path: &[&ast::Ident]) -> Result<ConstValue, Diagnostic> {
        let mut v = self;
        for p in path {
            v = match v {
                ConstValue::Record { class, fields } => fields
                    .into_iter()
                    .find(|(n, _)| *n == p.name)
                    .map(|(_, x)| x)
                    .ok_or_else(|| no_field(&class, &p.name, p.span))?,
                ConstValue::Number(_) => {
                    return Err(error(
                        "MC074",
                        p.span,
                        format!("a number has no field `{}`", p.name),
                        "not a record",
                        "refer to the constant itself",
                    ))
                }
            };
        }
        Ok(v)
    }

    /// The fields named `fields` as Real literals, in that order.
    pub(crate) fn fields_as_exprs(
        &self,
        fields: &[String],
        span: Span,
    ) -> Result<Vec<Expr>, Diagnostic> {
        let ConstValue::Record {
            class,
            fields: have,
        } = self
        else {
            return Err(error(
                "MC075",
                span,
                "this input is a record; the constant is a number".into(),
                "not a record",
                "pass a record constant of the input's type",
            ));
        };
        fields
            .iter()
            .map(|f| {
                let path: Vec<&str> = f.split('.').collect();
                let mut v = self;
                for p in &path {
                    v = match v {
                        ConstValue::Record { fields, .. } => fields
                            .iter()
                            .find(|(n, _)| n == p)
                            .map(|(_, x)| x)
                            .ok_or_else(|| no_field(class, f, span))?,
                        ConstValue::Number(_) => return Err(no_field(class, f, span)),
                    };
                }
                let _ = have;
                match v {
                    ConstValue::Number(x) => Ok(Expr {
                        kind: ExprKind::Real(*x),
                        span,
                    }),
                    ConstValue::Record { .. } => Err(no_field(class, f, span)),
                }
            })
            .collect()
    }
}

impl Elaborator<'_> {
    /// The record constant (or a field of one, `water.cp`) a reference
    /// names, seen from class `scope`: `None` when it names no constant of
    /// a record type (numbers and arrays are `package_constants.rs`'s,
    /// with their units and the values `extends` modifiers give them).
    pub(crate) fn record_constant(
        &mut self,
        scope: ClassId,
        r: &ast::ComponentRef,
    ) -> Option<Result<ConstValue, Diagnostic>> {
        let (owner, comp, k) = self.locate_constant(scope, r)?;
        let record = matches!(
            self.tree.lookup(&comp.type_name, Some(owner), comp.span),
            Ok(Resolved::Class(c)) if self.tree.get(c).def.kind == ClassKind::Record
        );
        if !record {
            return None;
        }
        let path: Vec<&ast::Ident> = r.parts[k..].iter().map(|p| &p.name).collect();
        Some(
            self.evaluate_constant(owner, &comp, 0)
                .and_then(|v| v.field(&path)),
        )
    }

    /// The constant a reference names, seen from class `scope`, as
    /// `constant.rs` evaluates it (numbers and records, no units): `None`
    /// when it names no constant.
    pub(crate) fn constant_of(
        &mut self,
        scope: ClassId,
        r: &ast::ComponentRef,
    ) -> Option<Result<ConstValue, Diagnostic>> {
        self.constant_at(scope, r, 0)
    }

    /// The class that declares the constant a reference starts with, the
    /// constant, and how many parts of the reference name it (the rest
    /// are record fields).
    fn locate_constant(
        &self,
        scope: ClassId,
        r: &ast::ComponentRef,
    ) -> Option<(ClassId, ast::Component, usize)> {
        if r.parts.iter().any(|p| !p.subscripts.is_empty()) {
            return None;
        }
        let parts: Vec<&ast::Ident> = r.parts.iter().map(|p| &p.name).collect();
        // `water.cp`: a constant of an enclosing class; `Acc1.water.cp`: a
        // class name, then its constant.
        match self.declared_constant(scope, &parts[0].name, r.span) {
            Some((owner, comp)) => Some((owner, comp, 1)),
            None => (1..parts.len()).rev().find_map(|k| {
                let name = ast::Name {
                    global: r.global,
                    parts: parts[..k].iter().map(|p| (*p).clone()).collect(),
                    span: r.span,
                };
                match self.tree.lookup(&name, Some(scope), r.span) {
                    Ok(Resolved::Class(c)) => {
                        let comp =
                            constant_in(self.tree.get(c).def.as_ref(), &parts[k].name, r.span)?;
                        Some((c, comp, k + 1))
                    }
                    _ => None,
                }
            }),
        }
    }

    fn constant_at(
        &mut self,
        scope: ClassId,
        r: &ast::ComponentRef,
        depth: usize,
    ) -> Option<Result<ConstValue, Diagnostic>> {
        let (owner, comp, k) = self.locate_constant(scope, r)?;
        let path: Vec<&ast::Ident> = r.parts[k..].iter().map(|p| &p.name).collect();
        Some(
            self.evaluate_constant(owner, &comp, depth)
                .and_then(|v| v.field(&path)),
        )
    }

    /// A constant `name` declared before `at` in `scope` or a class
    /// enclosing it (up to an encapsulated one).
    fn declared_constant(
        &self,
        scope: ClassId,
        name: &str,
        at: Span,
    ) -> Option<(ClassId, ast::Component)> {
        let mut s = Some(scope);
        while let Some(id) = s {
            let node = self.tree.get(id);
            if let Some(c) = constant_in(node.def.as_ref(), name, at) {
                return Some((id, c));
            }
            if node.encapsulated() {
                return None;
            }
            s = node.parent;
        }
        None
    }

    /// The value of constant `comp` declared in class `owner`.
    fn evaluate_constant(
        &mut self,
        owner: ClassId,
        comp: &ast::Component,
        depth: usize,
    ) -> Result<ConstValue, Diagnostic> {
        let Some(value) = comp.modification.as_ref().and_then(|m| m.binding.as_ref()) else {
            return Err(error(
                "MC079",
                comp.name.span,
                format!("constant `{}` has no value", comp.name.name),
                "no value",
                "give the constant a value: `constant Real c = 1;`",
            ));
        };
        self.evaluate(owner, value, depth + 1)
    }

    /// Evaluates a constant's expression in the terms of class `scope`.
    fn evaluate(
        &mut self,
        scope: ClassId,
        e: &ast::Expr,
        depth: usize,
    ) -> Result<ConstValue, Diagnostic> {
        if depth > MAX_DEPTH {
            return Err(error(
                "MC079",
                e.span,
                "constants refer to each other in a cycle".into(),
                "cyclic constant",
                "give one of the constants a number",
            ));
        }
        let number = |v: ConstValue, span: Span| match v {
            ConstValue::Number(x) => Ok(x),
            ConstValue::Record { class, .. } => Err(error(
                "MC079",
                span,
                format!("a record `{class}` is not a number"),
                "record where a number is expected",
                "use one of its fields",
            )),
        };
        Ok(match &e.kind {
            ast::ExprKind::Integer(i) => ConstValue::Number(*i as f64),
            ast::ExprKind::Real(x) => ConstValue::Number(*x),
            ast::ExprKind::Unary(ast::UnOp::Neg, a) => {
                ConstValue::Number(-number(self.evaluate(scope, a, depth)?, a.span)?)
            }
            ast::ExprKind::Unary(ast::UnOp::Plus, a) => self.evaluate(scope, a, depth)?,
            ast::ExprKind::Binary(op, a, b) => {
                let x = number(self.evaluate(scope, a, depth)?, a.span)?;
                let y = number(self.evaluate(scope, b, depth)?, b.span)?;
                ConstValue::Number(match op {
                    ast::BinOp::Add | ast::BinOp::ElemAdd => x + y,
                    ast::BinOp::Sub | ast::BinOp::ElemSub => x - y,
                    ast::BinOp::Mul | ast::BinOp::ElemMul => x * y,
                    ast::BinOp::Div | ast::BinOp::ElemDiv => x / y,
                    ast::BinOp::Pow | ast::BinOp::ElemPow => x.powf(y),
                    _ => return Err(not_constant(e.span)),
                })
            }
            ast::ExprKind::Ref(r) => match self.constant_at(scope, r, depth) {
                Some(v) => v?,
                None => return Err(not_constant(e.span)),
            },
            ast::ExprKind::Call { func, args, named } => {
                self.constructor(scope, func, args, named, e.span, depth)?
            }
            _ => return Err(not_constant(e.span)),
        })
    }

    /// A record constructor `R(a, f = b)` evaluated to a record constant:
    /// positional arguments fill the fields in order, named ones by name.
    pub(crate) fn constructor(
        &mut self,
        scope: ClassId,
        func: &ast::Name,
        args: &[ast::Expr],
        named: &[(ast::Ident, ast::Expr)],
        span: Span,
        depth: usize,
    ) -> Result<ConstValue, Diagnostic> {
        let record = match self.tree.lookup(func, Some(scope), func.span)? {
            Resolved::Class(c) if self.tree.get(c).def.kind == ClassKind::Record => c,
            _ => return Err(not_constant(span)),
        };
        let qualified = self.tree.get(record).qualified.clone();
        let model = self.class(record).map_err(|mut ds| ds.remove(0))?;
        let names: Vec<String> = model.vars.iter().map(|v| v.name.clone()).collect();
        if model
            .vars
            .iter()
            .any(|v| v.ty == Builtin::String || !v.dims.is_empty())
        {
            return Err(not_constant(span));
        }
        let mut values: Vec<Option<ConstValue>> = vec![None; names.len()];
        let record_fields = ConstructorFields {
            qualified: &qualified,
            names: &names,
        };
        let arity = |message: String, at: Span| record_fields.mismatch(message, at);
        record_fields.positional(args)?;
        for (k, a) in args.iter().enumerate() {
            values[k] = Some(self.evaluate(scope, a, depth + 1)?);
        }
        for (n, a) in named {
            let Some(k) = names.iter().position(|x| *x == n.name) else {
                return Err(no_field(&qualified, &n.name, n.span));
            };
            if values[k].is_some() {
                return Err(arity(format!("field `{}` is given twice", n.name), n.span));
            }
            values[k] = Some(self.evaluate(scope, a, depth + 1)?);
        }
        let mut fields = Vec::new();
        for (k, v) in values.into_iter().enumerate() {
            let v = match v {
                Some(v) => v,
                None => match model.vars[k].binding.as_ref().and_then(|b| match b.kind {
                    ExprKind::Real(x) => Some(x),
                    ExprKind::Integer(i) => Some(i as f64),
                    _ => None,
                }) {
                    Some(x) => ConstValue::Number(x),
                    None => {
                        return Err(arity(format!("field `{}` is not given", names[k]), span));
                    }
                },
            };
            fields.push((names[k].clone(), v));
        }
        Ok(ConstValue::Record {
            class: qualified,
            fields,
        })
    }
}

fn not_constant(span: Span) -> Diagnostic {
    error(
        "MC079",
        span,
        "a constant's value must be computable when the library is read".into(),
        "not a constant expression",
        "use numbers, arithmetic, other constants and record constructors",
    )
}

/// The `constant` component `name` of a class body, declared before `at`.
fn constant_in(def: &ast::ClassDef, name: &str, at: Span) -> Option<ast::Component> {
    let ClassBody::Long(body) = &def.body else {
        return None;
    };
    body.elements.iter().find_map(|e| match e {
        Element::Component(c)
            if c.name.name == name && c.prefixes.constant.is_some() && before(c.span, at) =>
        {
            Some(c.clone())
        }
        _ => None,
    })
}
