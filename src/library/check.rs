//! The compilability policy: which classes of a library are compiled on
//! their own and how (`check_class`), the pass over the library in load
//! order that fills the class database (`check_library_into`), and the
//! final form of a library's diagnostics (`finish_check`). The incremental
//! session replays the same per-class step, so both give one result.

use super::load::Library;
use crate::classdb::ClassDb;
use crate::diagnostic::Diagnostic;
use crate::instantiate::instantiate_for_check;
use crate::resolve::ClassId;
use crate::source::Span;
use crate::syntax::ast::{ClassBody, ClassKind};

/// Checks every class of the library that can be compiled on its own:
/// non-partial models, blocks and connectors; units included.
pub fn check_library(lib: &Library) -> Vec<Diagnostic> {
    check_library_with(lib, true)
}

/// [`check_library`], with unit checking optional (to measure its cost).
pub fn check_library_with(lib: &Library, check_units: bool) -> Vec<Diagnostic> {
    check_library_into(lib, check_units, &mut ClassDb::new(&lib.tree, &lib.sources))
}

/// [`check_library_with`] that leaves every class it compiled in `db` (a
/// new database of `lib`): one pass in load order elaborates, causalises
/// and unit-checks each class once, and checking a class as the system of
/// its components reads its components' entries from there. An export goes
/// on with the same database (`export::export_checked`).
pub fn check_library_into(lib: &Library, check_units: bool, db: &mut ClassDb) -> Vec<Diagnostic> {
    let mut diags = lib.diagnostics.clone();
    for i in 0..lib.tree.classes.len() {
        let id = ClassId(i as u32);
        diags.extend(check_class(lib, db, id, check_units).diagnostics);
    }
    // The unit diagnostics follow, class by class in the order their units
    // were checked: each compiled class in load order, after the classes
    // of its components.
    let signatures = db.unit_signatures();
    for id in signatures.order() {
        diags.extend(signatures.diagnostics(*id).iter().cloned());
    }
    finish_check(lib, diags)
}

/// What `check` found at one class, in the order it found it.
pub(crate) struct ClassCheck {
    /// Diagnostics of elaboration, of the connector's member order, of
    /// causalisation and of the system check, in the order found. Unit
    /// diagnostics are not among them: the database keeps those with the
    /// class's signature.
    pub diagnostics: Vec<Diagnostic>,
    /// The class was compiled, so `check` asked for its units.
    pub compiled: bool,
}

/// Checks one class as the pass over the library does at that class:
/// elaboration, then a connector's member order, or a compilable class's
/// causalisation, units (when `check_units`; its components' classes
/// first) and its check as the system of its components.
pub(crate) fn check_class(
    lib: &Library,
    db: &mut ClassDb,
    id: ClassId,
    check_units: bool,
) -> ClassCheck {
    let mut diags = Vec::new();
    let node = lib.tree.get(id);
    let kind = node.def.kind;
    let skipped = ClassCheck {
        diagnostics: Vec::new(),
        compiled: false,
    };
    // A specialisation is compiled for the models that use it (its class
    // as written was checked; what the redeclarations change is checked at
    // the redeclarations and where the models use it).
    if matches!(node.def.body, ClassBody::Short(_))
        || node.specialisation.is_some()
        || crate::resolve::elaborate::is_linear_response(node)
    {
        return skipped;
    }
    match kind {
        ClassKind::Model | ClassKind::Block | ClassKind::Connector | ClassKind::Class => {}
        // A function is resolved and checked once, on its own; a record
        // is its fields.
        ClassKind::Function | ClassKind::Record => {
            if has_load_diagnostic(lib, id) {
                return skipped;
            }
            let result = if kind == ClassKind::Function {
                db.function(id).map(|f| {
                    // Its body's units, in the units its variables declare.
                    match db.model(id) {
                        Ok(model) if check_units => {
                            crate::units::function_units(&f, &model, db.unit_signatures())
                        }
                        _ => Vec::new(),
                    }
                })
            } else {
                db.model(id).map(|_| Vec::new())
            };
            let mut diagnostics = result.unwrap_or_else(|ds| ds);
            // A function of a partial package may read constants the
            // package leaves without a value: each package that extends it
            // inherits the function with its values (and checks it there).
            let in_partial = node
                .parent
                .is_some_and(|p| lib.tree.get(p).def.prefixes.partial.is_some());
            if in_partial {
                diagnostics.retain(|d| d.code != "MC084");
            }
            return ClassCheck {
                diagnostics,
                compiled: false,
            };
        }
        _ => return skipped,
    }
    let model = match db.model(id) {
        Ok(m) => m,
        Err(ds) => {
            return ClassCheck {
                diagnostics: ds,
                compiled: false,
            }
        }
    };
    if kind == ClassKind::Connector {
        return ClassCheck {
            diagnostics: db.check_connector(id),
            compiled: false,
        };
    }
    if model.partial {
        return skipped;
    }
    // A class that uses an eliminated feature was already reported at
    // that line; causalising it anyway would report the same line again
    // (e.g. `delay(...)` as an unknown function) or guess at what the
    // rejected construct determined.
    if has_load_diagnostic(lib, id) {
        return skipped;
    }
    if let Err(mut ds) = db.entry(id) {
        // The units are inferred from the causalised class, but a declared
        // unit that is not a Modelica unit is an error of its own, reported
        // in the same run (not only once the equations are fixed).
        if check_units {
            ds.extend(crate::units::declared_unit_errors(&model));
        }
        return ClassCheck {
            diagnostics: ds,
            compiled: false,
        };
    }
    // Units: each class once, a class with components from their
    // signatures (so the fault shows at the lowest level).
    if check_units {
        db.units(id);
    }
    // Every class is also checked as the system it forms with its
    // components (its linear responses included): inputs connected,
    // blocks acyclic, parameters set, residuals affine in the balances.
    // So `check` finds every compliance fault `export` would.
    db.compile_below(id);
    match instantiate_for_check(db, id) {
        Ok(sys) => {
            if let Err(ds) = crate::schedule::schedule(&sys) {
                diags.extend(ds);
            }
        }
        Err(ds) => diags.extend(ds),
    }
    ClassCheck {
        diagnostics: diags,
        compiled: true,
    }
}

