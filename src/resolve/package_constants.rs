//! Package constants: a name a class writes that is none of its variables
//! or components may denote a `constant` declared in a package
//! (`Media.Water.cp`, `Medium.rho` through a replaceable package, `SI`-style
//! import aliases) or in an enclosing class (`cp` inside the package that
//! declares it). Such a constant is folded to its value when the class is
//! resolved: the class knows it, so it needs no FMI variable.
//!
//! The package that holds a constant is elaborated like any class (its
//! constants are its variables, `extends PartialLiquid(cp = 4184)` gives
//! one a value) and its constants are evaluated from their bindings, which
//! may use literals, other constants, arithmetic, array constructors and
//! the elementary functions. No look-ahead: the package is looked up at the
//! point of use, and a constant of an enclosing class must be declared
//! before it.

use std::sync::Arc;

use super::elaborator::Elaborator;
use super::expr::{BinOp, Constant, Expr, ExprKind, Referent, Subscript, UnOp};
use super::model::{ClassModel, ClassVariability};
use super::tree::{before, Builtin, ClassId, Resolved};
use crate::diagnostic::Diagnostic;
use crate::source::Span;
use crate::syntax::ast;

/// A value while a constant is evaluated: a shape (empty for a scalar) and
/// the elements in row-major order.
#[derive(Debug, Clone, PartialEq)]
struct Folded {
    shape: Vec<usize>,
    elements: Vec<f64>,
}

impl Folded {
    fn scalar(x: f64) -> Folded {
        Folded {
            shape: Vec::new(),
            elements: vec![x],
        }
    }
}

/// What a name denotes when it is a constant (`Elaborator::constant`).
pub(crate) enum Found {
    /// A number or an array, with its type and unit.
    Value(Arc<Constant>),
    /// A record constant, or a number `constant.rs` evaluated (a field
    /// of a record constant, or a constant computed from one).
    Record(super::constant::ConstValue),
}

/// Why a binding is not a value known to the class.
struct NotConstant;

