//! The class database: one compiled artifact per class, built once.
//!
//! Without look-ahead, load order is a topological order of the classes,
//! so one pass can compile every class before any model needs it. Per
//! class the database keeps its resolved model (through the one
//! `Elaborator` of the run, which it owns) and its causalised form — or the
//! diagnostics that stopped it — and, beside them under the same key, its
//! unit signature with the unit diagnostics found at the class and its C
//! kernel. `check` builds the database for the whole library in that pass
//! (`crate::library`); export then asks for the kernels of a model's
//! classes in one explicit step ([`ClassDb::kernels`]), before the system
//! file is written from them. The model phases (instantiation for checking
//! a class as a system or for export, the units of a model's variables)
//! read entries and never elaborate, causalise, unit-check or generate code
//! themselves, so a class used by a hundred models is compiled once per
//! run.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

use crate::causalize::{causalize, Causalized};
use crate::codegen::kernel::{self, Kernel};
use crate::diagnostic::Diagnostic;
use crate::resolve::ClassModel;
use crate::resolve::{ClassId, ClassTree, Elaborator};
use crate::source::SourceMap;
use crate::units::{signature_of, ClassUnits, UnitSignatures};

/// The compiled form of one class (its kernel is kept beside it, generated
/// by [`ClassDb::kernels`] when an export asks: `check` needs none).
#[derive(Debug)]
pub struct ClassEntry {
    pub model: Arc<ClassModel>,
    pub causalized: Causalized,
}

/// What compiling a class gave: the entry, or why there is none.
pub type Built = Result<Arc<ClassEntry>, Vec<Diagnostic>>;

/// What the database did for one class so far. Each is at most 1 in a
/// run; a test holds the database to it over a check and the exports that
/// follow it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Work {
    pub elaborated: usize,
    pub causalized: usize,
    pub unit_checked: usize,
    /// How often its kernel was generated ([`ClassDb::kernels`]).
    pub kernel_generated: usize,
}

pub struct ClassDb<'a> {
    /// Builds the class models and keeps them.
    elab: Elaborator<'a>,
    entries: HashMap<ClassId, Built>,
    /// The kernels generated so far, by class.
    kernels: HashMap<ClassId, Kernel>,
    units: UnitSignatures,
    /// Classes whose units are being checked: a class that contains itself
    /// is opaque to itself (its elaboration fails anyway).
    units_in_progress: Vec<ClassId>,
    /// How often each class was causalised and unit-checked.
    work: HashMap<ClassId, Work>,
}

