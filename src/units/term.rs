//! Unit terms: a constant unit times unknown units raised to rational
//! powers, and the solver that unifies them.
//!
//! Units form an abelian group, so every constraint `a = b` becomes
//! `a / b = 1`, a linear equation over the rationals in the exponents of
//! the unknowns. The solver eliminates one unknown per independent
//! constraint (Gaussian elimination, one equation at a time) and keeps
//! every solution expressed in the unknowns still free; those are the unit
//! type variables of the class.

use num_rational::Rational64;

use super::parse::{ratio_to_f64, Unit, N_DIMS, RAD};

pub type Q = Rational64;

/// Dimensions that take part in checking: kg, m, s, A, K, mol, cd. The
/// radian is a unit of dimension one (SI), so `rad/s * s` may enter `sin`.
pub const N_CHECKED: usize = 7;

/// A constant unit: exponents of the checked base units and the factor
/// that converts to them. Offsets (degC) do not take part in checking.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Dim {
    pub e: [Q; N_CHECKED],
    pub factor: f64,
}

impl Dim {
    pub const ONE: Dim = Dim {
        e: [Q::new_raw(0, 1); N_CHECKED],
        factor: 1.0,
    };

    pub fn from_unit(u: &Unit) -> Dim {
        let mut e = Dim::ONE.e;
        let mut k = 0;
        for (i, x) in u.exponents.iter().enumerate().take(N_DIMS) {
            if i == RAD {
                continue;
            }
            e[k] = *x;
            k += 1;
        }
        Dim {
            e,
            factor: u.factor,
        }
    }

    pub fn seconds() -> Dim {
        let mut d = Dim::ONE;
        d.e[2] = Q::from_integer(1);
        d
    }

    pub fn mul(&self, o: &Dim) -> Dim {
        let mut e = self.e;
        for (a, b) in e.iter_mut().zip(o.e) {
            *a += b;
        }
        Dim {
            e,
            factor: self.factor * o.factor,
        }
    }

    pub fn pow(&self, q: Q) -> Dim {
        let mut e = self.e;
        for a in &mut e {
            *a *= q;
        }
        Dim {
            e,
            factor: self.factor.powf(ratio_to_f64(q)),
        }
    }

    pub fn is_one(&self) -> bool {
        self.same_dimension(&Dim::ONE) && same_factor(self.factor, 1.0)
    }

    pub fn same_dimension(&self, o: &Dim) -> bool {
        self.e == o.e
    }

    /// Same dimension and the same scale.
    pub fn same(&self, o: &Dim) -> bool {
        self.same_dimension(o) && same_factor(self.factor, o.factor)
    }
}

pub fn same_factor(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs())
}

/// `dim * product(unknown_k ^ q_k)`, unknowns sorted by number.
#[derive(Debug, Clone, PartialEq)]
pub struct Term {
    pub dim: Dim,
    pub vars: Vec<(usize, Q)>,
}

impl Term {
    pub fn one() -> Term {
        Term::constant(Dim::ONE)
    }

    pub fn constant(dim: Dim) -> Term {
        Term {
            dim,
            vars: Vec::new(),
        }
    }

    pub fn unknown(k: usize) -> Term {
        Term {
            dim: Dim::ONE,
            vars: vec![(k, Q::from_integer(1))],
        }
    }

    pub fn is_constant(&self) -> bool {
        self.vars.is_empty()
    }

    pub fn mul(&self, o: &Term) -> Term {
        let mut vars = self.vars.clone();
        for (k, q) in &o.vars {
            match vars.binary_search_by_key(k, |x| x.0) {
                Ok(i) => {
                    vars[i].1 += q;
                    if vars[i].1 == Q::from_integer(0) {
                        vars.remove(i);
                    }
                }
                Err(i) => vars.insert(i, (*k, *q)),
            }
        }
        Term {
            dim: self.dim.mul(&o.dim),
            vars,
        }
    }

    pub fn pow(&self, q: Q) -> Term {
        if q == Q::from_integer(0) {
            return Term::one();
        }
        Term {
            dim: self.dim.pow(q),
            vars: self.vars.iter().map(|(k, x)| (*k, x * q)).collect(),
        }
    }

