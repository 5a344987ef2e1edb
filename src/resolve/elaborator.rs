//! The elaborator's state: the class tree it reads, the class models,
//! functions and package constants it has built so far. A floor below the
//! steps that are its methods, each in its own file: `elaborate` (a
//! class's elements), `connector`, `names` (what the class writes),
//! `function`, `constant` and `package_constants`.

use std::collections::HashMap;
use std::sync::Arc;

use super::expr::{Constant, FunctionModel};
use super::model::ClassModel;
use super::tree::{ClassId, ClassTree};
use crate::diagnostic::Diagnostic;

/// Elaborates classes on demand and remembers the results. The class
/// database (`crate::classdb`) owns the one elaborator of a run, so each
/// class is elaborated once.
pub struct Elaborator<'a> {
    pub tree: &'a ClassTree,
    pub sources: &'a crate::source::SourceMap,
    /// Shared, not copied: a class is looked up once per component of
    /// every class that uses it.
    pub(crate) cache: HashMap<ClassId, Result<Arc<ClassModel>, Vec<Diagnostic>>>,
    pub(crate) in_progress: Vec<ClassId>,
    /// How often each class was elaborated (once: the cache keeps failures
    /// too), for the class database's account of its work.
    pub(crate) builds: HashMap<ClassId, usize>,
    /// Package constants evaluated so far, by qualified name.
    pub(crate) constants: HashMap<String, Arc<Constant>>,
    /// Resolved functions, built once each (`function`).
    pub(crate) functions: HashMap<ClassId, Result<Arc<FunctionModel>, Vec<Diagnostic>>>,
    /// The functions being built: a call of one of them is a recursion.
    pub(crate) fn_in_progress: Vec<ClassId>,
}

impl<'a> Elaborator<'a> {
    pub(crate) fn new(
        tree: &'a ClassTree,
        sources: &'a crate::source::SourceMap,
    ) -> Elaborator<'a> {
        Elaborator {
            tree,
            sources,
            cache: HashMap::new(),
            in_progress: Vec::new(),
            builds: HashMap::new(),
            constants: HashMap::new(),
            functions: HashMap::new(),
            fn_in_progress: Vec::new(),
        }
    }

    /// Whether `id` is being elaborated (a class that encloses the one
    /// asking, through a component of a nested class).
    pub(crate) fn in_progress(&self, id: ClassId) -> bool {
        self.in_progress.contains(&id)
    }

    /// How often `id` was elaborated.
    pub(crate) fn builds(&self, id: ClassId) -> usize {
        self.builds.get(&id).copied().unwrap_or(0)
    }

    /// The classes elaborated (or found faulty) so far.
    pub(crate) fn elaborated(&self) -> impl Iterator<Item = ClassId> + '_ {
        self.builds.keys().copied()
    }

    /// The model of a class elaborated before, if it elaborated.
    pub(crate) fn elaborated_model(&self, id: ClassId) -> Option<&Arc<ClassModel>> {
        self.cache.get(&id).and_then(|r| r.as_ref().ok())
    }
}
