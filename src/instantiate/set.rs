//! The value a `--set` gives, checked against the type of the parameter it
//! names: numbers for Real and Integer parameters, `true`/`false` for
//! Boolean ones, a literal of the type for enumeration ones.

use super::SetLiteral;
use super::SetValue;
use crate::classdb::ClassDb;
use crate::diagnostic::Diagnostic;
use crate::ir::Ex;
use crate::resolve::constants::enumeration_type;
use crate::resolve::tree::Builtin;
use crate::resolve::ClassId;

/// The value of `set` for variable `var` of the component at `subs` below
/// `model`; a value of the wrong kind is an error at the parameter's
/// declaration.
pub(super) fn value_of(
    db: &ClassDb,
    model: ClassId,
    subs: &[usize],
    var: usize,
    set: &SetValue,
) -> Result<Ex, Diagnostic> {
    let mut class = db
        .elaborated_model(model)
        .expect("a --set target was found in an elaborated model");
    for k in subs {
        class = db
            .elaborated_model(class.subs[*k].class)
            .expect("a --set target was found in an elaborated model");
    }
    let (ty, span) = (class.vars[var].ty, class.vars[var].span);
    let wrong = |code: &'static str, expected: &str| {
        Diagnostic::error(
            code,
            span,
            format!("--set {}: `{}` is {expected}", set.path, set.path),
        )
        .with_label("the parameter set")
    };
    match (ty, &set.value) {
        (Builtin::Enumeration(c), value) => {
            let e = enumeration_type(db.tree(), c).expect("an enumeration type's class");
            let allowed: Vec<&str> = e.literals.iter().map(|(n, _)| n.as_str()).collect();
            let found = match value {
                SetLiteral::Literal(name) => allowed.iter().position(|n| n == name),
                _ => None,
            };
            match found {
                Some(k) => Ok(Ex::Int(k as i64 + 1)),
                None => Err(wrong(
                    "MX020",
                    &format!(
                        "of enumeration type `{}`; {} is none of its literals",
                        e.name,
                        shown(&set.value)
                    ),
                )
                .with_help(format!("give one of: {}", allowed.join(", ")))),
            }
        }
        (Builtin::Boolean, SetLiteral::Bool(b)) => Ok(Ex::Bool(*b)),
        (Builtin::Boolean, other) => Err(wrong(
            "MX021",
            &format!("a Boolean parameter; {} is not a Boolean", shown(other)),
        )
        .with_help(format!(
            "write --set {}=true or --set {}=false",
            set.path, set.path
        ))),
        (_, SetLiteral::Number(v)) => Ok(Ex::Real(*v)),
        (_, other) => Err(wrong(
            "MX022",
            &format!(
                "a {} parameter; {} is not a number",
                type_name(ty),
                shown(other)
            ),
        )
        .with_help(format!("write a number, e.g. --set {}=1", set.path))),
    }
}

fn shown(v: &SetLiteral) -> String {
    match v {
        SetLiteral::Number(x) => format!("`{x}`"),
        SetLiteral::Bool(b) => format!("`{b}`"),
        SetLiteral::Literal(n) => format!("`{n}`"),
    }
}

fn type_name(ty: Builtin) -> &'static str {
    match ty {
        Builtin::Real => "Real",
        Builtin::Integer => "Integer",
        Builtin::Boolean => "Boolean",
        Builtin::String => "String",
        Builtin::Enumeration(_) => "enumeration",
    }
}
