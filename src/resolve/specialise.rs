//! Replaceable classes and their redeclarations: `replaceable package
//! Medium = Media.Water constrainedby Media.PartialLiquid;` in a class, and
//! `redeclare package Medium = Media.Oil` in the modifiers of a component
//! or an `extends` clause.
//!
//! A class is specialised per distinct set of redeclarations: a
//! specialisation is one more node of the class tree, keyed by its
//! [`Specialisation`] (the class as written, and each redeclared class with
//! the long class that replaces it), so the class database compiles it
//! once however many components use it, and the fingerprint covers it as
//! a class. Inside a specialisation the redeclared names look up their
//! replacements (`ClassTree::lookup`), so everything the class writes
//! (`Medium.rho`, `Pipe pipe(redeclare package Medium = Medium)`, a
//! component of a replaceable model) sees them without look-ahead.
//!
//! This pass runs once, where the tree is built, in load order; a new
//! specialisation is itself passed over (the redeclarations it passes
//! down), and the replacements of a specialisation that a base class
//! declares are passed to that base (`extends` makes its specialisation).
//! Each redeclaration is checked at its line: the element must be a
//! replaceable class (`MC080`) of that kind (`MC083`), declared in the
//! class or a base (`MC081`), and the new class must have every element
//! of the constraining class with the same kind and type (`MC082`).

use std::collections::{BTreeMap, HashSet, VecDeque};

use super::tree::{ClassId, ClassTree, Resolved, Specialisation};
use crate::diagnostic::Diagnostic;
use crate::source::Span;
use crate::syntax::ast::{Argument, ClassBody, Element, Name, RedeclareClass, TypePrefixes};

/// How many specialisations a library may make: redeclarations passed
/// down a hierarchy are few; more means a class specialises itself.
const MAX_SPECIALISATIONS: usize = 10_000;