impl Elaborator<'_> {
    /// The one lookup of a constant that a name a class writes, which is
    /// none of its variables or components, may denote: a constant of a
    /// record type, or a field of one (`water.cp`, `Acc1.water`), is
    /// evaluated by `constant.rs` to a record value; any other constant
    /// (a number or an array, with its unit, its value given by an
    /// `extends` modifier, found through a replaceable package:
    /// `Medium.rho`) by `package_constant`, and a number only
    /// `constant.rs` can compute (from a record's field) by `constant_of`.
    /// `None` when it names no constant.
    pub(crate) fn constant(
        &mut self,
        scope: ClassId,
        r: &ast::ComponentRef,
    ) -> Option<Result<Found, Diagnostic>> {
        if let Some(v) = self.record_constant(scope, r) {
            return Some(v.map(Found::Record));
        }
        // A number `constant.rs` alone can compute (one that reads a
        // record constant's field: `constant Real c = r.b + 1`).
        match self.package_constant(scope, r) {
            Some(Ok(c)) => Some(Ok(Found::Value(c))),
            Some(Err(d)) => match self.constant_of(scope, r) {
                Some(Ok(v)) => Some(Ok(Found::Record(v))),
                _ => Some(Err(d)),
            },
            None => self.constant_of(scope, r).map(|v| v.map(Found::Record)),
        }
    }

    /// The package constant `r` denotes when used in class `scope`, if it
    /// names one; `None` when it names no class or enclosing constant at
    /// all (then it is an unknown variable of the class).
    pub(crate) fn package_constant(
        &mut self,
        scope: ClassId,
        r: &ast::ComponentRef,
    ) -> Option<Result<Arc<Constant>, Diagnostic>> {
        if r.parts[..r.parts.len() - 1]
            .iter()
            .any(|p| !p.subscripts.is_empty())
        {
            return None;
        }
        let last = &r.parts.last()?.name;
        if r.parts.len() == 1 {
            return self.enclosing_constant(scope, last, r.span);
        }
        let prefix = r.prefix();
        let package = match self.tree.lookup(&prefix, Some(scope), r.span) {
            Ok(Resolved::Class(c)) => c,
            Ok(Resolved::Builtin(_)) => return None,
            // The first name denotes no class: an unknown variable.
            Err(d) if d.code == "MC005" && d.span == prefix.parts[0].span => return None,
            Err(d) => return Some(Err(d)),
        };
        let package = match self.tree.follow_short(package) {
            Ok(c) => c,
            Err(d) => return Some(Err(d)),
        };
        let model = match self.class(package) {
            Ok(m) => m,
            Err(mut ds) => return Some(Err(ds.remove(0))),
        };
        let Some(v) = model.var(&last.name) else {
            let pq = &self.tree.get(package).qualified;
            return Some(Err(Diagnostic::error(
                "MC022",
                last.span,
                format!("`{pq}` has no constant `{}`", last.name),
            )
            .with_label("no such constant")
            .with_help("check the package for the constant's name")));
        };
        Some(self.constant_value(&model, v, r.span))
    }

    /// A constant of a class that encloses `scope` (up to and including
    /// the first encapsulated one), declared before `at`.
    fn enclosing_constant(
        &mut self,
        scope: ClassId,
        name: &ast::Ident,
        at: Span,
    ) -> Option<Result<Arc<Constant>, Diagnostic>> {
        let tree = self.tree;
        for cur in tree.constant_scopes(scope) {
            if let Some(found) = self.imported_constant(cur, name, at) {
                return Some(found);
            }
            if cur != scope
                && tree.get(cur).may_declare_component(&name.name)
                && !self.in_progress(cur)
            {
                if let Ok(model) = self.class(cur) {
                    if let Some(v) = model.var(&name.name) {
                        let decl = model.vars[v].span;
                        if decl.file == at.file && !before(decl, at) {
                            return Some(Err(look_ahead(name, decl)));
                        }
                        return Some(self.constant_value(&model, v, at));
                    }
                }
            }
        }
        None
    }

    /// A constant imported into class `id` by name (`import PC.k;`,
    /// `import g = Consts.g0;`), the import written before `at`.
    fn imported_constant(
        &mut self,
        id: ClassId,
        name: &ast::Ident,
        at: Span,
    ) -> Option<Result<Arc<Constant>, Diagnostic>> {
        let tree = self.tree;
        let imp = tree.get(id).imports().find(|imp| {
            imp.wildcard.is_none()
                && before(imp.span, at)
                && imp.name.parts.len() >= 2
                && match &imp.alias {
                    Some(a) => a.name == name.name,
                    None => imp.name.last().name == name.name,
                }
        })?;
        let n = imp.name.parts.len();
        let prefix = ast::Name {
            global: true,
            parts: imp.name.parts[..n - 1].to_vec(),
            span: imp.name.span,
        };
        // An import of a class is not a constant: the name is then a class.
        if tree.lookup(&imp.name, None, imp.span).is_ok() {
            return None;
        }
        let package = match tree.lookup(&prefix, None, imp.span) {
            Ok(Resolved::Class(c)) => tree.follow_short(c),
            _ => return None,
        };
        let package = match package {
            Ok(p) => p,
            Err(d) => return Some(Err(d)),
        };
        let Ok(model) = self.class(package) else {
            return None;
        };
        let v = model.var(&imp.name.last().name)?;
        Some(self.constant_value(&model, v, at))
    }

    /// The value of variable `v` of package `model`, which must be a
    /// constant with a value the package computes alone.
    fn constant_value(
        &mut self,
        model: &ClassModel,
        v: usize,
        at: Span,
    ) -> Result<Arc<Constant>, Diagnostic> {
        let var = &model.vars[v];
        let qualified = format!("{}.{}", model.qualified, var.name);
        if let Some(c) = self.constants.get(&qualified) {
            return Ok(c.clone());
        }
        if var.variability != ClassVariability::Constant {
            return Err(Diagnostic::error(
                "MC086",
                at,
                format!("`{qualified}` is not a constant"),
            )
            .with_label("not a constant")
            .with_note(var.span, "declared here")
            .with_help("only `constant` declarations of a package can be used from a class; declare it `constant`"));
        }
        let Some(binding) = &var.binding else {
            return Err(Diagnostic::error(
                "MC084",
                at,
                format!("constant `{qualified}` has no value"),
            )
            .with_label("constant without a value")
            .with_note(var.span, "declared without a value here")
            .with_help("give the constant a value, or use a package that extends this one with `extends P(c = value)`"));
        };
        let value = fold(model, binding, 0).map_err(|NotConstant| {
            Diagnostic::error(
                "MC086",
                at,
                format!("the value of constant `{qualified}` is not a constant expression"),
            )
            .with_label("value not known to the class")
            .with_note(binding.span, "its value")
            .with_help("write the value from literals and other constants (arithmetic, `{...}`, elementary functions)")
        })?;
        let literal: Option<Vec<usize>> = var
            .dims
            .iter()
            .map(|d| d.integer().and_then(|n| usize::try_from(n).ok()))
            .collect();
        let shape_ok = match literal {
            Some(dims) => dims == value.shape,
            None => var.dims.len() == value.shape.len(),
        };
        let type_ok = match var.ty {
            Builtin::Real => true,
            Builtin::Integer | Builtin::Enumeration(_) => {
                value.elements.iter().all(|x| x.fract() == 0.0)
            }
            Builtin::Boolean => value.elements.iter().all(|x| *x == 0.0 || *x == 1.0),
            Builtin::String => false,
        };
        if !shape_ok || !type_ok {
            return Err(Diagnostic::error(
                "MC086",
                at,
                format!(
                    "the value of constant `{qualified}` does not fit its declared type or size"
                ),
            )
            .with_label("value does not fit")
            .with_note(binding.span, "its value")
            .with_help("give the constant a value of its declared type and size"));
        }
        let c = Arc::new(Constant {
            qualified: qualified.clone(),
            ty: var.ty,
            unit: var.attrs.unit.clone(),
            shape: value.shape,
            elements: value.elements,
        });
        self.constants.insert(qualified, c.clone());
        Ok(c)
    }
}

