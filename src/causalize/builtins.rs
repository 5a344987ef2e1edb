//! Array built-ins over values of literal shape (`sum product size ndims
//! min max cross skew identity zeros ones fill`) and the scalar ones that
//! only pass a value on (`smooth`) or choose a slope (`semiLinear`). Each
//! is expanded into its elements, as matrix products and `transpose` are:
//! the kernel sees scalar arithmetic.

use super::affine::affine;
use super::lowerer::{Context, Lowerer};
use super::value::{Sized, Value};
use crate::diagnostic::Diagnostic;
use crate::ir::{Arith, Ex, Func, Reduction, RelOp};
use crate::resolve::expr::{Expr, ExprKind, Referent};

/// The built-in functions the lowerer knows, for the help of MC023.
pub const BUILTIN_NAMES: &str = "sin cos tan asin acos atan atan2 sinh cosh tanh exp log log10 sqrt abs sign min max, der, noEvent, smooth, semiLinear, transpose, sum product size ndims cross skew identity zeros ones fill";

impl Lowerer<'_> {
    /// The value of a call of an array built-in; `None` when `name` is
    /// none of them (or `min`/`max` with two arguments, a scalar function).
    pub fn array_builtin(
        &mut self,
        name: &str,
        args: &[Expr],
        e: &Expr,
        ctx: Context,
    ) -> Option<Result<Value, Diagnostic>> {
        let r = match name {
            "sum" | "product" => self.reduce(name, args, e, ctx),
            "min" | "max" if args.len() == 1 => self.reduce(name, args, e, ctx),
            "size" => self.size(args, e),
            "ndims" => self.one(args, e, name).and_then(|a| {
                Ok(Value::Scalar(Ex::Int(
                    self.value(a, ctx)?.shape().len() as i64
                )))
            }),
            "cross" => self.cross(args, e, ctx),
            "skew" => self.skew(args, e, ctx),
            "identity" => self.one(args, e, name).and_then(|a| {
                if a.integer().is_none() {
                    // A parameter size: a matrix read element by element.
                    let n = self.lower(a, Context::Direct)?;
                    if affine(&n, 0).is_some() {
                        return Ok(self.sized_identity(n));
                    }
                }
                let n = literal_size(a)?;
                let el = (0..n * n)
                    .map(|k| Ex::Int(i64::from(k / n == k % n)))
                    .collect();
                Ok(Value::Array(vec![n, n], el))
            }),
            "zeros" | "ones" => {
                let fill = Ex::Int(i64::from(name == "ones"));
                self.filled(fill, args, e)
            }
            "fill" => match args.split_first() {
                Some((v, sizes)) => self.lower(v, ctx).and_then(|v| self.filled(v, sizes, e)),
                None => Err(arity(e, name, "at least 2")),
            },
            "smooth" => {
                if args.len() != 2 {
                    return Some(Err(arity(e, name, "2")));
                }
                self.value(&args[1], ctx)
            }
            "semiLinear" => self.semi_linear(args, e, ctx),
            _ => return None,
        };
        Some(r)
    }

    fn one<'x>(&self, args: &'x [Expr], e: &Expr, name: &str) -> Result<&'x Expr, Diagnostic> {
        match args {
            [a] => Ok(a),
            _ => Err(arity(e, name, "1")),
        }
    }

    /// `sum`, `product`, `min`, `max` of the elements of an array.
    fn reduce(
        &mut self,
        name: &str,
        args: &[Expr],
        e: &Expr,
        ctx: Context,
    ) -> Result<Value, Diagnostic> {
        let a = self.one(args, e, name)?;
        let value = self.value_any(a, ctx)?;
        if let Value::Sized(a) = value {
            let op = match name {
                "sum" => Reduction::Sum,
                "product" => Reduction::Product,
                "min" => Reduction::Min,
                _ => Reduction::Max,
            };
            return Ok(Value::Scalar(self.sized_reduce(op, &a)));
        }
        let mut el = value.elements().into_iter();
        let Some(first) = el.next() else {
            return Ok(Value::Scalar(match name {
                "sum" => Ex::Int(0),
                "product" => Ex::Int(1),
                _ => return Err(shape_error(e, &format!("`{name}` of an empty array"))),
            }));
        };
        Ok(Value::Scalar(el.fold(first, |acc, x| match name {
            "sum" => Ex::Bin(Arith::Add, Box::new(acc), Box::new(x)),
            "product" => Ex::Bin(Arith::Mul, Box::new(acc), Box::new(x)),
            "min" => Ex::Call(Func::Min, vec![acc, x]),
            _ => Ex::Call(Func::Max, vec![acc, x]),
        })))
    }

    /// `size(A, k)` is the k-th dimension as declared (an Integer
    /// parameter expression for a parameter-sized array); `size(A)` the
    /// vector of the sizes of an array of literal shape.
    fn size(&mut self, args: &[Expr], e: &Expr) -> Result<Value, Diagnostic> {
        let (a, k) = match args {
            [a] => (a, None),
            [a, k] => (a, Some(k)),
            _ => return Err(arity(e, "size", "1 or 2")),
        };
        let dims: Vec<Expr> = match &a.kind {
            ExprKind::Ref(r) if r.subscripts.is_empty() => match &r.target {
                Referent::Var(v) => self.model.vars[*v].dims.clone(),
                _ => Vec::new(),
            },
            _ => Vec::new(),
        };
        let shape_dims: Vec<Ex> = if dims.is_empty() {
            let shape = self.value(a, Context::Direct)?.shape();
            shape.iter().map(|n| Ex::Int(*n as i64)).collect()
        } else {
            let mut out = Vec::new();
            for d in &dims {
                out.push(self.lower(d, Context::Direct)?);
            }
            out
        };
        let Some(k) = k else {
            let n = shape_dims.len();
            return Ok(Value::Array(vec![n], shape_dims));
        };
        let Some(j) = k.integer() else {
            return Err(Diagnostic::error(
                "MC098",
                k.span,
                "the dimension argument of `size` must be an Integer literal",
            )
            .with_label("not a literal")
            .with_help("write size(A, 1), size(A, 2), ..."));
        };
        match shape_dims.get((j as usize).wrapping_sub(1)) {
            Some(d) if j >= 1 => Ok(Value::Scalar(d.clone())),
            _ => Err(Diagnostic::error(
                "MC098",
                k.span,
                format!(
                    "the array has {} dimension(s); there is no dimension {j}",
                    shape_dims.len()
                ),
            )
            .with_label("no such dimension")
            .with_help("count dimensions from 1")),
        }
    }

    fn vector3(&mut self, a: &Expr, e: &Expr, ctx: Context) -> Result<Vec<Ex>, Diagnostic> {
        let v = self.value(a, ctx)?;
        if v.shape() != [3] {
            return Err(shape_error(e, "`cross` and `skew` take vectors of size 3"));
        }
        Ok(v.elements())
    }

    fn cross(&mut self, args: &[Expr], e: &Expr, ctx: Context) -> Result<Value, Diagnostic> {
        let [a, b] = args else {
            return Err(arity(e, "cross", "2"));
        };
        let (x, y) = (self.vector3(a, e, ctx)?, self.vector3(b, e, ctx)?);
        let term = |i: usize, j: usize| {
            Ex::Bin(
                Arith::Sub,
                Box::new(mul(x[i].clone(), y[j].clone())),
                Box::new(mul(x[j].clone(), y[i].clone())),
            )
        };
        Ok(Value::Array(
            vec![3],
            vec![term(1, 2), term(2, 0), term(0, 1)],
        ))
    }

    fn skew(&mut self, args: &[Expr], e: &Expr, ctx: Context) -> Result<Value, Diagnostic> {
        let a = self.one(args, e, "skew")?;
        let x = self.vector3(a, e, ctx)?;
        let neg = |k: usize| Ex::Neg(Box::new(x[k].clone()));
        let zero = || Ex::Int(0);
        Ok(Value::Array(
            vec![3, 3],
            vec![
                zero(),
                neg(2),
                x[1].clone(),
                x[2].clone(),
                zero(),
                neg(0),
                neg(1),
                x[0].clone(),
                zero(),
            ],
        ))
    }

    /// An array of literal sizes `sizes` with every element `value`.
    fn filled(&mut self, value: Ex, sizes: &[Expr], e: &Expr) -> Result<Value, Diagnostic> {
        if sizes.is_empty() {
            return Err(arity(e, "zeros/ones/fill", "at least one size"));
        }
        if sizes.iter().any(|s| s.integer().is_none()) {
            return self.sized_filled(value, sizes);
        }
        let mut shape = Vec::new();
        for s in sizes {
            shape.push(literal_size(s)?);
        }
        let n = shape.iter().product();
        Ok(Value::Array(shape, vec![value; n]))
    }

    /// `fill(v, n)` (and `zeros`, `ones`) with a size of Integer
    /// parameters: a parameter-sized array whose every element is `v`, so
    /// the kernel reads it in a loop over the run-time size. Every size is
    /// then an expression of Integer parameters and literals.
    fn sized_filled(&mut self, value: Ex, sizes: &[Expr]) -> Result<Value, Diagnostic> {
        let mut dims = Vec::new();
        for s in sizes {
            let n = self.lower(s, Context::Direct)?;
            if affine(&n, 0).is_none() {
                return Err(literal_size(s).expect_err("a size that is not a literal"));
            }
            dims.push(n);
        }
        Ok(Value::Sized(Sized {
            dims,
            element: value,
        }))
    }

    /// `semiLinear(x, k_pos, k_neg)`: `x*k_pos` for x >= 0, else `x*k_neg`.
    fn semi_linear(&mut self, args: &[Expr], e: &Expr, ctx: Context) -> Result<Value, Diagnostic> {
        let [x, kp, kn] = args else {
            return Err(arity(e, "semiLinear", "3"));
        };
        let x = self.lower(x, ctx)?;
        let (kp, kn) = (self.lower(kp, ctx)?, self.lower(kn, ctx)?);
        let cond = self.relation(RelOp::Ge, x.clone(), Ex::Int(0), ctx);
        Ok(Value::Scalar(Ex::If(
            vec![(cond, mul(x.clone(), kp))],
            Box::new(mul(x, kn)),
        )))
    }
}

fn mul(a: Ex, b: Ex) -> Ex {
    Ex::Bin(Arith::Mul, Box::new(a), Box::new(b))
}

/// A size written as an Integer literal (array constructors of
/// parameter size are not expanded).
fn literal_size(e: &Expr) -> Result<usize, Diagnostic> {
    match e.integer() {
        Some(n) if n >= 0 => Ok(n as usize),
        _ => Err(Diagnostic::error(
            "MC098",
            e.span,
            "the size of `identity`, `zeros`, `ones` and `fill` must be an Integer literal or an expression of Integer parameters",
        )
        .with_label("not a structural size")
        .with_help("write the size as a number or an Integer parameter (`fill(0, n)`), or loop over a parameter-sized array with `for`")),
    }
}

fn arity(e: &Expr, name: &str, n: &str) -> Diagnostic {
    Diagnostic::error("MC035", e.span, format!("`{name}` takes {n} argument(s)"))
        .with_label("wrong number of arguments")
        .with_help(format!("call `{name}` with {n} argument(s)"))
}

fn shape_error(e: &Expr, what: &str) -> Diagnostic {
    Diagnostic::error("MC063", e.span, what.to_string())
        .with_label("array sizes do not fit")
        .with_help("make the sizes agree")
}