/// Makes every specialisation the library's redeclarations call for.
pub(crate) fn run(tree: &mut ClassTree, diags: &mut Vec<Diagnostic>) {
    let mut work: VecDeque<ClassId> = (0..tree.classes.len() as u32).map(ClassId).collect();
    let mut reported: HashSet<(u32, u32, &'static str)> = HashSet::new();
    while let Some(id) = work.pop_front() {
        let def = tree.get(id).def.clone();
        let ClassBody::Long(body) = &def.body else {
            continue;
        };
        for element in &body.elements {
            let (name, args, at, inherited) = match element {
                Element::Component(c) => (
                    &c.type_name,
                    c.modification
                        .as_ref()
                        .map_or(&[][..], |m| &m.arguments[..]),
                    c.span,
                    false,
                ),
                Element::Extends(x) => (&x.name, &x.modification[..], x.span, true),
                _ => continue,
            };
            let mut replacements = BTreeMap::new();
            if inherited {
                // What a specialisation redeclares, a base that declares it
                // gets too.
                let passed = tree.get(id).specialisation.clone();
                if let (Some(spec), Ok(Resolved::Class(base))) =
                    (passed, tree.lookup(name, Some(id), at))
                {
                    for (n, c) in spec.replacements {
                        if replaceable_in(tree, base, &n).is_some() && !declares(tree, id, &n) {
                            replacements.insert(n, c);
                        }
                    }
                }
            }
            let redeclares: Vec<&RedeclareClass> = args
                .iter()
                .filter_map(|a| match a {
                    Argument::RedeclareClass(r) => Some(r),
                    _ => None,
                })
                .collect();
            if redeclares.is_empty() && replacements.is_empty() {
                continue;
            }
            // A type that does not resolve is reported by elaboration.
            let Ok(Resolved::Class(generic)) = tree.lookup(name, Some(id), at) else {
                continue;
            };
            let Ok(generic) = tree.follow_short(generic) else {
                continue;
            };
            let generic = tree.generic_of(generic);
            for r in redeclares {
                match check(tree, id, generic, r) {
                    Ok(Some(c)) => {
                        replacements.insert(r.name.name.clone(), c);
                    }
                    Ok(None) => {
                        replacements.remove(&r.name.name);
                    }
                    Err(d) => {
                        // A redeclaration passed down is checked once per
                        // specialisation of the class that writes it.
                        if reported.insert((d.span.file.0, d.span.start, d.code)) {
                            diags.push(d);
                        }
                    }
                }
            }
            if replacements.is_empty() {
                continue;
            }
            let key = Specialisation {
                generic,
                replacements: replacements.into_iter().collect(),
            };
            let spec = match tree.interned.get(&key) {
                Some(s) => *s,
                None => {
                    if tree.interned.len() >= MAX_SPECIALISATIONS {
                        continue;
                    }
                    let s = add(tree, key);
                    work.push_back(s);
                    s
                }
            };
            tree.specialised.insert((id, at.start), spec);
        }
    }
}

/// Adds the specialisation `key` to the tree: the generic class's
/// definition under a name that says what it redeclares, beside it.
fn add(tree: &mut ClassTree, key: Specialisation) -> ClassId {
    let generic = tree.get(key.generic).clone();
    let redeclared: Vec<String> = key
        .replacements
        .iter()
        .map(|(n, c)| format!("{n} = {}", tree.get(*c).qualified))
        .collect();
    let id = ClassId(tree.classes.len() as u32);
    tree.classes.push(super::tree::ClassNode {
        qualified: format!("{}({})", generic.qualified, redeclared.join(", ")),
        children: Vec::new(),
        specialisation: Some(key.clone()),
        ..generic
    });
    tree.interned.insert(key, id);
    id
}

/// Checks `redeclare <kind> <name> = <base>` written in class `scope` on
/// an element of class `generic`: the long class that replaces it, or
/// `None` when that is the default.
fn check(
    tree: &ClassTree,
    scope: ClassId,
    generic: ClassId,
    r: &RedeclareClass,
) -> Result<Option<ClassId>, Diagnostic> {
    let gq = &tree.get(generic).qualified;
    let Some((element, replaceable)) = class_element(tree, generic, &r.name.name) else {
        return Err(Diagnostic::error(
            "MC081",
            r.name.span,
            format!("`{gq}` declares no class `{}` to redeclare", r.name.name),
        )
        .with_label("no such replaceable class")
        .with_help("redeclare a replaceable class the component's class (or a base) declares"));
    };
    let node = tree.get(element);
    if !replaceable {
        return Err(Diagnostic::error(
            "MC080",
            r.span,
            format!("`{}` is not replaceable", node.qualified),
        )
        .with_label("redeclare of a class that is not replaceable")
        .with_note(node.def.name.span, "declared here without `replaceable`")
        .with_help(
            "declare it `replaceable package ... constrainedby ...;`, or do not redeclare it",
        ));
    }
    if node.def.kind != r.kind {
        return Err(Diagnostic::error(
            "MC083",
            r.span,
            format!(
                "`{}` is a replaceable {}, redeclared as a {}",
                node.qualified,
                node.def.kind.keyword(),
                r.kind.keyword()
            ),
        )
        .with_label("wrong kind of class")
        .with_note(node.def.name.span, "declared here")
        .with_help(format!(
            "write `redeclare {} {} = ...`",
            node.def.kind.keyword(),
            r.name.name
        )));
    }
    let new = match tree.lookup(&r.base, Some(scope), r.base.span) {
        Ok(Resolved::Class(c)) => tree.follow_short(c)?,
        Ok(Resolved::Builtin(_)) => {
            return Err(constraint(r, "a predefined type", node.def.name.span))
        }
        Err(d) => return Err(d),
    };
    let default = tree.follow_short(element)?;
    let constraining = match &node.def.constrainedby {
        Some(name) => match tree.lookup(name, node.parent, name.span) {
            Ok(Resolved::Class(c)) => tree.follow_short(c)?,
            _ => default,
        },
        None => default,
    };
    conforms(tree, new, constraining, r)?;
    Ok((new != default).then_some(new))
}

fn constraint(r: &RedeclareClass, why: &str, note: Span) -> Diagnostic {
    Diagnostic::error(
        "MC082",
        r.base.span,
        format!("`{}` cannot replace `{}`: {why}", r.base.dotted(), r.name.name),
    )
    .with_label("outside the constraining class")
    .with_note(note, "the constraining class")
    .with_help("redeclare a class that has every element of the constraining class, with the same kind and type")
}

/// `new` has every public element of `constraining`, each of the same
/// kind, variability, predefined type and number of dimensions.
fn conforms(
    tree: &ClassTree,
    new: ClassId,
    constraining: ClassId,
    r: &RedeclareClass,
) -> Result<(), Diagnostic> {
    if new == constraining {
        return Ok(());
    }
    let have = interface(tree, new);
    for (name, (shape, span)) in interface(tree, constraining) {
        match have.get(&name) {
            None => return Err(constraint(r, &format!("it has no element `{name}`"), span)),
            Some((s, _)) if *s != shape => {
                return Err(constraint(
                    r,
                    &format!("its `{name}` is {s}, the constraining class's is {shape}"),
                    span,
                ))
            }
            Some(_) => {}
        }
    }
    Ok(())
}

/// The public elements of a class (its own and its bases'), each with a
/// text that says what it is (`constant Real[1]`, `package`) and where
/// it is declared.
fn interface(tree: &ClassTree, id: ClassId) -> BTreeMap<String, (String, Span)> {
    let mut out = BTreeMap::new();
    collect(tree, id, &mut out, 0);
    out
}

fn collect(
    tree: &ClassTree,
    id: ClassId,
    out: &mut BTreeMap<String, (String, Span)>,
    depth: usize,
) {
    if depth > 32 {
        return;
    }
    let ClassBody::Long(body) = &tree.get(id).def.body else {
        return;
    };
    for e in &body.elements {
        match e {
            Element::Extends(x) => {
                if let Ok(Resolved::Class(b)) = tree.lookup(&x.name, Some(id), x.span) {
                    collect(tree, b, out, depth + 1);
                }
            }
            Element::Component(c) if c.visibility == crate::syntax::ast::Visibility::Public => {
                let ty = predefined(tree, &c.type_name, id, c.span);
                // A constant's unit is part of what a redeclared package
                // must keep: `cp` in J/(kg.K) is not `cp` in J/K.
                let unit = match (&c.prefixes.constant, declared_unit(tree, c, id)) {
                    (Some(_), Some(u)) => format!(" in \"{u}\""),
                    _ => String::new(),
                };
                let what = format!(
                    "{}{ty}{}{unit}",
                    variability(&c.prefixes),
                    if c.dims.len() + c.type_dims.len() > 0 {
                        format!("[{}]", c.dims.len() + c.type_dims.len())
                    } else {
                        String::new()
                    }
                );
                out.insert(c.name.name.clone(), (what, c.span));
            }
            Element::Class {
                class, visibility, ..
            } if *visibility == crate::syntax::ast::Visibility::Public => {
                // A function's inputs and outputs are part of what a
                // redeclared package must keep.
                let what = match tree
                    .get(id)
                    .children
                    .iter()
                    .find(|k| tree.get(**k).name == class.name.name)
                {
                    Some(&k) if class.kind == crate::syntax::ast::ClassKind::Function => {
                        let mut params = Vec::new();
                        signature(tree, k, &mut params, 0);
                        format!("a function ({})", params.join(", "))
                    }
                    _ => format!("a {}", class.kind.keyword()),
                };
                out.insert(class.name.name.clone(), (what, class.name.span));
            }
            _ => {}
        }
    }
}

/// The inputs and outputs of function `id` (its bases' first), as
/// `input Real h`, in declaration order.
fn signature(tree: &ClassTree, id: ClassId, out: &mut Vec<String>, depth: usize) {
    let ClassBody::Long(body) = &tree.get(id).def.body else {
        return;
    };
    for e in &body.elements {
        match e {
            Element::Extends(x) if depth < 32 => {
                if let Ok(Resolved::Class(b)) = tree.lookup(&x.name, Some(id), x.span) {
                    signature(tree, b, out, depth + 1);
                }
            }
            Element::Component(c) => {
                let role = match (&c.prefixes.input, &c.prefixes.output) {
                    (Some(_), _) => "input",
                    (_, Some(_)) => "output",
                    _ => continue,
                };
                let ty = predefined(tree, &c.type_name, id, c.span);
                out.push(format!("{role} {ty} {}", c.name.name));
            }
            _ => {}
        }
    }
}

fn variability(p: &TypePrefixes) -> &'static str {
    if p.constant.is_some() {
        "a constant "
    } else if p.parameter.is_some() {
        "a parameter "
    } else {
        "a "
    }
}

