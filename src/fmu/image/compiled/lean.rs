//! Lean evaluations: the stores an inlined loop may leave out when all that
//! is wanted of an evaluation are the derivatives.
//!
//! `fmi2GetDerivatives` and `fmi2GetEventIndicators` in continuous time want
//! the derivatives, the event indicators and what the runtime checks of the
//! evaluation (outputs, residuals); after such an evaluation the values are
//! `VALID_LEAN` (`templates/mofmu_runtime.h`), and any other getter
//! evaluates again. In such an evaluation a store to `R` counts only if
//! something reads it back from `R` before the evaluation ends: a step that
//! does not get the value in a local, a tangent pass of the tearing solve,
//! or the runtime (a residual; states, derivatives, outputs and every other
//! real that is not a local are never left out). In a chain of components
//! most stores are of values the next element takes in a local
//! ([`crate::fmu::image::forwarding`]): in the cooling loop, a cell's inertial
//! pressure, its flow and its acceleration, handed on from cell to cell,
//! and in the tearing matrix's passes every tangent of the cells.
//!
//! So the analysis ([`Gen::lean_reads`]) notes, for every real, which units
//! read it from `R` (in the tangent passes, from the column) in such an
//! evaluation, over every round and every pass that runs; a store of an
//! inlined loop ([`Site`]) may be left out when no unit reads its real in
//! any round but the last, and its own unit not in the last either
//! ([`Gen::lean_sites`]). The loop then stores its last round's values after
//! it ends: the next tile starts from them, and a step after the repeat (the
//! end of the chain) reads them. A single copy whose target no one reads is
//! left out too, and then what only it read ([`Gen::lean_analysis`]).
//!
//! A fused loop whose repeats a tile runs as one loop ([`Gen::rounds_fn`])
//! hands values from unit to unit in locals; the analysis runs once more
//! with those repeats as one reader ([`Gen::all_rounds_sites`]), and the one
//! loop's lean function leaves out what only its locals read. It too stores
//! each unit's last round of the tile after the loop: a local holds one
//! value, so the next tile, which the units' own functions may run, reads
//! at most the previous pass's value from `R`.
//!
//! The generated unit runs the lean functions only when the runtime asks
//! for them (`mofmu_ctx.lean`), on the system the unit was generated for
//! (`mofmu_system.lean_ok`). The arithmetic is the same: the derivatives
//! are the same bits, and every other getter sees a full evaluation.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use super::{Gen, LeanInputs, Mode, Rounds, Site};
use crate::fmu::image::forwarding::Forwarding;
use crate::fmu::image::system_image::{held_until, pass, StepRecord};

/// `read_by` of a real no unit reads from `R`.
const NONE: u32 = u32::MAX;
/// `read_by` of a real that more than one unit reads, or that is never left
/// out (not a local, or read by the runtime).
const MANY: u32 = u32::MAX - 1;
/// The reader of a step that is not in a repeat, and of a tangent pass.
const OUTSIDE: u32 = u32::MAX - 2;

