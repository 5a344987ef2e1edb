//! The state an instantiation builds on: the [`Builder`] that walks the
//! instance tree, the modifiers that arrive at an instance, and the numbering
//! of the elements of an array of components. The steps of the walk (values,
//! `--set`s, structure, layout) add their methods to [`Builder`] in their own
//! files; the walk itself is in `mod.rs`.

use std::collections::HashMap;
use std::sync::Arc;

use super::system::System;
use crate::classdb::ClassDb;
use crate::diagnostic::Diagnostic;
use crate::ir::Ex;
use crate::resolve::ClassId;
use crate::source::Span;

/// Why a class is instantiated: to be exported, or to be checked as the
/// system its components form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Purpose {
    Export,
    Check,
}

/// The state of one instantiation: the system built so far, the
/// diagnostics, and what the `--set`s have reached.
pub(crate) struct Builder<'e, 'a> {
    pub(crate) db: &'e ClassDb<'a>,
    pub(crate) class_index: HashMap<ClassId, usize>,
    pub(crate) sys: System,
    pub(crate) diags: Vec<Diagnostic>,
    pub(crate) sets_used: Vec<bool>,
    pub(crate) model_span: Span,
    /// MX007 was reported: stop laying out variables.
    pub(crate) too_large: bool,
    /// The `--set`s of one element of an array variable that arrive at the
    /// instance being laid out.
    pub(crate) element_sets: Vec<Incoming>,
    /// The path of each `--set`, as written.
    pub(crate) set_paths: Vec<String>,
    pub(crate) purpose: Purpose,
    /// The texts of each class's variables (unit, display unit, quantity,
    /// description; the unit of a state's derivative), made once per class
    /// and shared by every instance: `[class][variable]`.
    pub(crate) texts: Vec<Vec<Option<VarTexts>>>,
}

impl Builder<'_, '_> {
    /// The system's index of a class, its compiled entry read from the
    /// class database.
    pub(crate) fn class(&mut self, id: ClassId) -> Option<usize> {
        if let Some(i) = self.class_index.get(&id) {
            return Some(*i);
        }
        let entry = match self.db.compiled(id) {
            Some(Ok(entry)) => entry.clone(),
            Some(Err(ds)) => {
                self.diags.extend(ds.iter().cloned());
                return None;
            }
            None => panic!(
                "compiler bug: `{}` is instantiated before it was compiled \
                 (ClassDb::compile_below compiles what a model needs)",
                self.db.tree().get(id).qualified
            ),
        };
        self.sys.classes.push(entry);
        let i = self.sys.classes.len() - 1;
        self.class_index.insert(id, i);
        Some(i)
    }

    /// `name` below instance `me`, joined with a dot (not the FMI form of
    /// [`element_name`]: messages name a carried derivative `x.der(y)`).
    pub(crate) fn dotted(&self, me: usize, name: &str) -> String {
        let path = &self.sys.instances[me].path;
        if path.is_empty() {
            name.to_string()
        } else {
            // Not `format!`: called for every variable of every instance.
            let mut dotted = String::with_capacity(path.len() + 1 + name.len());
            dotted.push_str(path);
            dotted.push('.');
            dotted.push_str(name);
            dotted
        }
    }
}

/// The modifier that sets each variable of an instance: (variable, whether
/// it is the start value) to the modifier.
pub(crate) type Effective = HashMap<(usize, bool), Incoming>;

/// A modifier arriving at an instance from an enclosing one or the
/// command line.
#[derive(Debug, Clone)]
pub(crate) struct Incoming {
    /// The variable it sets: components below the instance it arrives at
    /// (each an index into the previous one's class's `subs`), then the
    /// variable's index in the last one's class.
    pub(crate) subs: Vec<usize>,
    pub(crate) var: usize,
    pub(crate) start: bool,
    /// One value, or one per element of an array.
    pub(crate) value: Vec<Ex>,
    /// (instance, modifier number) that wrote it; `None` for `--set`.
    pub(crate) origin: Option<(usize, usize)>,
    pub(crate) set_index: Option<usize>,
    pub(crate) span: Option<Span>,
    /// For a modifier of an array of components: this element's number and
    /// the number of elements, so a value with one part per element
    /// (`G = {1, 2, 3}`) gives each its part.
    pub(crate) element: Option<(usize, usize)>,
    /// For a modifier of an array of components: the array's size in each
    /// dimension (`cap[2, 3]`: `[2, 3]`), which a value with one part per
    /// element must lead with.
    pub(crate) array: Vec<usize>,
    /// The shape of the value as written (empty for a scalar or a `--set`).
    pub(crate) shape: Vec<usize>,
    /// For a `--set` of one element: the element of each array of
    /// components on the way (parallel to `subs`, 1-based, one index per
    /// dimension: `cap[2].C`, `plate[2,3].C`).
    pub(crate) picks: Vec<Option<Vec<i64>>>,
    /// For a `--set` of one element of an array variable: its indices as
    /// written (`A[1,2]`), checked against the shape at layout.
    pub(crate) index: Option<Vec<i64>>,
}

/// The texts of one variable of a class, shared by all its instances and
/// elements (one allocation per class, not per instance).
#[derive(Clone)]
pub(crate) struct VarTexts {
    pub(crate) unit: Option<Arc<str>>,
    pub(crate) display_unit: Option<Arc<str>>,
    pub(crate) quantity: Option<Arc<str>>,
    pub(crate) description: Option<Arc<str>>,
    pub(crate) derivative_unit: Option<Arc<str>>,
}

/// The 1-based indices of element `e` (0-based, row-major: the last index
/// varies fastest) of an array of components of the given shape.
pub(crate) fn element_index(shape: &[usize], mut e: usize) -> Vec<i64> {
    let mut index = vec![0; shape.len()];
    for (d, n) in shape.iter().enumerate().rev() {
        index[d] = (e % n) as i64 + 1;
        e /= n;
    }
    index
}

/// The position (0-based, row-major) of the element with the given 1-based
/// indices in an array of components of the given shape; `None` when the
/// number of indices is not the number of dimensions, or one is outside its
/// dimension.
pub(crate) fn element_position(shape: &[usize], index: &[i64]) -> Option<usize> {
    if index.len() != shape.len() {
        return None;
    }
    let mut at = 0usize;
    for (i, n) in index.iter().zip(shape) {
        if *i < 1 || *i > *n as i64 {
            return None;
        }
        at = at * n + (*i as usize - 1);
    }
    Some(at)
}
