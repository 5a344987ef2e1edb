//! Solving one equation for its one unknown, and small algebra on [`Ex`].

use crate::ir::{Arith, Ex, SlotId};

/// The unknown an equation determines: a slot and, for arrays, its index.
#[derive(Debug, Clone, PartialEq)]
pub struct Target {
    pub slot: SlotId,
    pub index: Option<Ex>,
}

impl Target {
    fn matches(&self, e: &Ex) -> bool {
        match e {
            Ex::Var(s, i) => *s == self.slot && i.as_deref() == self.index.as_ref(),
            _ => false,
        }
    }

    fn occurs_in(&self, e: &Ex) -> bool {
        let mut found = false;
        e.visit(&mut |x| {
            if self.matches(x) {
                found = true;
            }
        });
        found
    }
}

pub fn add(a: Ex, b: Ex) -> Ex {
    match (&a, &b) {
        (x, _) if is_zero(x) => b,
        (_, y) if is_zero(y) => a,
        _ => Ex::Bin(Arith::Add, Box::new(a), Box::new(b)),
    }
}

pub fn sub(a: Ex, b: Ex) -> Ex {
    match (&a, &b) {
        (_, y) if is_zero(y) => a,
        (x, _) if is_zero(x) => neg(b),
        _ => Ex::Bin(Arith::Sub, Box::new(a), Box::new(b)),
    }
}

pub fn mul(a: Ex, b: Ex) -> Ex {
    match (&a, &b) {
        (x, _) if is_zero(x) => Ex::Real(0.0),
        (_, y) if is_zero(y) => Ex::Real(0.0),
        (x, _) if is_one(x) => b,
        (_, y) if is_one(y) => a,
        _ => Ex::Bin(Arith::Mul, Box::new(a), Box::new(b)),
    }
}

pub fn div(a: Ex, b: Ex) -> Ex {
    if is_one(&b) {
        return a;
    }
    if is_zero(&a) {
        return Ex::Real(0.0);
    }
    Ex::Bin(Arith::Div, Box::new(a), Box::new(b))
}

pub fn neg(a: Ex) -> Ex {
    match a {
        Ex::Neg(x) => *x,
        Ex::Real(r) => Ex::Real(-r),
        Ex::Int(i) => Ex::Int(-i),
        x => Ex::Neg(Box::new(x)),
    }
}

pub fn is_zero(e: &Ex) -> bool {
    matches!(e, Ex::Real(r) if *r == 0.0) || matches!(e, Ex::Int(0))
}

/// Whether `e` is zero whatever the values of its variables: a literal
/// zero, a difference of two equal expressions, or a product, quotient or
/// negation of such.
fn identically_zero(e: &Ex) -> bool {
    match e {
        Ex::Bin(Arith::Sub, a, b) => a == b || (identically_zero(a) && identically_zero(b)),
        Ex::Bin(Arith::Add, a, b) => identically_zero(a) && identically_zero(b),
        Ex::Bin(Arith::Mul, a, b) => identically_zero(a) || identically_zero(b),
        Ex::Bin(Arith::Div, a, _) => identically_zero(a),
        Ex::Neg(a) => identically_zero(a),
        other => is_zero(other),
    }
}

pub fn is_one(e: &Ex) -> bool {
    matches!(e, Ex::Real(r) if *r == 1.0) || matches!(e, Ex::Int(1))
}

/// Writes `e` as `coefficient * target + rest` when `e` is affine in the
/// target; `None` when the target occurs nonlinearly.
fn linear(e: &Ex, t: &Target) -> Option<(Ex, Ex)> {
    if t.matches(e) {
        return Some((Ex::Real(1.0), Ex::Real(0.0)));
    }
    if !t.occurs_in(e) {
        return Some((Ex::Real(0.0), e.clone()));
    }
    match e {
        Ex::Neg(a) => {
            let (c, r) = linear(a, t)?;
            Some((neg(c), neg(r)))
        }
        Ex::Bin(Arith::Add, a, b) => {
            let (ca, ra) = linear(a, t)?;
            let (cb, rb) = linear(b, t)?;
            Some((add(ca, cb), add(ra, rb)))
        }
        Ex::Bin(Arith::Sub, a, b) => {
            let (ca, ra) = linear(a, t)?;
            let (cb, rb) = linear(b, t)?;
            Some((sub(ca, cb), sub(ra, rb)))
        }
        Ex::Bin(Arith::Mul, a, b) => {
            if !t.occurs_in(b) {
                let (c, r) = linear(a, t)?;
                Some((mul(c, (**b).clone()), mul(r, (**b).clone())))
            } else if !t.occurs_in(a) {
                let (c, r) = linear(b, t)?;
                Some((mul((**a).clone(), c), mul((**a).clone(), r)))
            } else {
                None
            }
        }
        Ex::Bin(Arith::Div, a, b) if !t.occurs_in(b) => {
            let (c, r) = linear(a, t)?;
            Some((div(c, (**b).clone()), div(r, (**b).clone())))
        }
        _ => None,
    }
}

/// Solves `lhs = rhs` for the target.
pub fn solve(lhs: &Ex, rhs: &Ex, t: &Target) -> Result<Ex, &'static str> {
    if t.matches(lhs) && !t.occurs_in(rhs) {
        return Ok(rhs.clone());
    }
    if t.matches(rhs) && !t.occurs_in(lhs) {
        return Ok(lhs.clone());
    }
    let f = sub(lhs.clone(), rhs.clone());
    let (c, r) = linear(&f, t).ok_or("it occurs nonlinearly")?;
    if is_zero(&c) {
        return Err("its coefficient is zero");
    }
    if identically_zero(&c) {
        // `(A1 - A1)*der(h)`: solved, it would divide by zero at every
        // evaluation; refused here, at its line.
        return Err("its coefficient is zero whatever the values (a difference of equal terms)");
    }
    if is_one(&c) {
        return Ok(neg(r));
    }
    if matches!(&c, Ex::Real(x) if *x == -1.0) {
        return Ok(r);
    }
    Ok(div(neg(r), c))
}