impl Gen<'_> {
    /// Per real, the unit that reads it from `R` (`mode` values) or from
    /// the tangent column (`mode` tangents, in the tearing matrix's passes)
    /// in a lean evaluation: a repeat's head step, [`OUTSIDE`], [`MANY`] or
    /// [`NONE`]. With `rounds`, the repeats of a fused loop whose tiles run
    /// them as one loop ([`Gen::rounds_fn`]) are one reader (the fused
    /// loop's step), whose reads the locals handed from unit to unit serve.
    pub(super) fn lean_reads(
        &self,
        inputs: &LeanInputs,
        mode: Mode,
        dead: &BTreeSet<usize>,
        rounds: bool,
    ) -> Vec<u32> {
        let mut by: Vec<u32> = (0..inputs.n_reals)
            .map(|r| if (inputs.local)(r) { NONE } else { MANY })
            .collect();
        for &r in inputs.runtime {
            if let Some(b) = by.get_mut(r as usize) {
                *b = MANY;
            }
        }
        let mut fuse_end = 0;
        // The repeats noted as one loop's.
        let mut joined = BTreeSet::new();
        let mut at = 0;
        while at < self.steps.len() {
            match &self.steps[at] {
                StepRecord::Fuse { .. } => {
                    fuse_end = held_until(self.steps, at).unwrap_or(at + 1);
                    if let Some(plan) = rounds.then(|| self.rounds_plan(at)).flatten() {
                        let fw = self.rounds_links(&plan, mode);
                        let body = plan.body();
                        let run = Run {
                            unit: u32::try_from(at).unwrap_or(OUTSIDE),
                            body: &body,
                            count: &|j| plan.count(j),
                            fw: Some(&fw),
                        };
                        self.note_reads(&mut by, &run, inputs.balances, mode);
                        joined.extend(plan.repeats.iter().map(|u| u.1));
                    }
                    at += 1;
                }
                StepRecord::Time { .. } => at += 1,
                StepRecord::Repeat { body, .. } if joined.contains(&at) => {
                    at += 1 + *body as usize;
                }
                StepRecord::Repeat { count, body } => {
                    let steps: Vec<usize> = (at + 1..at + 1 + *body as usize).collect();
                    let fw = (at < fuse_end && self.inlined(&steps))
                        .then(|| self.repeat_links(&steps, mode));
                    let unit = u32::try_from(at).unwrap_or(OUTSIDE);
                    let run = Run {
                        unit,
                        body: &steps,
                        count: &|_| *count,
                        fw: fw.as_ref(),
                    };
                    self.note_reads(&mut by, &run, inputs.balances, mode);
                    at += 1 + *body as usize;
                }
                _ if dead.contains(&at) => at += 1,
                _ => {
                    let run = Run {
                        unit: OUTSIDE,
                        body: &[at],
                        count: &|_| 1,
                        fw: None,
                    };
                    self.note_reads(&mut by, &run, inputs.balances, mode);
                    at += 1;
                }
            }
        }
        by
    }

    /// [`Self::lean_reads`] with the single copies a lean evaluation
    /// leaves out (their targets unread, so their sources go unread too:
    /// the ambient's sum of every cell's heat flow), found until none more
    /// is: the reads and the copies, which agree.
    pub(super) fn lean_analysis(
        &self,
        inputs: &LeanInputs,
        mode: Mode,
    ) -> (Vec<u32>, BTreeSet<usize>) {
        let mut dead = BTreeSet::new();
        for _ in 0..8 {
            let by = self.lean_reads(inputs, mode, &dead, false);
            let found = self.dead_copies(&by);
            if found == dead {
                return (by, dead);
            }
            dead = found;
        }
        (
            self.lean_reads(inputs, mode, &BTreeSet::new(), false),
            BTreeSet::new(),
        )
    }

    /// The copies outside repeats whose every target real no one reads
    /// (`by`).
    fn dead_copies(&self, by: &[u32]) -> BTreeSet<usize> {
        let mut dead = BTreeSet::new();
        let mut at = 0;
        while at < self.steps.len() {
            match &self.steps[at] {
                StepRecord::Repeat { body, .. } => at += 1 + *body as usize,
                StepRecord::Copy { target, len, .. } => {
                    let t = *target as usize;
                    if (t..t + *len as usize).all(|v| by.get(v) == Some(&NONE)) {
                        dead.insert(at);
                    }
                    at += 1;
                }
                _ => at += 1,
            }
        }
        dead
    }

    /// The stores each inlined repeat unit of a fused loop leaves out in a
    /// lean evaluation, in values and in tangents (found once: the unit's
    /// two functions, the one-tile sequence and the tables all ask).
    pub(super) fn all_lean_sites(&self) -> BTreeMap<(usize, bool), BTreeSet<Site>> {
        let mut all = BTreeMap::new();
        let mut fuse_end = 0;
        for (at, step) in self.steps.iter().enumerate() {
            match step {
                StepRecord::Fuse { .. } => {
                    fuse_end = held_until(self.steps, at).unwrap_or(at + 1);
                }
                StepRecord::Repeat { body, .. } if at < fuse_end => {
                    let body: Vec<usize> = (at + 1..at + 1 + *body as usize).collect();
                    if !self.inlined(&body) {
                        continue;
                    }
                    for mode in [Mode::Value, Mode::Tangent] {
                        let fw = self.repeat_links(&body, mode);
                        let sites = self.lean_sites(at, &body, &fw, mode);
                        if !sites.is_empty() {
                            all.insert((at, mode == Mode::Value), sites);
                        }
                    }
                }
                _ => {}
            }
        }
        all
    }

    /// The stores fused repeat unit `head` leaves out in a lean evaluation
    /// in `mode` (none: it has no lean function).
    pub(super) fn unit_sites(&self, head: usize, mode: Mode) -> &BTreeSet<Site> {
        static NONE_LEFT_OUT: BTreeSet<Site> = BTreeSet::new();
        self.sites
            .get(&(head, mode == Mode::Value))
            .unwrap_or(&NONE_LEFT_OUT)
    }

    /// Whether a lean evaluation in `mode` leaves out single step `at`.
    pub(super) fn lean_skips(&self, at: usize, mode: Mode) -> bool {
        match mode {
            Mode::Value => self.dead.contains(&at),
            Mode::Tangent => self.dead_tangent.contains(&at),
        }
    }

    /// Whether pass `p` of an evaluation runs step `j`.
    fn runs(&self, j: usize, p: u8, balances: bool) -> bool {
        !balances || self.passes.get(j).copied().unwrap_or(pass::ALL) & p != 0
    }

    /// Notes the reads of every step of `run` in every round, in the passes
    /// of a lean evaluation in `mode`: from `R` in the first and the final
    /// pass (one whole pass without declared tearing), and what the tearing
    /// matrix's tangent passes read of the values; from the column in
    /// those tangent passes.
    fn note_reads(&self, by: &mut [u32], run: &Run, balances: bool, mode: Mode) {
        let value_passes: &[u8] = match (mode, balances) {
            (Mode::Value, true) => &[pass::FIRST, pass::REACHED],
            (Mode::Value, false) => &[pass::ALL],
            (Mode::Tangent, _) => &[pass::COLUMNS],
        };
        // A read of a real reads its whole variable (a block reads an
        // array through its first element's slot).
        let bases = self.bases;
        let mut note = |v: Option<i64>, unit: u32| {
            let Some(v) = v.and_then(|v| usize::try_from(v).ok()) else {
                return;
            };
            let Some(&first) = bases.get(v) else {
                return;
            };
            let mut r = first as usize;
            while bases.get(r) == Some(&first) {
                let b = &mut by[r];
                *b = if *b == NONE || *b == unit { unit } else { MANY };
                r += 1;
            }
        };
        // The notes do not depend on the order: a step's rounds are taken
        // one after the other.
        for &k in run.body {
            for round in 0..i64::from((run.count)(k)) {
                let ran = value_passes.iter().any(|&p| self.runs(k, p, balances));
                // A read the local of a writer of this loop serves, in
                // every pass that runs the reader, from a round of this
                // tile (a tile's first round starts from `R`, which the
                // last tile's stores after its loop hold).
                let served = |w: usize, wr: i64| {
                    (0..i64::from((run.count)(w))).contains(&(round + wr))
                        && value_passes
                            .iter()
                            .all(|&p| !self.runs(k, p, balances) || self.runs(w, p, balances))
                };
                match &self.steps[k] {
                    StepRecord::Block {
                        instance,
                        stride,
                        block,
                    } => {
                        let inst = i64::from(*instance) + i64::from(*stride) * round;
                        let Ok(inst) = u32::try_from(inst) else {
                            continue;
                        };
                        let class = (self.class_of)(inst);
                        let place = |s: usize| (self.place)(inst, s);
                        // A slot the block assigns as a whole before it
                        // reads it (a model's equations have no algorithm)
                        // is not read from the array.
                        let element = self.inline_element(k);
                        let internal = |s: usize| element.is_some_and(|e| e.writes.contains(&s));
                        if ran {
                            (self.block_slots)(class, *block, &mut |s, write| {
                                let local = run
                                    .fw
                                    .and_then(|f| writer_of(f, k, s))
                                    .is_some_and(|(w, wr)| served(w, wr));
                                if !write && !local && !internal(s) {
                                    note(place(s), run.unit);
                                }
                            });
                        }
                        // A local the block reads but may not write is
                        // loaded from its slot before the block runs.
                        if let (Some(f), Some(e)) = (run.fw, self.inline_element(k)) {
                            for &(j, s) in &f.kept {
                                if j == k && !e.writes.contains(&s) {
                                    note(place(s), run.unit);
                                }
                            }
                        }
                        // A tangent pass of the tearing solve reads the
                        // values its blocks' tangents take.
                        if mode == Mode::Value
                            && balances
                            && self.passes.get(k).copied().unwrap_or(pass::ALL) & pass::COLUMNS != 0
                        {
                            match self.inline_element(k) {
                                Some(e) => e
                                    .tangent_values
                                    .iter()
                                    .for_each(|&s| note(place(s), OUTSIDE)),
                                None => (self.block_slots)(class, *block, &mut |s, _| {
                                    note(place(s), OUTSIDE)
                                }),
                            }
                        }
                    }
                    StepRecord::Copy { len, sources, .. } => {
                        if !ran {
                            continue;
                        }
                        for (i, src) in sources.iter().enumerate() {
                            let local = *len == 1
                                && run
                                    .fw
                                    .and_then(|f| f.sources.get(&(k, i)))
                                    .is_some_and(|l| served(l.block, l.rounds));
                            if local {
                                continue;
                            }
                            let from = i64::from(src.offset) + i64::from(src.stride) * round;
                            for e in 0..i64::from(*len) {
                                note(Some(from + e), run.unit);
                            }
                        }
                    }
                    StepRecord::Time { .. }
                    | StepRecord::Repeat { .. }
                    | StepRecord::Fuse { .. } => {}
                }
            }
        }
    }

    /// The stores of inlined repeat `head` (steps `body`, links `fw`) that
    /// a lean evaluation leaves out (see the module's comment).
    pub(super) fn lean_sites(
        &self,
        head: usize,
        body: &[usize],
        fw: &Forwarding,
        mode: Mode,
    ) -> BTreeSet<Site> {
        let read_by = match mode {
            Mode::Value => &self.read_by,
            Mode::Tangent => &self.read_by_tangent,
        };
        let StepRecord::Repeat { count, .. } = self.steps[head] else {
            return BTreeSet::new();
        };
        let unit = u32::try_from(head).unwrap_or(OUTSIDE);
        self.sites_of(unit, body, &|_| count, fw, mode, read_by)
    }

    /// Per fused loop whose tiles run its repeats as one loop and mode, the
    /// stores that loop leaves out in a lean evaluation: a value handed to
    /// the next unit in a local need not reach `R` but in a tile's last
    /// round, which the loop stores after it ends (the next tile, which the
    /// units' own functions may run, reads it from `R`, one pass later at
    /// most: a local holds one value).
    pub(super) fn all_rounds_sites(
        &self,
        inputs: &LeanInputs,
    ) -> BTreeMap<(usize, bool), BTreeSet<Site>> {
        let mut all = BTreeMap::new();
        let plans: Vec<(usize, Rounds)> = (0..self.steps.len())
            .filter_map(|at| self.rounds_plan(at).map(|p| (at, p)))
            .collect();
        if plans.is_empty() || self.read_by.is_empty() {
            return all;
        }
        for mode in [Mode::Value, Mode::Tangent] {
            let dead = match mode {
                Mode::Value => &self.dead,
                Mode::Tangent if inputs.balances => &self.dead_tangent,
                Mode::Tangent => continue,
            };
            let read_by = self.lean_reads(inputs, mode, dead, true);
            for (at, plan) in &plans {
                let fw = self.rounds_links(plan, mode);
                let unit = u32::try_from(*at).unwrap_or(OUTSIDE);
                let count = |j: usize| plan.count(j);
                let sites = self.sites_of(unit, &plan.body(), &count, &fw, mode, &read_by);
                if !sites.is_empty() {
                    all.insert((*at, mode == Mode::Value), sites);
                }
            }
        }
        all
    }

    /// The stores of the inlined loop of `body` (reader `unit` in
    /// `read_by`, each step's repeat of `count` rounds, links `fw`) that a
    /// lean evaluation leaves out.
    fn sites_of(
        &self,
        unit: u32,
        body: &[usize],
        count: &dyn Fn(usize) -> u32,
        fw: &Forwarding,
        mode: Mode,
        read_by: &[u32],
    ) -> BTreeSet<Site> {
        let mut sites = BTreeSet::new();
        if read_by.is_empty() {
            return sites;
        }
        let unread = |j: usize, real: &dyn Fn(i64) -> Option<i64>| {
            let count = i64::from(count(j));
            count > 0
                && (0..count).all(|r| {
                    let Some(v) = real(r).and_then(|v| usize::try_from(v).ok()) else {
                        return false;
                    };
                    // Only a scalar: a local holds one real.
                    let scalar = self.bases.get(v) == Some(&(v as u32))
                        && self.bases.get(v + 1) != Some(&(v as u32));
                    let Some(b) = read_by.get(v).filter(|_| scalar) else {
                        return false;
                    };
                    if r + 1 < count {
                        *b == NONE
                    } else {
                        *b != MANY && *b != unit
                    }
                })
        };
        for &(j, s) in &fw.kept {
            if body.contains(&j) && unread(j, &|r| self.block_real(j, s, r)) {
                sites.insert(Site::Kept(j, s));
            }
        }
        for &j in body {
            for (s, writes) in self.forwardable(j, mode) {
                if writes && !fw.local(j, s) && unread(j, &|r| self.block_real(j, s, r)) {
                    sites.insert(Site::Ptr(j, s));
                }
            }
        }
        for (&c, l) in &fw.targets {
            // After the loop the reader's local holds the last round's value
            // only if the reader block never writes that slot.
            if self.block_writes(l.block, l.slot) {
                continue;
            }
            let StepRecord::Copy {
                target,
                stride,
                len: 1,
                ..
            } = self.steps[c]
            else {
                continue;
            };
            let real = |r: i64| Some(i64::from(target) + i64::from(stride) * r);
            if unread(c, &real) {
                sites.insert(Site::Copy(c));
            }
        }
        sites
    }

    /// The real of slot `s` of block step `j` in round `r` of its repeat.
    fn block_real(&self, j: usize, s: usize, r: i64) -> Option<i64> {
        let StepRecord::Block {
            instance, stride, ..
        } = self.steps[j]
        else {
            return None;
        };
        let inst = u32::try_from(i64::from(instance) + i64::from(stride) * r).ok()?;
        (self.place)(inst, s)
    }

    /// Whether block step `j` writes its slot `s`.
    fn block_writes(&self, j: usize, s: usize) -> bool {
        let StepRecord::Block {
            instance, block, ..
        } = self.steps[j]
        else {
            return true;
        };
        let mut writes = false;
        (self.block_slots)((self.class_of)(instance), block, &mut |t, write| {
            writes |= write && t == s;
        });
        writes
    }

    /// Before a lean loop: the locals its blocks write instead of slots
    /// (`Ptr` sites).
    pub(super) fn lean_locals(&self, out: &mut String, sites: &BTreeSet<Site>) {
        for site in sites {
            if let Site::Ptr(j, s) = *site {
                out.push_str(&format!("    double y{j}_{s} = 0.0;\n"));
            }
        }
    }

    /// After a lean loop over rounds [lo, r): the last round's stores it
    /// left out (`sites`), where the pass runs their steps.
    pub(super) fn lean_stores(
        &self,
        out: &mut String,
        sites: &BTreeSet<Site>,
        fw: &Forwarding,
        mode: Mode,
        lo: &str,
    ) {
        let x = mode.copies();
        if sites.is_empty() {
            return;
        }
        let _ = writeln!(out, "    if (r > (ptrdiff_t){lo}) {{");
        for site in sites {
            let line = match *site {
                Site::Kept(j, s) => {
                    format!("if (on{j}) {x}[o{j}_{s} + (r - 1) * q{j}] = x{j}_{s};")
                }
                Site::Ptr(j, s) => {
                    format!("if (on{j}) {x}[o{j}_{s} + (r - 1) * q{j}] = y{j}_{s};")
                }
                Site::Copy(c) => match fw.targets.get(&c) {
                    Some(l) => {
                        format!("if (on{c}) t{c}[(r - 1) * b{c}] = x{}_{};", l.block, l.slot)
                    }
                    None => continue,
                },
            };
            out.push_str("        ");
            out.push_str(&line);
            out.push('\n');
        }
        out.push_str("    }\n");
    }
}

/// A repeat's body (or one step) as the analysis walks it.
struct Run<'a> {
    unit: u32,
    body: &'a [usize],
    /// The rounds of each step's repeat (one repeat's, or each unit's of a
    /// fused loop run as one loop).
    count: &'a dyn Fn(usize) -> u32,
    fw: Option<&'a Forwarding>,
}

/// The step whose local serves slot `s` of block step `k`, and its round
/// counted from `k`'s: a block it shares with, or a copy that feeds it.
fn writer_of(fw: &Forwarding, k: usize, s: usize) -> Option<(usize, i64)> {
    if let Some(l) = fw.shared.get(&(k, s)) {
        return Some((l.block, l.rounds));
    }
    fw.targets
        .iter()
        .find(|(_, l)| l.block == k && l.slot == s)
        .map(|(&c, l)| (c, -l.rounds))
}