    pub fn div(&self, o: &Term) -> Term {
        self.mul(&o.pow(Q::from_integer(-1)))
    }

    /// Replaces every unknown by the term `map` gives for it.
    pub fn substitute(&self, map: &dyn Fn(usize) -> Term) -> Term {
        let mut out = Term::constant(self.dim);
        for (k, q) in &self.vars {
            out = out.mul(&map(*k).pow(*q));
        }
        out
    }
}

/// Unknown units and what is known about them.
#[derive(Debug, Clone, Default)]
pub struct Solver {
    /// The solution of each unknown, in terms of unknowns still free.
    solved: Vec<Option<Term>>,
}

/// Two units that were required to be equal and are not, both in terms of
/// the unknowns still free.
#[derive(Debug, Clone, PartialEq)]
pub struct Mismatch {
    pub left: Term,
    pub right: Term,
}

impl Solver {
    pub fn fresh(&mut self) -> usize {
        self.solved.push(None);
        self.solved.len() - 1
    }

    pub fn len(&self) -> usize {
        self.solved.len()
    }

    pub fn is_empty(&self) -> bool {
        self.solved.is_empty()
    }

    pub fn is_free(&self, k: usize) -> bool {
        self.solved[k].is_none()
    }

    /// The term with every solved unknown replaced by its solution.
    pub fn normalize(&self, t: &Term) -> Term {
        if t.vars.iter().all(|(k, _)| self.solved[*k].is_none()) {
            return t.clone();
        }
        t.substitute(&|k| match &self.solved[k] {
            Some(s) => s.clone(),
            None => Term::unknown(k),
        })
    }

    /// Requires `a = b`. On success one unknown may become solved.
    pub fn unify(&mut self, a: &Term, b: &Term) -> Result<(), Mismatch> {
        let d = self.normalize(&a.div(b));
        let Some(&(pick, coefficient)) = d.vars.last() else {
            if d.dim.is_one() {
                return Ok(());
            }
            return Err(Mismatch {
                left: self.normalize(a),
                right: self.normalize(b),
            });
        };
        // d = pick^c * rest = 1, so pick = rest^(-1/c). The unknown created
        // last is eliminated, so that earlier declarations (inputs before
        // outputs) stay the type variables.
        let rest = Term {
            dim: d.dim,
            vars: d.vars[..d.vars.len() - 1].to_vec(),
        };
        let solution = rest.pow(-Q::from_integer(1) / coefficient);
        for s in self.solved.iter_mut().flatten() {
            if s.vars.iter().any(|(k, _)| *k == pick) {
                *s = s.substitute(&|k| {
                    if k == pick {
                        solution.clone()
                    } else {
                        Term::unknown(k)
                    }
                });
            }
        }
        self.solved[pick] = Some(solution);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::units::parse::parse;

    fn c(s: &str) -> Term {
        Term::constant(Dim::from_unit(&parse(s).unwrap()))
    }

    #[test]
    fn solves_and_detects_mismatch() {
        let mut s = Solver::default();
        let x = s.fresh();
        let y = s.fresh();
        // y = x / s, x = m  => y = m/s
        s.unify(&Term::unknown(y), &Term::unknown(x).div(&c("s")))
            .unwrap();
        s.unify(&Term::unknown(x), &c("m")).unwrap();
        assert_eq!(s.normalize(&Term::unknown(y)), c("m/s"));
        assert!(s.unify(&Term::unknown(y), &c("m/s")).is_ok());
        assert!(s.unify(&Term::unknown(y), &c("mm/s")).is_err());
        assert!(s.unify(&Term::unknown(y), &c("N")).is_err());
    }

    #[test]
    fn rational_exponents() {
        let mut s = Solver::default();
        let x = s.fresh();
        // x^2 = m  => x = m^(1/2)
        s.unify(&Term::unknown(x).pow(Q::from_integer(2)), &c("m"))
            .unwrap();
        let r = s.normalize(&Term::unknown(x));
        assert_eq!(r.dim.e[1], Q::new(1, 2));
        assert!(c("rad/s").mul(&c("s")).dim.is_one());
    }
}
