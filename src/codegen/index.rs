//! Affine index arithmetic of class kernels: which array accesses are in
//! range for every size, which need one check before their loop, and which
//! (not affine) keep a check on every element.

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::ir::{Arith, Ex};

/// An integer expression `constant + Σ coefficient·IntParam + Σ coefficient·LoopVar`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Lin {
    pub constant: i64,
    /// Integer parameters of the class by number.
    pub params: BTreeMap<usize, i64>,
    /// Loop variables by nesting depth.
    pub loops: BTreeMap<usize, i64>,
}

impl Lin {
    pub fn constant(c: i64) -> Lin {
        Lin {
            constant: c,
            ..Lin::default()
        }
    }

    /// The affine form of an Integer expression, or `None` when it is not
    /// affine (a product of two variables, a division, a Real expression)
    /// or a coefficient would overflow.
    pub fn of(e: &Ex) -> Option<Lin> {
        match e {
            Ex::Int(i) => Some(Lin::constant(*i)),
            Ex::IntParam(k) => {
                let mut l = Lin::default();
                l.params.insert(*k, 1);
                Some(l)
            }
            Ex::LoopVar(d) => {
                let mut l = Lin::default();
                l.loops.insert(*d, 1);
                Some(l)
            }
            Ex::Neg(a) => Lin::of(a)?.scale(-1),
            Ex::Bin(Arith::Add, a, b) => Lin::of(a)?.add(&Lin::of(b)?, 1),
            Ex::Bin(Arith::Sub, a, b) => Lin::of(a)?.add(&Lin::of(b)?, -1),
            Ex::Bin(Arith::Mul, a, b) => {
                let (a, b) = (Lin::of(a)?, Lin::of(b)?);
                if a.is_constant() {
                    b.scale(a.constant)
                } else if b.is_constant() {
                    a.scale(b.constant)
                } else {
                    None
                }
            }
            _ => None,
        }
    }

    pub fn is_constant(&self) -> bool {
        self.params.is_empty() && self.loops.is_empty()
    }

    pub fn scale(&self, k: i64) -> Option<Lin> {
        let mut out = Lin::constant(self.constant.checked_mul(k)?);
        for (p, c) in &self.params {
            out.params.insert(*p, c.checked_mul(k)?);
        }
        for (d, c) in &self.loops {
            out.loops.insert(*d, c.checked_mul(k)?);
        }
        Some(out)
    }

    /// `self + sign·other`, dropping terms that cancel.
    pub fn add(&self, other: &Lin, sign: i64) -> Option<Lin> {
        let mut out = self.clone();
        out.constant = out
            .constant
            .checked_add(other.constant.checked_mul(sign)?)?;
        for (map, theirs) in [
            (&mut out.params, &other.params),
            (&mut out.loops, &other.loops),
        ] {
            for (k, c) in theirs {
                let v = map.get(k).copied().unwrap_or(0);
                let v = v.checked_add(c.checked_mul(sign)?)?;
                if v == 0 {
                    map.remove(k);
                } else {
                    map.insert(*k, v);
                }
            }
        }
        Some(out)
    }

    /// Replaces the loop variable of depth `depth` by `value`.
    pub fn substitute(&self, depth: usize, value: &Lin) -> Option<Lin> {
        let Some(&c) = self.loops.get(&depth) else {
            return Some(self.clone());
        };
        let mut rest = self.clone();
        rest.loops.remove(&depth);
        rest.add(&value.scale(c)?, 1)
    }

    /// True when the value is known to be at least zero for every value of
    /// the parameters: only a constant can be proven so.
    pub fn proven_non_negative(&self) -> bool {
        self.is_constant() && self.constant >= 0
    }

