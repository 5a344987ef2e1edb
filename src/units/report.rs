//! Units of a whole model: every variable of every instance, with the
//! unit it declares or the one inference gives it, and the model's
//! verdict, from the signatures of its classes.

use super::infer::{ClassUnits, UnitSignatures, Verdict};
use super::parse::parse;
use super::print::product_form;
use super::term::{Dim, Term, Q};
use crate::resolve::ClassId;

/// Where a variable's unit comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    Declared,
    Inferred,
    Unknown,
}

impl Origin {
    pub fn as_str(self) -> &'static str {
        match self {
            Origin::Declared => "declared",
            Origin::Inferred => "inferred",
            Origin::Unknown => "open",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct FlatUnit {
    /// Flat name: `rod.T`, `der(body.T)`, `gain.y` (arrays once, unindexed).
    pub name: String,
    pub unit: Option<String>,
    /// For a unit left open: its form in the model's unit type variables,
    /// `'u` being "the unit of u" (`'u/s`, `'y.'u-1`).
    pub open_form: Option<String>,
    pub origin: Origin,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ModelUnits {
    pub qualified: String,
    pub verdict: Verdict,
    pub variables: Vec<FlatUnit>,
}

impl ModelUnits {
    /// Variables whose unit nothing determines.
    pub fn open(&self) -> Vec<&str> {
        self.variables
            .iter()
            .filter(|v| v.origin == Origin::Unknown)
            .map(|v| v.name.as_str())
            .collect()
    }
}

/// Type variables of an opaque component are numbered from here, so that
/// they never meet the model's own.
const OPAQUE_BASE: usize = 1 << 40;

/// The units of every variable of the model `root`, whose classes'
/// signatures are in `signatures`.
pub fn model_units(signatures: &UnitSignatures, root: ClassId) -> Option<ModelUnits> {
    let cu = signatures.get(root)?;
    let params: Vec<Term> = (0..cu.params.len()).map(Term::unknown).collect();
    let mut out = Vec::new();
    let mut inconsistent = false;
    walk(signatures, cu, cu, &params, "", &mut out, &mut inconsistent);
    let verdict = if inconsistent {
        Verdict::Inconsistent
    } else if out.iter().any(|v| v.origin == Origin::Unknown) {
        Verdict::ConsistentIncomplete
    } else {
        Verdict::ConsistentComplete
    };
    Some(ModelUnits {
        qualified: cu.qualified.clone(),
        verdict,
        variables: out,
    })
}

fn walk(
    signatures: &UnitSignatures,
    root: &ClassUnits,
    cu: &ClassUnits,
    params: &[Term],
    prefix: &str,
    out: &mut Vec<FlatUnit>,
    inconsistent: &mut bool,
) {
    if cu.verdict == Verdict::Inconsistent {
        *inconsistent = true;
    }
    for (vi, name) in cu.var_names.iter().enumerate() {
        let Some(term) = &cu.vars[vi] else { continue };
        let t = term.substitute(&|k| params[k].clone());
        let flat = format!("{prefix}{name}");
        let (unit, origin) = match &cu.declared[vi] {
            Some(d) => (Some(d.clone()), Origin::Declared),
            None => named(root, &t),
        };
        out.push(FlatUnit {
            name: flat.clone(),
            open_form: open_form(root, &t, origin),
            unit,
            origin,
        });
        if cu.states[vi] {
            let d = t.div(&Term::constant(Dim::seconds()));
            let (mut unit, origin) = named(root, &d);
            // In the words of the variable an equation equates with it,
            // when that is the same unit.
            if let (Some(_), Some(spelled)) = (&unit, &cu.der_spelling[vi]) {
                if parse(spelled).is_ok_and(|u| Dim::from_unit(&u) == d.dim) {
                    unit = Some(spelled.clone());
                }
            }
            out.push(FlatUnit {
                name: format!("der({flat})"),
                open_form: open_form(root, &d, origin),
                unit,
                origin,
            });
        }
    }
    for (j, sub) in cu.subs.iter().enumerate() {
        let Some(child) = signatures.get(sub.class) else {
            continue;
        };
        let child_params = instance_params(child, sub.params.as_deref(), params, j);
        walk(
            signatures,
            root,
            child,
            &child_params,
            &format!("{prefix}{}.", sub.name),
            out,
            inconsistent,
        );
    }
}

/// A component's type variables in terms of the model's (fresh ones,
/// numbered by `salt`, the component's index, when it is opaque).
pub fn instance_params(
    child: &ClassUnits,
    sub_params: Option<&[Term]>,
    params: &[Term],
    salt: usize,
) -> Vec<Term> {
    match sub_params {
        Some(ps) => ps
            .iter()
            .map(|t| t.substitute(&|k| params[k].clone()))
            .collect(),
        None => (0..child.params.len())
            .map(|j| Term::unknown(OPAQUE_BASE + salt * 4096 + j))
            .collect(),
    }
}

fn open_form(root: &ClassUnits, t: &Term, origin: Origin) -> Option<String> {
    if origin != Origin::Unknown {
        return None;
    }
    let mut parts: Vec<String> = t
        .vars
        .iter()
        .map(|(k, q)| {
            let name = root.params.get(*k).map_or("?", String::as_str);
            let e = if *q == Q::from_integer(1) {
                String::new()
            } else if q.is_integer() {
                q.to_integer().to_string()
            } else {
                format!("^({}/{})", q.numer(), q.denom())
            };
            format!("'{name}{e}")
        })
        .collect();
    if !t.dim.is_one() || parts.is_empty() {
        parts.push(product_form(&t.dim));
    }
    Some(parts.join("."))
}

/// The unit string of `t` in the words of `root` (its vocabulary), and
/// whether it is inferred or unknown.
pub fn named(root: &ClassUnits, t: &Term) -> (Option<String>, Origin) {
    if !t.is_constant() {
        return (None, Origin::Unknown);
    }
    match root.vocabulary.name(&t.dim) {
        Some(n) => (Some(n), Origin::Inferred),
        // A unit no string can write (e.g. m^(1/2)) stays off the FMU.
        None => (None, Origin::Unknown),
    }
}
