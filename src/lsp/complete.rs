//! Completion and signature help, from the index and the text before the
//! cursor (which may not parse yet: `rod.` is half a name).
//!
//! - After a dot, the members of what the name before it names: a
//!   component's components and variables (`rod.`), a package's classes
//!   and constants (`Thermal.`), an enumeration's literals (`Mode.`).
//! - Inside the parentheses of a declaration's or an `extends`'s
//!   modification (`HeatCapacitor wall(C`), the elements of that class to
//!   modify.
//! - Elsewhere, the names in scope before the cursor (no look-ahead): the
//!   class's components (inherited ones too) and the classes visible.
//! - Signature help: inside the arguments of a call of a function, its
//!   inputs, the one being written active.

use lsp_types::{
    CompletionItem, CompletionItemKind, Documentation, ParameterInformation, ParameterLabel,
    SignatureHelp, SignatureInformation, SymbolKind,
};

use super::kinds::member_kind;
use super::locate::Place;
use super::text::{self, Token};
use crate::library::Library;
use crate::resolve::index::{is_function, meaning, DeclId, DeclKind, Index};
use crate::resolve::tree::before;
use crate::resolve::ClassId;

/// The completions at the place.
pub fn completion(place: &Place) -> Vec<CompletionItem> {
    let toks = text::tokens(&place.text[..place.offset]);
    // The identifier being written, if the cursor ends one.
    let mut end = toks.len();
    if toks
        .last()
        .is_some_and(|t| t.kind == 'a' && t.end == place.offset)
    {
        end -= 1;
    }
    let before_word = &toks[..end];
    if before_word.last().is_some_and(|t| t.kind == '.') {
        let parts = dotted_before(place.text, &before_word[..before_word.len() - 1]);
        return match resolve_path(place, &parts) {
            Some(found) => members_of(place, found),
            None => Vec::new(),
        };
    }
    if let Some(class) = modified_class(place, before_word) {
        let mut items = members(place, class, false);
        items.retain(|i| i.kind != Some(CompletionItemKind::MODULE));
        return items;
    }
    in_scope(place)
}

/// The parts of the dotted name that ends at the end of `toks` (`a.b[i].c`
/// gives `a`, `b`, `c`; subscripts skipped).
fn dotted_before<'t>(text: &'t str, toks: &[Token]) -> Vec<&'t str> {
    let mut parts = Vec::new();
    let mut i = toks.len();
    loop {
        // Skip one subscript `[...]` after a part.
        if i > 0 && toks[i - 1].kind == ']' {
            let mut depth = 0;
            while i > 0 {
                i -= 1;
                match toks[i].kind {
                    ']' => depth += 1,
                    '[' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
            }
        }
        if i == 0 || toks[i - 1].kind != 'a' {
            break;
        }
        i -= 1;
        parts.push(&text[toks[i].start..toks[i].end]);
        if i == 0 || toks[i - 1].kind != '.' {
            break;
        }
        i -= 1;
    }
    parts.reverse();
    parts
}

/// What a dotted path names at the place: a component (its declaration)
/// or a class.
#[derive(Debug, Clone, Copy)]
enum Found {
    Component(DeclId),
    Class(ClassId),
}

fn resolve_path(place: &Place, parts: &[&str]) -> Option<Found> {
    let (first, rest) = parts.split_first()?;
    let scope = place.class()?;
    let at = place.span(place.offset, place.offset);
    let decl = meaning(place.index, &place.lib.tree, scope, first, at)?;
    let mut found = found_of(place.index, decl);
    for part in rest {
        found = step(place, found, part)?;
    }
    Some(found)
}

fn found_of(index: &Index, decl: DeclId) -> Found {
    match index.decl(decl).kind {
        DeclKind::Class(c) => Found::Class(c),
        _ => Found::Component(decl),
    }
}

/// The member `name` of what `found` names.
fn step(place: &Place, found: Found, name: &str) -> Option<Found> {
    let (index, tree) = (place.index, &place.lib.tree);
    match found {
        Found::Component(d) => {
            let DeclKind::Component { class: Some(k), .. } = index.decl(d).kind else {
                return None;
            };
            let m = index.member(tree, k, name)?;
            Some(found_of(index, m))
        }
        Found::Class(c) => {
            let long = tree.follow_short(c).unwrap_or(c);
            if let Some(k) = children(place, long).find(|k| tree.get(*k).name == name) {
                return Some(Found::Class(k));
            }
            let m = index.member(tree, long, name)?;
            Some(found_of(index, m))
        }
    }
}

/// The classes of `c` (those declared before the place), each once.
fn children<'p>(place: &'p Place, c: ClassId) -> impl Iterator<Item = ClassId> + 'p {
    let tree = &place.lib.tree;
    let at = place.span(place.offset, place.offset);
    tree.get(c).children.iter().copied().filter(move |k| {
        let n = tree.get(*k);
        n.specialisation.is_none() && before(n.position(), at)
    })
}

