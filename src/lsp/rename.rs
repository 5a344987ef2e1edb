//! Rename: of a component (connectors included), a literal or a class,
//! everywhere the index finds it — its declaration, its uses in the class,
//! in the classes that extend it, modifiers (`rod(n = 5)`) and dotted
//! names (`rod.n`) in every class of the workspace, `end` names of a
//! class. A rename that would leave the library meaning something else is
//! refused, and says why: a keyword or predefined name, a name already
//! declared where the renamed one is, a use the new name would capture, a
//! class stored in a file of its own (its file and `package.order` carry
//! the name too), a class mofmu recognises by its name.

use super::locate::Place;
use crate::resolve::index::{is_keyword, meaning, DeclId, DeclKind, Index, Role};
use crate::resolve::{ClassId, ClassTree};
use crate::source::{SourceMap, Span};

/// Names that are not keywords but are the language's own: a component or
/// class of one of these names would hide the predefined one.
const PREDEFINED: [&str; 6] = ["Real", "Integer", "Boolean", "String", "time", "der"];

/// The classes mofmu recognises by their name (docs/rules.md, "Special
/// predefined classes"): renamed, they would lose their meaning.
const SPECIAL: [&str; 4] = [
    "ContinuousState",
    "RealWithDerivative",
    "RealWith2Derivatives",
    "LinearResponse",
];

/// What the cursor is on, if it can be renamed: the name's span and the
/// current name (the editor's placeholder); else why not.
pub fn prepare(place: &Place) -> Result<(Span, String), String> {
    let (decl, span) = target(place)?;
    Ok((span, place.index.decl(decl).name.clone()))
}

/// Every span to replace by `new_name` (the declaration and each use),
/// or why the rename is refused.
pub fn rename(place: &Place, new_name: &str) -> Result<Vec<Span>, String> {
    let (decl, _) = target(place)?;
    valid_name(new_name)?;
    let index = place.index;
    if index.decl(decl).name == new_name {
        return Ok(Vec::new());
    }
    clashes(place, decl, new_name)?;
    Ok(index.references(&place.lib.tree, decl))
}

/// The declaration whose name is at the place, if it may be renamed.
fn target(place: &Place) -> Result<(DeclId, Span), String> {
    let (decl, span) = place
        .index
        .at(&place.lib.tree, place.file, place.offset)
        .ok_or(
            "nothing to rename here: put the cursor on the name of a class, component or \
         enumeration literal of the workspace",
        )?;
    renamable(place, decl)?;
    Ok((decl, span))
}

/// A new name must be an identifier, neither a keyword nor predefined.
fn valid_name(name: &str) -> Result<(), String> {
    let plain = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !plain {
        return Err(format!(
            "`{name}` is not a Modelica identifier (a letter or `_`, then letters, digits or `_`)"
        ));
    }
    if is_keyword(name) {
        return Err(format!(
            "`{name}` is a keyword of Modelica; a name cannot be one"
        ));
    }
    if PREDEFINED.contains(&name) {
        return Err(format!(
            "`{name}` is predefined in Modelica; a declaration of that name would hide it"
        ));
    }
    Ok(())
}

/// Whether the declaration may be renamed at all.
fn renamable(place: &Place, decl: DeclId) -> Result<(), String> {
    let d = place.index.decl(decl);
    let DeclKind::Class(c) = d.kind else {
        return Ok(());
    };
    let tree = &place.lib.tree;
    if SPECIAL.contains(&d.name.as_str()) {
        return Err(format!(
            "mofmu recognises `{}` by its name (a special predefined class); renamed, it would be \
             an ordinary class",
            d.name
        ));
    }
    let node = tree.get(c);
    let file = &place.lib.sources.get(node.def.span.file).name;
    let own_file = match node.parent {
        Some(p) => tree.get(p).def.span.file != node.def.span.file,
        None => file.ends_with("package.mo"),
    };
    if own_file {
        return Err(format!(
            "`{}` is stored in a file of its own ({file}), and a directory library names it by \
             that file (and in package.order): rename the file and the entry, then the class",
            node.qualified
        ));
    }
    Ok(())
}

