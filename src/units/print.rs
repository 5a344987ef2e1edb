//! Units back to strings, in derived form: `N.m`-style names a modeller
//! would write rather than `m2.kg.s-2`.
//!
//! The rule is deterministic: a unit the library itself declares with the
//! same dimension and scale is printed as the library spells it; otherwise
//! the shortest product of at most two named SI derived units and base
//! units is chosen (fewest factors, an inverted derived unit counting
//! twice, then fewest derived units, then the fewest inverted ones (`S`
//! rather than `1/Ohm`), then the smallest exponents, then the order of [`DERIVED`]).

use super::parse::parse;
use super::term::{same_factor, Dim, N_CHECKED, Q};

/// Derived SI units tried when printing, in order of preference.
const DERIVED: [&str; 12] = [
    "J", "W", "N", "Pa", "V", "Ohm", "S", "C", "F", "H", "Wb", "T",
];

/// Base units in printing order (indices into [`Dim::e`]).
const BASE_ORDER: [(usize, &str); N_CHECKED] = [
    (1, "m"),
    (0, "kg"),
    (2, "s"),
    (3, "A"),
    (4, "K"),
    (5, "mol"),
    (6, "cd"),
];

/// Unit strings declared in a library, for printing units the way the
/// modeller writes them.
#[derive(Debug, Clone, Default)]
pub struct Vocabulary {
    entries: Vec<(Dim, String)>,
}

impl Vocabulary {
    /// Remembers a declared unit string (the first spelling of a unit
    /// wins). Units with an offset (degC) never name an inferred unit.
    pub fn add(&mut self, text: &str) {
        let Ok(u) = parse(text) else { return };
        if u.offset != 0.0 {
            return;
        }
        let d = Dim::from_unit(&u);
        if self.entries.iter().any(|(e, _)| e.same(&d)) {
            return;
        }
        self.entries.push((d, text.trim().to_string()));
    }

    /// The declared spellings, in order.
    pub fn entries(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|(_, s)| s.as_str())
    }

    pub fn lookup(&self, d: &Dim) -> Option<&str> {
        self.entries
            .iter()
            .find(|(e, _)| e.same(d))
            .map(|(_, s)| s.as_str())
    }

    /// A Modelica unit string for `d`, if one can be written.
    pub fn name(&self, d: &Dim) -> Option<String> {
        if let Some(s) = self.lookup(d) {
            return Some(s.to_string());
        }
        modelica_name(d)
    }

    /// A string for messages: a unit string when one can be written,
    /// otherwise the derived form with its factor.
    pub fn describe(&self, d: &Dim) -> String {
        self.name(d).unwrap_or_else(|| {
            format!(
                "{} x {}",
                format_factor(d.factor),
                factors_text(&best_factors(d))
            )
        })
    }
}

fn format_factor(f: f64) -> String {
    let s = format!("{f}");
    if s.len() > 12 {
        format!("{f:e}")
    } else {
        s
    }
}

/// A unit string for `d` without the help of declarations: derived form,
/// with an SI prefix when the scale is a power of ten a prefix can carry.
/// `None` when no unit string can write it (a non-integer exponent, or a
/// scale no prefix gives).
pub fn modelica_name(d: &Dim) -> Option<String> {
    let factors = best_factors(d);
    if factors.iter().any(|(_, e)| !e.is_integer()) {
        return None;
    }
    if same_factor(d.factor, 1.0) {
        return Some(factors_text(&factors));
    }
    // Try a prefix on each factor in turn.
    for i in 0..factors.len() {
        let (name, e) = &factors[i];
        let e = *e.numer() as f64;
        // `kg` carries its prefix already: prefix `g` instead.
        let (stem, own): (&str, f64) = if name == "kg" {
            ("g", 1e-3)
        } else {
            (name.as_str(), 1.0)
        };
        let needed = (d.factor / own.powf(e)).powf(1.0 / e);
        let prefix = if same_factor(needed, 1.0) {
            Some("")
        } else {
            super::parse::prefixes()
                .iter()
                .find(|(_, f)| same_factor(*f, needed))
                .map(|(p, _)| *p)
        };
        if let Some(p) = prefix {
            let mut fs = factors.clone();
            fs[i].0 = format!("{p}{stem}");
            return Some(factors_text(&fs));
        }
    }
    None
}

/// Units in derived form (scale ignored) for messages, e.g. `N.m` or `1/s`.
pub fn derived_form(d: &Dim) -> String {
    factors_text(&best_factors(d))
}

/// Units as a product with signed exponents (`Ohm.s-1`), for writing next
/// to type variables.
pub fn product_form(d: &Dim) -> String {
    best_factors(d)
        .iter()
        .map(|(n, e)| format!("{n}{}", exponent_text(*e)))
        .collect::<Vec<_>>()
        .join(".")
}