impl<'a> ClassDb<'a> {
    /// An empty database for the classes of `tree`.
    pub fn new(tree: &'a ClassTree, sources: &'a SourceMap) -> ClassDb<'a> {
        ClassDb {
            elab: Elaborator::new(tree, sources),
            entries: HashMap::new(),
            kernels: HashMap::new(),
            units: UnitSignatures::default(),
            units_in_progress: Vec::new(),
            work: HashMap::new(),
        }
    }

    pub fn tree(&self) -> &'a ClassTree {
        self.elab.tree
    }

    /// The resolved model of `id`, elaborated on first use.
    pub fn model(&mut self, id: ClassId) -> Result<Arc<ClassModel>, Vec<Diagnostic>> {
        self.elab.class(id)
    }

    /// The resolved function `id`, built once.
    pub fn function(
        &mut self,
        id: ClassId,
    ) -> Result<Arc<crate::resolve::function::FunctionModel>, Vec<Diagnostic>> {
        self.elab.function(id)
    }

    /// The member order of connector class `id` (`MC013`, `MC014`).
    pub fn check_connector(&mut self, id: ClassId) -> Vec<Diagnostic> {
        self.elab.check_connector(id)
    }

    /// The entry of `id`, compiled on first use and remembered (failures
    /// too, so a faulty class is diagnosed once).
    pub fn entry(&mut self, id: ClassId) -> Built {
        if let Some(built) = self.entries.get(&id) {
            return built.clone();
        }
        self.work.entry(id).or_default().causalized += 1;
        let built = self.elab.class(id).and_then(|model| {
            // What resolution found wrong and what causalisation finds are
            // both the class's faults: report them together.
            let mut diags = model.diagnostics();
            let causalized = causalize(&model).map_err(|ds| {
                diags.extend(ds);
                std::mem::take(&mut diags)
            })?;
            if !diags.is_empty() {
                return Err(diags);
            }
            Ok(Arc::new(ClassEntry { model, causalized }))
        });
        self.entries.insert(id, built.clone());
        built
    }

    /// Compiles `id` and, below it, the classes of its components, so that
    /// instantiating it reads the database and compiles nothing. A class
    /// that does not compile is not looked into: instantiation stops there
    /// too, with its diagnostics.
    pub fn compile_below(&mut self, id: ClassId) {
        let mut seen = HashSet::new();
        let mut pending = vec![id];
        while let Some(class) = pending.pop() {
            if !seen.insert(class) {
                continue;
            }
            if let Ok(entry) = self.entry(class) {
                pending.extend(entry.model.subs.iter().rev().map(|s| s.class));
            }
        }
    }

    /// The kernels of `classes`, in that order: each generated from its
    /// class's causalised form the first time it is asked for and kept, so
    /// once per class and run. The classes must have compiled (as
    /// [`ClassDb::compile_below`] leaves a model's classes before it is
    /// instantiated); the diagnostics of one that did not are the error.
    pub fn kernels(&mut self, classes: &[ClassId]) -> Result<Vec<Kernel>, Vec<Diagnostic>> {
        let mut out = Vec::with_capacity(classes.len());
        for &id in classes {
            if let Some(k) = self.kernels.get(&id) {
                out.push(k.clone());
                continue;
            }
            let entry = self.entry(id)?;
            let k = kernel::generate(&entry.causalized.causal);
            self.work.entry(id).or_default().kernel_generated += 1;
            self.kernels.insert(id, k.clone());
            out.push(k);
        }
        Ok(out)
    }

    /// The entry of a class compiled before ([`ClassDb::entry`],
    /// [`ClassDb::compile_below`]); `None` if it never was.
    pub fn compiled(&self, id: ClassId) -> Option<&Built> {
        self.entries.get(&id)
    }

    /// The model of a class elaborated before, if it elaborated.
    pub fn elaborated_model(&self, id: ClassId) -> Option<&Arc<ClassModel>> {
        self.elab.elaborated_model(id)
    }

    /// The unit signature of `id`, checked on first use after its
    /// components' classes (so a fault shows at the lowest level). `None`
    /// when the class does not elaborate (other phases say why) or is
    /// being checked (it contains itself).
    pub fn units(&mut self, id: ClassId) -> Option<Arc<ClassUnits>> {
        if let Some(units) = self.units.get(id) {
            return Some(units.clone());
        }
        if self.units_in_progress.contains(&id) {
            return None;
        }
        let model = self.elab.class(id).ok()?;
        self.units_in_progress.push(id);
        for sub in &model.subs {
            self.units(sub.class);
        }
        self.units_in_progress.pop();
        self.work.entry(id).or_default().unit_checked += 1;
        let (units, diagnostics) = signature_of(&model, &self.units);
        Some(self.units.insert(units, diagnostics))
    }

    /// The unit signatures checked so far, with the diagnostics found at
    /// each class and the order they were checked in.
    pub fn unit_signatures(&self) -> &UnitSignatures {
        &self.units
    }

    /// What the database did for each class it met.
    pub fn work(&self) -> BTreeMap<ClassId, Work> {
        let mut out: BTreeMap<ClassId, Work> = self.work.iter().map(|(id, w)| (*id, *w)).collect();
        for id in self.elab.elaborated() {
            out.entry(id).or_default().elaborated = self.elab.builds(id);
        }
        out
    }
}
