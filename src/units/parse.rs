//! Modelica unit strings (`"m/s"`, `"J/(kg.K)"`, `"m2"`, `"kN.m"`, `"1/s"`)
//! to SI base-unit exponents with a factor and an offset.
//!
//! The grammar follows the Modelica specification (section 19.1): factors
//! joined by `.`, one optional `/` whose denominator is a factor or a
//! parenthesised expression, integer exponents written after the unit
//! (`m2`, `s-1`, `m+2`), SI prefixes on named units (`mm`, `kN`, `mA`), and
//! `1` for the dimensionless unit. As an extension, parentheses may appear
//! anywhere and `/` may be chained (`m/s/s`).

use num_rational::Rational64;

/// Number of dimensions a unit string can carry: the seven SI base units
/// and the radian (kept apart so that FMI `BaseUnit rad` can be written).
pub const N_DIMS: usize = 8;

/// Names of the dimensions in the order of [`Unit::exponents`].
pub const DIM_NAMES: [&str; N_DIMS] = ["kg", "m", "s", "A", "K", "mol", "cd", "rad"];

pub const KG: usize = 0;
pub const M: usize = 1;
pub const S: usize = 2;
pub const A: usize = 3;
pub const K: usize = 4;
pub const MOL: usize = 5;
pub const CD: usize = 6;
pub const RAD: usize = 7;

/// A parsed unit: a value `v` in this unit is `factor * v + offset` in the
/// base units `kg^e0 . m^e1 . s^e2 . A^e3 . K^e4 . mol^e5 . cd^e6 . rad^e7`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Unit {
    pub exponents: [Rational64; N_DIMS],
    pub factor: f64,
    pub offset: f64,
}

/// Exponents of kg, m, s, A, K, mol, cd, rad as FMI 2.0 writes them
/// (integers), with the factor and offset that convert a value in this
/// unit to the base units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BaseUnits {
    pub exponents: [i32; N_DIMS],
    pub factor: f64,
    pub offset: f64,
}

/// Why a unit string was not understood.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UnitError {
    #[error("the unit string is empty")]
    Empty,
    #[error("`{0}` is not a known unit")]
    UnknownUnit(String),
    #[error("`{0}` is not a valid exponent")]
    BadExponent(String),
    #[error("unbalanced parentheses")]
    Parentheses,
    #[error("unexpected `{0}`")]
    Unexpected(char),
    #[error("`{0}` has an offset (like degC) and cannot be raised to a power or combined")]
    OffsetInProduct(String),
}

impl Unit {
    pub const ONE: Unit = Unit {
        exponents: [Rational64::new_raw(0, 1); N_DIMS],
        factor: 1.0,
        offset: 0.0,
    };

    pub fn pow(self, e: Rational64) -> Unit {
        let mut x = self.exponents;
        for v in &mut x {
            *v *= e;
        }
        Unit {
            exponents: x,
            factor: self.factor.powf(ratio_to_f64(e)),
            offset: if e == Rational64::from_integer(1) {
                self.offset
            } else {
                0.0
            },
        }
    }

    pub fn times(self, o: Unit) -> Unit {
        let mut x = self.exponents;
        for (a, b) in x.iter_mut().zip(o.exponents) {
            *a += b;
        }
        Unit {
            exponents: x,
            factor: self.factor * o.factor,
            offset: 0.0,
        }
    }

    /// The FMI form, when every exponent is an integer.
    pub fn base_units(&self) -> Option<BaseUnits> {
        let mut exps = [0i32; N_DIMS];
        for (o, e) in exps.iter_mut().zip(self.exponents) {
            if !e.is_integer() {
                return None;
            }
            *o = i32::try_from(e.to_integer()).ok()?;
        }
        Some(BaseUnits {
            exponents: exps,
            factor: self.factor,
            offset: self.offset,
        })
    }
}

pub fn ratio_to_f64(q: Rational64) -> f64 {
    *q.numer() as f64 / *q.denom() as f64
}

