//! `ModelStructure` dependencies: which knowns each unknown of the FMU
//! depends on, derived from the incidence of the class kernels' assignments
//! through the system schedule, element by element.
//!
//! The analysis runs the schedule as a data flow over sets of knowns, one
//! set per element of `R`. Integer parameters and array sizes are fixed at
//! export, so every `for` loop is run over its actual range and every index
//! expression (affine in the loop variables and Integer parameters) is
//! evaluated to the element it names: `der(T[i]) = G*(T[i-1] - 2*T[i] +
//! T[i+1])/C` for `i in 2:n-1` makes element `i` depend on exactly three
//! states, and a rod of `n` volumes declares the tridiagonal pattern of
//! `3n - 2` entries. Connection copies are element-wise as well.
//!
//! The analysis is conservative: a dependency that is declared may turn out
//! to be zero (a factor that happens to vanish), but one that is left out
//! never is. Where an index cannot be evaluated at export (it reads a Real
//! variable), the read stands for every element of the array. Assignments
//! of one block do not inherit each other's reads unless one reads what
//! another writes. A `LinearResponse` balance is solved from all residuals
//! at once, so every balance depends on everything any residual depends on.
//!
//! Kinds are always `dependent`: proving that a known enters linearly with a
//! constant or fixed factor would need an analysis of every expression, and
//! `dependent` is correct for any structure.

use std::collections::BTreeMap;

use super::table::{Dependencies, DependencyKind, ModelTable};
use crate::instantiate::{Instance, RealKind, System};
use crate::ir::{Arith, Ex, SlotId, Stmt};
use crate::schedule::{Schedule, Step};

/// Fills [`ModelTable::dependencies`] (from the continuous-time analysis,
/// [`continuous`]) and [`ModelTable::initial_dependencies`]
/// for every unknown the table lists. Real variables are the first entries of
/// the table, so a table index of a Real is its offset in `R`.
pub fn add_dependencies(
    table: &mut ModelTable,
    sys: &System,
    schedule: &Schedule,
    continuous: Continuous,
) {
    let extents = Extents::new(sys);
    let entry = |knowns: Vec<usize>| Dependencies {
        kinds: vec![DependencyKind::Dependent; knowns.len()],
        knowns,
    };
    // An unknown that depends on very many knowns (a balance of a linear
    // response that couples a whole large system) is left without a
    // `dependencies` attribute, which FMI reads as "depends on all knowns":
    // still correct, and it keeps the model description linear in the number
    // of unknowns. Sparse patterns (the rod with a million volumes) are
    // listed in full, a few entries per unknown. One mode at a time, so
    // that only one element-wise analysis is in memory.
    let continuous = continuous.0;
    let mut dependencies = BTreeMap::new();
    for &u in table.outputs.iter().chain(&table.derivatives) {
        if u < sys.reals.len() && continuous.size_of_element(u) <= MAX_LISTED_KNOWNS {
            dependencies.insert(u, entry(continuous.of_element(u)));
        }
    }
    drop(continuous);
    table.dependencies = dependencies;
    let initial = propagate(sys, schedule, &extents, Mode::Initialization);
    let mut initial_dependencies = BTreeMap::new();
    for &u in &table.initial_unknowns {
        if u < sys.reals.len() && initial.size_of_element(u) <= MAX_LISTED_KNOWNS {
            initial_dependencies.insert(u, entry(initial.of_element(u)));
        }
    }
    table.initial_dependencies = initial_dependencies;
}

/// The element-wise dependencies in continuous-time mode, computed once for
/// both the system resource (the state Jacobian's pattern) and the model
/// description.
pub struct Continuous(Propagated);

/// Runs the continuous-time analysis.
pub fn continuous(sys: &System, schedule: &Schedule) -> Continuous {
    Continuous(propagate(
        sys,
        schedule,
        &Extents::new(sys),
        Mode::Continuous,
    ))
}

