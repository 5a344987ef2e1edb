//! Navigation: go to definition, find references, rename of a component
//! within its class, document symbols and completion of the names in
//! scope before the cursor (no look-ahead).

use lsp_types::{CompletionItem, CompletionItemKind, DocumentSymbol, SymbolKind};

use super::hover::assignments;
use super::locate::{declaration, innermost, resolve, Place, Target};
use super::text;
use crate::classdb::ClassDb;
use crate::library::Library;
use crate::resolve::tree::before;
use crate::resolve::ClassId;
use crate::source::{FileId, Span};

/// The declaration of what the identifier at the place names.
pub fn definition(place: &Place) -> Option<Span> {
    let class = place.class()?;
    let at = place.ident()?;
    let mut db = ClassDb::new(&place.lib.tree, &place.lib.sources);
    let target = resolve(&mut db, place, class, at)?;
    declaration(&mut db, place.lib, target)
}

/// Every use of the variable or component at the place inside the class
/// that declares it (the declaration first), or of the class at the place
/// in the whole library. `None` for what cannot be renamed here (a
/// variable declared in a base class).
pub fn references(place: &Place) -> Option<Vec<Span>> {
    let class = place.class()?;
    let at = place.ident()?;
    let mut db = ClassDb::new(&place.lib.tree, &place.lib.sources);
    let target = resolve(&mut db, place, class, at)?;
    let decl = declaration(&mut db, place.lib, target)?;
    let name = place.lib.sources.snippet(decl).to_string();
    let lib = place.lib;
    let mut out = vec![decl];
    match target {
        Target::Var { class, .. } | Target::Sub { class, .. } => {
            // Declared in this class's own text, used there.
            let owner = lib.tree.get(class).def.span;
            if decl.file != owner.file || decl.start < owner.start || decl.end > owner.end {
                return None;
            }
            let file_text = &lib.sources.get(owner.file).text;
            for id in text::identifiers(file_text) {
                let inside = owner.start as usize <= id.start && id.end <= owner.end as usize;
                let span = Span::new(owner.file, id.start, id.end);
                if inside
                    && !id.dotted
                    && id.text(file_text) == name
                    && span != decl
                    && innermost(lib, owner.file, id.start) == Some(class)
                {
                    out.push(span);
                }
            }
        }
        Target::Class(c) => {
            for (file, f) in lib.sources.files() {
                let idents = text::identifiers(&f.text);
                for id in &idents {
                    let span = Span::new(file, id.start, id.end);
                    if id.text(&f.text) != name || span == decl {
                        continue;
                    }
                    let Some(scope) = innermost(lib, file, id.start) else {
                        continue;
                    };
                    let parts = text::dotted_name(&f.text, &idents, *id);
                    let found = super::locate::class_named(lib, Some(scope), &parts, span);
                    if found == Some(c) {
                        out.push(span);
                    }
                }
            }
        }
    }
    Some(out)
}

/// The symbols of a file: its classes (nested as written), their own
/// components and their equations, each by the unknown it determines.
pub fn symbols(lib: &Library, file: FileId) -> Vec<DocumentSymbol> {
    let mut db = ClassDb::new(&lib.tree, &lib.sources);
    let tops: Vec<ClassId> = (0..lib.tree.classes.len() as u32)
        .map(ClassId)
        .filter(|c| {
            let n = lib.tree.get(*c);
            n.def.span.file == file
                && n.specialisation.is_none()
                && n.parent
                    .map_or(true, |p| lib.tree.get(p).def.span.file != file)
        })
        .collect();
    tops.into_iter()
        .map(|c| class_symbol(&mut db, lib, c))
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

fn class_symbol(db: &mut ClassDb, lib: &Library, c: ClassId) -> DocumentSymbol {
    let node = lib.tree.get(c);
    let mut children = Vec::new();
    let own = node.def.span;
    let inside = |s: Span| s.file == own.file && own.start <= s.start && s.end <= own.end;
    if let Ok(model) = db.model(c) {
        for v in model
            .vars
            .iter()
            .filter(|v| inside(v.span) && !v.name.contains('.'))
        {
            let detail = if v.special.state { "state" } else { "" };
            children.push(symbol(
                lib,
                v.name.clone(),
                detail.into(),
                SymbolKind::VARIABLE,
                v.span,
                v.span,
            ));
        }
        for s in model.subs.iter().filter(|s| inside(s.span)) {
            let class = lib.tree.get(s.class).qualified.clone();
            children.push(symbol(
                lib,
                s.name.clone(),
                class,
                SymbolKind::FIELD,
                s.span,
                s.span,
            ));
        }
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
    for k in node
        .children
        .iter()
        .filter(|k| lib.tree.get(**k).specialisation.is_none())
    {
        children.push(class_symbol(db, lib, *k));
    }
    children.sort_by_key(|s| (s.range.start.line, s.range.start.character));
    let mut out = symbol(
        lib,
        node.name.clone(),
        format!("{:?}", node.def.kind).to_lowercase(),
        SymbolKind::CLASS,
        own,
        node.def.name.span,
    );
    out.children = Some(children);
    out
}

/// The names a modeller may write at the place: the class's variables and
/// components declared before it (inherited ones too), and the classes
/// visible there, declared before it.
pub fn completion(place: &Place) -> Vec<CompletionItem> {
    let lib = place.lib;
    let at = place.span(place.offset, place.offset);
    let mut out = Vec::new();
    let scope = place.class();
    if let Some(class) = scope {
        let mut db = ClassDb::new(&lib.tree, &lib.sources);
        if let Ok(model) = db.model(class) {
            for v in model.vars.iter().filter(|v| before(v.span, at)) {
                let kind = if v.special.state { "state" } else { "variable" };
                out.push(item(&v.name, CompletionItemKind::VARIABLE, kind));
            }
            for s in model.subs.iter().filter(|s| before(s.span, at)) {
                out.push(item(
                    &s.name,
                    CompletionItemKind::FIELD,
                    &lib.tree.get(s.class).qualified,
                ));
            }
        }
    }
    let mut parent = scope;
    loop {
        for (i, n) in lib.tree.classes.iter().enumerate() {
            if n.parent == parent
                && n.specialisation.is_none()
                && before(n.position(), at)
                && Some(ClassId(i as u32)) != scope
            {
                out.push(item(&n.name, CompletionItemKind::CLASS, &n.qualified));
            }
        }
        match parent {
            Some(p) => parent = lib.tree.get(p).parent,
            None => break,
        }
    }
    out.dedup_by(|a, b| a.label == b.label);
    out
}

fn item(label: &str, kind: CompletionItemKind, detail: &str) -> CompletionItem {
    CompletionItem {
        label: label.to_string(),
        kind: Some(kind),
        detail: Some(detail.to_string()),
        ..CompletionItem::default()
    }
}
