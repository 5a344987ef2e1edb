//! Modelica unit strings (`"m/s"`, `"J/(kg.K)"`, `"m2"`, `"kN.m"`) to SI
//! base-unit exponents with a factor and an offset.

/// Exponents of kg, m, s, A, K, mol, cd, rad, with the factor and offset
/// that convert a value in this unit to the base units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BaseUnits {
    pub exponents: [i32; 8],
    pub factor: f64,
    pub offset: f64,
}

impl BaseUnits {
    const ONE: BaseUnits = BaseUnits {
        exponents: [0; 8],
        factor: 1.0,
        offset: 0.0,
    };

    fn pow(self, e: i32) -> BaseUnits {
        let mut x = self.exponents;
        for v in &mut x {
            *v *= e;
        }
        BaseUnits {
            exponents: x,
            factor: self.factor.powi(e),
            offset: if e == 1 { self.offset } else { 0.0 },
        }
    }

    fn mul(self, o: BaseUnits) -> BaseUnits {
        let mut x = self.exponents;
        for (a, b) in x.iter_mut().zip(o.exponents) {
            *a += b;
        }
        BaseUnits {
            exponents: x,
            factor: self.factor * o.factor,
            offset: 0.0,
        }
    }
}

const KG: usize = 0;
const M: usize = 1;
const S: usize = 2;
const A: usize = 3;
const K: usize = 4;
const MOL: usize = 5;
const CD: usize = 6;
const RAD: usize = 7;

fn unit(e: &[(usize, i32)], factor: f64, offset: f64) -> BaseUnits {
    let mut x = [0; 8];
    for (i, v) in e {
        x[*i] = *v;
    }
    BaseUnits {
        exponents: x,
        factor,
        offset,
    }
}

/// Units known by name (without prefix).
fn named(name: &str) -> Option<BaseUnits> {
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
        "degC" => unit(&[(K, 1)], 1.0, 273.15),
        "deg" => unit(&[(RAD, 1)], std::f64::consts::PI / 180.0, 0.0),
        "min" => unit(&[(S, 1)], 60.0, 0.0),
        "h" => unit(&[(S, 1)], 3600.0, 0.0),
        "d" => unit(&[(S, 1)], 86400.0, 0.0),
        "l" | "L" => unit(&[(M, 3)], 1e-3, 0.0),
        "bar" => unit(&[(KG, 1), (M, -1), (S, -2)], 1e5, 0.0),
        "rpm" => unit(&[(RAD, 1), (S, -1)], std::f64::consts::PI / 30.0, 0.0),
        "1" => BaseUnits::ONE,
        _ => return None,
    })
}

fn prefix(p: &str) -> Option<f64> {
    Some(match p {
        "Y" => 1e24,
        "Z" => 1e21,
        "E" => 1e18,
        "P" => 1e15,
        "T" => 1e12,
        "G" => 1e9,
        "M" => 1e6,
        "k" => 1e3,
        "h" => 1e2,
        "da" => 1e1,
        "d" => 1e-1,
        "c" => 1e-2,
        "m" => 1e-3,
        "u" => 1e-6,
        "n" => 1e-9,
        "p" => 1e-12,
        "f" => 1e-15,
        "a" => 1e-18,
        _ => return None,
    })
}

/// One factor such as `kN`, `m2`, `s-1`.
fn factor(text: &str) -> Option<BaseUnits> {
    let split = text
        .find(|c: char| c == '-' || c.is_ascii_digit())
        .filter(|i| *i > 0 || text.starts_with('-'))
        .unwrap_or(text.len());
    let (name, exp) = text.split_at(split);
    let exp: i32 = if exp.is_empty() { 1 } else { exp.parse().ok()? };
    if name.is_empty() {
        // A plain number: only "1" is a unit.
        return if text == "1" {
            Some(BaseUnits::ONE)
        } else {
            None
        };
    }
    let base = if let Some(u) = named(name) {
        u
    } else {
        let mut found = None;
        for plen in [2usize, 1] {
            if name.len() > plen && name.is_char_boundary(plen) {
                let (p, rest) = name.split_at(plen);
                if let (Some(f), Some(u)) = (prefix(p), named(rest)) {
                    if u.offset == 0.0 {
                        found = Some(BaseUnits {
                            factor: f * u.factor,
                            ..u
                        });
                        break;
                    }
                }
            }
        }
        // Kilogram is a base unit written with a prefix.
        found?
    };
    if exp != 1 && base.offset != 0.0 {
        return None;
    }
    Some(base.pow(exp))
}

/// Parses a unit string. `None` when it is not a well-formed unit.
pub fn parse_unit(text: &str) -> Option<BaseUnits> {
    let t = text.trim();
    if t.is_empty() {
        return None;
    }
    let mut p = Parser {
        s: t.as_bytes(),
        i: 0,
    };
    let u = p.product()?;
    if p.i != p.s.len() {
        return None;
    }
    Some(u)
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn product(&mut self) -> Option<BaseUnits> {
        let mut acc = self.operand()?;
        let mut factors = 1;
        while self.i < self.s.len() {
            match self.s[self.i] {
                b'.' => {
                    self.i += 1;
                    acc = acc.mul(self.operand()?);
                    factors += 1;
                }
                b'/' => {
                    self.i += 1;
                    acc = acc.mul(self.operand()?.pow(-1));
                    factors += 1;
                }
                _ => break,
            }
        }
        if factors > 1 && acc.offset != 0.0 {
            acc.offset = 0.0;
        }
        Some(acc)
    }

    fn operand(&mut self) -> Option<BaseUnits> {
        if self.s.get(self.i) == Some(&b'(') {
            self.i += 1;
            let u = self.product()?;
            if self.s.get(self.i) != Some(&b')') {
                return None;
            }
            self.i += 1;
            return Some(u);
        }
        let start = self.i;
        while self.i < self.s.len() && !matches!(self.s[self.i], b'.' | b'/' | b'(' | b')') {
            self.i += 1;
        }
        let text = std::str::from_utf8(&self.s[start..self.i]).ok()?;
        factor(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_units() {
        assert_eq!(
            parse_unit("N.m").unwrap().exponents,
            [1, 2, -2, 0, 0, 0, 0, 0]
        );
        assert_eq!(
            parse_unit("J/(kg.K)").unwrap().exponents,
            [0, 2, -2, 0, -1, 0, 0, 0]
        );
        assert_eq!(
            parse_unit("m2").unwrap().exponents,
            [0, 2, 0, 0, 0, 0, 0, 0]
        );
        assert_eq!(
            parse_unit("s-1").unwrap().exponents,
            [0, 0, -1, 0, 0, 0, 0, 0]
        );
        assert_eq!(
            parse_unit("kg/m3").unwrap().exponents,
            [1, -3, 0, 0, 0, 0, 0, 0]
        );
        let mm = parse_unit("mm").unwrap();
        assert_eq!(mm.exponents, [0, 1, 0, 0, 0, 0, 0, 0]);
        assert!((mm.factor - 1e-3).abs() < 1e-18);
        assert_eq!(parse_unit("degC").unwrap().offset, 273.15);
        assert!(parse_unit("furlong").is_none());
        assert!(parse_unit("m/(s").is_none());
    }
}