/// The chosen factors: names with exponents, derived units first.
fn best_factors(d: &Dim) -> Vec<(String, Q)> {
    let derived: Vec<(&str, Dim)> = DERIVED
        .iter()
        .map(|n| (*n, Dim::from_unit(&parse(n).expect("built-in unit parses"))))
        .collect();
    let one = Q::from_integer(1);
    let mut choices: Vec<Vec<(usize, Q)>> = vec![Vec::new()];
    for (i, _) in derived.iter().enumerate() {
        for a in [one, -one] {
            choices.push(vec![(i, a)]);
            for (j, _) in derived.iter().enumerate().skip(i + 1) {
                for b in [one, -one] {
                    choices.push(vec![(i, a), (j, b)]);
                }
            }
        }
    }
    type Cost = (usize, usize, usize, Q, usize);
    let mut best: Option<(Cost, Vec<(String, Q)>)> = None;
    for (order, choice) in choices.iter().enumerate() {
        let mut rest = d.e;
        for (i, q) in choice {
            for (r, x) in rest.iter_mut().zip(derived[*i].1.e) {
                *r -= x * q;
            }
        }
        let n_rest = rest.iter().filter(|x| **x != Q::from_integer(0)).count();
        let size: Q = rest
            .iter()
            .map(|x| if *x < Q::from_integer(0) { -x } else { *x })
            .sum();
        let inverted = choice
            .iter()
            .filter(|(_, q)| *q < Q::from_integer(0))
            .count();
        // An inverted derived unit counts as two factors: `Ohm/s`, not `1/F`.
        let cost = (
            choice.len() + n_rest + inverted,
            choice.len(),
            inverted,
            size,
            order,
        );
        if best.as_ref().is_some_and(|(c, _)| *c <= cost) {
            continue;
        }
        let mut factors: Vec<(String, Q)> = choice
            .iter()
            .map(|(i, q)| (derived[*i].0.to_string(), *q))
            .collect();
        for (k, name) in BASE_ORDER {
            if rest[k] != Q::from_integer(0) {
                factors.push((name.to_string(), rest[k]));
            }
        }
        best = Some((cost, factors));
    }
    best.map(|(_, f)| f).unwrap_or_default()
}

fn exponent_text(q: Q) -> String {
    if q == Q::from_integer(1) {
        String::new()
    } else if q.is_integer() {
        q.to_integer().to_string()
    } else {
        format!("^({}/{})", q.numer(), q.denom())
    }
}

fn factors_text(factors: &[(String, Q)]) -> String {
    let zero = Q::from_integer(0);
    let num: Vec<String> = factors
        .iter()
        .filter(|(_, e)| *e > zero)
        .map(|(n, e)| format!("{n}{}", exponent_text(*e)))
        .collect();
    let den: Vec<String> = factors
        .iter()
        .filter(|(_, e)| *e < zero)
        .map(|(n, e)| format!("{n}{}", exponent_text(-*e)))
        .collect();
    let num = if num.is_empty() {
        "1".to_string()
    } else {
        num.join(".")
    };
    match den.len() {
        0 => num,
        1 => format!("{num}/{}", den[0]),
        _ => format!("{num}/({})", den.join(".")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(s: &str) -> String {
        modelica_name(&Dim::from_unit(&parse(s).unwrap())).unwrap()
    }

    #[test]
    fn derived_form_prefers_named_units() {
        assert_eq!(name("m2.kg.s-2"), "J");
        assert_eq!(name("V/A"), "Ohm");
        assert_eq!(name("A/V"), "S");
        assert_eq!(name("kg.m2.s-3.K-1"), "W/K");
        assert_eq!(name("W/(m.K)"), "W/(m.K)");
        assert_eq!(name("m/s2"), "m/s2");
        assert_eq!(name("m/s"), "m/s");
        assert_eq!(name("Hz"), "1/s");
        assert_eq!(name("1"), "1");
        assert_eq!(name("rad"), "1");
        assert_eq!(name("Pa.s"), "Pa.s");
        assert_eq!(name("kg.m2"), "m2.kg");
        assert_eq!(name("mm"), "mm");
        assert_eq!(name("mm/s"), "mm/s");
        assert_eq!(name("km2"), "km2");
        assert_eq!(name("g"), "g");
        assert_eq!(name("1/ms"), "1/ms");
        assert_eq!(name("kN.m"), "kJ");
        assert_eq!(name("Ohm/s"), "Ohm/s");
        assert_eq!(name("S/s"), "S/s");
    }

    #[test]
    fn vocabulary_wins() {
        let mut v = Vocabulary::default();
        v.add("degC");
        v.add("N.m");
        let d = Dim::from_unit(&parse("J").unwrap());
        assert_eq!(v.name(&d).unwrap(), "N.m");
        let k = Dim::from_unit(&parse("K").unwrap());
        assert_eq!(v.name(&k).unwrap(), "K");
        let half = d.pow(Q::new(1, 2));
        assert!(modelica_name(&half).is_none());
        assert_eq!(derived_form(&half), "m.kg^(1/2)/s");
    }
}
