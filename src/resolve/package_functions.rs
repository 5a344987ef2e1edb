//! Functions and records of packages that extend packages: what
//! `Medium.temperature(h)` calls and `Medium.ThermodynamicState` names when
//! `Medium` is a replaceable package.
//!
//! A package that extends a package (`package Water extends
//! PartialLiquid(cp = 4184);`) inherits its functions: each function of a
//! base that the package does not declare itself becomes a class of the
//! package (`Media.Water.specificEnthalpy`, the same definition), so its
//! plain names find the package's constants (`cp` is Water's) and it
//! compiles once per package, under its own C symbol. Records are
//! inherited the same way, so `Medium.ThermodynamicState` and the inherited
//! functions' plain `ThermodynamicState` find the package's record.
//!
//! A package implements an inherited partial function by a class
//! extension, `redeclare function extends temperature algorithm ... end
//! temperature;`: its first element is `extends temperature`, which names
//! the function the package inherits (not the extension itself); it is
//! rewritten here to that function's full name, so every lookup of the
//! base sees it. An extension of a function the package does not inherit
//! is `MC129`. Calling a partial function that no package implements is
//! `MC128`, at the call (`resolve::function`).
//!
//! This pass runs once, where the tree is built, before specialisation.

use std::sync::Arc;

use super::tree::{ClassId, ClassTree, Resolved};
use crate::diagnostic::Diagnostic;
use crate::syntax::ast::{ClassBody, ClassKind, Element, Ident, Name};

/// How deep a chain of `extends` is followed for inherited functions.
const MAX_DEPTH: usize = 32;

pub(crate) fn run(tree: &mut ClassTree, diags: &mut Vec<Diagnostic>) {
    let count = tree.classes.len() as u32;
    for id in (0..count).map(ClassId) {
        if tree.get(id).def.class_extension().is_some() {
            resolve_extension(tree, id, diags);
        }
    }
    for id in (0..count).map(ClassId) {
        if tree.kind(id) == ClassKind::Package {
            inherit_functions(tree, id);
        }
    }
}

/// Rewrites the `extends f` of class extension `id` to the full name of
/// the function `f` its package inherits (MC129 when there is none).
fn resolve_extension(tree: &mut ClassTree, id: ClassId, diags: &mut Vec<Diagnostic>) {
    let node = tree.get(id);
    let Some(x) = node.def.class_extension() else {
        return;
    };
    let name = node.name.clone();
    let span = x.name.span;
    let base = node.parent.and_then(|p| inherited(tree, p, &name, 0));
    let Some(base) = base.filter(|b| tree.kind(*b) == ClassKind::Function) else {
        let package = node
            .parent
            .map_or(String::new(), |p| tree.get(p).qualified.clone());
        diags.push(
            Diagnostic::error(
                "MC129",
                span,
                format!("`{package}` inherits no function `{name}` to extend"),
            )
            .with_label("no inherited function of this name")
            .with_help(
                "`redeclare function extends f` implements a function `f` that the enclosing package inherits from a package it extends; extend that package, or declare a new function",
            ),
        );
        return;
    };
    let parts = tree
        .get(base)
        .qualified
        .split('.')
        .map(|p| Ident {
            name: p.to_string(),
            span,
        })
        .collect();
    let mut def = (*tree.get(id).def).clone();
    if let ClassBody::Long(body) = &mut def.body {
        if let Some(Element::Extends(x)) = body.elements.first_mut() {
            x.name = Name {
                global: true,
                parts,
                span,
            };
        }
    }
    tree.classes[id.0 as usize].def = Arc::new(def);
}

/// Adds to package `id` each function and record its bases declare (or
/// inherit) and it does not declare itself.
fn inherit_functions(tree: &mut ClassTree, id: ClassId) {
    let mut found: Vec<(String, ClassId)> = Vec::new();
    collect_functions(tree, id, 0, &mut found);
    for (name, base) in found {
        let declared = tree
            .get(id)
            .children
            .iter()
            .any(|c| tree.get(*c).name == name);
        if !declared {
            tree.add_inherited(id, base);
        }
    }
}

/// The functions and records the bases of class `id` declare, nearest
/// first, each name once.
fn collect_functions(
    tree: &ClassTree,
    id: ClassId,
    depth: usize,
    out: &mut Vec<(String, ClassId)>,
) {
    if depth > MAX_DEPTH {
        return;
    }
    for base in bases(tree, id) {
        for &c in &tree.get(base).children {
            let child = tree.get(c);
            let inheritable = matches!(child.def.kind, ClassKind::Function | ClassKind::Record);
            if inheritable && !out.iter().any(|(n, _)| *n == child.name) {
                out.push((child.name.clone(), c));
            }
        }
        collect_functions(tree, base, depth + 1, out);
    }
}

/// The class `name` that class `id` inherits from its bases (not its own).
fn inherited(tree: &ClassTree, id: ClassId, name: &str, depth: usize) -> Option<ClassId> {
    if depth > MAX_DEPTH {
        return None;
    }
    for base in bases(tree, id) {
        if let Some(c) = tree
            .get(base)
            .children
            .iter()
            .copied()
            .find(|c| tree.get(*c).name == name)
        {
            return Some(c);
        }
        if let Some(c) = inherited(tree, base, name, depth + 1) {
            return Some(c);
        }
    }
    None
}

/// The long classes class `id` extends, in order.
fn bases(tree: &ClassTree, id: ClassId) -> Vec<ClassId> {
    let ClassBody::Long(body) = &tree.get(id).def.body else {
        return Vec::new();
    };
    body.elements
        .iter()
        .filter_map(|e| match e {
            Element::Extends(x) => match tree.lookup(&x.name, Some(id), x.span) {
                Ok(Resolved::Class(b)) => tree.follow_short(b).ok().filter(|b| *b != id),
                _ => None,
            },
            _ => None,
        })
        .collect()
}
