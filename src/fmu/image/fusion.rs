//! Fused repeats: consecutive units of a rolled-up schedule (a repeat with
//! its body, or one block or copy) that the runtime runs as one loop over
//! rounds instead of one pass per unit over all its rounds, so that one
//! right-hand side walks an array of components once, a tile of elements
//! at a time, while their variables are in the cache.
//!
//! Unit `u` runs its round `r` in the fused round `r + skew[u]`; within one
//! fused round (and within one tile of fused rounds) the units run in their
//! schedule order. That is the schedule's result, bit for bit, when no round
//! of a later unit touches a variable that a round of an earlier unit
//! touches (one of them writing it) in an earlier fused round. [`fuse`]
//! finds the smallest skews with that property in one pass over the
//! schedule: a conductor that reads its left neighbour's temperature runs
//! in the same fused round as the copy that wrote it, a flow balance that
//! reads its right neighbour's flow one round later (skewed by one
//! element). The property holds whatever the runtime's tile, so the tile
//! is the runtime's choice.
//!
//! Conflicts are found per variable (every element of an array counts as
//! its whole variable, as in the schedule's ordering), which is
//! conservative: it can only make skews larger, never wrong.

use super::system_image::{u32_of, StepRecord};

/// No round has touched the variable yet.
const NONE: u32 = u32::MAX;

/// A unit of the schedule: the steps `at .. at + len` (a repeat and its
/// body, or one block or copy) and how many rounds it runs.
#[derive(Debug, Clone, Copy)]
struct Unit {
    at: usize,
    len: usize,
    rounds: u32,
}

/// Calls its function on every real a block of an instance (the first two
/// arguments) reads (`false`) or writes (`true`).
pub type BlockAccesses<'a> = Box<dyn Fn(u32, u32, &mut dyn FnMut(usize, bool)) + 'a>;

/// What the fusion needs to know about the model: the variable each real
/// belongs to (its first element), and what a block of an instance reads
/// and writes.
pub struct Accesses<'a> {
    /// `base[r]`: the first real of the variable real `r` belongs to.
    pub base: Vec<u32>,
    /// Calls the function on every real block `block` of instance
    /// `instance` reads (`false`) or writes (`true`).
    pub block: BlockAccesses<'a>,
}

/// The schedule with every run of units between time steps that holds at
/// least two repeats preceded by a fused step ([`StepRecord::Fuse`]) that
/// gives each unit its skew. Steps and their order are unchanged.
pub fn fuse(steps: Vec<StepRecord>, accesses: &Accesses) -> Vec<StepRecord> {
    let units = units(&steps);
    let mut out = Vec::with_capacity(steps.len() + 1);
    let mut times = Times::default();
    let mut group: Vec<Unit> = Vec::new();
    let flush = |group: &mut Vec<Unit>, out: &mut Vec<StepRecord>, times: &mut Times| {
        let repeats = group.iter().filter(|u| u.len > 1).count();
        if repeats >= 2 {
            if let Some(skews) = skews(&steps, group, accesses, times) {
                out.push(StepRecord::Fuse { skews });
            }
        }
        for u in group.drain(..) {
            out.extend_from_slice(&steps[u.at..u.at + u.len]);
        }
    };
    for u in units {
        if matches!(steps[u.at], StepRecord::Time { .. }) {
            flush(&mut group, &mut out, &mut times);
            out.push(steps[u.at].clone());
        } else {
            group.push(u);
        }
    }
    flush(&mut group, &mut out, &mut times);
    out
}

/// The schedule's units in order; a time step is a unit of its own.
fn units(steps: &[StepRecord]) -> Vec<Unit> {
    let mut units = Vec::new();
    let mut at = 0;
    while at < steps.len() {
        let (len, rounds) = match &steps[at] {
            StepRecord::Repeat { count, body } => (1 + *body as usize, *count),
            _ => (1, 1),
        };
        units.push(Unit { at, len, rounds });
        at += len;
    }
    units
}

/// The fused round in which each variable was last written and last read
/// (indexed by its first real), and the variables touched, to forget them
/// after a group.
#[derive(Default)]
struct Times {
    written: Vec<u32>,
    read: Vec<u32>,
    touched: Vec<u32>,
}

