//! Hover: what the check knows at a place. On a variable its unit
//! (declared or inferred), causality, the equation that determines it and
//! whether it is a state; on a class its unit verdict and whether it
//! compiles; on an equation the unknown it determines.

use crate::classdb::ClassDb;
use crate::ir::{SlotKind, Stmt};
use crate::library::Library;
use crate::resolve::model::split_der;
use crate::resolve::model::{ClassCausality, ClassVariability};
use crate::resolve::ClassId;
use crate::source::{SourceMap, Span};
use crate::units::Origin;

use super::locate::{model_var, Place};
use crate::resolve::index::{Decl, DeclKind};

/// The hover text (Markdown) and the span it is about.
pub fn hover(place: &Place) -> Option<(String, Span)> {
    let class = place.class()?;
    let mut db = ClassDb::new(&place.lib.tree, &place.lib.sources);
    let ident = place.ident();
    let found = place.index.at(&place.lib.tree, place.file, place.offset);
    let var = ident.and_then(|at| model_var(&mut db, place, class, at));
    let equation = equation_at(&mut db, class, place.span(place.offset, place.offset));
    let declared = found.map(|(d, _)| place.index.decl(d));
    let (mut text, span) = match (var, found, ident) {
        (Some((c, v)), _, Some(at)) => (
            variable(&mut db, &place.lib.sources, c, v, declared),
            place.span(at.start, at.end),
        ),
        (None, Some((d, span)), _) => {
            let decl = place.index.decl(d);
            let text = match decl.kind {
                DeclKind::Class(c) => class_text(&mut db, place.lib, c),
                DeclKind::Component { .. } => component_text(place.lib, decl),
                DeclKind::Literal { .. } => format!(
                    "**{}**: literal of the enumeration `{}`{}",
                    decl.name,
                    decl.type_text,
                    described(decl)
                ),
            };
            (text, span)
        }
        _ => {
            let (unknown, span) = equation.clone()?;
            return Some((format!("this equation determines `{unknown}`"), span));
        }
    };
    if let Some((unknown, _)) = equation {
        text.push_str(&format!("\n\nthis equation determines `{unknown}`"));
    }
    Some((text, span))
}

fn described(decl: &Decl) -> String {
    decl.description
        .as_ref()
        .map(|d| format!("  \n{d}"))
        .unwrap_or_default()
}

/// A component the class's model has no variable for (a sub-component,
/// a connector, a record, or a component of a class that does not
/// elaborate): its declared type and kind.
fn component_text(lib: &Library, decl: &Decl) -> String {
    let (_, detail) = super::kinds::member_kind(lib, decl);
    let class = match decl.kind {
        DeclKind::Component {
            class: Some(k),
            owner,
        } => format!(
            "  \nclass: `{}`; declared in `{}`",
            lib.tree.get(k).qualified,
            lib.tree.get(owner).qualified
        ),
        _ => String::new(),
    };
    format!("**{}**: `{detail}`{class}{}", decl.name, described(decl))
}

/// The unknown the equation around `at` determines, and the equation's
/// span (the innermost assignment of the class's causalised form).
fn equation_at(db: &mut ClassDb, class: ClassId, at: Span) -> Option<(String, Span)> {
    let entry = db.entry(class).ok()?;
    let causal = &entry.causalized.causal;
    let mut best: Option<(usize, Span)> = None;
    for block in &causal.blocks {
        walk(&block.stmts, &mut |target, span| {
            let holds = span.file == at.file && span.start <= at.start && at.end <= span.end;
            if holds && best.map_or(true, |(_, b)| span.end - span.start < b.end - b.start) {
                best = Some((target, span));
            }
        });
    }
    best.map(|(slot, span)| (causal.slots[slot].name.clone(), span))
}

/// Every equation of the class's causalised form: the unknown it
/// determines and its span.
pub fn assignments(db: &mut ClassDb, class: ClassId) -> Vec<(String, Span)> {
    let Ok(entry) = db.entry(class) else {
        return Vec::new();
    };
    let causal = &entry.causalized.causal;
    let mut out = Vec::new();
    for block in &causal.blocks {
        walk(&block.stmts, &mut |target, span| {
            out.push((causal.slots[target].name.clone(), span));
        });
    }
    out
}

fn walk(stmts: &[Stmt], f: &mut dyn FnMut(usize, Span)) {
    for s in stmts {
        match s {
            Stmt::Assign { target, span, .. } => f(*target, *span),
            Stmt::For { body, .. } | Stmt::Clocked { body, .. } => walk(body, f),
            Stmt::Tick(_) => {}
        }
    }
}

/// The equation that determines variable `var` of `class` (or, for a
/// state, its derivative), as its source line.
fn determined_by(db: &mut ClassDb, class: ClassId, var: usize) -> Option<(bool, Span)> {
    let entry = db.entry(class).ok()?;
    let causal = &entry.causalized.causal;
    let mut found = None;
    for block in &causal.blocks {
        walk(
            &block.stmts,
            &mut |target, span| match causal.slots[target].kind {
                SlotKind::Own(v) if v == var => found = found.or(Some((false, span))),
                SlotKind::Der(v) if v == var => found = found.or(Some((true, span))),
                _ => {}
            },
        );
    }
    found
}