/// The sparsity pattern of d(der x)/dx: per state, in state order, the
/// states (by their index among the states, ascending) its derivative
/// depends on, or `None` when it depends on more knowns than are listed
/// (then the row is taken as full). The same conservative analysis as the
/// model description's `Derivatives` dependencies, so the embedded
/// Co-Simulation solver and an importer see one pattern.
pub fn state_pattern(continuous: &Continuous, sys: &System) -> Vec<Option<Vec<u32>>> {
    let c = &continuous.0;
    let mut state_of = vec![u32::MAX; sys.reals.len()];
    for (k, &s) in sys.states.iter().enumerate() {
        state_of[s] = u32::try_from(k).expect("states fit 32 bits");
    }
    sys.derivatives
        .iter()
        .map(|&d| {
            if c.size_of_element(d) > MAX_LISTED_KNOWNS {
                return None;
            }
            let mut states: Vec<u32> = c
                .of_element(d)
                .into_iter()
                .map(|k| state_of[k])
                .filter(|&k| k != u32::MAX)
                .collect();
            states.sort_unstable();
            states.dedup();
            Some(states)
        })
        .collect()
}

/// Unknowns with more knowns than this are listed without dependencies.
pub const MAX_LISTED_KNOWNS: usize = 1000;

/// The one entry of a saturated set of knowns: more than
/// [`MAX_LISTED_KNOWNS`], taken as all (never an offset: `R` has fewer
/// elements than `u32::MAX`).
const SATURATED: u32 = u32::MAX;

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

/// The extent (first offset, length) of every variable in `R`, sorted by
/// first offset (a sorted vector: a million variables in a tree map were a
/// node allocation each).
struct Extents {
    starts: Vec<(usize, usize)>,
}

impl Extents {
    fn new(sys: &System) -> Extents {
        // Time is R[0].
        let mut starts = vec![(0, 1)];
        for inst in &sys.instances {
            for (vi, off) in inst.var_offset.iter().enumerate() {
                let len = inst.var_len.get(vi).copied().unwrap_or(1).max(1);
                if let Some(off) = off {
                    starts.push((*off, len));
                }
                if let Some(Some(der)) = inst.der_offset.get(vi) {
                    starts.push((*der, len));
                }
            }
        }
        // Stable, so that of two extents at one offset the later is kept,
        // as a map's insert keeps it.
        starts.sort_by_key(|&(start, _)| start);
        let mut kept: Vec<(usize, usize)> = Vec::with_capacity(starts.len());
        for extent in starts {
            match kept.last_mut() {
                Some(last) if last.0 == extent.0 => *last = extent,
                _ => kept.push(extent),
            }
        }
        Extents { starts: kept }
    }

    /// The variable that holds element `offset`: its first offset and length.
    fn variable(&self, offset: usize) -> (usize, usize) {
        let at = self.starts.partition_point(|&(start, _)| start <= offset);
        match at.checked_sub(1).map(|i| self.starts[i]) {
            Some((start, len)) if offset < start + len => (start, len),
            _ => (offset, 1),
        }
    }
}

/// What a read or write of one element of `R` means in a mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// Nothing can change it (a constant, or a parameter outside
    /// initialization).
    Fixed,
    /// A known: it depends on itself.
    Known,
    /// Computed from knowns.
    Unknown,
}

struct Analysis<'a> {
    extents: &'a Extents,
    role: Vec<Role>,
    /// Knowns (element offsets, sorted) each unknown element depends on, by
    /// its offset in `R`.
    deps: Vec<Vec<u32>>,
    changed: bool,
    /// Scratch: the knowns one assignment reads.
    scratch: Vec<u32>,
}

