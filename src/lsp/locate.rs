//! What a place in a file names: the innermost class around it and the
//! identifier there, resolved to a variable, a component or a class of
//! the last check's library. Shared by hover and navigation.

use std::sync::Arc;

use super::text::{self, Ident};
use crate::classdb::ClassDb;
use crate::library::Library;
use crate::resolve::tree::before;
use crate::resolve::{ClassId, ClassModel};
use crate::source::{FileId, Span};

/// A place in one file of the library.
pub struct Place<'l> {
    pub lib: &'l Library,
    pub file: FileId,
    pub text: &'l str,
    pub offset: usize,
    pub idents: Vec<Ident>,
}

/// What an identifier names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// Variable `var` of class `class` (by its index in the class model).
    Var {
        class: ClassId,
        var: usize,
    },
    /// Component `sub` of class `class`.
    Sub {
        class: ClassId,
        sub: usize,
    },
    Class(ClassId),
}

impl<'l> Place<'l> {
    pub fn new(lib: &'l Library, file: FileId, offset: usize) -> Place<'l> {
        let text = lib.sources.get(file).text.as_str();
        Place {
            lib,
            file,
            text,
            offset,
            idents: text::identifiers(text),
        }
    }

    /// The innermost class whose text holds the place.
    pub fn class(&self) -> Option<ClassId> {
        innermost(self.lib, self.file, self.offset)
    }

    pub fn ident(&self) -> Option<Ident> {
        text::ident_at(&self.idents, self.offset)
    }

    pub fn span(&self, start: usize, end: usize) -> Span {
        Span::new(self.file, start, end)
    }
}

/// The innermost class of `file` whose text holds `offset`.
pub fn innermost(lib: &Library, file: FileId, offset: usize) -> Option<ClassId> {
    lib.tree
        .classes
        .iter()
        .enumerate()
        .filter(|(_, n)| {
            let s = n.def.span;
            s.file == file && s.start as usize <= offset && offset <= s.end as usize
        })
        .min_by_key(|(_, n)| n.def.span.end - n.def.span.start)
        .map(|(i, _)| ClassId(i as u32))
}

/// What the identifier `at` (the last part of a dotted name) names in
/// `class`: a variable or component of the class (or a member of one of
/// its components), else a class visible there.
pub fn resolve(db: &mut ClassDb, place: &Place, class: ClassId, at: Ident) -> Option<Target> {
    let parts = text::dotted_name(place.text, &place.idents, at);
    if let Ok(model) = db.model(class) {
        if let Some(t) = member(db, &model, class, &parts) {
            return Some(t);
        }
    }
    class_named(place.lib, Some(class), &parts, place.span(at.start, at.end)).map(Target::Class)
}

fn member(
    db: &mut ClassDb,
    model: &Arc<ClassModel>,
    class: ClassId,
    parts: &[&str],
) -> Option<Target> {
    let joined = parts.join(".");
    if let Some(var) = model.var(&joined) {
        return Some(Target::Var { class, var });
    }
    let sub = model.subs.iter().position(|s| s.name == parts[0]);
    match (sub, parts.len()) {
        (Some(sub), 1) => Some(Target::Sub { class, sub }),
        (Some(sub), _) => {
            let inner = model.subs[sub].class;
            let inner_model = db.model(inner).ok()?;
            member(db, &inner_model, inner, &parts[1..])
        }
        (None, _) => None,
    }
}

/// The class `parts` names from `scope` at `at`: the first part is looked
/// up in the scope and the classes around it, then the top level, among
/// classes declared before `at` (no look-ahead); the others are children.
pub fn class_named(
    lib: &Library,
    scope: Option<ClassId>,
    parts: &[&str],
    at: Span,
) -> Option<ClassId> {
    let tree = &lib.tree;
    let visible = |parent: Option<ClassId>, name: &str| {
        (0..tree.classes.len() as u32).map(ClassId).find(|c| {
            let n = tree.get(*c);
            n.parent == parent
                && n.name == name
                && n.specialisation.is_none()
                && before(n.position(), at)
        })
    };
    let mut scope = scope;
    let first = loop {
        if let Some(found) = visible(scope, parts.first()?) {
            break found;
        }
        match scope {
            Some(s) => scope = tree.get(s).parent,
            None => return None,
        }
    };
    parts[1..].iter().try_fold(first, |c, part| {
        tree.get(c)
            .children
            .iter()
            .copied()
            .find(|k| tree.get(*k).name == *part)
    })
}

/// The span of the declared name of a target (the identifier in its
/// declaration), or of its whole declaration when the name is not found
/// there.
pub fn declaration(db: &mut ClassDb, lib: &Library, target: Target) -> Option<Span> {
    let (span, name) = match target {
        Target::Class(c) => {
            let def = &lib.tree.get(c).def;
            return Some(def.name.span);
        }
        Target::Var { class, var } => {
            let m = db.model(class).ok()?;
            let v = &m.vars[var];
            (
                v.span,
                v.name.rsplit('.').next().unwrap_or(&v.name).to_string(),
            )
        }
        Target::Sub { class, sub } => {
            let m = db.model(class).ok()?;
            (m.subs[sub].span, m.subs[sub].name.clone())
        }
    };
    let text = &lib.sources.get(span.file).text;
    let piece = text.get(span.start as usize..span.end as usize)?;
    let found = text::identifiers(piece)
        .into_iter()
        .rev()
        .find(|i| i.text(piece) == name);
    Some(match found {
        Some(i) => Span::new(
            span.file,
            span.start as usize + i.start,
            span.start as usize + i.end,
        ),
        None => span,
    })
}