/// A variable of `class` (by its index in the class's model), seen from
/// the class; `declared` is the component the name at the place declares,
/// whose type is shown as written (`Base.ContinuousState`, not `Real`).
fn variable(
    db: &mut ClassDb,
    sources: &SourceMap,
    class: ClassId,
    var: usize,
    declared: Option<&Decl>,
) -> String {
    let Ok(model) = db.model(class) else {
        return String::new();
    };
    let v = &model.vars[var];
    let (order, _) = split_der(&v.name);
    let ty = match declared {
        Some(d) if matches!(d.kind, DeclKind::Component { .. }) && order == 0 => {
            format!("`{}` ({:?})", d.type_text, v.ty)
        }
        _ => format!("{:?}", v.ty),
    };
    let mut lines = vec![format!("**{}**: {ty}", v.name)];
    if let Some(d) = &v.description {
        lines.push(d.clone());
    }
    lines.push(format!(
        "state: {}",
        if v.special.state { "yes" } else { "no" }
    ));
    let causality = match (v.variability, v.causality) {
        (ClassVariability::Constant, _) => "known (constant)".to_string(),
        (ClassVariability::Parameter, _) => "known (parameter)".to_string(),
        (_, _) if v.special.state => "known (state: its derivative is the unknown)".to_string(),
        (_, ClassCausality::Input) => "known (input)".to_string(),
        (_, ClassCausality::Output) => "unknown (output, determined by the class)".to_string(),
        (_, ClassCausality::Local) => "unknown (determined by the class)".to_string(),
    };
    lines.push(format!("causality: {causality}"));
    lines.push(format!("unit: {}", unit_of(db, class, &v.name)));
    match determined_by(db, class, var) {
        Some((der, span)) => {
            let what = if der {
                "its derivative is determined by"
            } else {
                "determined by"
            };
            lines.push(format!("{what}: {}", line_of(sources, span)));
        }
        None if order == 0
            && v.variability == ClassVariability::Continuous
            && v.causality != ClassCausality::Input
            && !v.special.state =>
        {
            lines.push("determined by: no equation of the class (see the diagnostics)".into());
        }
        None => {}
    }
    lines.join("  \n")
}

/// An equation as written (its first line), with its line number.
fn line_of(sources: &SourceMap, span: Span) -> String {
    let file = sources.get(span.file);
    let (line, _) = file.line_col(span.start);
    let text = sources.snippet(span);
    let first = text.lines().next().unwrap_or("").trim();
    let more = if text.trim().contains('\n') {
        " …"
    } else {
        ""
    };
    format!("`{first}`{more} (line {line})")
}

/// The unit of variable `name` of `class`: declared, inferred or open.
fn unit_of(db: &mut ClassDb, class: ClassId, name: &str) -> String {
    if db.units(class).is_none() {
        return "not checked (the class does not elaborate)".to_string();
    }
    let Some(m) = crate::units::model_units(db.unit_signatures(), class) else {
        return "unknown".to_string();
    };
    match m.variables.iter().find(|u| u.name == name) {
        Some(u) => match (&u.unit, u.origin) {
            (Some(unit), origin) => format!("`{unit}` ({})", origin.as_str()),
            (None, Origin::Unknown) => match &u.open_form {
                Some(form) => {
                    let names: Vec<&str> = m.variables.iter().map(|v| v.name.as_str()).collect();
                    open_unit(name, form, &names)
                }
                None => "unknown".to_string(),
            },
            (None, origin) => origin.as_str().to_string(),
        },
        None => "none (not a Real)".to_string(),
    }
}

/// A unit nothing in the class fixes, in words: the unit checker writes
/// `'u` for "the unit of `u`" (`'u/s`, `'y.'u-1`), and a name may hold
/// dots itself (`'port.T`), so each is matched against the class's
/// variable names, longest first.
fn open_unit(name: &str, form: &str, names: &[&str]) -> String {
    if form == format!("'{name}") {
        return "open (nothing in the class fixes it; a class that uses it may)".to_string();
    }
    let mut words = String::new();
    let mut rest = form;
    while let Some(i) = rest.find('\'') {
        words.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        let known = names
            .iter()
            .filter(|n| after.starts_with(**n))
            .max_by_key(|n| n.len());
        let end = known.map_or_else(
            || after.find(['.', '/', '\'']).unwrap_or(after.len()),
            |n| n.len(),
        );
        words.push_str(&format!("unit({})", &after[..end]));
        rest = &after[end..];
    }
    words.push_str(rest);
    format!("open: `{words}` (nothing in the class fixes it)")
}

fn class_text(db: &mut ClassDb, lib: &Library, c: ClassId) -> String {
    let node = lib.tree.get(c);
    let mut lines = vec![format!("**{}** ({:?})", node.qualified, node.def.kind)];
    if let Some(d) = &node.def.description {
        lines.push(d.clone());
    }
    // The check's own policy says what is compiled on its own.
    let checked = crate::library::check_class(lib, db, c, true);
    let first = checked
        .diagnostics
        .first()
        .map(|d| format!(": first {}: {}", d.code, d.message))
        .unwrap_or_default();
    lines.push(match (checked.compiled, checked.diagnostics.len()) {
        (true, 0) => match db.entry(c) {
            Ok(e) => format!(
                "compiles on its own: {} block(s) of equations",
                e.causalized.causal.blocks.len()
            ),
            Err(_) => "compiles on its own".to_string(),
        },
        (false, 0) => "not compiled on its own (a package, partial class, function, record, connector or type)".to_string(),
        (_, n) => format!("does not compile: {n} diagnostic(s){first}"),
    });
    if checked.compiled {
        if let Some(m) = crate::units::model_units(db.unit_signatures(), c) {
            let open = m.open();
            let mut verdict = format!("units: {}", m.verdict.describe());
            if !open.is_empty() {
                verdict.push_str(&format!(" (open: {})", open.join(", ")));
            }
            lines.push(verdict);
        }
    }
    lines.join("  \n")
}
