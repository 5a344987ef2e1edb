//! Semantic tokens: every use of a variable of a class coloured by what it
//! is. Types: `parameter` (parameters and constants) and `variable`;
//! modifiers: `state`, `input`, `output` and `readonly` (parameters).

use std::collections::HashMap;
use std::sync::Arc;

use lsp_types::{SemanticToken, SemanticTokenModifier, SemanticTokenType, SemanticTokensLegend};

use super::locate::innermost;
use super::text;
use crate::classdb::ClassDb;
use crate::library::Library;
use crate::resolve::model::{ClassCausality, ClassVariability};
use crate::resolve::{ClassId, ClassModel};
use crate::source::FileId;

const PARAMETER: u32 = 0;
const VARIABLE: u32 = 1;
const STATE: u32 = 1 << 0;
const INPUT: u32 = 1 << 1;
const OUTPUT: u32 = 1 << 2;
const READONLY: u32 = 1 << 3;

pub fn legend() -> SemanticTokensLegend {
    SemanticTokensLegend {
        token_types: vec![SemanticTokenType::PARAMETER, SemanticTokenType::VARIABLE],
        token_modifiers: vec![
            SemanticTokenModifier::new("state"),
            SemanticTokenModifier::new("input"),
            SemanticTokenModifier::new("output"),
            SemanticTokenModifier::READONLY,
        ],
    }
}

/// The tokens of one file, in the protocol's relative encoding.
pub fn tokens(lib: &Library, file: FileId) -> Vec<SemanticToken> {
    let source = lib.sources.get(file);
    let text = source.text.as_str();
    let starts = source.line_starts();
    let mut db = ClassDb::new(&lib.tree, &lib.sources);
    let mut models: HashMap<ClassId, Option<Arc<ClassModel>>> = HashMap::new();
    let mut out = Vec::new();
    let (mut line, mut col) = (0u32, 0u32);
    for id in text::identifiers(text) {
        if id.dotted {
            continue;
        }
        let Some(class) = innermost(lib, file, id.start) else {
            continue;
        };
        let model = models
            .entry(class)
            .or_insert_with(|| db.model(class).ok())
            .clone();
        let Some(model) = model else {
            continue;
        };
        let Some(var) = model.var(id.text(text)) else {
            continue;
        };
        let v = &model.vars[var];
        let (kind, mut modifiers) = match v.variability {
            ClassVariability::Parameter | ClassVariability::Constant => (PARAMETER, READONLY),
            ClassVariability::Continuous => (VARIABLE, 0),
        };
        if v.special.state {
            modifiers |= STATE;
        }
        modifiers |= match v.causality {
            ClassCausality::Input => INPUT,
            ClassCausality::Output => OUTPUT,
            ClassCausality::Local => 0,
        };
        let at = text::position(text, starts, id.start);
        let end = text::position(text, starts, id.end);
        if end.line != at.line {
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