/// Parses a unit string. `None` when it is not a well-formed unit or has
/// exponents FMI cannot write.
pub fn parse_unit(text: &str) -> Option<BaseUnits> {
    parse(text).ok()?.base_units()
}

/// Parses a unit string into rational exponents, factor and offset.
pub fn parse(text: &str) -> Result<Unit, UnitError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(UnitError::Empty);
    }
    let mut p = Parser {
        s: t.as_bytes(),
        i: 0,
    };
    let u = p.expression()?;
    match p.s.get(p.i) {
        None => Ok(u),
        Some(b')') => Err(UnitError::Parentheses),
        Some(c) => Err(UnitError::Unexpected(*c as char)),
    }
}

fn unit(e: &[(usize, i64)], factor: f64, offset: f64) -> Unit {
    let mut x = Unit::ONE.exponents;
    for (i, v) in e {
        x[*i] = Rational64::from_integer(*v);
    }
    Unit {
        exponents: x,
        factor,
        offset,
    }
}

/// Units known by name (without prefix).
fn named(name: &str) -> Option<Unit> {
    use std::f64::consts::PI;
    Some(match name {
        "m" => unit(&[(M, 1)], 1.0, 0.0),
        "s" => unit(&[(S, 1)], 1.0, 0.0),
        "g" => unit(&[(KG, 1)], 1e-3, 0.0),
        "A" => unit(&[(A, 1)], 1.0, 0.0),
        "K" => unit(&[(K, 1)], 1.0, 0.0),
        "mol" => unit(&[(MOL, 1)], 1.0, 0.0),
        "cd" => unit(&[(CD, 1)], 1.0, 0.0),
        "rad" => unit(&[(RAD, 1)], 1.0, 0.0),
        "sr" => unit(&[(RAD, 2)], 1.0, 0.0),
        "Hz" => unit(&[(S, -1)], 1.0, 0.0),
        "N" => unit(&[(KG, 1), (M, 1), (S, -2)], 1.0, 0.0),
        "Pa" => unit(&[(KG, 1), (M, -1), (S, -2)], 1.0, 0.0),
        "J" => unit(&[(KG, 1), (M, 2), (S, -2)], 1.0, 0.0),
        "W" => unit(&[(KG, 1), (M, 2), (S, -3)], 1.0, 0.0),
        "C" => unit(&[(A, 1), (S, 1)], 1.0, 0.0),
        "V" => unit(&[(KG, 1), (M, 2), (S, -3), (A, -1)], 1.0, 0.0),
        "F" => unit(&[(KG, -1), (M, -2), (S, 4), (A, 2)], 1.0, 0.0),
        "Ohm" => unit(&[(KG, 1), (M, 2), (S, -3), (A, -2)], 1.0, 0.0),
        "S" => unit(&[(KG, -1), (M, -2), (S, 3), (A, 2)], 1.0, 0.0),
        "Wb" => unit(&[(KG, 1), (M, 2), (S, -2), (A, -1)], 1.0, 0.0),
        "T" => unit(&[(KG, 1), (S, -2), (A, -1)], 1.0, 0.0),
        "H" => unit(&[(KG, 1), (M, 2), (S, -2), (A, -2)], 1.0, 0.0),
        "lm" => unit(&[(CD, 1), (RAD, 2)], 1.0, 0.0),
        "lx" => unit(&[(CD, 1), (RAD, 2), (M, -2)], 1.0, 0.0),
        "Bq" => unit(&[(S, -1)], 1.0, 0.0),
        "Gy" | "Sv" => unit(&[(M, 2), (S, -2)], 1.0, 0.0),
        "kat" => unit(&[(MOL, 1), (S, -1)], 1.0, 0.0),
        "degC" => unit(&[(K, 1)], 1.0, 273.15),
        "degF" => unit(&[(K, 1)], 5.0 / 9.0, 273.15 - 32.0 * 5.0 / 9.0),
        "degRk" => unit(&[(K, 1)], 5.0 / 9.0, 0.0),
        "deg" => unit(&[(RAD, 1)], PI / 180.0, 0.0),
        "min" => unit(&[(S, 1)], 60.0, 0.0),
        "h" => unit(&[(S, 1)], 3600.0, 0.0),
        "d" => unit(&[(S, 1)], 86400.0, 0.0),
        "l" | "L" => unit(&[(M, 3)], 1e-3, 0.0),
        "bar" => unit(&[(KG, 1), (M, -1), (S, -2)], 1e5, 0.0),
        "rpm" => unit(&[(RAD, 1), (S, -1)], PI / 30.0, 0.0),
        _ => return None,
    })
}

