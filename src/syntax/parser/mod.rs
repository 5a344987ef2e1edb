//! The recursive-descent parser: tokens to [`StoredDefinition`].
//!
//! Every parsing function returns `Err(Reported)` once it has pushed a
//! diagnostic (or met a token the lexer already reported). The error travels
//! up to the nearest list of elements, equations or statements, which
//! rewinds to the start of the failed item, skips it as a whole and goes on
//! with the next one. So each broken item costs exactly one diagnostic and
//! independent errors further down the file are still found.
//!
//! One file per syntax category, as methods of one [`cursor::Parser`]:
//! `classes` (files, class definitions, imports, extends), `components`
//! (component clauses, prefixes, modifications, annotations), `equations`
//! (equation and algorithm sections), `expressions`. They stand on
//! `cursor` (token access, diagnostics, nesting guard, terminals) and
//! `recovery` (skipping a failed item); this file is the entry point.

mod classes;
mod components;
mod cursor;
mod equations;
mod expressions;
mod recovery;

pub use cursor::MAX_NESTING;

use crate::diagnostic::Diagnostic;
use crate::source::FileId;
use crate::syntax::ast::StoredDefinition;
use crate::syntax::lexer::lex;
use cursor::Parser;

/// Parse one file. Never panics; syntax errors come back as diagnostics,
/// ordered by where they start.
pub fn parse(file: FileId, text: &str) -> (StoredDefinition, Vec<Diagnostic>) {
    let lexed = lex(file, text);
    let probe = 0u8;
    let stack_base = std::hint::black_box(&probe) as *const u8 as usize;
    let mut parser = Parser {
        stack_base,
        file,
        text,
        tokens: lexed.tokens,
        pos: 0,
        prev_end: 0,
        diagnostics: lexed.diagnostics,
        runaway_reported: lexed.reported_runaway,
        depth: 0,
        subscript_depth: 0,
        experiment: None,
    };
    let definition = parser.stored_definition();
    let mut diagnostics = parser.diagnostics;
    diagnostics.sort_by_key(|d| (d.span.start, d.span.end));
    (definition, diagnostics)
}
