//! Names that stand for constants rather than variables: enumeration
//! literals (`Mode.Heat`, the literal's number from 1) and the
//! `Modelica.Constants` names, and the `Modelica.Math` functions, which map
//! to built-ins without loading the Modelica Standard Library.
//!
//! The `Modelica.` names map only when `Modelica` names no class the user
//! loaded (looked up from the point of use, as any name): a library that
//! ships its own package `Modelica` is read as written.

use super::tree::{ClassId, ClassTree, Resolved};
use crate::diagnostic::Diagnostic;
use crate::ir::EnumerationType;
use crate::syntax::ast::{ClassBody, ComponentRef, Ident, Name};

/// What a dotted name written in an expression is, when it is a constant.
pub(crate) enum Constant {
    /// An enumeration literal: its number (1 for the first literal).
    Literal(i64),
    /// A `Modelica.Constants` value.
    Real(f64),
}

/// The constant `r` names, seen from class `scope`; `None` when it names
/// none (it is then a variable reference), `Some(Err)` when it names an
/// enumeration type or `Modelica.Constants` but no literal or constant of
/// it.
pub(crate) fn constant(
    tree: &ClassTree,
    scope: ClassId,
    r: &ComponentRef,
) -> Option<Result<Constant, Diagnostic>> {
    let n = r.parts.len();
    if n < 2 || r.parts.iter().any(|p| !p.subscripts.is_empty()) {
        return None;
    }
    let last = &r.parts[n - 1].name;
    let prefix = r.prefix();
    if let Ok(Resolved::Class(c)) = tree.lookup(&prefix, Some(scope), r.span) {
        return enumeration_literal(tree, c, last).map(|x| x.map(Constant::Literal));
    }
    if !msl_prefix(tree, scope, &prefix, "Constants") || n != 3 {
        return None;
    }
    Some(match msl_constant(&last.name) {
        Some(v) => Ok(Constant::Real(v)),
        None => Err(Diagnostic::error(
            "MC093",
            last.span,
            format!("`Modelica.Constants.{}` is not a known constant", last.name),
        )
        .with_label("unknown constant")
        .with_help(format!(
            "use one of: {}",
            MSL_CONSTANTS
                .iter()
                .map(|(n, _)| *n)
                .collect::<Vec<_>>()
                .join(" ")
        ))),
    })
}

/// The built-in function a dotted function name stands for:
/// `Modelica.Math.sin` is `sin` (when `Modelica` names no loaded class).
pub(crate) fn builtin_function(tree: &ClassTree, scope: ClassId, func: &Name) -> Option<String> {
    let n = func.parts.len();
    if n != 3 {
        return None;
    }
    let prefix = Name {
        global: func.global,
        parts: func.parts[..2].to_vec(),
        span: func.span,
    };
    msl_prefix(tree, scope, &prefix, "Math").then(|| func.parts[2].name.clone())
}

/// The enumeration type class `c` declares, `None` when it is no
/// enumeration.
pub fn enumeration_type(tree: &ClassTree, c: ClassId) -> Option<EnumerationType> {
    let node = tree.get(c);
    let ClassBody::Enumeration { literals, .. } = &node.def.body else {
        return None;
    };
    Some(EnumerationType {
        name: node.qualified.clone(),
        literals: literals
            .iter()
            .map(|l| (l.name.name.clone(), l.description.clone()))
            .collect(),
    })
}

/// The literal `name` of enumeration class `c`; `None` when `c` is not an
/// enumeration type.
fn enumeration_literal(
    tree: &ClassTree,
    c: ClassId,
    name: &Ident,
) -> Option<Result<i64, Diagnostic>> {
    let node = tree.get(c);
    let ClassBody::Enumeration { literals, .. } = &node.def.body else {
        return None;
    };
    Some(
        match literals.iter().position(|l| l.name.name == name.name) {
            Some(k) => Ok(k as i64 + 1),
            None => Err(Diagnostic::error(
                "MC092",
                name.span,
                format!(
                    "enumeration type `{}` has no literal `{}`",
                    node.qualified, name.name
                ),
            )
            .with_label("unknown literal")
            .with_help(format!(
                "use one of: {}",
                literals
                    .iter()
                    .map(|l| l.name.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))),
        },
    )
}

/// Is `prefix` `Modelica.<package>`, with `Modelica` naming no loaded class?
fn msl_prefix(tree: &ClassTree, scope: ClassId, prefix: &Name, package: &str) -> bool {
    if prefix.parts.len() != 2
        || prefix.parts[0].name != "Modelica"
        || prefix.parts[1].name != package
    {
        return false;
    }
    let first = Name {
        global: prefix.global,
        parts: prefix.parts[..1].to_vec(),
        span: prefix.span,
    };
    tree.lookup(&first, Some(scope), prefix.span).is_err()
}

/// The `Modelica.Constants` of the Modelica Standard Library 4.0 (SI
/// values of CODATA 2018), by name.
const MSL_CONSTANTS: &[(&str, f64)] = &[
    ("e", std::f64::consts::E),
    ("pi", std::f64::consts::PI),
    ("D2R", std::f64::consts::PI / 180.0),
    ("R2D", 180.0 / std::f64::consts::PI),
    ("gamma", 0.577_215_664_901_532_9),
    ("eps", 1e-15),
    ("small", 1e-60),
    ("inf", 1e60),
    ("c", 299_792_458.0),
    ("g_n", 9.80665),
    ("G", 6.674_30e-11),
    ("q", 1.602_176_634e-19),
    ("h", 6.626_070_15e-34),
    ("k", 1.380_649e-23),
    ("N_A", 6.022_140_76e23),
    ("R", 8.314_462_618_153_24),
    ("F", 96_485.332_123_310_02),
    ("sigma", 5.670_374_419e-8),
    ("mu_0", 1.256_637_062_12e-6),
    ("epsilon_0", 8.854_187_812_8e-12),
    ("T_zero", -273.15),
];

fn msl_constant(name: &str) -> Option<f64> {
    MSL_CONSTANTS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, v)| *v)
}

#[cfg(test)]
mod tests {
    use super::msl_constant;

    #[test]
    fn constants_are_the_msl_values() {
        assert_eq!(msl_constant("pi"), Some(std::f64::consts::PI));
        assert_eq!(msl_constant("g_n"), Some(9.80665));
        assert_eq!(msl_constant("nothing"), None);
    }
}