fn look_ahead(name: &ast::Ident, decl: Span) -> Diagnostic {
    Diagnostic::error(
        "MC085",
        name.span,
        format!(
            "constant `{}` is used before it is declared (look-ahead)",
            name.name
        ),
    )
    .with_label("declared only later")
    .with_note(decl, "declared here")
    .with_help("declare the constant above the class that uses it")
}

/// Evaluates a constant's binding in the package that declares it.
fn fold(model: &ClassModel, e: &Expr, depth: usize) -> Result<Folded, NotConstant> {
    if depth > 64 {
        return Err(NotConstant);
    }
    Ok(match &e.kind {
        ExprKind::Integer(i) => Folded::scalar(*i as f64),
        ExprKind::Real(r) => Folded::scalar(*r),
        ExprKind::Bool(b) => Folded::scalar(f64::from(u8::from(*b))),
        ExprKind::Ref(r) => {
            if r.inner_subscript.is_some() {
                return Err(NotConstant);
            }
            let whole = match &r.target {
                Referent::Var(v) => {
                    let var = &model.vars[*v];
                    if var.variability != ClassVariability::Constant {
                        return Err(NotConstant);
                    }
                    fold(model, var.binding.as_ref().ok_or(NotConstant)?, depth + 1)?
                }
                Referent::Constant(c) => Folded {
                    shape: c.shape.clone(),
                    elements: c.elements.clone(),
                },
                _ => return Err(NotConstant),
            };
            index(model, whole, &r.subscripts, depth)?
        }
        ExprKind::Unary(op, a) => {
            let a = fold(model, a, depth + 1)?;
            let f: fn(f64) -> f64 = match op {
                UnOp::Neg => |x| -x,
                UnOp::Plus => |x| x,
                UnOp::Not => |x| f64::from(u8::from(x == 0.0)),
            };
            Folded {
                shape: a.shape,
                elements: a.elements.into_iter().map(f).collect(),
            }
        }
        ExprKind::Binary(op, a, b) => {
            let (a, b) = (fold(model, a, depth + 1)?, fold(model, b, depth + 1)?);
            binary(*op, a, b)?
        }
        ExprKind::Array(items) => {
            let items: Vec<Folded> = items
                .iter()
                .map(|x| fold(model, x, depth + 1))
                .collect::<Result<_, _>>()?;
            let first = items.first().ok_or(NotConstant)?.shape.clone();
            if items.iter().any(|x| x.shape != first) {
                return Err(NotConstant);
            }
            let mut shape = vec![items.len()];
            shape.extend(first);
            Folded {
                shape,
                elements: items.into_iter().flat_map(|x| x.elements).collect(),
            }
        }
        ExprKind::If { branches, else_ } => {
            for (c, v) in branches {
                let c = fold(model, c, depth + 1)?;
                if !c.shape.is_empty() {
                    return Err(NotConstant);
                }
                if c.elements[0] != 0.0 {
                    return fold(model, v, depth + 1);
                }
            }
            fold(model, else_, depth + 1)?
        }
        ExprKind::Call {
            func, args, named, ..
        } if !named && args.len() == 1 => {
            let f: fn(f64) -> f64 = match func.as_str() {
                "sin" => f64::sin,
                "cos" => f64::cos,
                "tan" => f64::tan,
                "exp" => f64::exp,
                "log" => f64::ln,
                "log10" => f64::log10,
                "sqrt" => f64::sqrt,
                "abs" => f64::abs,
                _ => return Err(NotConstant),
            };
            let a = fold(model, &args[0], depth + 1)?;
            if !a.shape.is_empty() {
                return Err(NotConstant);
            }
            Folded::scalar(f(a.elements[0]))
        }
        _ => return Err(NotConstant),
    })
}