fn members_of(place: &Place, found: Found) -> Vec<CompletionItem> {
    match found {
        Found::Component(d) => match place.index.decl(d).kind {
            DeclKind::Component { class: Some(k), .. } => members(place, k, false),
            _ => Vec::new(),
        },
        Found::Class(c) => members(place, c, true),
    }
}

/// The members of class `c`: its components and literals, and with
/// `classes` its classes (a package's, after `Package.`).
fn members(place: &Place, c: ClassId, classes: bool) -> Vec<CompletionItem> {
    let (index, lib) = (place.index, place.lib);
    let long = lib.tree.follow_short(c).unwrap_or(c);
    let mut out: Vec<CompletionItem> = index
        .members(&lib.tree, long)
        .iter()
        .map(|d| decl_item(lib, index, *d))
        .collect();
    if classes {
        for k in children(place, long) {
            if let Some(d) = index.class_decl(k) {
                out.push(decl_item(lib, index, d));
            }
        }
    }
    out.dedup_by(|a, b| a.label == b.label);
    out
}

fn decl_item(lib: &Library, index: &Index, d: DeclId) -> CompletionItem {
    let decl = index.decl(d);
    let (kind, detail) = member_kind(lib, decl);
    let detail = match decl.kind {
        DeclKind::Class(c) => lib.tree.get(c).qualified.clone(),
        _ => detail,
    };
    CompletionItem {
        label: decl.name.clone(),
        kind: Some(completion_kind(kind)),
        detail: Some(detail),
        documentation: decl.description.clone().map(Documentation::String),
        ..CompletionItem::default()
    }
}

fn completion_kind(kind: SymbolKind) -> CompletionItemKind {
    match kind {
        SymbolKind::NAMESPACE => CompletionItemKind::MODULE,
        SymbolKind::FUNCTION => CompletionItemKind::FUNCTION,
        SymbolKind::STRUCT => CompletionItemKind::STRUCT,
        SymbolKind::INTERFACE => CompletionItemKind::INTERFACE,
        SymbolKind::TYPE_PARAMETER => CompletionItemKind::TYPE_PARAMETER,
        SymbolKind::CLASS => CompletionItemKind::CLASS,
        SymbolKind::ENUM_MEMBER => CompletionItemKind::ENUM_MEMBER,
        SymbolKind::CONSTANT => CompletionItemKind::CONSTANT,
        SymbolKind::FIELD => CompletionItemKind::FIELD,
        _ => CompletionItemKind::VARIABLE,
    }
}

/// The innermost `(` before the cursor that is not closed, as an index
/// into `toks`, within the current statement (no `;` between).
fn open_paren(toks: &[Token]) -> Option<usize> {
    let mut depth = 0usize;
    for i in (0..toks.len()).rev() {
        match toks[i].kind {
            ')' => depth += 1,
            '(' if depth == 0 => return Some(i),
            '(' => depth -= 1,
            ';' => return None,
            _ => {}
        }
    }
    None
}

/// The class whose elements the modification around the cursor modifies:
/// `Type name(` in a declaration, `extends Type(`, nested as
/// `Type name(a(` (the class of `a`). `None` outside a modification, and
/// after `=` inside one (a value is being written).
fn modified_class(place: &Place, toks: &[Token]) -> Option<ClassId> {
    if toks.last().is_some_and(|t| t.kind == '=') {
        return None;
    }
    let paren = open_paren(toks)?;
    // A value being written: `(C = 1 + ` is past the name.
    if toks[paren + 1..].iter().any(|t| t.kind == '=') {
        let last_sep = toks[paren + 1..]
            .iter()
            .rposition(|t| t.kind == ',')
            .map(|i| paren + 1 + i);
        let after = last_sep.unwrap_or(paren);
        if toks[after + 1..].iter().any(|t| t.kind == '=') {
            return None;
        }
    }
    let word = |t: &Token| &place.text[t.start..t.end];
    // `Real x[3](each start = 0)`: the dimensions stand between.
    let mut name_end = paren;
    if name_end > 0 && toks[name_end - 1].kind == ']' {
        let mut depth = 0;
        while name_end > 0 {
            name_end -= 1;
            match toks[name_end].kind {
                ']' => depth += 1,
                '[' if depth == 1 => break,
                '[' => depth -= 1,
                _ => {}
            }
        }
    }
    if name_end == 0 || toks[name_end - 1].kind != 'a' {
        return None;
    }
    let parts = dotted_before(place.text, &toks[..name_end]);
    let name_start = name_end - (2 * parts.len() - 1);
    let before_name = name_start.checked_sub(1).map(|i| &toks[i]);
    match before_name {
        // `extends Name(`
        Some(t) if word(t) == "extends" => match resolve_path(place, &parts)? {
            Found::Class(c) => Some(c),
            Found::Component(_) => None,
        },
        // `Type name(`: the type is the dotted name before the component.
        Some(t) if t.kind == 'a' && parts.len() == 1 && !is_prefix(word(t)) => {
            let type_parts = dotted_before(place.text, &toks[..name_start]);
            match resolve_path(place, &type_parts)? {
                Found::Class(c) => Some(c),
                Found::Component(_) => None,
            }
        }
        // `a(` inside an outer modification: a member of the outer class.
        Some(t) if t.kind == '(' || t.kind == ',' => {
            let outer = modified_class(place, &toks[..name_start])?;
            let index = place.index;
            let d = index.member(&place.lib.tree, outer, parts[0])?;
            match index.decl(d).kind {
                DeclKind::Component { class, .. } => class,
                _ => None,
            }
        }
        _ => None,
    }
}

