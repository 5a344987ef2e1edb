//! Symbolic differentiation of [`Ex`] by the chain rule. The caller says
//! what the derivative of each variable is (a time derivative, or a
//! tangent for linear responses and directional derivatives).

use super::solve::{add, div, is_zero, mul, neg, sub};
use crate::ir::{Arith, Ex, Func, Reduction, RelKind, RelOp};

fn call(f: Func, args: Vec<Ex>) -> Ex {
    Ex::Call(f, args)
}

fn sq(a: Ex) -> Ex {
    mul(a.clone(), a)
}

/// Differentiates `e`. `leaf` gives the derivative of a variable, of
/// `time`, of a `DerOf` or of a tangent; constants differentiate to zero.
pub fn diff<E>(e: &Ex, leaf: &mut dyn FnMut(&Ex) -> Result<Ex, E>) -> Result<Ex, E> {
    Ok(match e {
        Ex::Real(_) | Ex::Int(_) | Ex::Bool(_) | Ex::IntParam(_) | Ex::LoopVar(_) => Ex::Real(0.0),
        Ex::Var(..) | Ex::DerOf(..) | Ex::Tan(..) | Ex::Time => leaf(e)?,
        Ex::Neg(a) => neg(diff(a, leaf)?),
        Ex::Not(_) | Ex::Rel(..) | Ex::Bin(Arith::And | Arith::Or, ..) | Ex::Initial => {
            Ex::Real(0.0)
        }
        Ex::Bin(Arith::Add, a, b) => add(diff(a, leaf)?, diff(b, leaf)?),
        Ex::Bin(Arith::Sub, a, b) => sub(diff(a, leaf)?, diff(b, leaf)?),
        Ex::Bin(Arith::Mul, a, b) => {
            let (da, db) = (diff(a, leaf)?, diff(b, leaf)?);
            add(mul(da, (**b).clone()), mul((**a).clone(), db))
        }
        Ex::Bin(Arith::Div, a, b) => {
            let (da, db) = (diff(a, leaf)?, diff(b, leaf)?);
            if is_zero(&db) {
                div(da, (**b).clone())
            } else {
                sub(
                    div(da, (**b).clone()),
                    div(mul((**a).clone(), db), sq((**b).clone())),
                )
            }
        }
        Ex::Bin(Arith::Pow, a, b) => {
            let (da, db) = (diff(a, leaf)?, diff(b, leaf)?);
            let (a, b) = ((**a).clone(), (**b).clone());
            if is_zero(&db) {
                // b * a^(b-1) * da
                let pow = Ex::Bin(
                    Arith::Pow,
                    Box::new(a),
                    Box::new(sub(b.clone(), Ex::Real(1.0))),
                );
                mul(mul(b, pow), da)
            } else {
                // a^b * (db*log(a) + b*da/a)
                let pow = Ex::Bin(Arith::Pow, Box::new(a.clone()), Box::new(b.clone()));
                mul(
                    pow,
                    add(
                        mul(db, call(Func::Log, vec![a.clone()])),
                        div(mul(b, da), a),
                    ),
                )
            }
        }
        // The chain rule through a user function is its tangent twin: the
        // arguments, then their tangents. A tangent call is differentiated
        // by the caller's `leaf` (second derivatives through functions are
        // not formed).
        Ex::User(sym, args, false) => {
            let mut all = args.clone();
            let mut any = false;
            for a in args {
                let d = diff(a, leaf)?;
                any |= !is_zero(&d);
                all.push(d);
            }
            if !any {
                return Ok(Ex::Real(0.0));
            }
            Ex::User(sym.clone(), all, true)
        }
        Ex::User(_, _, true) => leaf(e)?,
        Ex::Call(f, args) => {
            let a = args[0].clone();
            let da = diff(&args[0], leaf)?;
            match f {
                Func::Sin => mul(call(Func::Cos, vec![a]), da),
                Func::Cos => neg(mul(call(Func::Sin, vec![a]), da)),
                Func::Tan => div(da, sq(call(Func::Cos, vec![a]))),
                Func::Asin => div(da, call(Func::Sqrt, vec![sub(Ex::Real(1.0), sq(a))])),
                Func::Acos => neg(div(da, call(Func::Sqrt, vec![sub(Ex::Real(1.0), sq(a))]))),
                Func::Atan => div(da, add(Ex::Real(1.0), sq(a))),
                Func::Atan2 => {
                    // atan2(y, x): (x dy - y dx) / (x^2 + y^2)
                    let x = args[1].clone();
                    let dx = diff(&args[1], leaf)?;
                    div(
                        sub(mul(x.clone(), da), mul(a.clone(), dx)),
                        add(sq(x), sq(a)),
                    )
                }
                Func::Sinh => mul(call(Func::Cosh, vec![a]), da),
                Func::Cosh => mul(call(Func::Sinh, vec![a]), da),
                Func::Tanh => mul(sub(Ex::Real(1.0), sq(call(Func::Tanh, vec![a]))), da),
                Func::Exp => mul(call(Func::Exp, vec![a]), da),
                Func::Log => div(da, a),
                Func::Log10 => div(da, mul(a, Ex::Real(std::f64::consts::LN_10))),
                Func::Sqrt => div(da, mul(Ex::Real(2.0), call(Func::Sqrt, vec![a]))),
                Func::Abs => mul(call(Func::Sign, vec![a]), da),
                Func::Sign => Ex::Real(0.0),
                Func::Min | Func::Max => {
                    let b = args[1].clone();
                    let db = diff(&args[1], leaf)?;
                    let op = if *f == Func::Min {
                        RelOp::Lt
                    } else {
                        RelOp::Gt
                    };
                    let cond = Ex::Rel(op, Box::new(a), Box::new(b), RelKind::Direct);
                    Ex::If(vec![(cond, da)], Box::new(db))
                }
            }
        }
        Ex::If(branches, other) => {
            let mut out = Vec::new();
            for (c, v) in branches {
                out.push((c.clone(), diff(v, leaf)?));
            }
            Ex::If(out, Box::new(diff(other, leaf)?))
        }
        Ex::Reduce(op, d, lo, hi, body) => reduction(*op, *d, lo, hi, body, leaf)?,
    })
}

