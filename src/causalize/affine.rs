//! Integer index expressions as affine forms in Integer parameters.

use super::solve;
use crate::ir::{self, Affine, Ex};
use crate::source::Span;

/// Does a list of ranges cover `1..=dim` exactly once?
pub fn tiles(ranges: &[(Affine, Affine, Span)], dims: &[Affine]) -> bool {
    if dims.is_empty() {
        return false;
    }
    let Some(dim) = total_size(dims) else {
        return false;
    };
    let mut sorted: Vec<&(Affine, Affine, Span)> = ranges.iter().collect();
    sorted.sort_by_key(|r| r.0.generic_value());
    let mut next = Affine::constant(1);
    for (lo, hi, _) in sorted {
        if *lo != next {
            return false;
        }
        next = hi.add(&Affine::constant(1), 1);
    }
    next == dim.add(&Affine::constant(1), 1)
}

/// An integer expression as an affine form in Integer parameters; loop
/// variables are not allowed below `loops` (0 = none allowed).
pub fn affine(e: &Ex, loops: usize) -> Option<Affine> {
    match e {
        Ex::Int(i) => Some(Affine::constant(*i)),
        Ex::IntParam(k) => Some(Affine::param(*k)),
        Ex::LoopVar(d) if *d < loops => Some(Affine::default()),
        Ex::Neg(a) => Some(affine(a, loops)?.scale(-1)),
        Ex::Bin(ir::Arith::Add, a, b) => Some(affine(a, loops)?.add(&affine(b, loops)?, 1)),
        Ex::Bin(ir::Arith::Sub, a, b) => Some(affine(a, loops)?.add(&affine(b, loops)?, -1)),
        Ex::Bin(ir::Arith::Mul, a, b) => {
            let (x, y) = (affine(a, loops)?, affine(b, loops)?);
            if x.terms.is_empty() && !contains_loop(a) {
                Some(y.scale(x.constant))
            } else if y.terms.is_empty() && !contains_loop(b) {
                Some(x.scale(y.constant))
            } else {
                None
            }
        }
        _ => None,
    }
}

pub fn contains_loop(e: &Ex) -> bool {
    let mut found = false;
    e.visit(&mut |x| {
        if matches!(x, Ex::LoopVar(_)) {
            found = true
        }
    });
    found
}

/// For an index `i + c` with `i` the loop variable at `depth`: (c, 1).
pub fn loop_shift(e: &Ex, depth: usize) -> Option<(Affine, i64)> {
    match e {
        Ex::LoopVar(d) if *d == depth => Some((Affine::default(), 1)),
        Ex::Bin(ir::Arith::Add, a, b) => {
            if let Some((s, c)) = loop_shift(a, depth) {
                Some((s.add(&affine(b, 0)?, 1), c))
            } else {
                let (s, c) = loop_shift(b, depth)?;
                Some((s.add(&affine(a, 0)?, 1), c))
            }
        }
        Ex::Bin(ir::Arith::Sub, a, b) => {
            let (s, c) = loop_shift(a, depth)?;
            Some((s.add(&affine(b, 0)?, -1), c))
        }
        _ => None,
    }
}

pub fn affine_to_ex(a: &Affine) -> Ex {
    let mut e = Ex::Int(a.constant);
    for (k, c) in &a.terms {
        let term = if *c == 1 {
            Ex::IntParam(*k)
        } else {
            Ex::Bin(
                ir::Arith::Mul,
                Box::new(Ex::Int(*c)),
                Box::new(Ex::IntParam(*k)),
            )
        };
        e = if solve::is_zero(&e) {
            term
        } else {
            Ex::Bin(ir::Arith::Add, Box::new(e), Box::new(term))
        };
    }
    e
}

/// The number of elements of an array with these dimensions.
pub fn total_size(dims: &[Affine]) -> Option<Affine> {
    match dims {
        [] => Some(Affine::constant(1)),
        [d] => Some(d.clone()),
        _ => {
            let mut n = 1i64;
            for d in dims {
                if !d.terms.is_empty() {
                    return None;
                }
                n *= d.constant;
            }
            Some(Affine::constant(n))
        }
    }
}