impl Times {
    fn forget(&mut self) {
        for &v in &self.touched {
            self.written[v as usize] = NONE;
            self.read[v as usize] = NONE;
        }
        self.touched.clear();
    }
}

/// The smallest skews of a group's units (see the module's comment), or
/// `None` when a fused round would not fit 32 bits.
fn skews(
    steps: &[StepRecord],
    group: &[Unit],
    accesses: &Accesses,
    times: &mut Times,
) -> Option<Vec<u32>> {
    if times.written.is_empty() {
        times.written = vec![NONE; accesses.base.len()];
        times.read = vec![NONE; accesses.base.len()];
    }
    let mut skews = Vec::with_capacity(group.len());
    let mut fits = true;
    for u in group {
        // The earliest fused round each of the unit's accesses may run in,
        // less its own round: the skew is the largest of them.
        let mut skew: u64 = 0;
        for_each_access(steps, *u, accesses, &mut |round, v, write| {
            let w = times.written[v];
            let mut after = if w == NONE { 0 } else { u64::from(w) };
            if write {
                let r = times.read[v];
                if r != NONE {
                    after = after.max(u64::from(r));
                }
            }
            skew = skew.max(after.saturating_sub(u64::from(round)));
        });
        if skew + u64::from(u.rounds) >= u64::from(NONE) {
            fits = false;
            break;
        }
        let skew = skew as u32;
        for_each_access(steps, *u, accesses, &mut |round, v, write| {
            let t = round + skew;
            let slot = if write {
                &mut times.written[v]
            } else {
                &mut times.read[v]
            };
            if *slot == NONE {
                *slot = t;
                times.touched.push(u32_of(v));
            } else {
                *slot = (*slot).max(t);
            }
        });
        skews.push(skew);
    }
    times.forget();
    fits.then_some(skews)
}

/// Calls `f(round, variable, writes)` for every real every round of a unit
/// reads or writes, the variable by its first real.
fn for_each_access(
    steps: &[StepRecord],
    u: Unit,
    accesses: &Accesses,
    f: &mut dyn FnMut(u32, usize, bool),
) {
    let body = if u.len > 1 {
        &steps[u.at + 1..u.at + u.len]
    } else {
        &steps[u.at..u.at + 1]
    };
    for round in 0..u.rounds {
        for step in body {
            step_accesses(step, round, accesses, &mut |v, write| f(round, v, write));
        }
    }
}