impl Analysis<'_> {
    /// The knowns a read of element `offset` depends on.
    fn read(&self, offset: usize, into: &mut Vec<u32>) {
        match self.role.get(offset) {
            Some(Role::Known) => into.push(offset as u32),
            Some(Role::Unknown) => into.extend_from_slice(&self.deps[offset]),
            Some(Role::Fixed) | None => {}
        }
    }

    /// Adds `knowns` (sorted, without duplicates) to element `offset`,
    /// unless it is a known or fixed. An element whose set would pass [`MAX_LISTED_KNOWNS`] is saturated
    /// instead (it is listed as depending on every known, and so is every
    /// element that reads it), so that a long chain of accumulations (a
    /// path's inertance summed over 10^4 cells, in initialization) costs
    /// linear, not quadratic, time and memory.
    fn write(&mut self, offset: usize, knowns: &[u32]) {
        if self.role.get(offset) != Some(&Role::Unknown) || knowns.is_empty() {
            return;
        }
        let entry = &mut self.deps[offset];
        if entry.last() == Some(&SATURATED) {
            return;
        }
        if knowns.last() == Some(&SATURATED) || entry.len() + knowns.len() > MAX_LISTED_KNOWNS {
            // Only a merge can tell whether the union passes the bound.
            let merged = merge(entry, knowns);
            if merged.len() == entry.len() {
                return;
            }
            *entry = if merged.len() > MAX_LISTED_KNOWNS || merged.last() == Some(&SATURATED) {
                vec![SATURATED]
            } else {
                merged
            };
            self.changed = true;
            return;
        }
        if entry.is_empty() {
            entry.extend_from_slice(knowns);
            self.changed = true;
            return;
        }
        if knowns.iter().all(|k| entry.binary_search(k).is_ok()) {
            return;
        }
        let merged = merge(entry, knowns);
        *entry = merged;
        self.changed = true;
    }

    /// Runs one statement for the values of the enclosing loop variables.
    fn statement(&mut self, inst: &Instance, stmt: &Stmt, loops: &mut Vec<Option<i64>>) {
        match stmt {
            Stmt::Assign {
                target,
                index,
                value,
                ..
            } => {
                let mut reads = std::mem::take(&mut self.scratch);
                reads.clear();
                self.expression(inst, value, loops, &mut reads);
                let targets = self.element(inst, *target, index.as_ref(), loops, &mut reads);
                reads.sort_unstable();
                reads.dedup();
                for offset in targets {
                    self.write(offset, &reads);
                }
                self.scratch = reads;
            }
            Stmt::For {
                depth,
                lo,
                hi,
                body,
            } => {
                if loops.len() <= *depth {
                    loops.resize(*depth + 1, None);
                }
                let range = (
                    evaluate_integer(lo, &inst.ints, loops),
                    evaluate_integer(hi, &inst.ints, loops),
                );
                match range {
                    (Some(lo), Some(hi)) => {
                        for i in lo..=hi {
                            loops[*depth] = Some(i);
                            for s in body {
                                self.statement(inst, s, loops);
                            }
                        }
                    }
                    // A range that cannot be evaluated at export: one pass
                    // in which every index that uses the loop variable
                    // stands for the whole array.
                    _ => {
                        loops[*depth] = None;
                        for s in body {
                            self.statement(inst, s, loops);
                        }
                    }
                }
                loops[*depth] = None;
            }
            // A clocked partition's values are constant between its ticks:
            // no continuous-time value depends on what they were computed
            // from, so they add no dependency.
            Stmt::Clocked { .. } | Stmt::Tick(_) => {}
        }
    }

    /// The elements of `R` that `slot[index]` names for the current loop
    /// variables (the first element without an index, as the kernels read
    /// it). An index that cannot be evaluated names every element of the
    /// variable, and what it reads is added to `reads`.
    fn element(
        &self,
        inst: &Instance,
        slot: SlotId,
        index: Option<&Ex>,
        loops: &[Option<i64>],
        reads: &mut Vec<u32>,
    ) -> std::ops::Range<usize> {
        let base = inst.slot_offsets[slot];
        let Some(index) = index else {
            return base..base + 1;
        };
        let (start, len) = self.extents.variable(base);
        let end = start + len;
        if let Some(k) = evaluate_integer(index, &inst.ints, loops) {
            // The kernel stops with an error on an index out of range; the
            // whole variable is a safe answer for that case too.
            if k >= 1 && (k as u64) <= (end - base) as u64 {
                let offset = base + k as usize - 1;
                return offset..offset + 1;
            }
        } else {
            self.expression(inst, index, loops, reads);
        }
        start..end
    }

    /// Adds the knowns expression `e` reads to `into`.
    fn expression(&self, inst: &Instance, e: &Ex, loops: &[Option<i64>], into: &mut Vec<u32>) {
        match e {
            Ex::Var(s, index) | Ex::DerOf(s, index) | Ex::Tan(s, index) => {
                for offset in self.element(inst, *s, index.as_deref(), loops, into) {
                    self.read(offset, into);
                }
            }
            Ex::Time => self.read(0, into),
            Ex::Real(_)
            | Ex::Int(_)
            | Ex::Bool(_)
            | Ex::IntParam(_)
            | Ex::LoopVar(_)
            | Ex::Initial => {}
            Ex::Neg(a) | Ex::Not(a) => self.expression(inst, a, loops, into),
            Ex::Bin(_, a, b) | Ex::Rel(_, a, b, _) => {
                self.expression(inst, a, loops, into);
                self.expression(inst, b, loops, into);
            }
            Ex::Call(_, args) | Ex::User(_, args, _) => {
                for a in args {
                    self.expression(inst, a, loops, into);
                }
            }
            Ex::If(branches, otherwise) => {
                for (condition, value) in branches {
                    self.expression(inst, condition, loops, into);
                    self.expression(inst, value, loops, into);
                }
                self.expression(inst, otherwise, loops, into);
            }
            // Every element the reduction reads, for the instance's range.
            Ex::Reduce(_, depth, lo, hi, body) => {
                let mut inner = loops.to_vec();
                if inner.len() <= *depth {
                    inner.resize(*depth + 1, None);
                }
                match (
                    evaluate_integer(lo, &inst.ints, loops),
                    evaluate_integer(hi, &inst.ints, loops),
                ) {
                    (Some(lo), Some(hi)) => {
                        for i in lo..=hi {
                            inner[*depth] = Some(i);
                            self.expression(inst, body, &inner, into);
                        }
                    }
                    _ => self.expression(inst, body, &inner, into),
                }
            }
        }
    }
}