/// Whether a syntax, eliminated-feature or tree diagnostic lies inside the
/// class's text.
pub(crate) fn has_load_diagnostic(lib: &Library, id: ClassId) -> bool {
    let span = lib.tree.get(id).def.span;
    lib.diagnostics.iter().any(|d| contains(span, d.span))
}

/// The diagnostics of a whole library put in their final form: those that
/// repeat a line already rejected for an eliminated feature dropped,
/// sorted by place (stable, so diagnostics at one place keep the order
/// they were found in), duplicates dropped.
pub(crate) fn finish_check(lib: &Library, mut diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
    drop_consequences_of_eliminated(lib, &mut diags);
    diags.sort_by_key(|d| (d.span.file, d.span.start));
    diags.dedup();
    crate::check::teach::teach(&lib.sources, &lib.tree, &mut diags);
    diags
}

/// One line, one diagnostic: a line rejected for an eliminated feature
/// (`MC1xx`, e.g. a `stream` member) is not reported again for what later
/// phases make of it (the same member as a potential without causality).
fn drop_consequences_of_eliminated(lib: &Library, diags: &mut Vec<Diagnostic>) {
    let line = |d: &Diagnostic| {
        let file = lib.sources.get(d.span.file);
        (d.span.file, file.line_col(d.span.start).0)
    };
    let eliminated: std::collections::HashSet<_> = diags
        .iter()
        .filter(|d| d.code.starts_with("MC1"))
        .map(line)
        .collect();
    if eliminated.is_empty() {
        return;
    }
    // A connector that uses an eliminated feature (a `stream` member, an
    // `expandable` prefix) is acausal by design; the feature is the one
    // reason it is rejected, so its member order is not reported too.
    let mut rejected_connectors = Vec::new();
    for d in diags.iter().filter(|d| d.code.starts_with("MC1")) {
        let innermost = lib
            .tree
            .classes
            .iter()
            .filter(|c| contains(c.def.span, d.span))
            .min_by_key(|c| c.def.span.end - c.def.span.start);
        if let Some(c) = innermost.filter(|c| c.def.kind == ClassKind::Connector) {
            rejected_connectors.push(c.def.span);
        }
    }
    diags.retain(|d| {
        if d.code.starts_with("MC1") || d.code.starts_with("MS") {
            return true;
        }
        let order = matches!(d.code, "MC013" | "MC014");
        let in_rejected = order && rejected_connectors.iter().any(|s| contains(*s, d.span));
        !in_rejected && !eliminated.contains(&line(d))
    });
}

fn contains(outer: Span, inner: Span) -> bool {
    outer.file == inner.file && outer.start <= inner.start && inner.end <= outer.end
}
