//! Semantic tokens: every name the index knows in a file, coloured by what
//! it declares. Classes by their kind (`namespace` for packages,
//! `function`, `struct` for records, `interface` for connectors, `type`,
//! `enum`, `class`), enumeration literals as `enumMember`, components as
//! `parameter` (parameters and constants, `readonly`) or `variable`; the
//! modifiers `state`, `input`, `output` and `declaration`.

use std::collections::HashMap;
use std::sync::Arc;

use lsp_types::{SemanticToken, SemanticTokenModifier, SemanticTokenType, SemanticTokensLegend};

use super::text;
use crate::classdb::ClassDb;
use crate::library::Library;
use crate::resolve::index::{kind_keyword, Decl, DeclKind, Index};
use crate::resolve::{ClassId, ClassModel};
use crate::source::{FileId, Span};

const PARAMETER: u32 = 0;
const VARIABLE: u32 = 1;
const CLASS: u32 = 2;
const NAMESPACE: u32 = 3;
const TYPE: u32 = 4;
const FUNCTION: u32 = 5;
const ENUM_MEMBER: u32 = 6;
const INTERFACE: u32 = 7;
const STRUCT: u32 = 8;
const ENUM: u32 = 9;

const STATE: u32 = 1 << 0;
const INPUT: u32 = 1 << 1;
const OUTPUT: u32 = 1 << 2;
const READONLY: u32 = 1 << 3;
const DECLARATION: u32 = 1 << 4;

pub fn legend() -> SemanticTokensLegend {
    SemanticTokensLegend {
        token_types: vec![
            SemanticTokenType::PARAMETER,
            SemanticTokenType::VARIABLE,
            SemanticTokenType::CLASS,
            SemanticTokenType::NAMESPACE,
            SemanticTokenType::TYPE,
            SemanticTokenType::FUNCTION,
            SemanticTokenType::ENUM_MEMBER,
            SemanticTokenType::INTERFACE,
            SemanticTokenType::STRUCT,
            SemanticTokenType::ENUM,
        ],
        token_modifiers: vec![
            SemanticTokenModifier::new("state"),
            SemanticTokenModifier::new("input"),
            SemanticTokenModifier::new("output"),
            SemanticTokenModifier::READONLY,
            SemanticTokenModifier::DECLARATION,
        ],
    }
}

/// The tokens of one file, in the protocol's relative encoding.
pub fn tokens(lib: &Library, index: &Index, file: FileId) -> Vec<SemanticToken> {
    let source = lib.sources.get(file);
    let text = source.text.as_str();
    let starts = source.line_starts();
    // Every named place of the file: the uses, then the declared names.
    let mut places: Vec<(Span, &Decl, bool)> = index
        .uses(&lib.tree)
        .iter()
        .filter(|u| u.span.file == file)
        .map(|u| (u.span, index.decl(u.decl), false))
        .collect();
    places.extend(
        index
            .decls
            .iter()
            .filter(|d| d.name_span.file == file)
            .map(|d| (d.name_span, d, true)),
    );
    places.sort_by_key(|(s, _, _)| (s.start, s.end));
    places.dedup_by_key(|(s, _, _)| s.start);
    let mut db = ClassDb::new(&lib.tree, &lib.sources);
    let mut models: HashMap<ClassId, Option<Arc<ClassModel>>> = HashMap::new();
    let mut out = Vec::new();
    let (mut line, mut col) = (0u32, 0u32);
    for (span, decl, declaration) in places {
        let (kind, mut modifiers) = match decl.kind {
            DeclKind::Class(c) => (class_token(lib, c), 0),
            DeclKind::Literal { .. } => (ENUM_MEMBER, READONLY),
            DeclKind::Component { owner, .. } => {
                let model = models
                    .entry(owner)
                    .or_insert_with(|| db.model(owner).ok())
                    .clone();
                component_token(decl, model.as_deref())
            }
        };
        if declaration {
            modifiers |= DECLARATION;
        }
        let at = text::position(text, starts, span.start as usize);
        let end = text::position(text, starts, span.end as usize);
        if end.line != at.line || (at.line == line && at.character < col && !out.is_empty()) {
            continue;
        }
        let delta_start = if at.line == line {
            at.character - col
        } else {
            at.character
        };
        out.push(SemanticToken {
            delta_line: at.line - line,
            delta_start,
            length: end.character - at.character,
            token_type: kind,
            token_modifiers_bitset: modifiers,
        });
        (line, col) = (at.line, at.character);
    }
    out
}

fn class_token(lib: &Library, c: ClassId) -> u32 {
    match kind_keyword(&lib.tree, c) {
        "package" => NAMESPACE,
        "function" => FUNCTION,
        "record" => STRUCT,
        "connector" => INTERFACE,
        "type" if is_enumeration(lib, c) => ENUM,
        "type" => TYPE,
        _ => CLASS,
    }
}

fn is_enumeration(lib: &Library, c: ClassId) -> bool {
    crate::resolve::constants::enumeration_type(&lib.tree, c).is_some()
}

/// A component's token: from its declaration, and, where the owner's
/// model has a variable of that name, from the variable (a state, the
/// causality a connector member inherits).
fn component_token(decl: &Decl, model: Option<&ClassModel>) -> (u32, u32) {
    let p = decl.prefixes;
    let (kind, mut modifiers) = if p.parameter || p.constant {
        (PARAMETER, READONLY)
    } else {
        (VARIABLE, 0)
    };
    if p.input {
        modifiers |= INPUT;
    }
    if p.output {
        modifiers |= OUTPUT;
    }
    if let Some(v) = model.and_then(|m| m.var(&decl.name).map(|i| &m.vars[i])) {
        if v.special.state {
            modifiers |= STATE;
        }
        modifiers |= match v.causality {
            crate::resolve::model::ClassCausality::Input => INPUT,
            crate::resolve::model::ClassCausality::Output => OUTPUT,
            crate::resolve::model::ClassCausality::Local => 0,
        };
    }
    (kind, modifiers)
}