/// SI prefixes, longest first so that `da` wins over `d`.
const PREFIXES: [(&str, f64); 20] = [
    ("da", 1e1),
    ("Y", 1e24),
    ("Z", 1e21),
    ("E", 1e18),
    ("P", 1e15),
    ("T", 1e12),
    ("G", 1e9),
    ("M", 1e6),
    ("k", 1e3),
    ("h", 1e2),
    ("d", 1e-1),
    ("c", 1e-2),
    ("m", 1e-3),
    ("u", 1e-6),
    ("n", 1e-9),
    ("p", 1e-12),
    ("f", 1e-15),
    ("a", 1e-18),
    ("z", 1e-21),
    ("y", 1e-24),
];

/// The SI prefixes with their factors, for printing scaled units.
pub fn prefixes() -> &'static [(&'static str, f64)] {
    &PREFIXES
}

/// A unit name with an optional prefix: `m`, `mm`, `kN`, `kg`.
fn prefixed(name: &str) -> Result<Unit, UnitError> {
    if let Some(u) = named(name) {
        return Ok(u);
    }
    for (p, f) in PREFIXES {
        if let Some(rest) = name.strip_prefix(p) {
            if let Some(u) = named(rest) {
                if u.offset != 0.0 {
                    break;
                }
                return Ok(Unit {
                    factor: f * u.factor,
                    ..u
                });
            }
        }
    }
    Err(UnitError::UnknownUnit(name.to_string()))
}