    /// C text of the expression, with `param(k)` naming Integer parameter
    /// `k` and `i<d>` the loop variables.
    pub fn c(&self, param: &dyn Fn(usize) -> String) -> String {
        let mut s = String::new();
        let terms = self
            .params
            .iter()
            .map(|(k, c)| (param(*k), *c))
            .chain(self.loops.iter().map(|(d, c)| (format!("i{d}"), *c)));
        for (name, c) in terms {
            let sign = if c < 0 { "-" } else { "+" };
            if s.is_empty() {
                if c < 0 {
                    s.push('-');
                }
            } else {
                let _ = write!(s, " {sign} ");
            }
            if c.unsigned_abs() == 1 {
                s.push_str(&name);
            } else {
                let _ = write!(s, "INT64_C({}) * {name}", c.unsigned_abs());
            }
        }
        if s.is_empty() {
            return format!("INT64_C({})", self.constant);
        }
        match self.constant {
            0 => {}
            c if c < 0 => {
                let _ = write!(s, " - INT64_C({})", c.unsigned_abs());
            }
            c => {
                let _ = write!(s, " + INT64_C({c})");
            }
        }
        format!("({s})")
    }
}

/// The smallest and largest value of `index` while the loop variable of
/// depth `depth` runs from `lo` to `hi` (the loop being entered).
pub fn extremes(index: &Lin, depth: usize, lo: &Lin, hi: &Lin) -> Option<(Lin, Lin)> {
    match index.loops.get(&depth) {
        None => Some((index.clone(), index.clone())),
        Some(&c) if c > 0 => Some((index.substitute(depth, lo)?, index.substitute(depth, hi)?)),
        Some(_) => Some((index.substitute(depth, hi)?, index.substitute(depth, lo)?)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(op: Arith, a: Ex, c: Ex) -> Ex {
        Ex::Bin(op, Box::new(a), Box::new(c))
    }

    #[test]
    fn neighbours_of_the_rod_loop_are_proven_in_range() {
        // T[i-1] and T[i+1] with i in 2:n-1, T of size n.
        let n = Lin::of(&Ex::IntParam(0)).unwrap();
        let lo = Lin::constant(2);
        let hi = Lin::of(&b(Arith::Add, Ex::Int(-1), Ex::IntParam(0))).unwrap();
        for offset in [-1, 0, 1] {
            let index = Lin::of(&b(Arith::Add, Ex::LoopVar(0), Ex::Int(offset))).unwrap();
            let (min, max) = extremes(&index, 0, &lo, &hi).unwrap();
            assert!(min
                .add(&Lin::constant(1), -1)
                .unwrap()
                .proven_non_negative());
            assert!(n.add(&max, -1).unwrap().proven_non_negative());
        }
        // T[i+2] is not: it reaches n+1.
        let index = Lin::of(&b(Arith::Add, Ex::LoopVar(0), Ex::Int(2))).unwrap();
        let (_, max) = extremes(&index, 0, &lo, &hi).unwrap();
        assert!(!n.add(&max, -1).unwrap().proven_non_negative());
    }

    #[test]
    fn reversed_and_non_affine_indices() {
        // T[n+1-i] with i in 1:n runs from n down to 1.
        let index = Lin::of(&b(
            Arith::Sub,
            b(Arith::Add, Ex::IntParam(0), Ex::Int(1)),
            Ex::LoopVar(0),
        ))
        .unwrap();
        let (min, max) = extremes(
            &index,
            0,
            &Lin::constant(1),
            &Lin::of(&Ex::IntParam(0)).unwrap(),
        )
        .unwrap();
        assert_eq!(min, Lin::constant(1));
        assert_eq!(max, Lin::of(&Ex::IntParam(0)).unwrap());
        assert_eq!(
            Lin::of(&b(Arith::Mul, Ex::LoopVar(0), Ex::LoopVar(0))),
            None
        );
        assert_eq!(max.c(&|k| format!("p{k}")), "(p0)");
        let l = Lin::of(&b(Arith::Sub, Ex::LoopVar(1), Ex::Int(2))).unwrap();
        assert_eq!(l.c(&|k| format!("p{k}")), "(i1 - INT64_C(2))");
    }
}
