//! One unit written wrong is one fault. A unit that is not a Modelica unit
//! (`type Temperature = Real(unit = "Kx")`) is reported by the unit check
//! at every declaration whose variable has it: each variable of that type,
//! each connector member of it, in every class. Those declarations do not
//! write the unit themselves; the place that writes it is the root cause.
//! So a UC001 at a declaration that does not write its unit is dropped, and
//! the fault is reported once at each place that writes that unit (a
//! type's or a component's `unit = "..."`) and has no report of its own.

use crate::diagnostic::Diagnostic;
use crate::resolve::tree::ClassTree;
use crate::source::Span;
use crate::syntax::ast::{Argument, ClassBody, Element, ExprKind, Modification};

/// The text of a UC001 about a declared unit: `unit "X" of `v` is not a
/// Modelica unit: why`, as the unit check words it.
const OF: &str = " of `";
const NOT_A_UNIT: &str = " is not a Modelica unit";

/// Moves the UC001 of declarations that only inherit a wrong unit to the
/// places that write it (see the module's comment).
pub fn report_at_roots(tree: &ClassTree, diags: &mut Vec<Diagnostic>) {
    let unit_of = |d: &Diagnostic| -> Option<String> {
        let rest = d.message.strip_prefix("unit \"")?;
        let (unit, after) = rest.split_once('"')?;
        after.starts_with(OF).then(|| unit.to_string())
    };
    if !diags
        .iter()
        .any(|d| d.code == "UC001" && unit_of(d).is_some())
    {
        return;
    }
    let written = unit_literals(tree);
    let mut roots: Vec<Diagnostic> = Vec::new();
    let mut kept = Vec::with_capacity(diags.len());
    for d in std::mem::take(diags) {
        let Some(unit) = (d.code == "UC001").then(|| unit_of(&d)).flatten() else {
            kept.push(d);
            continue;
        };
        let places: Vec<Span> = written
            .iter()
            .filter(|(u, _)| *u == unit)
            .map(|(_, s)| *s)
            .collect();
        let own = places.iter().any(|p| contains(d.span, *p));
        if own || places.is_empty() {
            kept.push(d);
            continue;
        }
        for place in places {
            if roots.iter().any(|r| r.span == place) {
                continue;
            }
            let why = d.message.split_once(NOT_A_UNIT).map_or("", |(_, why)| why);
            let mut root =
                Diagnostic::error("UC001", place, format!("unit \"{unit}\"{NOT_A_UNIT}{why}"))
                    .with_label("unknown unit")
                    .with_note(d.span, "a declaration that has this unit");
            root.help = d.help.clone();
            roots.push(root);
        }
    }
    // A place that writes the unit and has a report of its own (a
    // component's `unit = "..."` in a checked class) needs no second one.
    roots.retain(|r| {
        !kept
            .iter()
            .any(|k| k.code == "UC001" && contains(k.span, r.span))
    });
    kept.extend(roots);
    kept.sort_by_key(|d| (d.span.file, d.span.start));
    *diags = kept;
}

/// Every `unit = "..."` a class writes at the top of a modification (a
/// short class's, a component's): the unit and the span of its string.
fn unit_literals(tree: &ClassTree) -> Vec<(String, Span)> {
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for node in &tree.classes {
        // Specialisations and inherited functions share their original's
        // syntax.
        if node.specialisation.is_some() || !seen.insert(node.def.span) {
            continue;
        }
        match &node.def.body {
            ClassBody::Short(short) => {
                if let Some(m) = &short.modification {
                    units_of(m, &mut out);
                }
            }
            ClassBody::Long(body) => {
                for e in &body.elements {
                    if let Element::Component(c) = e {
                        if let Some(m) = &c.modification {
                            units_of(m, &mut out);
                        }
                    }
                }
            }
            ClassBody::Enumeration { .. } | ClassBody::Unsupported { .. } => {}
        }
    }
    out
}

fn units_of(m: &Modification, out: &mut Vec<(String, Span)>) {
    for a in &m.arguments {
        let Argument::Modify {
            name,
            modification: Some(value),
            ..
        } = a
        else {
            continue;
        };
        if name.dotted() != "unit" {
            continue;
        }
        if let Some(ExprKind::String(s)) = value.binding.as_ref().map(|b| &b.kind) {
            let span = value.binding.as_ref().map_or(value.span, |b| b.span);
            out.push((s.clone(), span));
        }
    }
}

fn contains(outer: Span, inner: Span) -> bool {
    outer.file == inner.file && outer.start <= inner.start && inner.end <= outer.end
}
