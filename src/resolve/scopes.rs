//! The scopes of all loaded files, in three steps that each read the
//! previous one's tree: the classes as written (`tree`), the functions a
//! package inherits added as its own classes (`package_functions`), and
//! the specialisations the redeclarations ask for (`specialise`).

use super::tree::ClassTree;
use crate::diagnostic::Diagnostic;
use crate::syntax::ast::StoredDefinition;

impl ClassTree {
    /// Builds the tree from parsed files given in load order. A file with a
    /// `within A.B;` clause adds its classes to the class `A.B`.
    pub fn build(files: &[StoredDefinition]) -> (ClassTree, Vec<Diagnostic>) {
        let (mut tree, mut diags) = ClassTree::load(files);
        super::package_functions::run(&mut tree, &mut diags);
        super::specialise::run(&mut tree, &mut diags);
        (tree, diags)
    }
}
