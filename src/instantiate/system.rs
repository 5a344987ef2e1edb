//! What instantiation produces: the [`System`] of instances with every Real
//! variable laid out in one vector, and the limits on its size.

use std::sync::Arc;

use crate::classdb::ClassEntry;
use crate::ir::{Discrete, EnumerationType};
use crate::resolve::model::element_name;
use crate::source::Span;

/// The largest number of elements of one array variable. Sizes are
/// structural and fixed at export; far larger ones come from a mistyped
/// value and would exhaust memory instead of giving a diagnostic.
pub const MAX_ARRAY_LEN: i64 = 10_000_000;

/// Bytes of export memory per Real variable: an upper bound of the peak
/// resident memory of `mofmu export` divided by the number of Reals, as
/// measured on the rod (docs/fmu.md, "Model size"). The variable's record,
/// its entry in the model table, its dependencies, its start value, kind and
/// name in the system resource all scale with it.
pub const EXPORT_BYTES_PER_REAL: usize = 2_560;

/// The memory an export may take, in bytes (16 GiB): the stated cap from
/// which [`MAX_REALS`] follows. It is a constant rather than the memory of
/// the machine at hand, so that whether a model exports does not depend on
/// where it is exported.
pub const EXPORT_MEMORY_CAP: usize = 16 << 30;

/// The most Real variables a model may have (MX007): as many as fit in
/// [`EXPORT_MEMORY_CAP`] at [`EXPORT_BYTES_PER_REAL`] each, 6,710,886.
pub const MAX_REALS: usize = EXPORT_MEMORY_CAP / EXPORT_BYTES_PER_REAL;

/// What the runtime may do with a Real variable (mirrors MOFMU_KIND_*).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RealKind {
    Constant = 0,
    Parameter = 1,
    CalculatedParameter = 2,
    State = 3,
    StateCalculated = 4,
    Derivative = 5,
    Input = 6,
    Output = 7,
    Local = 8,
    Time = 9,
}

#[derive(Debug, Clone, PartialEq)]
pub struct RealVar {
    pub name: String,
    pub kind: RealKind,
    pub start: Option<f64>,
    /// Texts shared by every element of an array (one allocation for a
    /// million temperatures, not a million).
    pub unit: Option<Arc<str>>,
    pub display_unit: Option<Arc<str>>,
    pub quantity: Option<Arc<str>>,
    pub description: Option<Arc<str>>,
    pub min: Option<f64>,
    pub max: Option<f64>,
    pub nominal: Option<f64>,
    /// For a derivative: the index of its state in `System::reals`.
    pub derivative_of: Option<usize>,
    /// A variable of a clocked partition (DESIGN §2.2b), a `discrete
    /// Real` or a left limit of one (§2.2c): it changes only at events or
    /// ticks, so FMI declares it discrete.
    pub discrete_time: bool,
    /// For a Boolean or Integer variable that is not a parameter: its FMI
    /// type. Its value is stored in `R` and declared to FMI with that type.
    pub discrete: Option<Discrete>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct IntVar {
    pub name: String,
    pub value: i64,
    pub boolean: bool,
    /// The enumeration type of an enumeration parameter.
    pub enumeration: Option<Arc<EnumerationType>>,
    pub description: Option<Arc<str>>,
}

#[derive(Debug, Clone)]
pub struct Instance {
    /// Flat path: "" for the model itself, "rod", "pi.integrator".
    pub path: String,
    pub class: usize,
    pub parent: Option<usize>,
    /// Where the component is declared in its parent class.
    pub decl_span: Option<Span>,
    pub ints: Vec<i64>,
    /// Per variable of the class: offset in R (Real variables only).
    pub var_offset: Vec<Option<usize>>,
    pub var_len: Vec<usize>,
    pub der_offset: Vec<Option<usize>>,
    /// One flag per variable, then one per sub-component modifier.
    pub own_binding: Vec<u8>,
    pub relation_base: u32,
    pub indicator_base: u32,
    /// Offset in R of every slot of the class kernel.
    pub slot_offsets: Vec<usize>,
    /// The instance of each sub-component of the class (index into
    /// `System::instances`), once it is instantiated; the first element
    /// of an array of components, `None` for an absent conditional one.
    pub subs: Vec<Option<usize>>,
    /// The instances of each sub-component: one, the elements of an array
    /// in order, or none for an absent conditional component.
    pub elements: Vec<Vec<usize>>,
    /// The size of each dimension of each array of components (`cap[n,
    /// m]`: `[n, m]`; `elements` holds them row-major); empty for one
    /// component or an absent one.
    pub shapes: Vec<Vec<usize>>,
    /// The conditional connectors of the class whose condition is false
    /// for this instance (indices into `ClassModel::connectors`): connects
    /// that name them are dropped and their variables are not in the FMU.
    pub absent_connectors: Vec<usize>,
}

#[derive(Debug, Clone)]
pub struct System {
    pub model_name: String,
    pub classes: Vec<std::sync::Arc<ClassEntry>>,
    pub instances: Vec<Instance>,
    pub reals: Vec<RealVar>,
    pub ints: Vec<IntVar>,
    pub n_relations: u32,
    pub n_indicators: u32,
    /// Indices into `reals`.
    pub states: Vec<usize>,
    pub derivatives: Vec<usize>,
    /// Declared tearing: the balance and residual of every LinearResponse
    /// component (indices into `reals`) with the component's flat name.
    pub balances: Vec<Balance>,
    /// The variables (indices into `reals`) of absent conditional
    /// connectors: laid out for the kernel, which never reads them where
    /// the connector is absent, and left out of the model description.
    pub absent_reals: std::collections::BTreeSet<usize>,
    /// The start values computed from Integer parameters (`each V =
    /// 2e-3/n`): (index into `reals`, the program that computes it from
    /// their values, [`crate::ir::Ex::calc`]), ascending. An FMI 3.0
    /// structural parameter recomputes them at another size.
    pub start_calcs: Vec<(usize, Arc<[crate::ir::Calc]>)>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Balance {
    pub balance: usize,
    pub residual: usize,
    pub name: String,
}

impl System {
    /// The reals the classes' events entries keep (the left limits of
    /// `pre`, DESIGN §2.2c): the runtime moves them after an evaluation at
    /// an event, so, like states, they are known before any step runs.
    pub fn left_limits(&self) -> std::collections::BTreeSet<usize> {
        let mut out = std::collections::BTreeSet::new();
        for inst in &self.instances {
            let causal = &self.classes[inst.class].causalized.causal;
            let Some(events) = &causal.events else {
                continue;
            };
            for (_, pre, _) in &events.pre {
                let crate::ir::SlotKind::Own(v) = causal.slots[*pre].kind else {
                    continue;
                };
                if let Some(at) = inst.var_offset[v] {
                    out.extend(at..at + inst.var_len[v].max(1));
                }
            }
        }
        out
    }

    /// The discrete variables of type `ty` (indices into `reals`), in the
    /// order of their value references, which follow those of the
    /// parameters of that type in `ints`.
    pub fn discrete_reals(&self, ty: Discrete) -> Vec<usize> {
        (0..self.reals.len())
            .filter(|&i| self.reals[i].discrete == Some(ty))
            .collect()
    }

    pub fn class_of(&self, inst: usize) -> &ClassEntry {
        &self.classes[self.instances[inst].class]
    }

    /// Name of an instance's variable in flat form.
    pub fn flat_name(&self, inst: usize, var: &str) -> String {
        element_name(&self.instances[inst].path, var, &[], 0)
    }
}