/// Calls `f(variable, writes)` for every real a block or copy reads or
/// writes in round `round` of its repeat (0 outside one), the variable by
/// its first real.
pub(super) fn step_accesses(
    step: &StepRecord,
    round: u32,
    accesses: &Accesses,
    f: &mut dyn FnMut(usize, bool),
) {
    let at = |offset: u32, stride: i32| -> usize {
        let r = i64::from(offset) + i64::from(stride) * i64::from(round);
        usize::try_from(r).expect("the schedule's offsets lie in R")
    };
    match step {
        StepRecord::Block {
            instance,
            stride,
            block,
        } => {
            let instance = u32_of(at(*instance, *stride));
            (accesses.block)(instance, *block, &mut |r, write| {
                f(accesses.base[r] as usize, write);
            });
        }
        StepRecord::Copy {
            target,
            stride,
            len,
            sources,
            ..
        } => {
            for s in sources {
                let o = at(s.offset, s.stride);
                for e in 0..*len as usize {
                    f(accesses.base[o + e] as usize, false);
                }
            }
            let t = at(*target, *stride);
            for e in 0..*len as usize {
                f(accesses.base[t + e] as usize, true);
            }
        }
        StepRecord::Time { .. } | StepRecord::Repeat { .. } | StepRecord::Fuse { .. } => {
            unreachable!("a unit's body holds blocks and copies")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fmu::image::system_image::{roll_up, shares_nothing, Source};

    /// Acc4's chain in miniature: a source, `n` conductors and `n`
    /// capacitors, their reals, blocks and connection copies.
    struct Chain {
        n: u32,
    }

    impl Chain {
        fn link(&self, i: u32) -> u32 {
            3 + 5 * i // port_a.T, port_a.Q_flow, port_b.T, port_b.Q_flow, Q_flow
        }
        fn cap(&self, i: u32) -> u32 {
            3 + 5 * self.n + 4 * i // T, der(T), port.T, port.Q_flow
        }
        fn n_reals(&self) -> usize {
            (3 + 9 * self.n) as usize
        }
        /// Instance 0 is the source, 1..=n the conductors, n+1..=2n the
        /// capacitors.
        fn class_of(&self, instance: u32) -> u32 {
            match instance {
                0 => 0,
                i if i <= self.n => 1,
                _ => 2,
            }
        }
        /// What block `block` of `instance` reads (false) and writes (true).
        fn block(&self, instance: u32, block: u32) -> Vec<(usize, bool)> {
            let v = |r: u32, w: bool| (r as usize, w);
            match (self.class_of(instance), block) {
                (0, _) => vec![v(1, true)],
                (1, _) => {
                    let l = self.link(instance - 1);
                    vec![
                        v(l, false),
                        v(l + 2, false),
                        v(l + 4, true),
                        v(l + 1, true),
                        v(l + 3, true),
                    ]
                }
                (_, 0) => {
                    let c = self.cap(instance - 1 - self.n);
                    vec![v(c, false), v(c + 2, true)]
                }
                (_, _) => {
                    let c = self.cap(instance - 1 - self.n);
                    vec![v(c + 3, false), v(c + 1, true)]
                }
            }
        }
        /// The plain schedule in waves, as `crate::schedule` orders it.
        fn plain(&self) -> Vec<StepRecord> {
            let n = self.n;
            let block = |instance: u32, block: u32| StepRecord::Block {
                instance,
                stride: 0,
                block,
            };
            let copy = |target: u32, sources: &[u32]| StepRecord::Copy {
                target,
                stride: 0,
                len: 1,
                coefficient: -1.0,
                sources: sources
                    .iter()
                    .map(|&offset| Source {
                        offset,
                        stride: 0,
                        negative: false,
                    })
                    .collect(),
            };
            let mut s = vec![StepRecord::Time { target: 0 }, block(0, 0)];
            s.extend((0..n).map(|i| block(n + 1 + i, 0)));
            s.push(copy(self.link(0), &[1]));
            for i in 0..n {
                s.push(copy(self.link(i) + 2, &[self.cap(i) + 2]));
                if i + 1 < n {
                    s.push(copy(self.link(i + 1), &[self.cap(i) + 2]));
                }
            }
            s.extend((0..n).map(|i| block(1 + i, 0)));
            s.push(copy(2, &[self.link(0) + 1]));
            for i in 0..n {
                if i + 1 < n {
                    s.push(copy(
                        self.cap(i) + 3,
                        &[self.link(i) + 3, self.link(i + 1) + 1],
                    ));
                } else {
                    s.push(copy(self.cap(i) + 3, &[self.link(i) + 3]));
                }
            }
            s.extend((0..n).map(|i| block(n + 1 + i, 1)));
            s
        }
        fn accesses(&self) -> Accesses<'_> {
            Accesses {
                base: (0..self.n_reals()).map(u32_of).collect(),
                block: Box::new(|instance, block, f: &mut dyn FnMut(usize, bool)| {
                    for (r, w) in self.block(instance, block) {
                        f(r, w);
                    }
                }),
            }
        }
    }

    fn mix(a: u64, b: u64) -> u64 {
        (a ^ b).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(23)
    }

    /// Runs one step in round `r`: every value it writes becomes a hash of
    /// what it reads and of the step, so any change of order shows.
    fn run_step(chain: &Chain, step: &StepRecord, r: i64, x: &mut [u64]) {
        let at = |o: u32, s: i32| (i64::from(o) + r * i64::from(s)) as usize;
        match step {
            StepRecord::Block {
                instance,
                stride,
                block,
            } => {
                let instance = at(*instance, *stride) as u32;
                let mut h = mix(u64::from(instance), u64::from(*block));
                for (v, w) in chain.block(instance, *block) {
                    if w {
                        h = mix(h, 1);
                        x[v] = h;
                    } else {
                        h = mix(h, x[v]);
                    }
                }
            }
            StepRecord::Copy {
                target,
                stride,
                sources,
                ..
            } => {
                let mut h = 7;
                for s in sources {
                    h = mix(h, x[at(s.offset, s.stride)]);
                }
                x[at(*target, *stride)] = h;
            }
            StepRecord::Time { target } => x[*target as usize] = 11,
            _ => unreachable!(),
        }
    }

    /// Runs a unit's rounds `lo .. hi`; returns the steps it spans.
    fn run_unit(chain: &Chain, steps: &[StepRecord], lo: u32, hi: u32, x: &mut [u64]) -> usize {
        match &steps[0] {
            StepRecord::Repeat { body, .. } => {
                for r in lo..hi {
                    for st in &steps[1..=*body as usize] {
                        run_step(chain, st, i64::from(r), x);
                    }
                }
                1 + *body as usize
            }
            st => {
                if lo < hi {
                    run_step(chain, st, 0, x);
                }
                1
            }
        }
    }

    /// Runs a schedule as the runtime does, fused loops `tile` rounds at a
    /// time (`templates/mofmu_schedule.inc`, run_fused).
    fn run(chain: &Chain, steps: &[StepRecord], tile: u32) -> Vec<u64> {
        let mut x = vec![0u64; chain.n_reals()];
        let mut at = 0;
        while at < steps.len() {
            if let StepRecord::Fuse { skews } = &steps[at] {
                let spans: Vec<(usize, u32)> = {
                    let mut j = at + 1;
                    skews
                        .iter()
                        .map(|_| {
                            let rounds = match steps[j] {
                                StepRecord::Repeat { count, .. } => count,
                                _ => 1,
                            };
                            let u = (j, rounds);
                            j += units(&steps[j..])[0].len;
                            u
                        })
                        .collect()
                };
                let total = spans
                    .iter()
                    .zip(skews)
                    .map(|((_, c), s)| c + s)
                    .max()
                    .unwrap();
                let mut t0 = 0;
                while t0 < total {
                    for ((j, count), &s) in spans.iter().zip(skews) {
                        let lo = t0.saturating_sub(s);
                        let hi = (t0 + tile).saturating_sub(s).min(*count);
                        run_unit(chain, &steps[*j..], lo, hi, &mut x);
                    }
                    t0 += tile;
                }
                let last = spans.last().unwrap().0;
                at = last + units(&steps[last..])[0].len;
            } else {
                let rounds = match steps[at] {
                    StepRecord::Repeat { count, .. } => count,
                    _ => 1,
                };
                at += run_unit(chain, &steps[at..], 0, rounds, &mut x);
            }
        }
        x
    }

    #[test]
    fn a_chain_fuses_with_its_balances_one_element_behind() {
        let chain = Chain { n: 7 };
        let rolled = roll_up(chain.plain(), &|i| chain.class_of(i), &shares_nothing);
        let fused = fuse(rolled.clone(), &chain.accesses());
        let Some(StepRecord::Fuse { skews }) = fused.get(1) else {
            panic!("the chain's units are fused: {fused:?}");
        };
        assert_eq!(fused[2..], rolled[1..], "steps and order unchanged");
        // Units: source, capacitors' temperatures, copy to link[1], the
        // copies of the temperatures, the last one, conductors, copy to the
        // source, balances, the last balance, capacitors' derivatives.
        assert_eq!(skews, &[0, 0, 0, 0, 6, 0, 0, 1, 6, 1]);
    }

    #[test]
    fn fused_loops_compute_what_the_plain_schedule_computes() {
        for n in [3, 4, 7, 20] {
            let chain = Chain { n };
            let plain = chain.plain();
            let expected = run(&chain, &plain, 1);
            let fused = fuse(
                roll_up(plain, &|i| chain.class_of(i), &shares_nothing),
                &chain.accesses(),
            );
            assert!(fused.iter().any(|s| matches!(s, StepRecord::Fuse { .. })));
            for tile in [1, 2, 3, 5, 128] {
                assert_eq!(run(&chain, &fused, tile), expected, "n={n}, tile={tile}");
            }
        }
    }

    #[test]
    fn a_schedule_without_two_repeats_is_left_alone() {
        let chain = Chain { n: 2 };
        let rolled = roll_up(chain.plain(), &|i| chain.class_of(i), &shares_nothing);
        assert!(!rolled
            .iter()
            .any(|s| matches!(s, StepRecord::Repeat { .. })));
        assert_eq!(fuse(rolled.clone(), &chain.accesses()), rolled);
    }
}
