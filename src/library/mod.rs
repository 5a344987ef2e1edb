//! A library: the parsed files of one run in load order and their class
//! tree, and the compilability policy that checks it class by class
//! ([`check`]). Export, the incremental session and the CLI are peers built
//! on this layer: each loads a [`Library`] and checks it here, and none
//! reaches into another. No I/O happens here: the files come in as texts
//! (`crate::loader` reads them from disk).

mod check;

pub(crate) use check::{check_class, finish_check, has_load_diagnostic};
pub use check::{check_library, check_library_into, check_library_with};

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