/// The union of two sorted lists without duplicates.
fn merge(a: &[u32], b: &[u32]) -> Vec<u32> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => {
                out.push(a[i]);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                out.push(b[j]);
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                out.push(a[i]);
                i += 1;
                j += 1;
            }
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

/// The value of an Integer expression (an index or a loop bound) for the
/// instance's Integer parameters and the current loop variables; `None`
/// when it reads a Real variable, an unknown loop variable, or overflows.
fn evaluate_integer(e: &Ex, ints: &[i64], loops: &[Option<i64>]) -> Option<i64> {
    match e {
        Ex::Int(i) => Some(*i),
        Ex::IntParam(k) => ints.get(*k).copied(),
        Ex::LoopVar(d) => loops.get(*d).copied().flatten(),
        Ex::Neg(a) => evaluate_integer(a, ints, loops)?.checked_neg(),
        Ex::Bin(op @ (Arith::Add | Arith::Sub | Arith::Mul), a, b) => {
            let (a, b) = (
                evaluate_integer(a, ints, loops)?,
                evaluate_integer(b, ints, loops)?,
            );
            match op {
                Arith::Add => a.checked_add(b),
                Arith::Sub => a.checked_sub(b),
                _ => a.checked_mul(b),
            }
        }
        // Anything else in integer position is truncated as the kernels
        // truncate it, when it can be folded without variables.
        other if !other.is_dynamic() && !reads_loop_variable(other) => {
            let value = other.fold(ints)?;
            (value.is_finite() && value.abs() < 9.0e15).then_some(value.trunc() as i64)
        }
        _ => None,
    }
}

