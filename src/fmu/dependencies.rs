//! `ModelStructure` dependencies: which knowns each unknown of the FMU
//! depends on, derived from the incidence of the class kernels' assignments
//! through the system schedule.
//!
//! The analysis is conservative: a dependency that is declared may turn out
//! to be zero, but one that is left out never is. It works at the level of
//! whole variables inside an assignment (an assignment that reads an array
//! depends on all its elements) and of single assignments inside a block
//! (assignments of one block do not inherit each other's reads unless one
//! reads what another writes). A `LinearResponse` balance is solved from all
//! residuals at once, so every balance depends on everything any residual
//! depends on.
//!
//! Kinds are always `dependent`: proving that a known enters linearly with a
//! constant or fixed factor would need an analysis of every expression, and
//! `dependent` is correct for any structure.

use std::collections::{BTreeMap, BTreeSet};

use super::table::{Dependencies, DependencyKind, ModelTable};
use crate::causalize::ir::{Ex, SlotId, Stmt};
use crate::instantiate::{Instance, RealKind, System};
use crate::schedule::{Schedule, Step};

/// Fills [`ModelTable::dependencies`] and [`ModelTable::initial_dependencies`]
/// for every unknown the table lists. Real variables are the first entries of
/// the table, so a table index of a Real is its offset in `R`.
pub fn add_dependencies(table: &mut ModelTable, sys: &System, schedule: &Schedule) {
    let extents = Extents::new(sys);
    let continuous = propagate(sys, schedule, &extents, Mode::Continuous);
    let initial = propagate(sys, schedule, &extents, Mode::Initialization);
    let entry = |knowns: BTreeSet<usize>| Dependencies {
        kinds: vec![DependencyKind::Dependent; knowns.len()],
        knowns: knowns.into_iter().collect(),
    };
    // An unknown that depends on very many knowns is left without a
    // `dependencies` attribute, which FMI reads as "depends on all knowns":
    // still correct, and it keeps the model description of a large array
    // model (the rod with 10,000 volumes) linear in size instead of
    // quadratic.
    let listed = |p: &Propagated, u: usize| p.size_of_element(u) <= MAX_LISTED_KNOWNS;
    let mut dependencies = BTreeMap::new();
    for &u in table.outputs.iter().chain(&table.derivatives) {
        if u < sys.reals.len() && listed(&continuous, u) {
            dependencies.insert(u, entry(continuous.of_element(u)));
        }
    }
    let mut initial_dependencies = BTreeMap::new();
    for &u in &table.initial_unknowns {
        if u < sys.reals.len() && listed(&initial, u) {
            initial_dependencies.insert(u, entry(initial.of_element(u)));
        }
    }
    table.dependencies = dependencies;
    table.initial_dependencies = initial_dependencies;
}

/// Unknowns with more knowns than this are listed without dependencies.
pub const MAX_LISTED_KNOWNS: usize = 1000;

/// Which variables are knowns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Continuous-time and event mode: inputs, states and time. Parameters
    /// cannot change there, so nothing depends on them.
    Continuous,
    /// Initialization: inputs, parameters and exact start values of states,
    /// and time; calculated parameters and calculated start values are
    /// unknowns computed from them.
    Initialization,
}

/// The extent (first offset, length) of every variable in `R`.
struct Extents {
    starts: BTreeMap<usize, usize>,
}

impl Extents {
    fn new(sys: &System) -> Extents {
        let mut starts = BTreeMap::new();
        // Time is R[0].
        starts.insert(0, 1);
        for inst in &sys.instances {
            for (vi, off) in inst.var_offset.iter().enumerate() {
                let len = inst.var_len.get(vi).copied().unwrap_or(1).max(1);
                if let Some(off) = off {
                    starts.insert(*off, len);
                }
                if let Some(Some(der)) = inst.der_offset.get(vi) {
                    starts.insert(*der, len);
                }
            }
        }
        Extents { starts }
    }

    /// The variable that holds element `offset`: its first offset and length.
    fn variable(&self, offset: usize) -> (usize, usize) {
        match self.starts.range(..=offset).next_back() {
            Some((&start, &len)) if offset < start + len => (start, len),
            _ => (offset, 1),
        }
    }
}

struct Analysis<'a> {
    sys: &'a System,
    extents: &'a Extents,
    mode: Mode,
    /// Knowns (element offsets) each unknown variable depends on, by the
    /// variable's first offset.
    unknowns: BTreeMap<usize, BTreeSet<usize>>,
    changed: bool,
}