/// Words that stand before a component's type, not for one.
fn is_prefix(word: &str) -> bool {
    matches!(
        word,
        "parameter"
            | "constant"
            | "input"
            | "output"
            | "flow"
            | "discrete"
            | "inner"
            | "outer"
            | "replaceable"
            | "redeclare"
            | "final"
            | "each"
            | "equation"
            | "algorithm"
            | "protected"
            | "public"
            | "connect"
            | "der"
            | "and"
            | "or"
            | "not"
            | "if"
            | "then"
            | "else"
            | "elseif"
            | "return"
    )
}

/// The names a modeller may write at the place: the class's components
/// declared before it (inherited ones too), and the classes visible
/// there, declared before it.
fn in_scope(place: &Place) -> Vec<CompletionItem> {
    let (lib, index) = (place.lib, place.index);
    let at = place.span(place.offset, place.offset);
    let mut out = Vec::new();
    let scope = place.class();
    if let Some(class) = scope {
        let own: Vec<DeclId> = index.own(class).to_vec();
        for &d in index.members(&lib.tree, class) {
            let mine = own.contains(&d);
            if !mine || before(index.decl(d).span, at) {
                out.push(decl_item(lib, index, d));
            }
        }
    }
    let mut parent = scope;
    loop {
        for (i, n) in lib.tree.classes.iter().enumerate() {
            let c = ClassId(i as u32);
            if n.parent == parent
                && n.specialisation.is_none()
                && before(n.position(), at)
                && Some(c) != scope
            {
                if let Some(d) = index.class_decl(c) {
                    out.push(decl_item(lib, index, d));
                }
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

/// Signature help inside the arguments of a call of a function: its
/// inputs in order, the one being written active (by position, or by name
/// after `name =`).
pub fn signature_help(place: &Place) -> Option<SignatureHelp> {
    let toks = text::tokens(&place.text[..place.offset]);
    let paren = open_paren(&toks)?;
    let name_end = paren;
    if name_end == 0 || toks[name_end - 1].kind != 'a' {
        return None;
    }
    let parts = dotted_before(place.text, &toks[..name_end]);
    let Found::Class(f) = resolve_path(place, &parts)? else {
        return None;
    };
    let (index, tree) = (place.index, &place.lib.tree);
    let f = tree.follow_short(f).unwrap_or(f);
    if !is_function(tree, f) {
        return None;
    }
    let members = index.members(tree, f);
    let inputs: Vec<DeclId> = members
        .iter()
        .copied()
        .filter(|d| index.decl(*d).prefixes.input)
        .collect();
    let outputs: Vec<String> = members
        .iter()
        .map(|d| index.decl(*d))
        .filter(|d| d.prefixes.output)
        .map(|d| format!("{} {}", d.type_text, d.name))
        .collect();
    let params: Vec<String> = inputs
        .iter()
        .map(|d| format!("{} {}", index.decl(*d).type_text, index.decl(*d).name))
        .collect();
    let mut label = format!("{}({})", tree.get(f).qualified, params.join(", "));
    if !outputs.is_empty() {
        label.push_str(&format!(" → {}", outputs.join(", ")));
    }
    // The argument being written: after the last comma at this depth.
    let mut depth = 0;
    let mut commas = 0;
    let mut last_start = paren + 1;
    for (i, t) in toks.iter().enumerate().skip(paren + 1) {
        match t.kind {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                commas += 1;
                last_start = i + 1;
            }
            _ => {}
        }
    }
    let named = toks
        .get(last_start)
        .filter(|t| t.kind == 'a')
        .and_then(|t| {
            let is_named = toks.get(last_start + 1).is_some_and(|n| n.kind == '=');
            let word = &place.text[t.start..t.end];
            is_named
                .then(|| inputs.iter().position(|d| index.decl(*d).name == word))
                .flatten()
        });
    let active = named.unwrap_or(commas) as u32;
    let parameters = inputs
        .iter()
        .zip(&params)
        .map(|(d, text)| ParameterInformation {
            label: ParameterLabel::Simple(text.clone()),
            documentation: index
                .decl(*d)
                .description
                .clone()
                .map(Documentation::String),
        })
        .collect();
    Some(SignatureHelp {
        signatures: vec![SignatureInformation {
            label,
            documentation: index
                .decl(index.class_decl(f)?)
                .description
                .clone()
                .map(Documentation::String),
            parameters: Some(parameters),
            active_parameter: Some(active),
        }],
        active_signature: Some(0),
        active_parameter: Some(active),
    })
}
