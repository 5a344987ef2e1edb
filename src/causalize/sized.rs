//! Whole parameter-sized arrays in expressions: `x` of `Real x[n]`, a
//! connector array's member `ports.m_flow`, a parameter matrix `A[n, n]`.
//! Such a value is one element expression over "holes" (its indices), read
//! in a loop over the run-time size: a reduction (`sum(x)`, a row of `A*x`)
//! becomes an [`Ex::Reduce`], a whole-array equation a `for` loop. So the
//! kernel's text does not depend on the size, as for `for` loops.

use super::affine::affine;
use super::lowerer::{Context, Lowerer};
use super::solve;
use super::value::{hole, Sized, Value};
use crate::diagnostic::Diagnostic;
use crate::ir::{Arith, Ex, Reduction, RelKind, RelOp, SlotId};
use crate::resolve::expr::{BinOp, Expr, Subscript};
use crate::source::Span;

impl Lowerer<'_> {
    /// A loop depth of its own for a new reduction: above the loops around
    /// the equation and the one a whole-array equation adds.
    fn fresh_depth(&mut self) -> usize {
        self.n_reductions += 1;
        self.loop_depth + self.n_reductions
    }

    /// `op` over every element of `a`.
    pub fn sized_reduce(&mut self, op: Reduction, a: &Sized) -> Ex {
        let depths: Vec<usize> = a.dims.iter().map(|_| self.fresh_depth()).collect();
        let indices: Vec<Ex> = depths.iter().map(|d| Ex::LoopVar(*d)).collect();
        let mut e = a.at(&indices);
        for (d, n) in depths.iter().zip(&a.dims).rev() {
            e = reduce(op, *d, n.clone(), e);
        }
        e
    }

    /// `identity(n)` for a size that is an Integer parameter expression.
    pub fn sized_identity(&mut self, n: Ex) -> Value {
        let same = Ex::Rel(
            RelOp::Eq,
            Box::new(hole(0)),
            Box::new(hole(1)),
            RelKind::Direct,
        );
        Value::Sized(Sized {
            dims: vec![n.clone(), n],
            element: Ex::If(vec![(same, Ex::Int(1))], Box::new(Ex::Int(0))),
        })
    }

    /// A reference to the parameter-sized array variable `vi` (slot
    /// `slot`): one element, a row or column of a matrix, or the whole.
    pub fn index_sized(
        &mut self,
        vi: usize,
        slot: SlotId,
        span: Span,
        subs: &[Subscript],
    ) -> Result<Value, Diagnostic> {
        let mut dims = Vec::new();
        for d in &self.model.vars[vi].dims.clone() {
            dims.push(self.lower(d, Context::Direct)?);
        }
        let var = |i: Ex| Ex::Var(slot, Some(Box::new(i)));
        let mut index = Vec::new();
        for s in subs {
            index.push(match s {
                Subscript::Expr(e) => Some(self.lower(e, Context::Direct)?),
                Subscript::Colon(_) => None,
            });
        }
        match (dims.len(), index.as_slice()) {
            (1, []) | (1, [None]) => Ok(Value::Sized(Sized {
                element: var(hole(0)),
                dims,
            })),
            (1, [Some(i)]) => Ok(Value::Scalar(var(i.clone()))),
            (2, _) if index.len() <= 2 => {
                let linear = |i: Ex, j: Ex| {
                    solve::add(solve::mul(solve::sub(i, Ex::Int(1)), dims[1].clone()), j)
                };
                let row = index.first().cloned().flatten();
                let col = index.get(1).cloned().flatten();
                Ok(match (row, col) {
                    (Some(i), Some(j)) => Value::Scalar(var(linear(i, j))),
                    (Some(i), None) => Value::Sized(Sized {
                        element: var(linear(i, hole(0))),
                        dims: vec![dims[1].clone()],
                    }),
                    (None, Some(j)) => Value::Sized(Sized {
                        element: var(linear(hole(0), j)),
                        dims: vec![dims[0].clone()],
                    }),
                    (None, None) => Value::Sized(Sized {
                        element: var(linear(hole(0), hole(1))),
                        dims,
                    }),
                })
            }
            _ => Err(Diagnostic::error(
                "MC040",
                span,
                format!(
                    "`{}` has {} dimension(s) but {} indices",
                    self.model.vars[vi].name,
                    dims.len(),
                    subs.len()
                ),
            )
            .with_label("wrong number of indices")
            .with_help("give at most one index per dimension")),
        }
    }

    /// A binary operation with a parameter-sized operand: element-wise
    /// operations of arrays of one size (or with a scalar), products with a
    /// scalar, and the vector and matrix products, each sum a reduction.
    pub fn sized_binary(
        &mut self,
        op: BinOp,
        a: Value,
        b: Value,
        e: &Expr,
    ) -> Result<Value, Diagnostic> {
        let arith = match op {
            BinOp::Add | BinOp::ElemAdd => Some(Arith::Add),
            BinOp::Sub | BinOp::ElemSub => Some(Arith::Sub),
            BinOp::ElemMul => Some(Arith::Mul),
            BinOp::ElemDiv => Some(Arith::Div),
            BinOp::ElemPow => Some(Arith::Pow),
            _ => None,
        };
        let scalar_ok = matches!(
            op,
            BinOp::ElemAdd | BinOp::ElemSub | BinOp::ElemMul | BinOp::ElemDiv | BinOp::ElemPow
        );
        let bin = |o, x: Ex, y: Ex| Ex::Bin(o, Box::new(x), Box::new(y));
        match (op, a, b) {
            (_, Value::Array(..), _) | (_, _, Value::Array(..)) => Err(self.mixed(e)),
            (_, Value::Sized(x), Value::Sized(y)) if arith.is_some() => {
                self.same_dims(&x.dims, &y.dims, e)?;
                let (o, xe) = (arith.expect("checked"), x.element);
                Ok(Value::Sized(Sized {
                    element: bin(o, xe, y.element),
                    dims: x.dims,
                }))
            }
            (_, Value::Scalar(s), Value::Sized(y)) if scalar_ok || op == BinOp::Mul => {
                let o = arith.unwrap_or(Arith::Mul);
                Ok(Value::Sized(Sized {
                    element: bin(o, s, y.element),
                    dims: y.dims,
                }))
            }
            (_, Value::Sized(x), Value::Scalar(s))
                if scalar_ok || matches!(op, BinOp::Mul | BinOp::Div) =>
            {
                let o = arith.unwrap_or(if op == BinOp::Div {
                    Arith::Div
                } else {
                    Arith::Mul
                });
                Ok(Value::Sized(Sized {
                    element: bin(o, x.element, s),
                    dims: x.dims,
                }))
            }
            (BinOp::Mul, Value::Sized(x), Value::Sized(y)) => self.sized_product(x, y, e),
            _ => Err(Diagnostic::error(
                "MC063",
                e.span,
                "this operation does not apply to a whole parameter-sized array",
            )
            .with_label("array operand")
            .with_help(
                "use `+ - .* ./` with arrays of one size, `*` for products, or index the array",
            )),
        }
    }

    /// `*` of two parameter-sized arrays: dot product, matrix-vector,
    /// vector-matrix and matrix-matrix products.
    fn sized_product(&mut self, x: Sized, y: Sized, e: &Expr) -> Result<Value, Diagnostic> {
        let (rx, ry) = (x.dims.len(), y.dims.len());
        // The inner dimensions that the product sums over must agree.
        let inner_x = x.dims[rx - 1].clone();
        let inner_y = y.dims[0].clone();
        if rx > 2 || ry > 2 || !self.same_size(&inner_x, &inner_y) {
            return Err(Diagnostic::error(
                "MC132",
                e.span,
                format!(
                    "arrays of sizes {} and {} cannot be multiplied",
                    self.dims_text(&x.dims),
                    self.dims_text(&y.dims)
                ),
            )
            .with_label("inner sizes differ")
            .with_help("the number of columns of the left factor must be the size (rows) of the right one, as the same parameter expression"));
        }
        let d = self.fresh_depth();
        let k = Ex::LoopVar(d);
        let (xi, yi): (Vec<Ex>, Vec<Ex>) = match (rx, ry) {
            (1, 1) => (vec![k.clone()], vec![k.clone()]),
            (2, 1) => (vec![hole(0), k.clone()], vec![k.clone()]),
            (1, 2) => (vec![k.clone()], vec![k.clone(), hole(0)]),
            _ => (vec![hole(0), k.clone()], vec![k.clone(), hole(1)]),
        };
        let term = solve::mul(x.at(&xi), y.at(&yi));
        let sum = reduce(Reduction::Sum, d, inner_x, term);
        let mut dims: Vec<Ex> = x.dims[..rx - 1].to_vec();
        dims.extend(y.dims[1..].iter().cloned());
        Ok(if dims.is_empty() {
            Value::Scalar(sum)
        } else {
            Value::Sized(Sized { dims, element: sum })
        })
    }

    /// MC132 unless every dimension of `a` is the same parameter expression
    /// as that of `b`.
    pub fn same_dims(&self, a: &[Ex], b: &[Ex], e: &Expr) -> Result<(), Diagnostic> {
        if a.len() == b.len() && a.iter().zip(b).all(|(x, y)| self.same_size(x, y)) {
            return Ok(());
        }
        Err(Diagnostic::error(
            "MC132",
            e.span,
            format!(
                "arrays of sizes {} and {} cannot be combined",
                self.dims_text(a),
                self.dims_text(b)
            ),
        )
        .with_label("sizes differ")
        .with_help("size both arrays by the same parameter expression (`x[n]`, `y[n]`)"))
    }

    /// Two sizes that are one Integer-parameter expression, whatever values
    /// the parameters get at export.
    pub fn same_size(&self, a: &Ex, b: &Ex) -> bool {
        match (affine(a, 0), affine(b, 0)) {
            (Some(x), Some(y)) => x == y,
            _ => false,
        }
    }

    fn mixed(&self, e: &Expr) -> Diagnostic {
        Diagnostic::error(
            "MC132",
            e.span,
            "an array of literal size and a parameter-sized array cannot be combined",
        )
        .with_label("literal and parameter sizes")
        .with_help("size both arrays by the same Integer parameter")
    }

    /// Sizes as written: `[n, n]`.
    pub fn dims_text(&self, dims: &[Ex]) -> String {
        let d: Vec<String> = dims.iter().map(|x| self.int_text(x)).collect();
        format!("[{}]", d.join(", "))
    }

    fn int_text(&self, e: &Ex) -> String {
        match e {
            Ex::Int(i) => i.to_string(),
            Ex::IntParam(k) => self
                .int_params
                .get(*k)
                .map(|v| self.model.vars[*v].name.clone())
                .unwrap_or_else(|| "?".into()),
            Ex::Neg(a) => format!("-{}", self.int_text(a)),
            Ex::Bin(op, a, b) => {
                let o = match op {
                    Arith::Add => "+",
                    Arith::Sub => "-",
                    Arith::Mul => "*",
                    Arith::Div => "/",
                    _ => "?",
                };
                format!("{} {o} {}", self.int_text(a), self.int_text(b))
            }
            _ => "?".into(),
        }
    }
}

/// `op` of `body` over `1..n` with loop variable `d`.
fn reduce(op: Reduction, d: usize, n: Ex, body: Ex) -> Ex {
    Ex::Reduce(op, d, Box::new(Ex::Int(1)), Box::new(n), Box::new(body))
}