/// One factor such as `kN`, `m2`, `s-1`, `1`.
fn factor(text: &str) -> Result<Unit, UnitError> {
    let split = text
        .find(|c: char| c == '-' || c == '+' || c.is_ascii_digit())
        .unwrap_or(text.len());
    let (name, exp) = text.split_at(split);
    if name.is_empty() {
        // A plain number: only "1" is a unit.
        return if text == "1" {
            Ok(Unit::ONE)
        } else {
            Err(UnitError::UnknownUnit(text.to_string()))
        };
    }
    let e: i64 = if exp.is_empty() {
        1
    } else {
        let digits = exp.strip_prefix('+').unwrap_or(exp);
        if digits.is_empty() || digits.starts_with('+') {
            return Err(UnitError::BadExponent(exp.to_string()));
        }
        digits
            .parse()
            .map_err(|_| UnitError::BadExponent(exp.to_string()))?
    };
    let base = prefixed(name)?;
    if e != 1 && base.offset != 0.0 {
        return Err(UnitError::OffsetInProduct(text.to_string()));
    }
    Ok(base.pow(Rational64::from_integer(e)))
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn expression(&mut self) -> Result<Unit, UnitError> {
        let mut acc = self.operand()?;
        let mut factors = 1;
        let mut offset_name = None;
        if acc.offset != 0.0 {
            offset_name = Some(self.last_text());
        }
        while self.i < self.s.len() {
            let divide = match self.s[self.i] {
                b'.' => false,
                b'/' => true,
                _ => break,
            };
            self.i += 1;
            let u = self.operand()?;
            if u.offset != 0.0 {
                offset_name = Some(self.last_text());
            }
            acc = acc.times(if divide {
                u.pow(Rational64::from_integer(-1))
            } else {
                u
            });
            factors += 1;
        }
        if factors > 1 {
            if let Some(n) = offset_name {
                return Err(UnitError::OffsetInProduct(n));
            }
        }
        Ok(acc)
    }

    fn last_text(&self) -> String {
        let end = self.i;
        let mut start = end;
        while start > 0 && !matches!(self.s[start - 1], b'.' | b'/' | b'(' | b')') {
            start -= 1;
        }
        String::from_utf8_lossy(&self.s[start..end]).into_owned()
    }

    fn operand(&mut self) -> Result<Unit, UnitError> {
        if self.s.get(self.i) == Some(&b'(') {
            self.i += 1;
            let u = self.expression()?;
            if self.s.get(self.i) != Some(&b')') {
                return Err(UnitError::Parentheses);
            }
            self.i += 1;
            return Ok(u);
        }
        let start = self.i;
        while self.i < self.s.len() && !matches!(self.s[self.i], b'.' | b'/' | b'(' | b')') {
            self.i += 1;
        }
        if start == self.i {
            return match self.s.get(self.i) {
                Some(c) => Err(UnitError::Unexpected(*c as char)),
                None => Err(UnitError::Empty),
            };
        }
        let text = std::str::from_utf8(&self.s[start..self.i]).map_err(|_| {
            UnitError::UnknownUnit(String::from_utf8_lossy(&self.s[start..self.i]).into_owned())
        })?;
        factor(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exps(s: &str) -> [i32; N_DIMS] {
        parse_unit(s).unwrap().exponents
    }

    #[test]
    fn derived_units() {
        assert_eq!(exps("N.m"), [1, 2, -2, 0, 0, 0, 0, 0]);
        assert_eq!(exps("J/(kg.K)"), [0, 2, -2, 0, -1, 0, 0, 0]);
        assert_eq!(exps("m2"), [0, 2, 0, 0, 0, 0, 0, 0]);
        assert_eq!(exps("m+2"), [0, 2, 0, 0, 0, 0, 0, 0]);
        assert_eq!(exps("s-1"), [0, 0, -1, 0, 0, 0, 0, 0]);
        assert_eq!(exps("1/s"), [0, 0, -1, 0, 0, 0, 0, 0]);
        assert_eq!(exps("kg/m3"), [1, -3, 0, 0, 0, 0, 0, 0]);
        assert_eq!(exps("Ohm"), exps("V/A"));
        assert_eq!(exps("S"), exps("A/V"));
        assert_eq!(exps("F"), exps("C/V"));
        assert_eq!(exps("H"), exps("Wb/A"));
        assert_eq!(exps("T"), exps("Wb/m2"));
        assert_eq!(exps("m/s/s"), exps("m/s2"));
        let mm = parse_unit("mm").unwrap();
        assert_eq!(mm.exponents, [0, 1, 0, 0, 0, 0, 0, 0]);
        assert!((mm.factor - 1e-3).abs() < 1e-18);
        let ka = parse_unit("mA").unwrap();
        assert!((ka.factor - 1e-3).abs() < 1e-18);
        assert!((parse_unit("kN").unwrap().factor - 1e3).abs() < 1e-9);
        assert!((parse_unit("km2").unwrap().factor - 1e6).abs() < 1e-3);
        assert_eq!(parse_unit("degC").unwrap().offset, 273.15);
        assert_eq!(exps("kg"), [1, 0, 0, 0, 0, 0, 0, 0]);
        assert!((parse_unit("kg").unwrap().factor - 1.0).abs() < 1e-15);
    }

    #[test]
    fn errors() {
        assert_eq!(
            parse("furlong"),
            Err(UnitError::UnknownUnit("furlong".into()))
        );
        assert_eq!(parse("m/(s"), Err(UnitError::Parentheses));
        assert_eq!(parse("m)"), Err(UnitError::Parentheses));
        assert_eq!(parse(""), Err(UnitError::Empty));
        assert_eq!(parse("m..s"), Err(UnitError::Unexpected('.')));
        assert_eq!(parse("ms-x"), Err(UnitError::BadExponent("-x".into())));
        assert!(matches!(
            parse("degC/s"),
            Err(UnitError::OffsetInProduct(_))
        ));
        assert!(matches!(parse("degC2"), Err(UnitError::OffsetInProduct(_))));
        assert_eq!(parse("2"), Err(UnitError::UnknownUnit("2".into())));
    }
}
