//! A place in a file: the innermost class around it, the identifier there
//! and, for hover, the variable of the class's model it names. What a
//! name declares and where it is used is the index's
//! (`resolve::index`).

use std::sync::Arc;

use super::text::{self, Ident};
use crate::classdb::ClassDb;
use crate::library::Library;
use crate::resolve::index::Index;
use crate::resolve::{ClassId, ClassModel};
use crate::source::{FileId, Span};

/// A place in one file of the library.
pub struct Place<'l> {
    pub lib: &'l Library,
    pub index: &'l Index,
    pub file: FileId,
    pub text: &'l str,
    pub offset: usize,
    pub idents: Vec<Ident>,
}

impl<'l> Place<'l> {
    pub fn new(lib: &'l Library, index: &'l Index, file: FileId, offset: usize) -> Place<'l> {
        let text = lib.sources.get(file).text.as_str();
        Place {
            lib,
            index,
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

/// The variable of `class`'s model that the identifier `at` (the last
/// part of a dotted name) names: a variable of the class or of one of its
/// components (`port.T`, `rod.x`), seen from the class (its causality
/// there, the equation that determines it).
pub fn model_var(
    db: &mut ClassDb,
    place: &Place,
    class: ClassId,
    at: Ident,
) -> Option<(ClassId, usize)> {
    let parts = text::dotted_name(place.text, &place.idents, at);
    let model = db.model(class).ok()?;
    member(db, &model, class, &parts)
}

fn member(
    db: &mut ClassDb,
    model: &Arc<ClassModel>,
    class: ClassId,
    parts: &[&str],
) -> Option<(ClassId, usize)> {
    if let Some(var) = model.var(&parts.join(".")) {
        return Some((class, var));
    }
    let sub = model.subs.iter().position(|s| s.name == parts[0])?;
    if parts.len() == 1 {
        return None;
    }
    let inner = model.subs[sub].class;
    let inner_model = db.model(inner).ok()?;
    member(db, &inner_model, inner, &parts[1..])
}
