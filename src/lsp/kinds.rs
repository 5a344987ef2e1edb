//! What a declaration is, in the protocol's words: a class's symbol kind
//! by its keyword, a component's by its prefixes and its class's kind,
//! with the detail line symbols, completion and hover show.

use lsp_types::SymbolKind;

use crate::library::Library;
use crate::resolve::index::{kind_keyword, Decl, DeclKind};

/// The protocol's kind of a class, by its keyword.
pub fn class_kind(keyword: &str) -> SymbolKind {
    match keyword {
        "package" => SymbolKind::NAMESPACE,
        "function" => SymbolKind::FUNCTION,
        "connector" => SymbolKind::INTERFACE,
        "record" => SymbolKind::STRUCT,
        "type" => SymbolKind::TYPE_PARAMETER,
        _ => SymbolKind::CLASS,
    }
}

/// What a component or literal is, for symbols and completion: its
/// protocol kind and a detail line (`parameter Real`, `connector
/// HeatPort_a`).
pub fn member_kind(lib: &Library, decl: &Decl) -> (SymbolKind, String) {
    let p = decl.prefixes;
    let prefix = [
        (p.constant, "constant"),
        (p.parameter, "parameter"),
        (p.input, "input"),
        (p.output, "output"),
        (p.flow, "flow"),
    ]
    .iter()
    .filter(|(on, _)| *on)
    .map(|(_, w)| *w)
    .collect::<Vec<_>>()
    .join(" ");
    let detail = |what: &str| {
        [prefix.as_str(), what, decl.type_text.as_str()]
            .iter()
            .filter(|s| !s.is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join(" ")
    };
    match decl.kind {
        DeclKind::Literal { .. } => (SymbolKind::ENUM_MEMBER, decl.type_text.clone()),
        DeclKind::Class(c) => (
            class_kind(kind_keyword(&lib.tree, c)),
            decl.type_text.clone(),
        ),
        DeclKind::Component { class, .. } => {
            let keyword = class.map(|k| {
                let long = lib.tree.follow_short(k).unwrap_or(k);
                kind_keyword(&lib.tree, long)
            });
            match keyword {
                _ if p.constant || p.parameter => (SymbolKind::CONSTANT, detail("")),
                Some("connector") => (SymbolKind::INTERFACE, detail("connector")),
                Some("model" | "block" | "class") => (SymbolKind::FIELD, detail("")),
                _ => (SymbolKind::VARIABLE, detail("")),
            }
        }
    }
}