/// A component type followed down short definitions to its predefined
/// type, or the long class it is.
fn predefined(tree: &ClassTree, name: &Name, scope: ClassId, at: Span) -> String {
    let mut found = tree.lookup(name, Some(scope), at);
    for _ in 0..64 {
        match found {
            Ok(Resolved::Builtin(b)) => return format!("{b:?}"),
            Ok(Resolved::Class(c)) => {
                let node = tree.get(c);
                match &node.def.body {
                    ClassBody::Short(short) => {
                        found = tree.lookup(&short.base, node.parent, short.base.span)
                    }
                    _ => return node.qualified.clone(),
                }
            }
            Err(_) => break,
        }
    }
    name.dotted()
}

/// The `unit` a component declares: its own modifier's, else the first
/// one met following its type down short definitions (`SI.Temperature`).
fn declared_unit(
    tree: &ClassTree,
    c: &crate::syntax::ast::Component,
    scope: ClassId,
) -> Option<String> {
    if let Some(u) = c.modification.as_ref().and_then(unit_of) {
        return Some(u);
    }
    let mut found = tree.lookup(&c.type_name, Some(scope), c.span);
    for _ in 0..64 {
        let Ok(Resolved::Class(k)) = found else {
            return None;
        };
        let node = tree.get(k);
        let ClassBody::Short(short) = &node.def.body else {
            return None;
        };
        if let Some(u) = short.modification.as_ref().and_then(unit_of) {
            return Some(u);
        }
        found = tree.lookup(&short.base, node.parent, short.base.span);
    }
    None
}