/// The derivative of a reduction over `lo..hi` (loop variable `d`): the
/// sum of the elements' derivatives; for a product each element's
/// derivative times the product of the others; for `min`/`max` the
/// derivative of the element that is the extremum (the first of equal
/// ones, as the reduction itself picks it).
fn reduction<E>(
    op: Reduction,
    d: usize,
    lo: &Ex,
    hi: &Ex,
    body: &Ex,
    leaf: &mut dyn FnMut(&Ex) -> Result<Ex, E>,
) -> Result<Ex, E> {
    let reduce = |op, d, body| {
        Ex::Reduce(
            op,
            d,
            Box::new(lo.clone()),
            Box::new(hi.clone()),
            Box::new(body),
        )
    };
    let db = diff(body, leaf)?;
    if is_zero(&db) {
        return Ok(Ex::Real(0.0));
    }
    Ok(match op {
        Reduction::Sum => reduce(Reduction::Sum, d, db),
        Reduction::Product => {
            // d(prod x) = sum_i dx_i * prod_{j != i} x_j, which stays exact
            // when an element is zero.
            let j = body.free_loop_depth().max(db.free_loop_depth()).max(d + 1);
            let other = body.substitute_loop_vars(&[(d, Ex::LoopVar(j))]);
            let same = Ex::Rel(
                RelOp::Eq,
                Box::new(Ex::LoopVar(j)),
                Box::new(Ex::LoopVar(d)),
                RelKind::Direct,
            );
            let others = reduce(
                Reduction::Product,
                j,
                Ex::If(vec![(same, Ex::Real(1.0))], Box::new(other)),
            );
            reduce(Reduction::Sum, d, mul(db, others))
        }
        Reduction::Min | Reduction::Max => {
            let arg = if op == Reduction::Min {
                Reduction::ArgMin
            } else {
                Reduction::ArgMax
            };
            db.substitute_loop_vars(&[(d, reduce(arg, d, body.clone()))])
        }
        // An index: piecewise constant.
        Reduction::ArgMin | Reduction::ArgMax => Ex::Real(0.0),
    })
}

/// Does the expression read a variable `pred` accepts?
pub fn reads(e: &Ex, pred: &dyn Fn(&Ex) -> bool) -> bool {
    let mut found = false;
    e.visit(&mut |x| {
        if pred(x) {
            found = true;
        }
    });
    found
}