/// `whole[i, j]` for literal (or constant) Integer subscripts.
fn index(
    model: &ClassModel,
    whole: Folded,
    subs: &[Subscript],
    depth: usize,
) -> Result<Folded, NotConstant> {
    if subs.is_empty() {
        return Ok(whole);
    }
    if subs.len() > whole.shape.len() {
        return Err(NotConstant);
    }
    let mut offset = 0usize;
    let mut stride: usize = whole.shape.iter().product();
    for (k, s) in subs.iter().enumerate() {
        let Subscript::Expr(e) = s else {
            return Err(NotConstant);
        };
        let i = fold(model, e, depth + 1)?;
        let n = whole.shape[k];
        let i = i.elements.first().copied().ok_or(NotConstant)?;
        if i.fract() != 0.0 || i < 1.0 || i > n as f64 {
            return Err(NotConstant);
        }
        stride /= n;
        offset += (i as usize - 1) * stride;
    }
    Ok(Folded {
        shape: whole.shape[subs.len()..].to_vec(),
        elements: whole.elements[offset..offset + stride].to_vec(),
    })
}

/// A binary operation, elementwise on arrays of one shape or between a
/// scalar and an array (matrix products are not folded).
fn binary(op: BinOp, a: Folded, b: Folded) -> Result<Folded, NotConstant> {
    let f: fn(f64, f64) -> f64 = match op {
        BinOp::Add | BinOp::ElemAdd => |x, y| x + y,
        BinOp::Sub | BinOp::ElemSub => |x, y| x - y,
        BinOp::Mul | BinOp::ElemMul => |x, y| x * y,
        BinOp::Div | BinOp::ElemDiv => |x, y| x / y,
        BinOp::Pow | BinOp::ElemPow => f64::powf,
        BinOp::Lt => |x, y| f64::from(u8::from(x < y)),
        BinOp::Le => |x, y| f64::from(u8::from(x <= y)),
        BinOp::Gt => |x, y| f64::from(u8::from(x > y)),
        BinOp::Ge => |x, y| f64::from(u8::from(x >= y)),
        BinOp::Eq => |x, y| f64::from(u8::from(x == y)),
        BinOp::Ne => |x, y| f64::from(u8::from(x != y)),
        BinOp::And => |x, y| f64::from(u8::from(x != 0.0 && y != 0.0)),
        BinOp::Or => |x, y| f64::from(u8::from(x != 0.0 || y != 0.0)),
    };
    let elementwise =
        !matches!(op, BinOp::Mul | BinOp::Pow) || a.shape.is_empty() || b.shape.is_empty();
    if !elementwise {
        return Err(NotConstant);
    }
    Ok(if a.shape.is_empty() {
        Folded {
            elements: b.elements.iter().map(|y| f(a.elements[0], *y)).collect(),
            shape: b.shape,
        }
    } else if b.shape.is_empty() {
        Folded {
            elements: a.elements.iter().map(|x| f(*x, b.elements[0])).collect(),
            shape: a.shape,
        }
    } else if a.shape == b.shape {
        Folded {
            elements: a
                .elements
                .iter()
                .zip(&b.elements)
                .map(|(x, y)| f(*x, *y))
                .collect(),
            shape: a.shape,
        }
    } else {
        return Err(NotConstant);
    })
}
