use crate::diagnostic::Diagnostic;
use crate::source::FileId;
use crate::syntax::ast::StoredDefinition;

/// Parse one file. Never panics; syntax errors come back as diagnostics.
pub fn parse(_file: FileId, _text: &str) -> (StoredDefinition, Vec<Diagnostic>) {
    todo!("parser")
}
