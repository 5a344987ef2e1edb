//! The class database: one compiled artifact per class, built once.
//!
//! Without look-ahead, load order is a topological order of the classes,
//! so one pass can compile every class before any model needs it. Each
//! entry is the class's resolved model, its causalised form and its C
//! kernel (generated when first asked for: `check` never needs it) — or the
//! diagnostics that stopped it. `check` builds the database
//! for the whole library in that pass; instantiation (for checking a class
//! as a system, or for export) reads entries and never causalises or
//! generates code itself, so a class used by a hundred models is compiled
//! once per run.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use crate::causalize::{causalize, Causalized};
use crate::diagnostic::Diagnostic;
use crate::resolve::ClassModel;
use crate::resolve::{ClassId, Elaborator};

/// The compiled form of one class.
#[derive(Debug)]
pub struct ClassEntry {
    pub model: Arc<ClassModel>,
    pub causalized: Causalized,
    /// Generated on first use: `check` needs none, export each once.
    kernel: OnceLock<Kernel>,
}

impl ClassEntry {
    /// Where the class's kernel is kept once generated
    /// (`codegen::kernel::of` generates it).
    pub fn kernel_cell(&self) -> &OnceLock<Kernel> {
        &self.kernel
    }
}

/// The generated C for one class (by `codegen::kernel`).
#[derive(Debug, Clone, PartialEq)]
pub struct Kernel {
    pub qualified: String,
    /// Prefix of every function of the kernel: `K_Thermal_Components_Rod_1a2b3c4d`.
    pub prefix: String,
    pub file_name: String,
    pub text: String,
    pub n_blocks: usize,
}

/// What compiling a class gave: the entry, or why there is none.
pub type Built = Result<Arc<ClassEntry>, Vec<Diagnostic>>;

#[derive(Default)]
pub struct ClassDb {
    entries: HashMap<ClassId, Built>,
    /// How often each class was causalised (always once: a test holds the
    /// database to it).
    builds: HashMap<ClassId, usize>,
}

impl ClassDb {
    pub fn new() -> ClassDb {
        ClassDb::default()
    }

    /// The entry of `id`, compiled on first use and remembered (failures
    /// too, so a faulty class is diagnosed once).
    pub fn entry(&mut self, id: ClassId, elab: &mut Elaborator) -> Built {
        if let Some(built) = self.entries.get(&id) {
            return built.clone();
        }
        *self.builds.entry(id).or_insert(0) += 1;
        let built = elab.class(id).and_then(|model| {
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
            Ok(Arc::new(ClassEntry {
                model,
                causalized,
                kernel: OnceLock::new(),
            }))
        });
        self.entries.insert(id, built.clone());
        built
    }

    /// The number of classes compiled (or found faulty).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The most times any one class was causalised: 1 when every class
    /// was compiled once.
    pub fn most_builds_of_one_class(&self) -> usize {
        self.builds.values().copied().max().unwrap_or(0)
    }
}
