//! Rebuilding lowered expressions node by node.

use super::solve::Target;
use crate::ir::Ex;

/// Rebuilds an expression, replacing the nodes `f` answers for.
pub fn rewrite<E>(e: &Ex, f: &mut dyn FnMut(&Ex) -> Option<Result<Ex, E>>) -> Result<Ex, E> {
    if let Some(r) = f(e) {
        return r;
    }
    let b = |x: Ex| Box::new(x);
    Ok(match e {
        Ex::Neg(a) => Ex::Neg(b(rewrite(a, f)?)),
        Ex::Not(a) => Ex::Not(b(rewrite(a, f)?)),
        Ex::Bin(o, x, y) => Ex::Bin(*o, b(rewrite(x, f)?), b(rewrite(y, f)?)),
        Ex::Rel(o, x, y, k) => Ex::Rel(*o, b(rewrite(x, f)?), b(rewrite(y, f)?), *k),
        Ex::Call(func, args) => Ex::Call(
            *func,
            args.iter()
                .map(|a| rewrite(a, f))
                .collect::<Result<_, E>>()?,
        ),
        Ex::User(sym, args, tangent) => Ex::User(
            sym.clone(),
            args.iter()
                .map(|a| rewrite(a, f))
                .collect::<Result<_, E>>()?,
            *tangent,
        ),
        Ex::If(branches, other) => {
            let mut out = Vec::new();
            for (c, v) in branches {
                out.push((rewrite(c, f)?, rewrite(v, f)?));
            }
            Ex::If(out, b(rewrite(other, f)?))
        }
        Ex::Reduce(op, d, lo, hi, body) => Ex::Reduce(
            *op,
            *d,
            b(rewrite(lo, f)?),
            b(rewrite(hi, f)?),
            b(rewrite(body, f)?),
        ),
        other => other.clone(),
    })
}

/// Replaces every occurrence of the target variable by `value`.
pub fn replace_var(e: &Ex, t: &Target, value: &Ex) -> Ex {
    let r: Result<Ex, ()> = rewrite(e, &mut |x| match x {
        Ex::Var(s, i) if *s == t.slot && i.as_deref() == t.index.as_ref() => {
            Some(Ok(value.clone()))
        }
        _ => None,
    });
    r.unwrap_or_else(|_| e.clone())
}