/// `unit = "..."` among a modification's arguments, trimmed.
fn unit_of(m: &crate::syntax::ast::Modification) -> Option<String> {
    m.arguments.iter().find_map(|a| match a {
        crate::syntax::ast::Argument::Modify {
            name,
            modification:
                Some(crate::syntax::ast::Modification {
                    binding: Some(e), ..
                }),
            ..
        } if name.parts.len() == 1 && name.parts[0].name == "unit" => match &e.kind {
            crate::syntax::ast::ExprKind::String(u) => Some(u.trim().to_string()),
            _ => None,
        },
        _ => None,
    })
}

/// The class `name` declared in class `id` or a base of it, and whether it
/// is replaceable.
fn class_element(tree: &ClassTree, id: ClassId, name: &str) -> Option<(ClassId, bool)> {
    replaceable_in(tree, id, name)
}

fn replaceable_in(tree: &ClassTree, id: ClassId, name: &str) -> Option<(ClassId, bool)> {
    let mut stack = vec![(id, 0usize)];
    while let Some((c, depth)) = stack.pop() {
        let node = tree.get(c);
        let ClassBody::Long(body) = &node.def.body else {
            continue;
        };
        for e in &body.elements {
            if let Element::Class {
                class, prefixes, ..
            } = e
            {
                if class.name.name == name {
                    let child = node
                        .children
                        .iter()
                        .copied()
                        .find(|k| tree.get(*k).name == name)?;
                    return Some((child, prefixes.replaceable.is_some()));
                }
            }
        }
        if depth < 32 {
            for e in body.elements.iter().rev() {
                if let Element::Extends(x) = e {
                    if let Ok(Resolved::Class(b)) = tree.lookup(&x.name, Some(c), x.span) {
                        stack.push((b, depth + 1));
                    }
                }
            }
        }
    }
    None
}

/// Whether class `id` declares a class `name` itself (which hides a
/// base's).
fn declares(tree: &ClassTree, id: ClassId, name: &str) -> bool {
    let ClassBody::Long(body) = &tree.get(id).def.body else {
        return false;
    };
    body.elements
        .iter()
        .any(|e| matches!(e, Element::Class { class, .. } if class.name.name == name))
}