fn reads_loop_variable(e: &Ex) -> bool {
    let mut found = false;
    e.visit(&mut |x| found |= matches!(x, Ex::LoopVar(_)));
    found
}

/// Knowns per element after the data flow has settled.
struct Propagated {
    role: Vec<Role>,
    deps: Vec<Vec<u32>>,
}

impl Propagated {
    /// How many knowns element `offset` depends on.
    fn size_of_element(&self, offset: usize) -> usize {
        match self.role.get(offset) {
            Some(Role::Known) => 1,
            Some(Role::Unknown) if self.deps[offset].last() == Some(&SATURATED) => usize::MAX,
            Some(Role::Unknown) => self.deps[offset].len(),
            _ => 0,
        }
    }

    /// The knowns element `offset` depends on (itself if it is a known).
    fn of_element(&self, offset: usize) -> Vec<usize> {
        match self.role.get(offset) {
            Some(Role::Known) => vec![offset],
            Some(Role::Unknown) => self.deps[offset].iter().map(|&k| k as usize).collect(),
            _ => Vec::new(),
        }
    }
}

fn role(kind: RealKind, mode: Mode) -> Role {
    match kind {
        RealKind::Time | RealKind::Input | RealKind::State => Role::Known,
        RealKind::StateCalculated if mode == Mode::Continuous => Role::Known,
        RealKind::Parameter if mode == Mode::Initialization => Role::Known,
        RealKind::Constant => Role::Fixed,
        RealKind::Parameter | RealKind::CalculatedParameter if mode == Mode::Continuous => {
            Role::Fixed
        }
        _ => Role::Unknown,
    }
}

/// Runs the parameter bindings (in initialization), the schedule and the
/// linear-response solve as a data flow over sets of knowns until nothing
/// changes. Every pass only adds, so this ends; the schedule is in
/// dependency order, so it usually settles after the first pass and the
/// second confirms it.
fn propagate(sys: &System, schedule: &Schedule, extents: &Extents, mode: Mode) -> Propagated {
    // Offsets are stored as `u32`; `R` is far below that limit (the layout
    // refuses models whose tables would not fit a 32-bit value reference).
    assert!(
        u32::try_from(sys.reals.len()).is_ok(),
        "more Real variables than 32-bit value references can name"
    );
    let mut a = Analysis {
        extents,
        role: sys.reals.iter().map(|r| role(r.kind, mode)).collect(),
        deps: vec![Vec::new(); sys.reals.len()],
        changed: true,
        scratch: Vec::new(),
    };
    let mut loops = Vec::new();
    while a.changed {
        a.changed = false;
        if mode == Mode::Initialization {
            for inst in &sys.instances {
                let class = &sys.classes[inst.class].causalized.causal;
                for stmt in class.parameter_stmts.iter().chain(&class.start_stmts) {
                    a.statement(inst, stmt, &mut loops);
                }
            }
        }
        for step in &schedule.steps {
            match step {
                Step::Block { instance, block } => {
                    let inst = &sys.instances[*instance];
                    let class = &sys.classes[inst.class].causalized.causal;
                    for stmt in &class.blocks[*block].stmts {
                        a.statement(inst, stmt, &mut loops);
                    }
                }
                Step::Copy(copy) => {
                    // Element e of the target is a signed sum of element e
                    // of every source.
                    for e in 0..copy.len.max(1) {
                        let mut knowns = Vec::new();
                        for (source, _) in &copy.sources {
                            a.read(source + e, &mut knowns);
                        }
                        knowns.sort_unstable();
                        knowns.dedup();
                        a.write(copy.target + e, &knowns);
                    }
                }
            }
        }
        // The balances are chosen so that all residuals vanish together.
        let mut residuals = Vec::new();
        for b in &sys.balances {
            a.read(b.residual, &mut residuals);
        }
        residuals.sort_unstable();
        residuals.dedup();
        for b in &sys.balances {
            a.write(b.balance, &residuals);
        }
    }
    Propagated {
        role: a.role,
        deps: a.deps,
    }
}
