//! Loading a library: parsing its files in load order and building their
//! class tree. The texts come in from the caller.

use crate::diagnostic::Diagnostic;
use crate::resolve::tree::ClassTree;
use crate::source::{FileId, SourceMap};
use crate::syntax::ast::StoredDefinition;
use crate::syntax::parse;

/// Parsed sources and their class tree.
pub struct Library {
    pub sources: SourceMap,
    pub tree: ClassTree,
    /// Syntax and tree-building diagnostics.
    pub diagnostics: Vec<Diagnostic>,
}

/// Parses files given as (name, text) in load order.
pub fn load_library(files: Vec<(String, String)>) -> Library {
    let mut sources = SourceMap::new();
    let mut parsed: Vec<StoredDefinition> = Vec::new();
    let mut diagnostics = Vec::new();
    for (name, text) in files {
        let id = sources.add(name, text);
        let (def, diags) = parse_file(id, &sources.get(id).text);
        diagnostics.extend(diags);
        parsed.push(def);
    }
    library_of(sources, &parsed, diagnostics)
}

/// One file's syntax tree, and its syntax diagnostics and those of the
/// rules that need only the syntax tree.
pub(crate) fn parse_file(file: FileId, text: &str) -> (StoredDefinition, Vec<Diagnostic>) {
    let (def, mut diags) = parse(file, text);
    diags.extend(crate::check::check_file(&def));
    (def, diags)
}

/// The library of parsed files (in load order) with their diagnostics.
pub(crate) fn library_of(
    sources: SourceMap,
    parsed: &[StoredDefinition],
    mut diagnostics: Vec<Diagnostic>,
) -> Library {
    let (tree, diags) = ClassTree::build(parsed);
    diagnostics.extend(diags);
    Library {
        sources,
        tree,
        diagnostics,
    }
}