/// Why `new_name` cannot replace the name of `decl`, if it cannot.
fn clashes(place: &Place, decl: DeclId, new_name: &str) -> Result<(), String> {
    let (index, tree, sources) = (place.index, &place.lib.tree, &place.lib.sources);
    let d = index.decl(decl);
    let line = |s: Span| where_is(sources, s);
    match d.kind {
        DeclKind::Class(c) => {
            let parent = tree.get(c).parent;
            let sibling = tree
                .classes
                .iter()
                .find(|n| n.parent == parent && n.name == new_name && n.specialisation.is_none());
            if let Some(n) = sibling {
                return Err(format!(
                    "`{}` is already a class there ({})",
                    n.qualified,
                    line(n.def.name.span)
                ));
            }
        }
        DeclKind::Component { owner, .. } => {
            for class in affected(index, tree, owner) {
                let taken = index.member(tree, class, new_name);
                if let Some(m) = taken {
                    return Err(format!(
                        "`{}` already has an element `{new_name}` ({})",
                        tree.get(class).qualified,
                        line(index.decl(m).name_span)
                    ));
                }
            }
        }
        DeclKind::Literal { owner } => {
            if let Some(m) = index
                .own(owner)
                .iter()
                .find(|m| index.decl(**m).name == new_name)
            {
                return Err(format!(
                    "`{}` already has a literal `{new_name}` ({})",
                    tree.get(owner).qualified,
                    line(index.decl(*m).name_span)
                ));
            }
        }
    }
    captured(place, decl, new_name)
}

/// The classes where a component of `owner` is an element: `owner` and
/// every class that extends it.
fn affected(index: &Index, tree: &ClassTree, owner: ClassId) -> Vec<ClassId> {
    let mut out = vec![owner];
    out.extend(
        index
            .classes()
            .filter(|c| *c != owner && index.extends(tree, *c, owner)),
    );
    out
}

/// A use of the renamed declaration written as a plain name where
/// `new_name` already names something else would name that instead; and a
/// plain use of `new_name` in a class where the renamed component is an
/// element would name the component.
fn captured(place: &Place, decl: DeclId, new_name: &str) -> Result<(), String> {
    let (index, tree, sources) = (place.index, &place.lib.tree, &place.lib.sources);
    for u in index.uses_of(tree, decl) {
        if !u.first || u.role == Role::EndName {
            continue;
        }
        if let Some(other) = meaning(index, tree, u.scope, new_name, u.span) {
            if other != decl {
                return Err(format!(
                    "at {} `{new_name}` already names {}, which the renamed name would hide or \
                     be hidden by",
                    where_is(sources, u.span),
                    describe(index, tree, other)
                ));
            }
        }
    }
    if let DeclKind::Component { owner, .. } = index.decl(decl).kind {
        let classes = affected(index, tree, owner);
        let taken = index.uses(tree).iter().find(|u| {
            u.first
                && u.role == Role::Reference
                && classes.contains(&u.scope)
                && index.decl(u.decl).name == new_name
        });
        if let Some(u) = taken {
            return Err(format!(
                "at {} `{new_name}` names {}; the renamed component would take its place",
                where_is(sources, u.span),
                describe(index, tree, u.decl)
            ));
        }
    }
    Ok(())
}

fn describe(index: &Index, tree: &ClassTree, d: DeclId) -> String {
    let decl = index.decl(d);
    match decl.kind {
        DeclKind::Class(c) => format!("the class `{}`", tree.get(c).qualified),
        DeclKind::Component { owner, .. } => {
            format!("`{}` of `{}`", decl.name, tree.get(owner).qualified)
        }
        DeclKind::Literal { owner } => {
            format!("the literal `{}.{}`", tree.get(owner).qualified, decl.name)
        }
    }
}

/// `file:line` of a span, for messages.
fn where_is(sources: &SourceMap, span: Span) -> String {
    let file = sources.get(span.file);
    let (line, _) = file.line_col(span.start);
    let name = std::path::Path::new(&file.name)
        .file_name()
        .map_or(file.name.clone(), |n| n.to_string_lossy().into_owned());
    format!("{name}:{line}")
}
