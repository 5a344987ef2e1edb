//! Navigation over the library's index (`resolve::index`): go to
//! definition, find references and document symbols. Every declaration is
//! in the index, components of connector type and classes included, and
//! every use of it in every class of the workspace: modifiers
//! (`rod(n = 5)`), dotted names (`rod.port.T`), `extends` and `end` names.

use lsp_types::{DocumentSymbol, SymbolKind};

use super::hover::assignments;
use super::kinds::{class_kind, member_kind};
use super::locate::Place;
use super::text;
use crate::classdb::ClassDb;
use crate::library::Library;
use crate::resolve::index::{kind_keyword, Index};
use crate::resolve::ClassId;
use crate::source::{FileId, Span};

/// The declared name of what the name at the place names.
pub fn definition(place: &Place) -> Option<Span> {
    let (decl, _) = place.index.at(&place.lib.tree, place.file, place.offset)?;
    Some(place.index.decl(decl).name_span)
}

/// Every place that names what the name at the place names, in every
/// file of the library: the declaration first when it is asked for.
pub fn references(place: &Place, include_declaration: bool) -> Option<Vec<Span>> {
    let (decl, _) = place.index.at(&place.lib.tree, place.file, place.offset)?;
    let mut spans = place.index.references(&place.lib.tree, decl);
    if !include_declaration {
        spans.remove(0);
    }
    Some(spans)
}

/// The symbols of a file: its classes (nested as written), the components
/// and literals each declares, and its equations, each by the unknown it
/// determines.
pub fn symbols(lib: &Library, index: &Index, file: FileId) -> Vec<DocumentSymbol> {
    let mut db = ClassDb::new(&lib.tree, &lib.sources);
    let tops: Vec<ClassId> = index
        .classes()
        .filter(|c| {
            let n = lib.tree.get(*c);
            n.def.span.file == file
                && n.parent
                    .map_or(true, |p| lib.tree.get(p).def.span.file != file)
        })
        .collect();
    tops.into_iter()
        .map(|c| class_symbol(&mut db, lib, index, c))
        .collect()
}

#[allow(deprecated)] // `DocumentSymbol::deprecated` must be written out
fn symbol(
    lib: &Library,
    name: String,
    detail: String,
    kind: SymbolKind,
    span: Span,
    pick: Span,
) -> DocumentSymbol {
    let file = lib.sources.get(span.file);
    let starts = file.line_starts();
    let range = text::range(&file.text, starts, span.start as usize, span.end as usize);
    let mut selection = text::range(&file.text, starts, pick.start as usize, pick.end as usize);
    if selection.start < range.start || selection.end > range.end {
        selection = range;
    }
    DocumentSymbol {
        name,
        detail: (!detail.is_empty()).then_some(detail),
        kind,
        tags: None,
        deprecated: None,
        range,
        selection_range: selection,
        children: None,
    }
}

fn class_symbol(db: &mut ClassDb, lib: &Library, index: &Index, c: ClassId) -> DocumentSymbol {
    let node = lib.tree.get(c);
    let own = node.def.span;
    let inside = |s: Span| s.file == own.file && own.start <= s.start && s.end <= own.end;
    let mut children = Vec::new();
    for d in index.own(c) {
        let decl = index.decl(*d);
        let (kind, detail) = member_kind(lib, decl);
        children.push(symbol(
            lib,
            decl.name.clone(),
            detail,
            kind,
            decl.span,
            decl.name_span,
        ));
    }
    for (unknown, span) in assignments(db, c) {
        if inside(span) {
            children.push(symbol(
                lib,
                format!("{unknown} = …"),
                "equation".into(),
                SymbolKind::OPERATOR,
                span,
                span,
            ));
        }
    }
    for k in node.children.iter().filter(|k| {
        let n = lib.tree.get(**k);
        n.specialisation.is_none() && inside(n.def.span)
    }) {
        children.push(class_symbol(db, lib, index, *k));
    }
    children.sort_by_key(|s| (s.range.start.line, s.range.start.character));
    let keyword = kind_keyword(&lib.tree, c);
    let mut out = symbol(
        lib,
        node.name.clone(),
        keyword.to_string(),
        class_kind(keyword),
        own,
        node.def.name.span,
    );
    out.children = Some(children);
    out
}