impl Analysis<'_> {
    fn is_known(&self, start: usize) -> bool {
        match self.sys.reals[start].kind {
            RealKind::Time | RealKind::Input | RealKind::State => true,
            RealKind::StateCalculated => self.mode == Mode::Continuous,
            RealKind::Parameter => self.mode == Mode::Initialization,
            _ => false,
        }
    }

    /// Nothing can change a constant, nor a parameter outside
    /// initialization.
    fn is_fixed(&self, start: usize) -> bool {
        match self.sys.reals[start].kind {
            RealKind::Constant => true,
            RealKind::Parameter | RealKind::CalculatedParameter => self.mode == Mode::Continuous,
            _ => false,
        }
    }

    /// The knowns a read of the variable holding `offset` depends on.
    fn read(&self, offset: usize, into: &mut BTreeSet<usize>) {
        let (start, len) = self.extents.variable(offset);
        if self.is_fixed(start) {
        } else if self.is_known(start) {
            into.extend(start..start + len);
        } else if let Some(deps) = self.unknowns.get(&start) {
            into.extend(deps.iter().copied());
        }
    }

    /// Adds `deps` to the variable holding `offset`, unless it is a known.
    fn write(&mut self, offset: usize, deps: &BTreeSet<usize>) {
        let (start, _) = self.extents.variable(offset);
        if self.is_known(start) || self.is_fixed(start) {
            return;
        }
        let entry = self.unknowns.entry(start).or_default();
        let before = entry.len();
        entry.extend(deps.iter().copied());
        if entry.len() != before {
            self.changed = true;
        }
    }

    fn statement(&mut self, inst: &Instance, stmt: &Stmt) {
        match stmt {
            Stmt::Assign {
                target,
                index,
                value,
                ..
            } => {
                let mut deps = BTreeSet::new();
                let mut reads = Vec::new();
                let mut time = false;
                value_reads(value, &mut reads, &mut time);
                if let Some(index) = index {
                    value_reads(index, &mut reads, &mut time);
                }
                for slot in reads {
                    self.read(inst.slot_offsets[slot], &mut deps);
                }
                if time {
                    self.read(0, &mut deps);
                }
                self.write(inst.slot_offsets[*target], &deps);
            }
            // Loop bounds are Integer expressions of Integer parameters,
            // fixed at export: only the body matters.
            Stmt::For { body, .. } => {
                for s in body {
                    self.statement(inst, s);
                }
            }
        }
    }
}

/// Slots an expression reads (values, derivatives and tangents alike) and
/// whether it reads `time`.
fn value_reads(e: &Ex, slots: &mut Vec<SlotId>, time: &mut bool) {
    e.visit(&mut |x| match x {
        Ex::Var(s, _) | Ex::DerOf(s, _) | Ex::Tan(s, _) => slots.push(*s),
        Ex::Time => *time = true,
        _ => {}
    });
}

struct Propagated {
    extents_starts: BTreeMap<usize, usize>,
    unknowns: BTreeMap<usize, BTreeSet<usize>>,
    known: Vec<bool>,
}

impl Propagated {
    /// How many knowns element `offset` depends on.
    fn size_of_element(&self, offset: usize) -> usize {
        if self.known.get(offset).copied().unwrap_or(false) {
            return 1;
        }
        let start = match self.extents_starts.range(..=offset).next_back() {
            Some((&start, &len)) if offset < start + len => start,
            _ => offset,
        };
        self.unknowns.get(&start).map_or(0, |s| s.len())
    }

    /// The knowns element `offset` depends on (itself if it is a known).
    fn of_element(&self, offset: usize) -> BTreeSet<usize> {
        if self.known.get(offset).copied().unwrap_or(false) {
            return BTreeSet::from([offset]);
        }
        let start = match self.extents_starts.range(..=offset).next_back() {
            Some((&start, &len)) if offset < start + len => start,
            _ => offset,
        };
        self.unknowns.get(&start).cloned().unwrap_or_default()
    }
}

/// Runs the parameter bindings (in initialization), the schedule and the
/// linear-response solve as a data flow over sets of knowns until nothing
/// changes. Every pass only adds, so this ends.
fn propagate(sys: &System, schedule: &Schedule, extents: &Extents, mode: Mode) -> Propagated {
    let mut a = Analysis {
        sys,
        extents,
        mode,
        unknowns: BTreeMap::new(),
        changed: true,
    };
    while a.changed {
        a.changed = false;
        if mode == Mode::Initialization {
            for inst in &sys.instances {
                let class = &sys.classes[inst.class].compiled.causal;
                for stmt in class.parameter_stmts.iter().chain(&class.start_stmts) {
                    a.statement(inst, stmt);
                }
            }
        }
        for step in &schedule.steps {
            match step {
                Step::Block { instance, block } => {
                    let inst = &sys.instances[*instance];
                    let class = &sys.classes[inst.class].compiled.causal;
                    for stmt in &class.blocks[*block].stmts {
                        a.statement(inst, stmt);
                    }
                }
                Step::Copy(copy) => {
                    let mut deps = BTreeSet::new();
                    for (source, _) in &copy.sources {
                        for e in 0..copy.len.max(1) {
                            a.read(source + e, &mut deps);
                        }
                    }
                    for e in 0..copy.len.max(1) {
                        a.write(copy.target + e, &deps);
                    }
                }
            }
        }
        // The balances are chosen so that all residuals vanish together.
        let mut residuals = BTreeSet::new();
        for b in &sys.balances {
            a.read(b.residual, &mut residuals);
        }
        for b in &sys.balances {
            a.write(b.balance, &residuals);
        }
    }
    let known = (0..sys.reals.len())
        .map(|i| a.is_known(extents.variable(i).0))
        .collect();
    Propagated {
        extents_starts: extents.starts.clone(),
        unknowns: a.unknowns,
        known,
    }
}
